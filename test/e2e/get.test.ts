// `wlx get` end to end on the simulated default scenario (speed 20): the real
// CLI as a child process, over HTTP through client-node, as a user runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoCluster } from '../../demo/index.js';
import type { WorkloadTree, NodeSummary, RoleTree, PodSummary } from '../../src/model/types.js';
import { outputWidth, WIDTH } from '../../src/cli/printers/tree.js';
import { kubectl } from './kubectl-helpers.js';
import { Tmux, hasTmux, wlxCommand } from './tmux.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WLX = join(ROOT, 'bin', 'wlx.js');

function wlx(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [WLX, ...args],
      { env: { ...process.env, ...env }, maxBuffer: 64 << 20, timeout: 90_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as unknown as { code: number }).code) || 1 : 0, stdout, stderr });
      },
    );
  });
}

function podsOf(roles: RoleTree[]): PodSummary[] {
  return roles.flatMap((r) => [...r.pods, ...podsOf(r.roles)]);
}

type Doc = { workloads: WorkloadTree[]; nodes: NodeSummary[] };

function settled(doc: Doc): boolean {
  const llama = doc.workloads.find((w) => w.namespace === 'training' && w.name === 'llama-pretrain');
  const lws = doc.workloads.find((w) => w.namespace === 'inference' && w.name === 'llama-70b');
  return !!llama && llama.replicas.ready === 3 && llama.status.includes('Running') && !!lws && lws.replicas.ready === 4;
}

test('wlx get -A -o json on the default scenario', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-get-demo-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  const cluster = await startDemoCluster({ speed: 20, seed: 7, kubeconfigPath: kubeconfig });
  t.after(() => cluster.stop());
  const env = { KUBECONFIG: kubeconfig, WLX_DEFINITIONS: '' };

  let doc: Doc | undefined;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await wlx(['get', '-A', '-o', 'json'], env);
    assert.equal(r.code, 0, r.stderr);
    doc = JSON.parse(r.stdout) as Doc;
    if (settled(doc)) break;
    if (Date.now() > deadline) assert.fail(`the default scenario did not settle: ${r.stdout.slice(0, 2000)}`);
    await new Promise((res) => setTimeout(res, 500));
  }

  const llama = doc.workloads.find((w) => w.namespace === 'training' && w.name === 'llama-pretrain')!;
  assert.equal(llama.kind, 'JobSet');
  assert.deepEqual(llama.status, ['Running']);
  const roles = Object.fromEntries(llama.roles.map((r) => [r.instance, r]));
  assert.deepEqual(Object.keys(roles).sort(), ['leader', 'worker']);
  assert.equal(roles.leader!.pods.length, 1);
  assert.equal(roles.leader!.gpus.allocated, 4);
  assert.equal(roles.worker!.pods.length, 2);
  assert.equal(roles.worker!.gpus.allocated, 8);
  assert.equal(llama.gpus.allocated, 12);
  const gpuNodes = new Set(doc.nodes.filter((n) => n.name.startsWith('gpu-node')).map((n) => n.name));
  for (const p of podsOf(llama.roles)) {
    assert.ok(p.node && gpuNodes.has(p.node), `${p.name} on a gpu node (${p.node})`);
    assert.equal(p.gpus, 4);
    assert.equal(p.status, 'Running');
  }

  const lws = doc.workloads.find((w) => w.namespace === 'inference' && w.name === 'llama-70b')!;
  assert.equal(lws.kind, 'LeaderWorkerSet');
  assert.equal(lws.roles.length, 2, 'one role per group');
  for (const group of lws.roles) {
    assert.notEqual(group.replica, null);
    const inner = Object.fromEntries(group.roles.map((r) => [r.instance ?? r.component, r.pods.length]));
    assert.deepEqual(inner, { leader: 1, worker: 1 }, `group ${group.replica}`);
  }
  assert.ok(
    !doc.workloads.some((w) => w.kind === 'StatefulSet' || w.kind === 'Job'),
    'nested StatefulSets/Jobs are parts of their parents',
  );

  const tf = doc.workloads.find((w) => w.namespace === 'research' && w.name === 'resnet-tf')!;
  assert.equal(tf.kind, 'TFJob');
  assert.equal(tf.definitionSource, 'cluster');
  assert.equal(podsOf(tf.roles).length, 3);

  assert.equal(doc.nodes.length, 19);
  // 96 whole GPUs on gpu-node-01..12, 16 on the NotReady and the cordoned node, and the DRA node's 8 (from its
  // ResourceSlice); MIG slices are not whole GPUs.
  assert.equal(
    doc.nodes.reduce((n, x) => n + x.gpuAllocatable, 0),
    120,
  );
  const first12 = doc.nodes.filter((x) => /^gpu-node-(0\d|1[0-2])$/.test(x.name));
  assert.equal(first12.length, 12);
  assert.equal(
    first12.reduce((n, x) => n + x.gpuAllocatable, 0),
    96,
  );
  assert.deepEqual(
    doc.nodes.filter((x) => /^gpu-node-1[34]$/.test(x.name)).map((x) => [x.name, x.ready, x.unschedulable]),
    [
      ['gpu-node-13', false, false],
      ['gpu-node-14', true, true],
    ],
  );

  // Tree output at 80 columns; no raw escape or bidi character even though the
  // scenario carries a hostile pod and hostile messages.
  const [tree, stuck, lwsShort] = await Promise.all([
    wlx(['get'], env),
    wlx(['get', 'jobsets', 'stuck-pretrain', '-n', 'training'], env),
    wlx(['get', 'lws', '-o', 'json'], env),
  ]);
  // `lws` is the short name the server publishes for LeaderWorkerSets.
  assert.equal(lwsShort.code, 0, lwsShort.stderr);
  assert.deepEqual(
    (JSON.parse(lwsShort.stdout) as Doc).workloads.map((w) => `${w.kind}/${w.name}`),
    ['LeaderWorkerSet/llama-70b'],
  );
  assert.equal(tree.code, 0, tree.stderr);
  assert.doesNotMatch(tree.stdout, /…/, 'piped: nothing is cut');
  assert.doesNotMatch(tree.stdout + tree.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  assert.match(tree.stdout, /^JobSet\/llama-pretrain\s+namespace: training\s+status: Running/m);
  assert.match(tree.stdout, /^\|-- leader\s+1\/1 ready\s+gpu: 4\s+gpu-node-\d\d$/m);
  assert.match(tree.stdout, /^TFJob\/resnet-tf/m);
  assert.match(tree.stdout, /definition: kubeflow-org-tfjob-v1 \(cluster\)/);
  assert.match(tree.stdout, /^\d+ workloads, \d+ pods \(\d+ running\)/m);
  // The gang that cannot start: some pods Pending (Unschedulable), shown with no node.
  assert.equal(stuck.code, 0, stuck.stderr);
  assert.match(stuck.stdout, /^JobSet\/stuck-pretrain/);
  assert.match(stuck.stdout, /Pending \(Unschedulable\)\s+gpu: 8\s+<none>/);
  assert.doesNotMatch(stuck.stdout, /llama-pretrain/);

  // wlx only ever reads.
  const methods = new Set(cluster.requests().map((r) => r.method));
  assert.deepEqual([...methods], ['GET']);
});

