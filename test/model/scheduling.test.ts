// Queues and gang schedulers (src/model/scheduling/) on fixtures written from
// the projects' CRDs (test/fixtures/scheduling/): Kueue v1beta2 and v1beta1,
// a KAI PodGroup and Queue, a Volcano PodGroup and Queue. Read through the
// offline model, as `wlx get --from` reads a dump.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDefinitions } from '../../src/definitions/index.js';
import { buildOfflineModel, parseDump } from '../../src/kube/offline.js';
import { SchedulingIndex } from '../../src/model/scheduling/index.js';
import { gangsWithVerdicts } from '../../src/model/scheduling/gangs.js';
import { kueueState, parsePendingWorkloads, parseQuotaShortfalls } from '../../src/model/scheduling/kueue.js';
import { queueStatusWord } from '../../src/model/scheduling/words.js';
import type { KubeObject, WorkloadTree } from '../../src/model/types.js';
import { repoRoot } from '../definitions/builtin-fixtures.js';

const dir = join(repoRoot, 'test', 'fixtures', 'scheduling');
const definitions = loadDefinitions({ envPaths: '' });

function model(...files: string[]) {
  const objects = files.flatMap((f) => parseDump(readFileSync(join(dir, f), 'utf8'), f).objects);
  const m = buildOfflineModel(objects, definitions);
  const workloads = m.store.workloads();
  return { ...m, workloads, view: m.scheduling.view(workloads), objects };
}

function byName(workloads: WorkloadTree[], name: string): WorkloadTree {
  const w = workloads.find((x) => x.name === name);
  assert.ok(w, `workload ${name}`);
  return w;
}

test('quota shortfall: resource, flavor and how much more, from the QuotaReserved message', () => {
  assert.deepEqual(
    parseQuotaShortfalls(
      "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor h100, 4 more needed",
    ),
    [{ resource: 'nvidia.com/gpu', flavor: 'h100', more: '4' }],
  );
  assert.deepEqual(
    parseQuotaShortfalls(
      'insufficient unused quota for cpu in flavor a, 500m more needed; insufficient unused quota for nvidia.com/gpu in flavor b, 2 more needed',
    ).map((s) => `${s.resource}@${s.flavor}+${s.more}`),
    ['cpu@a+500m', 'nvidia.com/gpu@b+2'],
  );
  // No amount said: the resource and flavor still are.
  assert.deepEqual(
    parseQuotaShortfalls('insufficient quota for nvidia.com/gpu in flavor a100, request > maximum capacity'),
    [{ resource: 'nvidia.com/gpu', flavor: 'a100', more: null }],
  );
  assert.deepEqual(parseQuotaShortfalls('Quota reserved in ClusterQueue q'), []);
  assert.deepEqual(parseQuotaShortfalls(null), []);
});

test('Kueue v1beta2: a suspended PyTorchJob is linked to its Workload, Pending in its queue, not Initializing', () => {
  const m = model('kueue-v1beta2.yaml');
  const queued = byName(m.workloads, 'queued-sft');
  const q = m.view.queues.get(queued.uid);
  assert.deepEqual(q, {
    system: 'kueue',
    name: 'training-queue',
    clusterQueue: 'gpu-cluster-queue',
    state: 'Pending',
    position: null,
    reason: 'Pending',
    message:
      "couldn't assign flavors to pod set master: insufficient unused quota for nvidia.com/gpu in flavor h100, 4 more needed",
  });
  assert.equal(queueStatusWord(q), 'Queued');
  const running = m.view.queues.get(byName(m.workloads, 'llama-sft').uid);
  assert.equal(running?.state, 'Admitted');
  assert.equal(running?.clusterQueue, 'gpu-cluster-queue');
  assert.equal(queueStatusWord(running), null, 'an admitted job keeps its own status word');
});

