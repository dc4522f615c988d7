// Queues, gang schedulers and a namespace-scoped user, end to end on the demo
// cluster over HTTP (its simulated Kueue, KAI-style PodGroup and RBAC): `wlx
// get -o json` carries `queue`, the gangs' verdicts and `access`; in a real
// terminal (tmux) the why-panel of training/queued-sft names its queue,
// position and GPU shortfall, `:queues` → Enter lists the line in order, and
// the restricted context shows its namespace with one notice and no error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccessScope, GangSummary, WorkloadTree, WorkloadQueue } from '../../src/model/types.js';
import { Tmux, hasTmux, shellQuote, wlxCommand } from './tmux.js';
import { demoWithKubeconfig, runWlx } from './wlx-cli.js';

interface Doc {
  workloads: Array<WorkloadTree & { queue: WorkloadQueue | null; gangs: GangSummary[] }>;
  nodes: Array<{ name: string; gpuCapacity: number | null; gpuRequested: number }>;
  access: AccessScope;
}

const wlx = (args: string[]) => runWlx(args, { WLX_DEFINITIONS: '' });
const demo = (t: { after(fn: () => unknown): void }) => demoWithKubeconfig(t, 'wlx-queues-e2e-');

const byName = (doc: Doc, name: string) => {
  const w = doc.workloads.find((x) => x.name === name);
  assert.ok(w, `${name} in ${doc.workloads.map((x) => x.name).join(', ')}`);
  return w;
};