test('wlx get --demo starts the simulated cluster in the background, reads it over HTTP, and stops it', async () => {
  const started = Date.now();
  const r = await wlx(['get', '--demo', '-o', 'json'], { KUBECONFIG: '/nonexistent', WLX_DEFINITIONS: '' });
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as Doc;
  // The demo's bare pod (nobody controls it) is a workload of the built-in Pod definition.
  assert.deepEqual(doc.workloads.map((w) => `${w.namespace}/${w.name}`).sort(), [
    'default/innocent-looking',
    'inference/dra-reranker',
    'inference/llama-70b',
    'inference/mig-embedder',
    'research/mmlu-eval',
    'research/ray-tune',
    'research/resnet-tf',
    'research/vlm-pretrain',
    'training/bert-finetune',
    'training/broken-finetune',
    'training/llama-pretrain',
    'training/queued-sft',
    'training/stuck-pretrain',
  ]);
  assert.equal(doc.nodes.length, 19);
  // The command returned, so the background cluster did not keep it alive.
  assert.ok(Date.now() - started < 90_000);
});

// The tree cuts nothing when stdout is not a terminal (as kubectl), so grep and
// scripts see whole pod names; on a terminal it fits the terminal.
test('outputWidth: a terminal its columns, a pipe unlimited', () => {
  assert.equal(outputWidth({ isTTY: true, columns: 132 }), 132);
  assert.equal(outputWidth({ isTTY: true }), WIDTH);
  assert.equal(outputWidth({ isTTY: false, columns: 132 }), Infinity);
  assert.equal(outputWidth({}), Infinity);
});

test('wlx get -A | cat prints every pod name whole (the names kubectl lists)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-get-width-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  const cluster = await startDemoCluster({ speed: 20, seed: 7, kubeconfigPath: kubeconfig });
  t.after(() => cluster.stop());
  const env = { KUBECONFIG: kubeconfig, WLX_DEFINITIONS: '' };
  const kenv = { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'kube-cache'), HOME: dir };

  const names = async () => {
    const k = await kubectl(kenv, ['get', 'pods', '-A', '-o', 'name']);
    assert.equal(k.code, 0, k.stderr);
    return new Set(
      k.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(/^pod\//, '')),
    );
  };
  const before = await names();
  const tree = await wlx(['get', '-A'], env);
  const json = await wlx(['get', '-A', '-o', 'json'], env);
  const after = await names();
  assert.equal(tree.code, 0, tree.stderr);
  assert.doesNotMatch(tree.stdout, /…/, 'nothing is cut');
  const printed = new Set([...tree.stdout.matchAll(/[|`]-- (\S+)/g)].map((m) => m[1]));
  const workloads = (JSON.parse(json.stdout) as { workloads: WorkloadTree[] }).workloads;
  const inWorkloads = workloads.flatMap((w) => [...podsOf(w.roles), ...w.unattributedPods]).map((p) => p.name);
  const expected = inWorkloads.filter((n) => before.has(n) && after.has(n));
  assert.ok(expected.length >= 20, `the demo's workload pods (${expected.length})`);
  assert.ok(
    expected.some((n) => n.startsWith('stuck-pretrain-worker-')),
    'long names are among them',
  );
  for (const n of expected) assert.ok(printed.has(n), `${n} printed whole:\n${tree.stdout}`);
});

test('wlx get -A on a 60-column terminal fits the terminal', { skip: !hasTmux(), timeout: 120_000 }, async () => {
  const t = new Tmux(wlxCommand('get -A --demo'), 60, 50);
  try {
    await t.waitFor(/WLX-EXITED \d+/, 'wlx get to finish', 90_000);
    // -J joins lines tmux wrapped, so a line longer than the terminal would show.
    const lines = t.tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'main').split('\n');
    assert.ok(
      lines.some((l) => l.includes('…')),
      'long names are cut',
    );
    for (const l of lines) assert.ok([...l].length <= 60, `fits 60 columns: ${JSON.stringify(l)}`);
  } finally {
    t.kill();
  }
});