test('Kueue v1beta2: why-panel facts (shortfall, GPUs asked, ClusterQueue usage/nominal/borrowing, steps)', () => {
  const m = model('kueue-v1beta2.yaml');
  const facts = m.scheduling.queueFacts(byName(m.workloads, 'queued-sft'));
  assert.ok(facts);
  assert.equal(facts.kueueWorkload, 'training/pytorchjob-queued-sft-3f2a1');
  assert.equal(facts.gpusAsked, 16);
  assert.deepEqual(facts.shortfalls, [{ resource: 'nvidia.com/gpu', flavor: 'h100', more: '4' }]);
  assert.deepEqual(facts.clusterQueue, {
    name: 'gpu-cluster-queue',
    cohort: 'ai',
    gpu: [{ flavor: 'h100', resource: 'nvidia.com/gpu', nominal: 16, borrowingLimit: 8, usage: 20, borrowed: 4 }],
    pending: 1,
    admitted: 1,
    reserving: 1,
  });
  assert.deepEqual(
    facts.steps.map((s) => [s.label, s.at]),
    [
      ['queued', '2026-12-03T10:00:01Z'],
      ['quota reserved', null],
      ['admitted', null],
    ],
  );
  const admitted = m.scheduling.queueFacts(byName(m.workloads, 'llama-sft'));
  assert.deepEqual(admitted?.admissionChecks, [
    { name: 'capacity-check', state: 'Ready', message: 'capacity provisioned' },
  ]);
  assert.deepEqual(admitted?.shortfalls, [], 'an admitted workload has no shortfall');
  assert.equal(admitted?.steps[2].at, '2026-12-03T09:00:30Z');
  // An Evicted=False condition with a reason is history (it happened before).
  assert.deepEqual(
    admitted?.history.map((h) => `${h.type}=${h.status} ${h.reason}`),
    ['Evicted=False Preempted'],
  );
});

test('Kueue v1beta1: an evicted, preempted Job waits again and says why; spec.cohort is read', () => {
  const m = model('kueue-v1beta1.yaml');
  const job = byName(m.workloads, 'eval-batch');
  const q = m.view.queues.get(job.uid);
  assert.equal(q?.state, 'Preempted');
  assert.equal(q?.clusterQueue, 'a100-queue', 'the LocalQueue names the ClusterQueue when not admitted');
  assert.equal(q?.reason, 'InClusterQueue');
  assert.equal(queueStatusWord(q), 'Preempted');
  const facts = m.scheduling.queueFacts(job);
  assert.equal(facts?.gpusAsked, 4);
  assert.deepEqual(
    facts?.history.map((h) => h.type),
    ['Evicted', 'Preempted', 'Requeued'],
  );
  assert.deepEqual(facts?.shortfalls, [{ resource: 'nvidia.com/gpu', flavor: 'a100', more: null }]);
  assert.equal(facts?.clusterQueue?.cohort, 'ai');
  assert.deepEqual(
    m.view.clusterQueues.map((c) => c.name),
    ['a100-queue'],
  );
});

test('Kueue states by condition, newest meaning first', () => {
  const w = (conditions: object[]): KubeObject => ({
    apiVersion: 'kueue.x-k8s.io/v1beta2',
    kind: 'Workload',
    metadata: { name: 'w', uid: 'u' },
    status: { conditions },
  });
  assert.equal(kueueState(w([])), 'Pending');
  assert.equal(kueueState(w([{ type: 'QuotaReserved', status: 'True' }])), 'QuotaReserved');
  assert.equal(
    kueueState(
      w([
        { type: 'QuotaReserved', status: 'True' },
        { type: 'Admitted', status: 'True' },
      ]),
    ),
    'Admitted',
  );
  assert.equal(kueueState(w([{ type: 'Evicted', status: 'True', reason: 'PodsReadyTimeout' }])), 'Evicted');
  assert.equal(kueueState(w([{ type: 'Evicted', status: 'True', reason: 'Preempted' }])), 'Preempted');
  assert.equal(
    kueueState(
      w([
        { type: 'Admitted', status: 'True' },
        { type: 'Finished', status: 'True' },
      ]),
    ),
    'Finished',
  );
});

