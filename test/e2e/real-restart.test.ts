// The explorer through restarts of the real kube-apiserver (etcd keeps its
// data): the watches come back, a resourceVersion the new server's watch cache
// no longer has (410 Expired) relists — and the relist finds what was deleted
// while nobody watched —, and kinds RBAC refuses while its cache warms up are
// retried with back-off, named in the header until they are watched again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { realServerSkipReason, useRealServer, type RealServer } from './real-apiserver.js';
import { reseed } from './real-seed/index.js';
import { Tmux, hasTmux, shellQuote, wlxCommand } from './tmux.js';

const skip = realServerSkipReason() || (!hasTmux() && 'tmux is not installed');
const MERGE = 'application/merge-patch+json';
const BINDING = '/apis/rbac.authorization.k8s.io/v1/namespaces/training/rolebindings/researchers-read-only';

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

describe('the explorer through kube-apiserver restarts', { skip }, () => {
  let real: RealServer;
  before(async () => {
    real = await useRealServer(after);
  });

  test(
    'a restart: watches re-established, a too-old resourceVersion relists (a delete nobody saw is seen)',
    { timeout: 180_000 },
    async () => {
      await reseed(real.admin);
      const t = explorer(real);
      try {
        await t.waitFor(/workloads\(all\)\[6\]/, 'the seeded workloads', 60_000);
        await t.waitFor(/Conn: live/, 'the live connection');
        let downAt = 0;
        await real.restartAround(async () => {
          downAt = Date.now();
          await t.waitFor((s) => !/Conn: live/.test(s), 'the lost connection in the header', 20_000);
          // Gone from etcd while kube-apiserver is down: no watch event will ever say so.
          await real.etcdDelete('/registry/pods/research/notebook');
        });
        const upAt = Date.now();
        // The new server's watch cache starts after the resourceVersions wlx holds: its watches get
        // 410 Expired, and only a relist can find that the notebook pod is gone.
        let screen = await t.waitFor(
          (s) => /workloads\(all\)\[5\]/.test(s) && !row(s, 'notebook') && /Conn: live/.test(s),
          'the relist without the notebook',
          35_000,
        );
        assert.doesNotMatch(screen, /not watched/);
        // The watches run again: a change now is on screen promptly.
        await real.admin.must(
          'PATCH',
          '/api/v1/namespaces/training/pods/bert-finetune-worker-0/status',
          crashed('pytorch'),
          MERGE,
        );
        screen = await t.waitFor(
          (s) => /Running \(CrashLoopBackOff\)\s+2\/3/.test(row(s, 'bert-finetune')),
          'a change after the restart',
          5_000,
        );
        process.stdout.write(`# restart: down ${upAt - downAt} ms, relisted ${Date.now() - upAt} ms after start.sh\n`);
      } finally {
        t.kill();
      }
    },
  );

  test(
    'kinds RBAC refuses after a restart are retried with back-off and named in the header until watched',
    { timeout: 180_000 },
    async () => {
      await reseed(real.admin);
      const binding = (await real.admin.must<{ metadata: Record<string, unknown> }>('GET', BINDING)).body;
      const restore = async () => {
        const { name, namespace, labels, annotations } = binding.metadata;
        await real.admin.must(
          'POST',
          BINDING.slice(0, BINDING.lastIndexOf('/')),
          { ...binding, metadata: { name, namespace, labels, annotations } },
          undefined,
          [409],
        );
      };
      const t = explorer(real, '--context real-restricted');
      try {
        await t.waitFor(/workloads\(all\)\[3\]/, "the researcher's workloads", 60_000);
        // As in the seconds after a start while RBAC's informers sync: the researcher's reads are refused.
        await real.admin.must('DELETE', BINDING);
        await real.restart();
        let screen = await t.waitFor(/not watched: [^\n]*pods/, 'the kinds not watched in the header', 30_000);
        assert.match(screen, /not watched: [^\n]*jobsets/);
        // What was listed stays on screen meanwhile (not readable now is not "gone").
        assert.match(screen, /llama-pretrain/);
        await restore();
        const restoredAt = Date.now();
        screen = await t.waitFor(
          (s) => !/not watched/.test(s) && /Conn: live/.test(s),
          'every kind watched again',
          // Back-off from 1 s doubling: the retry after the binding is back comes within 16 s.
          20_000,
        );
        const back = Date.now() - restoredAt;
        await real.admin.must(
          'PATCH',
          '/api/v1/namespaces/training/pods/bert-finetune-worker-0/status',
          crashed('pytorch'),
          MERGE,
        );
        await t.waitFor(
          (s) => /Running \(CrashLoopBackOff\)\s+2\/3/.test(row(s, 'bert-finetune')),
          'a change once watched again',
          5_000,
        );
        process.stdout.write(`# forbidden kinds watched again ${back} ms after the RoleBinding came back\n`);
      } finally {
        t.kill();
        await restore();
      }
    },
  );
});
