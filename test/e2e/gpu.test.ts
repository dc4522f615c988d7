// GPU truth end to end on the demo cluster over HTTP: wlx reads the simulated
// dcgm-exporters through the API server's pods proxy. `wlx get -o json`
// carries utilisation per pod, group and node, GPU kinds by resource name (a
// MIG slice) and the node's model; the restricted context (exporters out of
// sight) gives null utilisation and one notice. In a real terminal (tmux) the
// workloads view shows UTIL, broken-finetune idle and llama-pretrain's
// straggler, the pods view UTIL and MEM, and the why-panel names the idle GPUs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodSummary, RoleTree, WorkloadTree } from '../../src/model/types.js';
import { Tmux, hasTmux, shellQuote, wlxCommand } from './tmux.js';
import { demoWithKubeconfig, runWlx, jsonPodsOf } from './wlx-cli.js';

type JsonPod = PodSummary & {
  gpuUtilization: number | null;
  gpuMemoryUsedBytes: number | null;
  gpuResources: Record<string, number>;
};
type JsonRole = Omit<RoleTree, 'pods' | 'roles' | 'gpus'> & {
  gpus: RoleTree['gpus'] & { utilization: number | null; idle: number };
  pods: JsonPod[];
  roles: JsonRole[];
};
type JsonWorkload = Omit<WorkloadTree, 'roles' | 'unattributedPods' | 'gpus'> & {
  gpus: WorkloadTree['gpus'] & { utilization: number | null; idle: number };
  roles: JsonRole[];
  unattributedPods: JsonPod[];
};
interface Doc {
  workloads: JsonWorkload[];
  nodes: Array<{
    name: string;
    gpuUtilization: number | null;
    gpuModel: string | null;
    gpuResources: Record<string, { capacity: number; allocatable: number; requested: number }>;
  }>;
}

const wlx = (args: string[]) => runWlx(args, { WLX_DEFINITIONS: '' });
const demo = (t: { after(fn: () => unknown): void }) => demoWithKubeconfig(t, 'wlx-gpu-e2e-');

const podsOf = (w: JsonWorkload): JsonPod[] => jsonPodsOf<JsonPod, JsonRole>(w);

const byName = (doc: Doc, name: string) => {
  const w = doc.workloads.find((x) => x.name === name);
  assert.ok(w, `${name} in ${doc.workloads.map((x) => x.name).join(', ')}`);
  return w;
};