test('visibility API positions: position in the ClusterQueue and LocalQueue, the line in order', () => {
  const m = model('kueue-v1beta2.yaml');
  const positions = parsePendingWorkloads({
    kind: 'PendingWorkloadsSummary',
    apiVersion: 'visibility.kueue.x-k8s.io/v1beta2',
    items: [
      {
        metadata: { name: 'pytorchjob-queued-sft-3f2a1', namespace: 'training' },
        priority: 0,
        localQueueName: 'training-queue',
        positionInClusterQueue: 0,
        positionInLocalQueue: 0,
      },
    ],
  });
  m.scheduling.setPositions('gpu-cluster-queue', positions);
  const view = m.scheduling.view(m.workloads);
  const queued = byName(m.workloads, 'queued-sft');
  assert.equal(view.queues.get(queued.uid)?.position, 0);
  assert.equal(m.scheduling.queueFacts(queued)?.positionInLocalQueue, 0);
  const owners = new Map(m.workloads.map((w) => [w.uid, { name: w.name }]));
  const line = m.scheduling.pendingIn('gpu-cluster-queue', owners);
  assert.deepEqual(
    line.map((e) => [e.ownerName, e.localQueue, e.positionInClusterQueue, e.gpus]),
    [['queued-sft', 'training-queue', 0, 16]],
  );
  assert.deepEqual(m.scheduling.clusterQueuesWithPending(), ['gpu-cluster-queue']);
  // An unchanged queue keeps its identity (the workloads view's row cache relies on it).
  assert.equal(m.scheduling.view(m.workloads.slice()).queues.get(queued.uid), view.queues.get(queued.uid));
});

test('KAI PodGroup: its verdict (min members, phase, reason, message) and its Queue GPU quota/usage', () => {
  const m = model('kai-podgroup.yaml');
  const job = byName(m.workloads, 'gang-pretrain');
  const verdicts = m.view.gangs.get(job.uid);
  assert.deepEqual(verdicts, [
    {
      scheduler: 'kai',
      name: 'pg-gang-pretrain-job-gang-pretrain',
      minMember: 4,
      running: null,
      phase: 'Pending',
      reason: 'Unschedulable',
      message: 'Resources were found for 2 pods while 4 are required for gang scheduling',
      queue: 'research',
      queueGpu: { quota: 16, usage: 16 },
    },
  ]);
  const q = m.view.queues.get(job.uid);
  assert.equal(q?.system, 'kai');
  assert.equal(q?.name, 'research');
  assert.equal(q?.state, 'Pending');
  assert.equal(queueStatusWord(q), 'Unschedulable');
  // No definition gang: the PodGroup is the gang of `wlx get -o json`, with the scheduler's message.
  const gangs = gangsWithVerdicts(job, verdicts);
  assert.equal(gangs.length, 1);
  assert.equal(gangs[0].scheduler, 'kai');
  assert.equal(gangs[0].members, 4);
  assert.match(gangs[0].message ?? '', /4 are required/);
});

test('Volcano PodGroup: Unschedulable condition, running count, Queue capability as quota', () => {
  const m = model('volcano-podgroup.yaml');
  const job = byName(m.workloads, 'mpi-bench');
  const [v] = m.view.gangs.get(job.uid) ?? [];
  assert.equal(v.scheduler, 'volcano');
  assert.equal(v.minMember, 3);
  assert.equal(v.running, 1);
  assert.equal(v.phase, 'Inqueue');
  assert.equal(v.reason, 'NotEnoughResources');
  assert.match(v.message ?? '', /3\/3 tasks in gang unschedulable/);
  assert.deepEqual(v.queueGpu, { quota: 4, usage: 1 });
  assert.equal(m.view.queues.get(job.uid)?.system, 'volcano');
});

test('Workload API: gang pod groups of a scheduling.k8s.io/v1alpha1 Workload owned by the job', () => {
  const index = new SchedulingIndex();
  index.apply('ADDED', {
    apiVersion: 'scheduling.k8s.io/v1alpha1',
    kind: 'Workload',
    metadata: {
      name: 'train',
      namespace: 'ns',
      uid: 'wl',
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'train', uid: 'job', controller: true }],
    },
    spec: {
      podGroups: [
        { name: 'workers', policy: { gang: { minCount: 4 } } },
        { name: 'x', policy: { basic: {} } },
      ],
    },
  });
  const view = index.view([{ uid: 'job', name: 'train', namespace: 'ns' }]);
  assert.deepEqual(
    view.gangs.get('job')?.map((g) => `${g.scheduler} ${g.name} ${g.minMember}`),
    ['workload-api train/workers 4'],
  );
  assert.equal(view.queues.get('job'), undefined, 'the Workload API has no queue');
});

