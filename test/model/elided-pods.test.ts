// Trees sent without their pods (the engine worker's pod scope): what the
// workloads list reads of them — pod and node counts, trouble, the GPU
// overlay — is what it reads of the whole tree; elided trees keep their
// identity while nothing changed; scopes cover what they name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elidedPodsOf, PodElision, sameScope, scopeCovers, withoutPods } from '../../src/model/elided-pods.js';
import { workloadGpu } from '../../src/model/gpu-overlay.js';
import { treePodCount, treePods } from '../../src/model/tree-pods.js';
import { workloadTrouble } from '../../src/model/trouble.js';
import { DEFAULT_IDLE_RULE, indexReadings } from '../../src/model/utilisation.js';
import type { GpuMetrics, ModelSnapshot, PodScope, PodSummary, RoleTree, WorkloadTree } from '../../src/model/types.js';
import { workloadRow, workloadTable } from '../../src/ui/render/workloads.js';
import { withWorkloadUtil } from '../../src/ui/render/gpu-columns.js';
import { gpuReading } from './gpu-fixtures.js';
import { defaultSnapshot, pod, role, workload } from '../ui/fixtures.js';

function metricsOf(readings: ReturnType<typeof gpuReading>[]): GpuMetrics {
  return { readings: indexReadings(readings), notice: null, scrapedAt: 1_000_000, idle: DEFAULT_IDLE_RULE };
}

const crashing = pod('w-1', { status: 'CrashLoopBackOff', ready: false, restarts: 4, node: 'gpu-node-02' });
const tree = workload(
  'llama',
  [
    role('launcher', [pod('l-0')]),
    role('workers', [], { roles: [role('worker', [pod('w-0', { node: 'gpu-node-02' }), crashing])] }),
  ],
  { unattributedPods: [pod('stray', { node: null, ready: false, status: 'Pending' })] },
);
const metrics = metricsOf([
  gpuReading('gpu-node-01/0', 90, ['training/l-0']),
  gpuReading('gpu-node-02/0', 10, ['training/w-0']),
]);

test('elided pods: the tree keeps its roles without pods, and carries what the workloads list reads of them', () => {
  const elided = withoutPods(tree, metrics);
  assert.deepEqual(elided.unattributedPods, []);
  assert.deepEqual(
    elided.roles.map((r) => [r.component, r.pods.length, r.replicas]),
    [
      ['launcher', 0, tree.roles[0].replicas],
      ['workers', 0, tree.roles[1].replicas],
    ],
  );
  assert.equal(elided.roles[1].roles[0].pods.length, 0, 'nested roles too');
  assert.deepEqual(elided.roles[1].roles[0].nodes, tree.roles[1].roles[0].nodes);
  assert.equal(elided.podsElided?.pods, 4);
  assert.deepEqual(elided.podsElided?.nodes, ['gpu-node-01', 'gpu-node-02'], 'the pending pod is on no node');
  assert.deepEqual(elided.podsElided?.trouble, workloadTrouble(tree));
  assert.equal(workloadTrouble(elided).counts[0]?.reason, 'CrashLoopBackOff');
  assert.deepEqual(workloadGpu(metrics, elided), workloadGpu(metrics, tree));
  assert.equal(workloadGpu(metrics, elided).utilisation, 50);
  assert.equal(withoutPods(tree, undefined).podsElided?.gpu, undefined, 'no metrics: no overlay');
  assert.equal(workloadGpu(undefined, elided).utilisation, null);
  // The row the user reads is the same, UTIL included.
  assert.deepEqual(workloadRow(elided), workloadRow(tree));
  const util = (w: typeof tree) => withWorkloadUtil(workloadTable([w], null), [w], metrics).rows[0].cells;
  assert.deepEqual(util(elided), util(tree));
  assert.match(util(tree).join(' '), /50%/);
});

test('elided pods: a snapshot keeps the scoped trees whole, and elided trees keep their identity until a change', () => {
  const base = defaultSnapshot();
  const snapshot: ModelSnapshot = { ...base, podsWithoutWorkload: [pod('dcgm-x', { namespace: 'gpu-operator' })] };
  const [first, second] = snapshot.workloads;
  const elision = new PodElision();
  assert.equal(elision.apply(snapshot, 'all'), snapshot, "'all': the snapshot as it is");
  const some = elision.apply(snapshot, { workloads: [first.uid] });
  assert.equal(some.workloads[0], first, 'the scoped tree is the same object, pods and all');
  assert.notEqual(some.workloads[1], second);
  assert.ok(some.workloads[1].podsElided);
  assert.equal(some.podsWithoutWorkload, undefined, 'pods without a workload are only sent with every pod');
  assert.deepEqual(some.podScope, { workloads: [first.uid] });
  const again = elision.apply({ ...snapshot, version: snapshot.version + 1 }, { workloads: [first.uid] });
  assert.equal(again.workloads[1], some.workloads[1], 'unchanged tree, unchanged metrics: the same elided tree');
  const scraped = elision.apply({ ...snapshot, gpuMetrics: metrics }, { workloads: [first.uid] });
  assert.notEqual(scraped.workloads[1], some.workloads[1], 'a new scrape: the overlay is computed again');
  const changed = { ...second, status: ['Failed' as const] };
  const after = elision.apply({ ...snapshot, workloads: [first, changed] }, { workloads: [] });
  assert.deepEqual(after.workloads[1].status, ['Failed']);
});