test('wlx get -o json: utilisation per pod, workload and node, the MIG slice by name, the model; restricted: null and one notice', async (t) => {
  const { cluster, kubeconfig } = await demo(t);
  const admin = await wlx(['get', '--kubeconfig', kubeconfig, '-o', 'json']);
  assert.equal(admin.code, 0, admin.stderr);
  assert.doesNotMatch(admin.stderr, /GPU metrics/, 'every exporter answered');
  const doc = JSON.parse(admin.stdout) as Doc;

  // Inference serves from the start: its pods report utilisation and memory.
  const serving = podsOf(byName(doc, 'llama-70b'));
  assert.ok(serving.length > 0);
  for (const p of serving) {
    assert.equal(typeof p.gpuUtilization, 'number', `${p.name} reports`);
    assert.ok(p.gpuUtilization! >= 0 && p.gpuUtilization! <= 100, `${p.name}: ${p.gpuUtilization}`);
    assert.ok((p.gpuMemoryUsedBytes ?? 0) > 0, `${p.name} uses memory`);
    assert.deepEqual(p.gpuResources, { 'nvidia.com/gpu': 8 });
  }
  const lws = byName(doc, 'llama-70b').gpus;
  assert.equal(typeof lws.utilization, 'number');
  assert.equal(lws.idle, 0);
  // A pending pod has no GPU, so no reading: null, never 0.
  for (const p of podsOf(byName(doc, 'vlm-pretrain'))) assert.equal(p.gpuUtilization, null);

  // The MIG slice: counted by its resource name on the pod and on its node.
  const mig = podsOf(byName(doc, 'mig-embedder'));
  assert.deepEqual(mig[0]?.gpuResources, { 'nvidia.com/mig-1g.10gb': 1 });
  // Not a whole GPU, but held: the workload names the slice beside its (zero) whole GPUs.
  const migGpus = byName(doc, 'mig-embedder').gpus;
  assert.equal(migGpus.requested, 0);
  assert.deepEqual(migGpus.slices, { 'nvidia.com/mig-1g.10gb': 1 });
  const migNodes = doc.nodes.filter((n) => Object.keys(n.gpuResources).some((k) => k.startsWith('nvidia.com/mig-')));
  assert.equal(migNodes.length, 2, 'the two MIG nodes');
  const slice = migNodes.map((n) => n.gpuResources['nvidia.com/mig-1g.10gb']).find((r) => r !== undefined);
  assert.ok(slice && slice.capacity > 0 && slice.requested === 1, JSON.stringify(migNodes));
  // The DRA GPU: the pod's ResourceClaim under dra:<deviceClass>, the node's capacity from its ResourceSlice.
  const reranker = byName(doc, 'dra-reranker');
  const draPods = podsOf(reranker);
  assert.deepEqual(draPods[0]?.gpuResources, { 'dra:gpu.nvidia.com': 1 });
  assert.equal(draPods[0]?.gpus, 1, 'a DRA GPU is one of the pod’s GPUs');
  assert.equal(reranker.gpus.allocated, 1);
  assert.equal(reranker.gpus.desired, 1, 'desired counts its ResourceClaimTemplate’s GPU');
  const draNode = doc.nodes.find((n) => n.name === 'gpu-dra-node-01');
  assert.deepEqual(draNode?.gpuResources, { 'dra:gpu.nvidia.com': { capacity: 8, allocatable: 8, requested: 1 } });
  const h100 = doc.nodes.find((n) => n.name === 'gpu-node-01');
  assert.match(h100?.gpuModel ?? '', /H100/);
  assert.equal(h100?.gpuResources['nvidia.com/gpu']?.capacity, 8);
  assert.equal(typeof h100?.gpuUtilization, 'number');
  assert.equal(doc.nodes.find((n) => n.name === 'cpu-node-01')?.gpuUtilization, null);

  // Exporters out of sight of a namespace-scoped user: null everywhere, one notice.
  const restricted = await wlx(['get', '--kubeconfig', kubeconfig, '--context', 'wlx-demo-restricted', '-o', 'json']);
  assert.equal(restricted.code, 0, restricted.stderr);
  const lines = restricted.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one notice:\n${restricted.stderr}`);
  assert.match(lines[0], /GPU metrics: no running dcgm-exporter pod/);
  const scoped = JSON.parse(restricted.stdout) as Doc;
  for (const w of scoped.workloads) {
    assert.equal(w.gpus.utilization, null, w.name);
    for (const p of podsOf(w)) assert.equal(p.gpuUtilization, null, p.name);
  }

  assert.ok(
    cluster.requests().some((r) => /proxy\/metrics/.test(r.path)),
    'scraped through the pods proxy',
  );
  assert.deepEqual([...new Set(cluster.requests().map((r) => r.method))], ['GET'], 'wlx only reads');
});

test(
  'tmux: UTIL in the workloads and pods views, broken-finetune idle in the why-panel, the straggler marked',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const { kubeconfig } = await demo(t);
    // Two scrapes 10 s apart under 5 % make an idle GPU with --idle-after 5s.
    const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)} --idle-after 5s`), 160, 45);
    try {
      let screen = await tmux.waitFor(
        (s) => /broken-finetune .*\d+% idle/.test(s) && /llama-pretrain .*\d+% slow/.test(s),
        'broken-finetune idle and llama-pretrain slow',
        90_000,
      );
      assert.match(screen, /GPUS\s+UTIL/);
      assert.match(screen, /util \d+%/, 'the cluster mean in the header');
      assert.match(screen, /resnet-tf .*\d+%/);
      process.stdout.write(`# workloads view with UTIL:\n${screen.replace(/^/gm, '# ')}\n`);

      await tmux.press('/');
      tmux.type('broken-finetune');
      await tmux.press('Enter');
      await tmux.waitFor(/workloads\(all\)\[1\/\d+\]/, 'the filtered row');
      await tmux.press('w');
      screen = await tmux.waitFor(
        /GPUs idle: \d GPUs? of training\/broken-finetune allocated and idle for \d+ s/,
        'the idle cause',
        30_000,
      );
      process.stdout.write(`# why-panel of training/broken-finetune:\n${screen.replace(/^/gm, '# ')}\n`);

      await tmux.press('Escape', 'Escape', 'Escape', ':');
      tmux.type('pods');
      await tmux.press('Enter');
      screen = await tmux.waitFor(/NODE\s+UTIL\s+MEM/, 'the pods view with UTIL and MEM', 30_000);
      assert.match(screen, /llama-70b\S*\s+Running\s+\S+\s+\d+\s+8\s+gpu-node-\d+\s+\d+%\s+\d+\/637G/);
      tmux.keys('q');
      await tmux.waitFor(/WLX-EXITED 0/, 'a clean exit');
    } finally {
      tmux.kill();
    }
  },
);

