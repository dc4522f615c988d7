// The explorer through a restart of the real kube-apiserver (etcd keeps its
// data): the watches come back, a resourceVersion the new server's watch cache
// no longer has (410 Expired) relists — and the relist finds what was deleted
// while nobody watched —, and kinds RBAC refuses after the start (as while its
// cache fills) are retried with back-off, named in the header until watched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanupsAfter, realServerSkipReason, useRealServer, type RealServer } from './real-apiserver.js';
import { reseed } from './real-seed/index.js';
import { Tmux, hasTmux, shellQuote, wlxCommand } from './tmux.js';

const skip = realServerSkipReason() || (!hasTmux() && 'tmux is not installed');
const MERGE = 'application/merge-patch+json';
const ROLE = '/apis/rbac.authorization.k8s.io/v1/namespaces/training/roles/researchers-read-only';

function explorer(real: RealServer, extra = ''): Tmux {
  return new Tmux(wlxCommand(`--kubeconfig ${shellQuote(real.kubeconfig)} ${extra}`), 140, 40, 'wlx-real');
}

/** The row of `name` in the current table. */
function row(screen: string, name: string): string {
  return screen.split('\n').find((l) => new RegExp(`│\\S*\\s*${name}\\s`).test(l)) ?? '';
}

/** A kubelet's report: the pod's container restarted and is not ready. */
function crashed(container: string) {
  return {
    status: {
      conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }],
      containerStatuses: [
        {
          name: container,
          ready: false,
          restartCount: 1,
          image: 'nvcr.io/nvidia/pytorch:24.05-py3',
          imageID: '',
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
        },
      ],
    },
  };
}

describe('the explorer through a kube-apiserver restart', { skip }, () => {
  let real: RealServer;
  const cleanup = cleanupsAfter(after);
  before(async () => {
    real = await useRealServer(cleanup);
  });

  test(
    'one restart: the admin relists past 410 (a delete nobody saw is seen); the researcher, refused, is retried with back-off and told',
    { timeout: 240_000 },
    async () => {
      await reseed(real.admin);
      const role = (await real.admin.must<{ rules: unknown[] }>('GET', ROLE)).body;
      const restore = () => real.admin.must('PATCH', ROLE, { rules: role.rules }, MERGE);
      const admin = explorer(real);
      const researcher = explorer(real, '--context real-restricted');
      try {
        await admin.waitFor(/workloads\(all\)\[6\]/, 'the seeded workloads', 60_000);
        await researcher.waitFor(/workloads\(all\)\[3\]/, "the researcher's workloads", 60_000);
        await admin.waitFor(/Conn: live/, 'the live connection');
        // As in the seconds after a start while RBAC's informers fill, the researcher's reads will be refused
        // (start.sh creates the Role only when it is missing: the emptied one stays as it is).
        await real.admin.must('PATCH', ROLE, { rules: [] }, MERGE);
        let downAt = 0;
        await real.restartAround(async () => {
          downAt = Date.now();
          await admin.waitFor((s) => !/Conn: live/.test(s), 'the lost connection in the header', 20_000);
          // Gone from etcd while kube-apiserver is down: no watch event will ever say so.
          await real.etcdDelete('/registry/pods/research/notebook');
        });
        const upAt = Date.now();

        // The researcher first (its back-off grows while it waits): the kinds that were readable are
        // refused now; not watched, and said so.
        const refused = await researcher.waitFor(
          /not watched: [^\n]*pods/,
          'the kinds not watched in the header',
          60_000,
        );
        assert.match(refused, /not watched: [^\n]*jobsets/);
        // What was listed stays on screen meanwhile (refused now is not "gone").
        assert.match(refused, /llama-pretrain/);
        await restore();
        const restoredAt = Date.now();
        // The new server's watch cache starts after the resourceVersions wlx holds: its watches get
        // 410 Expired, and only a relist can find that the notebook pod is gone.
        const relisted = await admin.waitFor(
          (s) => /workloads\(all\)\[5\]/.test(s) && !row(s, 'notebook') && /Conn: live/.test(s),
          'the relist without the notebook',
          60_000,
        );
        const relistedMs = Date.now() - upAt;
        assert.doesNotMatch(relisted, /not watched/);

        await researcher.waitFor(
          (s) => !/not watched/.test(s) && /Conn: live/.test(s),
          'every kind watched again',
          // Back-off from 1 s doubling to 30 s: each kind's first retry after the Role is back comes within
          // 30 s (kinds back off on their own: some were refused since the start, at 16 or 30 s steps).
          45_000,
        );
        const backMs = Date.now() - restoredAt;

        // Both watch again: a change now is on both screens promptly.
        await real.admin.must(
          'PATCH',
          '/api/v1/namespaces/training/pods/bert-finetune-worker-0/status',
          crashed('pytorch'),
          MERGE,
        );
        for (const t of [admin, researcher])
          await t.waitFor(
            // The status word is the definition's (Running or Degraded); the pod's trouble is beside it.
            (s) => /\w+ \(OOMKilled\)\s+2\/3/.test(row(s, 'bert-finetune')),
            'a change after the restart',
            5_000,
          );
        process.stdout.write(
          `# restart: down ${upAt - downAt} ms; relisted ${relistedMs} ms after start.sh; ` +
            `refused kinds watched again ${backMs} ms after the Role got its rules back\n`,
        );
      } finally {
        admin.kill();
        researcher.kill();
        await restore();
      }
    },
  );
});