test('a job no queue or scheduler holds has no queue; a cluster without those kinds is not active', () => {
  const m = model('kueue-v1beta2.yaml');
  const index = new SchedulingIndex();
  assert.equal(index.view(m.workloads).active, false);
  assert.equal(m.view.active, true);
  const other = { uid: 'nobody', name: 'x', namespace: 'training' };
  assert.equal(m.scheduling.view([other]).queues.get('nobody'), undefined);
  assert.equal(m.scheduling.queueFacts(other), null);
  // Deleting the Kueue Workload lets the job go.
  const kw = m.objects.find((o) => o.kind === 'Workload' && (o.metadata as { uid: string }).uid === 'kw-queued-sft');
  m.scheduling.apply('DELETED', kw as unknown as KubeObject);
  assert.equal(m.scheduling.view(m.workloads).queues.get('job-queued-sft'), undefined);
});

/** A Kueue-admitted Job of two pods on these GPU resources, with its Workload and ClusterQueue. */
function kueueJobOn(resources: Record<string, number>): Record<string, unknown>[] {
  const limits = Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, String(v)]));
  const admitted = { status: 'True', lastTransitionTime: '2026-12-03T09:00:00Z' };
  const pod = (i: number) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `slices-${i}`,
      namespace: 'ns',
      uid: `pod-${i}`,
      labels: { 'batch.kubernetes.io/job-name': 'slices' },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'slices', uid: 'job', controller: true }],
    },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i', resources: { limits } }] },
    status: { phase: 'Running' },
  });
  return [
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'slices', namespace: 'ns', uid: 'job', labels: { 'kueue.x-k8s.io/queue-name': 'lq' } },
      spec: { parallelism: 2, template: { spec: { containers: [{ name: 'c', image: 'i', resources: { limits } }] } } },
      status: { active: 2 },
    },
    pod(0),
    pod(1),
    {
      apiVersion: 'kueue.x-k8s.io/v1beta2',
      kind: 'Workload',
      metadata: {
        name: 'job-slices',
        namespace: 'ns',
        uid: 'kw',
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'slices', uid: 'job', controller: true }],
      },
      spec: {
        queueName: 'lq',
        podSets: [
          { name: 'main', count: 2, template: { spec: { containers: [{ name: 'c', resources: { limits } }] } } },
        ],
      },
      status: {
        admission: { clusterQueue: 'cq' },
        conditions: [
          { type: 'QuotaReserved', ...admitted },
          { type: 'Admitted', ...admitted },
        ],
      },
    },
    {
      apiVersion: 'kueue.x-k8s.io/v1beta2',
      kind: 'LocalQueue',
      metadata: { name: 'lq', namespace: 'ns', uid: 'lq' },
      spec: { clusterQueue: 'cq' },
    },
    {
      apiVersion: 'kueue.x-k8s.io/v1beta2',
      kind: 'ClusterQueue',
      metadata: { name: 'cq', uid: 'cq' },
      spec: {
        resourceGroups: [
          {
            coveredResources: Object.keys(resources),
            flavors: [{ name: 'f', resources: Object.keys(resources).map((name) => ({ name, nominalQuota: 8 })) }],
          },
        ],
      },
    },
  ];
}

test('Kueue counts GPUs as the trees do: whole GPUs of the --gpu-resource names, the other GPU kinds beside', () => {
  const cases: { resources: Record<string, number>; gpuResources?: string[] }[] = [
    { resources: { 'nvidia.com/mig-1g.10gb': 1 } },
    { resources: { 'gpu.intel.com/i915': 1 } },
    { resources: { 'nvidia.com/gpu': 1, 'nvidia.com/gpu.shared': 2 } },
    { resources: { 'nvidia.com/gpu': 1, 'example.com/accel': 1 }, gpuResources: ['example.com/accel'] },
  ];
  for (const { resources, gpuResources } of cases) {
    const label = `${JSON.stringify(resources)} --gpu-resource ${gpuResources ?? '(default)'}`;
    const m = buildOfflineModel(kueueJobOn(resources), definitions, { gpuResources });
    const tree = byName(m.store.workloads(), 'slices');
    const facts = m.scheduling.queueFacts(tree);
    assert.ok(facts, label);
    assert.equal(facts.gpusAsked, tree.gpus.requested, `${label}: GPUs asked`);
    assert.deepEqual(facts.gpuSlicesAsked, tree.gpus.slices, `${label}: slices asked`);
    // Each GPU kind of the ClusterQueue is a quota line.
    assert.deepEqual(
      facts.clusterQueue?.gpu.map((f) => f.resource),
      Object.keys(resources),
      `${label}: GPU quota`,
    );
  }
});