test(
  'tmux: --context wlx-demo-restricted: UTIL shows - and the one notice names the missing metrics',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const { kubeconfig } = await demo(t);
    const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)} --context wlx-demo-restricted`), 160, 45);
    try {
      const screen = await tmux.waitFor(
        // The notice (access, then the GPU metrics) is cut at the screen's width; wlx get shows it whole.
        (s) => /GPUS\s+UTIL/.test(s) && /1 problem: namespace-scoped access/.test(s) && /llama-pretrain/.test(s),
        'UTIL and the one notice',
        90_000,
      );
      const rows = screen.split('\n').filter((l) => /│training\s/.test(l));
      assert.ok(rows.length > 0, screen);
      assert.ok(
        rows.every((l) => /\s-\s+\d+\s+\S+\s*│$/.test(l)),
        screen,
      );
    } finally {
      tmux.kill();
    }
  },
);

test(
  'tmux: the node panel names the GPU model, MIG strategy and each GPU kind; the DRA node its slice’s GPUs',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const { kubeconfig } = await demo(t);
    const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)}`), 160, 45);
    try {
      await tmux.waitFor(/workloads\(all\)\[13\]/, 'the workloads', 90_000);
      // The header's GPU kinds come from the nodes, which may be listed after the workloads are drawn.
      let screen = await tmux.waitFor(
        /GPUs: \d+\/112 nvidia\.com\/gpu · \d+\/8 dra:gpu\.nvidia\.com · \d+\/56 mig-1g\.10gb/,
        'the GPU kinds in the header',
      );
      // The MIG pod's workload row names its slice, never a bare 0/0.
      assert.match(screen, /mig-embedder\s+Pod\s.*\s1 mig\s/);
      const openNode = async (name: string) => {
        await tmux.press(':');
        tmux.type('nodes');
        await tmux.press('Enter');
        await tmux.waitFor(/nodes\[\d+\]/, 'the nodes view');
        await tmux.press('/');
        tmux.type(name);
        await tmux.press('Enter');
        await tmux.waitFor(/nodes\[1\/\d+\]/, 'the filtered node');
        await tmux.press('Enter');
        return tmux.waitFor(new RegExp(`node\\(${name}\\)`), `the node view of ${name}`);
      };
      screen = await openNode('gpu-dra-node-01');
      assert.match(screen, /dra:gpu\.nvidia\.com\s+capacity 8\s+allocatable 8\s+requested 1/);
      assert.match(screen, /GPUs capacity 8\s+allocatable 8\s+requested 1/);
      process.stdout.write(`# node panel of gpu-dra-node-01:\n${screen.replace(/^/gm, '# ')}\n`);
      await tmux.press('Escape', 'Escape', 'Escape');
      screen = await openNode('gpu-mig-node-01');
      assert.match(screen, /GPU NVIDIA-A100-SXM4-80GB\s+mig\.strategy mixed\s+gpu\.count 8/);
      assert.match(screen, /mig-1g\.10gb\s+capacity 56\s+allocatable 56\s+requested 1/);
      tmux.keys('q');
      await tmux.waitFor(/WLX-EXITED 0/, 'a clean exit');
    } finally {
      tmux.kill();
    }
  },
);