test('wlx get -o json: queue of queued jobs with positions, the PodGroup verdict, access; the restricted context reads its namespace, says so once, exits 0', async (t) => {
  const { cluster, kubeconfig } = await demo(t);
  const admin = await wlx(['get', '--kubeconfig', kubeconfig, '-o', 'json']);
  assert.equal(admin.code, 0, admin.stderr);
  const doc = JSON.parse(admin.stdout) as Doc;
  assert.deepEqual(doc.access, { clusterWide: true, namespaces: [], forbidden: [] });
  const queued = byName(doc, 'queued-sft').queue;
  assert.equal(queued?.system, 'kueue');
  assert.equal(queued?.name, 'training-queue');
  assert.equal(queued?.clusterQueue, 'gpu-cluster-queue');
  assert.equal(queued?.state, 'Pending');
  assert.equal(queued?.position, 0, 'first in line (the visibility API)');
  assert.match(queued?.message ?? '', /insufficient unused quota for nvidia\.com\/gpu in flavor h100, \d+ more needed/);
  assert.equal(byName(doc, 'mmlu-eval').queue?.position, 1, 'second in line');
  const admitted = doc.workloads.filter((w) => w.queue?.state === 'Admitted');
  assert.ok(admitted.length > 0, 'running training jobs are admitted');
  assert.ok(
    admitted.every((w) => w.queue?.position === null),
    'no position when not pending',
  );
  assert.equal(byName(doc, 'llama-70b').queue, null, 'a job no queue holds');
  const gang = byName(doc, 'vlm-pretrain');
  assert.equal(gang.queue?.system, 'kai');
  assert.ok(gang.gangs.length > 0);
  assert.equal(gang.gangs[0].scheduler, 'kai');
  assert.match(gang.gangs[0].message ?? '', /required for gang scheduling/);

  const restricted = await wlx(['get', '--kubeconfig', kubeconfig, '--context', 'wlx-demo-restricted', '-o', 'json']);
  assert.equal(restricted.code, 0, restricted.stderr);
  const notices = restricted.stderr.split('\n').filter((l) => l !== '');
  assert.equal(notices.length, 1, `one notice on stderr:\n${restricted.stderr}`);
  assert.match(notices[0], /^wlx: namespace-scoped access: showing namespace training \(not readable: .*nodes/);
  const scoped = JSON.parse(restricted.stdout) as Doc;
  assert.equal(scoped.access.clusterWide, false);
  assert.deepEqual(scoped.access.namespaces, ['training']);
  assert.ok(scoped.access.forbidden.includes('nodes'), scoped.access.forbidden.join(','));
  assert.ok(scoped.workloads.length > 0);
  assert.deepEqual([...new Set(scoped.workloads.map((w) => w.namespace))], ['training']);
  assert.equal(byName(scoped, 'queued-sft').queue?.position, 0, 'positions through the LocalQueue');
  // Nodes as the pods see them: capacity unknown, never 0.
  assert.ok(scoped.nodes.length > 0);
  assert.ok(scoped.nodes.every((n) => n.gpuCapacity === null));

  const tree = await wlx([
    'get',
    '--kubeconfig',
    kubeconfig,
    '--context',
    'wlx-demo-restricted',
    'pytorchjob',
    'queued-sft',
  ]);
  assert.equal(tree.code, 0, tree.stderr);
  assert.match(tree.stdout, /status: Queued/);
  assert.match(tree.stdout, /queue: kueue training-queue -> gpu-cluster-queue: Pending, 1st in line/);
  assert.match(tree.stdout, /gpu capacity unknown/);

  const methods = new Set(cluster.requests().map((r) => r.method));
  assert.deepEqual([...methods], ['GET'], 'wlx only reads');
});

test(
  'tmux: queued-sft → w shows queue, position and GPU shortfall; :queues → Enter lists the line in order → Enter opens the workload',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const { cluster, kubeconfig } = await demo(t);
    const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)}`), 160, 45);
    try {
      let screen = await tmux.waitFor(/queued-sft\s+PyTorchJob\s+training-queue\s+Queued/, 'queued-sft Queued', 90_000);
      assert.match(screen, /QUEUE/);
      await tmux.press('/');
      tmux.type('queued-sft');
      await tmux.press('Enter');
      await tmux.waitFor(/workloads\(all\)\[1\/\d+\]/, 'the filtered row');
      await tmux.press('w');
      screen = await tmux.waitFor(
        /Queued: 1st in ClusterQueue gpu-cluster-queue · 1st in LocalQueue training-queue/,
        'the why-panel',
        30_000,
      );
      assert.match(screen, /needs \d+ more nvidia\.com\/gpu of quota in flavor h100/);
      assert.match(screen, /gpu-cluster-queue h100 nvidia\.com\/gpu: usage \d+ \/ nominal \d+/);
      process.stdout.write(`# why-panel of training/queued-sft:\n${screen.replace(/^/gm, '# ')}\n`);

      await tmux.press('Escape', 'Escape', 'Escape');
      await tmux.press(':');
      tmux.type('queues');
      await tmux.press('Enter');
      screen = await tmux.waitFor(/clusterqueues\[\d+\]/, ':queues');
      assert.match(screen, /CLUSTERQUEUE\s+COHORT\s+GPU QUOTA/);
      assert.match(screen, /gpu-cluster-queue\s+\S+\s+h100 \d+/);
      await tmux.press('Enter');
      screen = await tmux.waitFor(/pending\(gpu-cluster-queue\)\[\d+\]/, 'the pending line');
      const rows = screen.split('\n').filter((l) => /queued-sft|mmlu-eval/.test(l));
      assert.deepEqual(
        rows.map((l) => (/queued-sft/.test(l) ? 'queued-sft' : 'mmlu-eval')),
        ['queued-sft', 'mmlu-eval'],
        screen,
      );
      assert.match(rows[0], /^\s*│\s*1st\s+training\s+queued-sft\s+training-queue\s+1st\s+16\b/);
      assert.match(rows[1], /^\s*│\s*2nd\s+research\s+mmlu-eval\s+research-queue\s+1st\s+8\b/);
      await tmux.press('Enter');
      // Its pods (none yet) are asked from the engine worker first: the panel comes with them.
      screen = await tmux.waitFor(
        /kueue queue training-queue → gpu-cluster-queue: Pending, 1st in line/,
        'the workload',
      );
      assert.match(screen, /pytorchjob\(training\/queued-sft\)/);
      tmux.keys('q');
      await tmux.waitFor(/WLX-EXITED 0/, 'a clean exit');
      assert.deepEqual([...new Set(cluster.requests().map((r) => r.method))], ['GET']);
    } finally {
      tmux.kill();
    }
  },
);

test(
  'tmux: --context wlx-demo-restricted shows the training namespace, one notice, no error',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const { kubeconfig } = await demo(t);
    const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)} --context wlx-demo-restricted`), 160, 45);
    try {
      const screen = await tmux.waitFor(
        (s) => /namespace-scoped: training/.test(s) && /queued-sft/.test(s),
        'the namespace-scoped explorer',
        90_000,
      );
      const rows = screen.split('\n').filter((l) => /PyTorchJob|JobSet/.test(l));
      assert.ok(rows.length > 0);
      assert.ok(
        rows.every((l) => /│training\s/.test(l)),
        screen,
      );
      assert.match(screen, /1 problem: namespace-scoped access: showing namespace training/);
      assert.doesNotMatch(screen, /forbidden:|retrying|unreachable/, 'not an error per kind, not a failure');
      assert.match(screen, /capacity unknown \(nodes not readable\)/);
    } finally {
      tmux.kill();
    }
  },
);
