// A fleet whose bad clusters are the real kube-apiserver's own refusals: the
// seeded cluster as admin (live), as the researcher (live, namespace
// training only), with a token the server does not know (401: unauthorized)
// and as a ServiceAccount no RBAC rule grants anything (403 on every list:
// forbidden). `wlx get -o json` lists each with its state and error and exits
// 0; the explorer's `:clusters` shows the same rows while the live ones list
// their workloads under CLUSTER.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { cleanupsAfter, realServerSkipReason, useRealServer, type RealServer } from './real-apiserver.js';
import { reseed } from './real-seed/index.js';
import { Tmux, hasTmux, shellQuote, wlxCommand } from './tmux.js';
import { runWlx } from './wlx-cli.js';

const skip = realServerSkipReason();
const CONTEXTS = 'real-admin,real-restricted,real-badtoken,real-nobody';

interface Cluster {
  context: string;
  state: string;
  error: string | null;
  nodes: { ready: number; total: number } | null;
  gpus: { allocatable: number | null } | null;
}
interface Doc {
  clusters: Cluster[];
  workloads: { cluster: string; namespace: string; name: string }[];
  nodes: { cluster: string }[];
}

/** A ServiceAccount with no role binding, and a token for it (TokenRequest). */
async function nobodyToken(real: RealServer): Promise<string> {
  await real.admin.must(
    'POST',
    '/api/v1/namespaces/research/serviceaccounts',
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'fleet-nobody' } },
    undefined,
    [409],
  );
  const r = await real.admin.must<{ status: { token: string } }>(
    'POST',
    '/api/v1/namespaces/research/serviceaccounts/fleet-nobody/token',
    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  );
  return r.body.status.token;
}

/** The real server's kubeconfig with two more contexts on the same server: `real-badtoken` and `real-nobody`. */
function fleetKubeconfig(real: RealServer, dir: string, token: string): string {
  const config = yaml.load(readFileSync(real.kubeconfig, 'utf8')) as {
    clusters: { name: string }[];
    users: unknown[];
    contexts: unknown[];
  };
  const cluster = config.clusters[0].name;
  for (const [name, user] of [
    ['real-badtoken', { token: 'not-a-token-this-server-knows' }],
    ['real-nobody', { token }],
  ] as const) {
    config.users.push({ name, user });
    config.contexts.push({ name, context: { cluster, user: name } });
  }
  const path = join(dir, 'kubeconfig');
  writeFileSync(path, yaml.dump(config), { mode: 0o600 });
  return path;
}

describe(
  'a fleet on the real kube-apiserver: an unauthorized and a forbidden cluster beside live ones',
  { skip },
  () => {
    let real: RealServer;
    let kubeconfig: string;
    const dir = mkdtempSync(join(tmpdir(), 'wlx-real-fleet-'));
    const cleanup = cleanupsAfter(after);
    cleanup(async () => rmSync(dir, { recursive: true, force: true }));
    before(async () => {
      real = await useRealServer(cleanup);
      await reseed(real.admin);
      kubeconfig = fleetKubeconfig(real, dir, await nobodyToken(real));
    });

    test('wlx get -o json: each cluster with its state and error, the live ones’ workloads; exit 0', async () => {
      const r = await runWlx(['get', '--kubeconfig', kubeconfig, '--context', CONTEXTS, '-o', 'json'], {
        WLX_DEFINITIONS: '',
      });
      // The document says why each cluster is not live.
      assert.equal(r.code, 0, r.stderr + r.stdout);
      const doc = JSON.parse(r.stdout) as Doc;
      assert.deepEqual(
        doc.clusters.map((c) => [c.context, c.state]),
        [
          ['real-admin', 'live'],
          ['real-restricted', 'live'],
          ['real-badtoken', 'unauthorized'],
          ['real-nobody', 'forbidden'],
        ],
      );
      const [admin, restricted, badtoken, nobody] = doc.clusters;
      assert.equal(admin.error, null);
      assert.deepEqual(admin.nodes, { ready: 6, total: 7 });
      assert.equal(admin.gpus?.allocatable, 48);
      // The researcher may not read nodes: unknown, never 0.
      assert.equal(restricted.nodes, null);
      assert.equal(restricted.gpus?.allocatable, null);
      assert.match(badtoken.error!, /Unauthorized|401/);
      assert.match(nobody.error!, /forbidden \(403\)/);
      assert.equal(badtoken.nodes, null);
      assert.equal(nobody.nodes, null);
      // Token text never reaches the output.
      assert.doesNotMatch(r.stdout + r.stderr, /not-a-token-this-server-knows/);

      const names = (context: string) =>
        doc.workloads
          .filter((w) => w.cluster === context)
          .map((w) => `${w.namespace}/${w.name}`)
          .sort();
      assert.equal(names('real-admin').length, 6);
      assert.ok(names('real-restricted').length > 0);
      assert.ok(names('real-restricted').every((n) => n.startsWith('training/')));
      assert.deepEqual(
        names('real-restricted'),
        names('real-admin').filter((n) => n.startsWith('training/')),
      );
      assert.deepEqual(names('real-badtoken'), []);
      assert.deepEqual(names('real-nobody'), []);
      const nodesOf = (context: string) => doc.nodes.filter((n) => n.cluster === context).length;
      assert.equal(nodesOf('real-admin'), 7);
      assert.equal(nodesOf('real-badtoken') + nodesOf('real-nobody'), 0);
    });

    test(
      'the explorer: live clusters’ workloads under CLUSTER; :clusters says unauthorized and forbidden with why',
      { skip: !hasTmux() && 'tmux is not installed', timeout: 120_000 },
      async () => {
        const t = new Tmux(
          wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)} --context ${CONTEXTS}`),
          160,
          40,
          'wlx-real-fleet',
        );
        try {
          let screen = await t.waitFor(
            (s) =>
              /real-admin\s+training\s+llama-pretrain/.test(s) && /real-restricted\s+training\s+llama-pretrain/.test(s),
            'the live clusters’ workloads',
            60_000,
          );
          assert.match(screen, /CLUSTER\s+NAMESPACE\s+NAME/);
          assert.doesNotMatch(screen, /real-restricted\s+inference/);
          t.keys(':');
          t.type('clusters');
          t.keys('Enter');
          screen = await t.waitFor(
            (s) => /clusters\[4\]/.test(s) && /real-nobody\s+forbidden/.test(s),
            ':clusters with every state',
            30_000,
          );
          assert.match(screen, /real-admin\s+live\s+v1\.20\.2\s+6\/7/);
          assert.match(screen, /real-restricted\s+live\s+v1\.20\.2\s+-/);
          assert.match(screen, /real-badtoken\s+unauthorized\s+.*(401|Unauthorized)/);
          assert.match(screen, /real-nobody\s+forbidden\s+.*forbidden \(403\)/);
        } finally {
          t.kill();
        }
      },
    );
  },
);
