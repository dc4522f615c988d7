// The real kube-apiserver's word on what -n and a forbidden namespace mean
// (its RBAC, its 403 wording): `wlx get -n research` as the researcher is one
// line and exit 6 naming the user the server names, `-n training` as an
// admin counts every namespace's pods on the nodes, and a researcher who may
// read nodes but list pods only in training is told the requests are training's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeSummary, WorkloadTree } from '../../src/model/types.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dump, load } from 'js-yaml';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realServerSkipReason, startRealServer, stopRealServer, type RealServer } from './real-apiserver.js';
import { reseed } from './real-seed/index.js';
import { runWlx } from './wlx-cli.js';
import { Tmux, hasTmux, shellQuote, wlxCommand } from './tmux.js';

const skip = realServerSkipReason();
type Doc = { workloads: WorkloadTree[]; nodes: NodeSummary[]; access: { podsIn?: string[] } };

function wlx(real: RealServer, args: string[]) {
  return runWlx(args, { KUBECONFIG: real.kubeconfig, WLX_DEFINITIONS: '' });
}

describe('-n and forbidden namespaces on the real kube-apiserver', { skip }, () => {
  let real: RealServer;
  // A server of this file's own: the real-server suite's shared one is reseeded by its own files meanwhile.
  const dir = mkdtempSync(join(tmpdir(), 'wlx-truth-real-'));
  before(async () => {
    real = await startRealServer(dir);
    await reseed(real.admin);
  });
  after(async () => {
    real?.admin.close();
    real?.restricted.close();
    await stopRealServer(dir).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  test('the researcher asking for research: one line naming the user and the readable namespace, exit 6', async () => {
    const restricted = (args: string[]) => wlx(real, ['--context', 'real-restricted', ...args]);
    const [list, named, both] = await Promise.all([
      restricted(['get', '-n', 'research']),
      restricted(['get', 'job/data-prep', '-n', 'research']),
      restricted(['get', '-n', 'research', '-n', 'training']),
    ]);
    for (const r of [list, named]) {
      assert.equal(r.code, 6, r.stderr);
      assert.equal(r.stderr, 'wlx: namespace research is not readable by researcher (readable: training)\n');
      assert.equal(r.stdout, '');
    }
    assert.equal(both.code, 6, both.stderr);
    assert.match(both.stdout, /^JobSet\/llama-pretrain\s+namespace: training/m);
    assert.doesNotMatch(both.stdout, /namespace: research/);
  });

  test('an admin with -n training: the nodes count every namespace, the workloads are training', async () => {
    const [all, narrowed] = await Promise.all([
      wlx(real, ['get', '-A', '-o', 'json']),
      wlx(real, ['get', '-n', 'training', '-o', 'json']),
    ]);
    assert.equal(all.code, 0, all.stderr);
    assert.equal(narrowed.code, 0, narrowed.stderr);
    const a = JSON.parse(all.stdout) as Doc;
    const n = JSON.parse(narrowed.stdout) as Doc;
    const requested = (d: Doc) => d.nodes.map((x) => [x.name, x.gpuRequested, x.pods]);
    assert.deepEqual(requested(n), requested(a));
    assert.deepEqual([...new Set(n.workloads.map((w) => w.namespace))], ['training']);
    assert.ok(
      a.workloads.some((w) => w.namespace === 'inference'),
      'the seed has inference pods on GPU nodes',
    );
    assert.equal(n.access.podsIn, undefined, 'pods were listed cluster-wide');
  });

  // Last: it widens the researcher's rights on this server.
  test("a researcher who may read nodes, pods only in training: the requests are training's, and said so", async () => {
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    await real.admin.must('POST', `${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'node-reader' },
      rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }],
    });
    await real.admin.must('POST', `${rbac}/clusterrolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'researchers-node-reader' },
      subjects: [{ kind: 'Group', name: 'researchers', apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: { kind: 'ClusterRole', name: 'node-reader', apiGroup: 'rbac.authorization.k8s.io' },
    });
    const [admin, researcher] = await Promise.all([
      wlx(real, ['get', '-n', 'training', '-o', 'json']),
      wlx(real, ['get', '-n', 'training', '-o', 'json', '--context', 'real-restricted']),
    ]);
    assert.equal(admin.code, 0, admin.stderr);
    assert.equal(researcher.code, 0, researcher.stderr);
    const a = JSON.parse(admin.stdout) as Doc;
    const r = JSON.parse(researcher.stdout) as Doc;
    assert.deepEqual(r.access.podsIn, ['training']);
    assert.deepEqual(
      r.nodes.map((x) => x.name),
      a.nodes.map((x) => x.name),
      'every node is read, not only those of its pods',
    );
    assert.ok(r.nodes.every((x) => x.gpuAllocatable !== null));
    const sum = (d: Doc) => d.nodes.reduce((n, x) => n + x.gpuRequested, 0);
    assert.ok(sum(r) > 0 && sum(r) < sum(a), `training's requests ${sum(r)} of the cluster's ${sum(a)}`);
    if (!hasTmux()) return;
    const tmux = new Tmux(
      wlxCommand(`--kubeconfig ${shellQuote(real.kubeconfig)} --context real-restricted -n training`),
      200,
      30,
      'wlx-truth-real',
    );
    try {
      const screen = await tmux.waitFor(
        /requests of pods in training only/,
        'the header saying whose requests',
        60_000,
      );
      assert.match(screen, new RegExp(`GPUs: ${sum(r)}/\\d+ req/alloc`));
      tmux.keys('q');
      await tmux.waitFor(/WLX-EXITED 0/, 'a clean exit');
    } finally {
      tmux.kill();
    }
  });

  // After the one above: the researcher may read nodes.
  test(
    'a researcher who may read nodes and no pods at all (no namespace to fall back to): requests unknown, never 0',
    {
      skip: !hasTmux(),
    },
    async () => {
      const config = load(readFileSync(real.kubeconfig, 'utf8')) as {
        contexts: { name: string; context: { cluster: string; user: string; namespace?: string } }[];
      };
      const restricted = config.contexts.find((c) => c.name === 'real-restricted')!;
      config.contexts.push({
        name: 'real-restricted-no-namespace',
        context: { cluster: restricted.context.cluster, user: restricted.context.user },
      });
      const kubeconfig = join(dir, 'no-namespace');
      writeFileSync(kubeconfig, dump(config), { mode: 0o600 });
      const json = await runWlx(
        ['get', '-o', 'json', '--kubeconfig', kubeconfig, '--context', 'real-restricted-no-namespace'],
        {
          WLX_DEFINITIONS: '',
        },
      );
      const doc = JSON.parse(json.stdout) as { nodes: Record<string, unknown>[]; access: { forbidden: string[] } };
      assert.ok(doc.access.forbidden.includes('pods'), json.stderr);
      assert.ok(doc.nodes.length > 0, 'the nodes are read');
      for (const n of doc.nodes) {
        assert.equal(typeof n.gpuAllocatable, 'number', `${String(n.name)}: allocatable is the node's`);
        assert.equal(n.gpuRequested, null, `${String(n.name)}: requested unknown, never 0`);
        assert.equal(n.pods, null);
      }
      const tmux = new Tmux(
        wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)} --context real-restricted-no-namespace`),
        200,
        30,
        'wlx-truth-real-blind',
      );
      try {
        const screen = await tmux.waitFor(
          /GPUs: \?\/\d+ req\/alloc  free \?  pending \?  \(pods not readable\)/,
          'the header',
          60_000,
        );
        assert.doesNotMatch(screen, /GPUs: 0\//);
        tmux.type(':nodes');
        tmux.keys('Enter');
        const nodes = await tmux.waitFor(/Ready\s+\?\/\d+\s+\?/, ':nodes with requests and free unknown', 30_000);
        assert.doesNotMatch(nodes, /Ready\s+0\/\d+/, 'no node reads 0 requested');
        tmux.keys('q');
        await tmux.waitFor(/WLX-EXITED 0/, 'a clean exit');
      } finally {
        tmux.kill();
      }
    },
  );
});