test('pod scopes: what covers what', () => {
  const some: PodScope = { workloads: ['a', 'b'] };
  assert.equal(scopeCovers(undefined, 'all'), true, 'a snapshot without a scope holds every pod');
  assert.equal(scopeCovers('all', { workloads: ['x'] }), true);
  assert.equal(scopeCovers(some, { workloads: ['a'] }), true);
  assert.equal(scopeCovers(some, { workloads: ['a', 'c'] }), false);
  assert.equal(scopeCovers(some, 'all'), false);
  assert.equal(scopeCovers({ workloads: [] }, { workloads: [] }), true);
  assert.equal(sameScope(some, { workloads: ['a', 'b'] }), true);
  assert.equal(sameScope(some, { workloads: ['b', 'a'] }), false);
  assert.equal(sameScope('all', 'all'), true);
  assert.equal(sameScope('all', { workloads: [] }), false);
});

test('pod counts: treePodCount counts what treePods lists (nested roles and unattributed pods)', () => {
  assert.equal(treePods(tree).length, 4);
  assert.equal(treePodCount(tree), 4);
  assert.equal(treePodCount(withoutPods(tree, undefined)), 0, 'a tree without its pods lists none');
});

test('elided pods: facts moved from the previous version by the changed pods are the facts counted afresh', () => {
  // A seeded walk of changes like churn's (one pod at a time) and rarer ones (a new role, a pod moved or gone,
  // an older tree again); after each, every elided tree carries what elidedPodsOf reads of its source.
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((seed / 2 ** 31) * n); // the high bits: an LCG's low bits repeat with a short period
  };
  const states: Partial<PodSummary>[] = [
    {},
    { ready: false, restarts: 2, lastFailure: 'OOMKilled' },
    { status: 'CrashLoopBackOff', ready: false, restarts: 5, lastFailure: 'Error' },
    { status: 'ImagePullBackOff', ready: false },
    { status: 'Pending', phase: 'Pending', ready: false, node: null, reason: 'Unschedulable' },
    { node: 'gpu-node-09' },
  ];
  const fresh = (name: string) => {
    const p = pod(name, states[rand(states.length)]);
    return p.node ? { ...p, node: `gpu-node-${rand(30)}` } : p;
  };
  const groups = (w: number) =>
    Array.from({ length: 3 }, (_, g) =>
      role('group', [fresh(`w${w}-g${g}-0`), fresh(`w${w}-g${g}-1`)], { replica: String(g) }),
    );
  let trees: WorkloadTree[] = [0, 1, 2].map((w) =>
    workload(`wl-${w}`, [role('leader', [fresh(`w${w}-l`)]), role('workers', [], { roles: groups(w) })], {
      unattributedPods: [fresh(`w${w}-stray`)],
    }),
  );
  const history: WorkloadTree[][] = [];
  const elision = new PodElision();
  const withPod = (roles: readonly RoleTree[], path: number[], change: (p: PodSummary) => PodSummary): RoleTree[] =>
    roles.map((r, i) => {
      if (i !== path[0]) return r;
      if (path.length === 2) {
        // As the tree keeps them: a role's nodes are a new list only when they changed.
        const pods = r.pods.map((p, k) => (k === path[1] ? change(p) : p));
        const nodes = [...new Set(pods.map((p) => p.node).filter((n): n is string => !!n))];
        const same = nodes.length === r.nodes.length && nodes.every((n, k) => n === r.nodes[k]);
        return { ...r, pods, nodes: same ? r.nodes : nodes };
      }
      return { ...r, roles: withPod(r.roles, path.slice(1), change) };
    });
  for (let step = 0; step < 400; step++) {
    trees = trees.map((w) => {
      const roll = rand(20);
      if (roll < 8) return w; // unchanged: the same object
      const change = (p: PodSummary) => ({ ...fresh(p.name), uid: p.uid });
      if (roll < 12) return { ...w, roles: withPod(w.roles, [0, 0], change) };
      if (roll < 16) return { ...w, roles: withPod(w.roles, [1, rand(3), rand(2)], change) };
      if (roll < 17) return { ...w, unattributedPods: rand(2) ? [] : [fresh(`${w.name}-stray-${step}`)] };
      if (roll < 18) return { ...w, roles: [...w.roles, role('extra', [fresh(`${w.name}-x-${step}`)])] };
      if (roll < 19) return { ...w, roles: w.roles.slice(0, 2) };
      return history.length ? (history[rand(history.length)].find((o) => o.uid === w.uid) ?? w) : w;
    });
    history.push(trees);
    const out = elision.apply({ ...defaultSnapshot(), workloads: trees }, { workloads: [] });
    out.workloads.forEach((e, i) => assert.deepEqual(e.podsElided, elidedPodsOf(trees[i], undefined), `step ${step}`));
  }
});
