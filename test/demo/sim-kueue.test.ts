// The simulated Kueue and KAI of the default scenario: training jobs admitted
// at start within gpu-cluster-queue's quota and unsuspended, queued-sft and
// mmlu-eval pending in order with Kueue's quota message, queue status, quota
// released when a job finishes, a job admitted when quota frees up, and the
// KAI gang's PodGroup verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore, type StoredObject } from '../../demo/object-store.js';
import { assembleControlPlane } from '../../demo/sim/assemble.js';
import { pendingInClusterQueue, type WorkloadObject } from '../../demo/sim/controllers/kueue.js';
import { TRAINING_GPU_QUOTA } from '../../demo/sim/scenarios/default.js';
import { R, type Condition, type Pod } from '../../demo/sim/types.js';
import { startSim, until } from './sim-helpers.js';

function condition(obj: StoredObject | undefined, type: string): Condition | undefined {
  return (obj?.['status'] as { conditions?: Condition[] } | undefined)?.conditions?.find((c) => c.type === type);
}

function workloadOf(store: ObjectStore, namespace: string, job: string): WorkloadObject {
  const w = (store.list(R.workloads, namespace) as WorkloadObject[]).find(
    (x) => x.metadata.ownerReferences?.[0]?.name === job,
  );
  assert.ok(w, `a Workload owned by ${namespace}/${job}`);
  return w;
}

test('training jobs are admitted at start in gpu-cluster-queue and run; queued-sft and mmlu-eval wait in order', async (t) => {
  const f = startSim(t);
  for (const [ns, job] of [
    ['training', 'bert-finetune'],
    ['training', 'llama-pretrain'],
    ['training', 'broken-finetune'],
    ['training', 'stuck-pretrain'],
  ]) {
    const w = workloadOf(f.store, ns, job);
    assert.equal(w.spec.queueName, 'training-queue');
    assert.equal(w.metadata.ownerReferences?.[0]?.controller, true);
    assert.equal(condition(w, 'QuotaReserved')?.status, 'True', job);
    assert.equal(condition(w, 'Admitted')?.status, 'True', job);
    assert.equal(w.status?.admission?.clusterQueue, 'gpu-cluster-queue');
    assert.equal(
      (w.status?.admission?.podSetAssignments[0]?.['flavors'] as Record<string, string>)['nvidia.com/gpu'],
      'h100',
    );
  }
  // Pod sets as Kueue's integrations name and count them.
  const stuck = workloadOf(f.store, 'training', 'stuck-pretrain');
  assert.deepEqual(
    stuck.spec.podSets.map((p) => [p.name, p.count]),
    [['worker', 8]],
  );
  assert.deepEqual(
    workloadOf(f.store, 'training', 'bert-finetune').spec.podSets.map((p) => [p.name, p.count]),
    [
      ['master', 1],
      ['worker', 3],
    ],
  );
  assert.equal(stuck.spec.priority, -10, 'the preemptible PriorityClass');
  assert.equal((f.get(R.jobsets, 'training', 'llama-pretrain')!.spec as { suspend: boolean }).suspend, false);
  await until(
    'bert-finetune running',
    () => f.pods('training').filter((p) => p.metadata.name.startsWith('bert-finetune-')).length === 4,
  );

  const sft = workloadOf(f.store, 'training', 'queued-sft');
  const reserved = condition(sft, 'QuotaReserved');
  assert.equal(reserved?.status, 'False');
  assert.equal(reserved?.reason, 'Pending');
  assert.equal(
    reserved?.message,
    "couldn't assign flavors to pod set worker: insufficient unused quota for nvidia.com/gpu in flavor h100, 16 more needed",
  );
  assert.equal(sft.status?.admission, undefined);
  const job = f.get(R.pytorchjobs, 'training', 'queued-sft')!;
  assert.equal((job.spec as { runPolicy: { suspend: boolean } }).runPolicy.suspend, true);
  assert.equal(condition(job, 'Suspended')?.status, 'True');
  assert.equal(
    f.pods('training').filter((p) => p.metadata.name.startsWith('queued-sft-')).length,
    0,
    'no pods while suspended',
  );
  assert.match(condition(workloadOf(f.store, 'research', 'mmlu-eval'), 'QuotaReserved')!.message!, /8 more needed$/);

  const pending = pendingInClusterQueue(f.store, 'gpu-cluster-queue')!;
  assert.deepEqual(
    pending.map((p) => [p.workload.metadata.namespace, p.localQueue, p.positionInClusterQueue, p.positionInLocalQueue]),
    [
      ['training', 'training-queue', 0, 0],
      ['research', 'research-queue', 1, 0],
    ],
  );

  const cq = f.get(R.clusterqueues, undefined, 'gpu-cluster-queue')!;
  const st = cq['status'] as { pendingWorkloads: number; admittedWorkloads: number; flavorsUsage: unknown };
  assert.equal(st.pendingWorkloads, 2);
  assert.equal(st.admittedWorkloads, 4);
  assert.deepEqual(st.flavorsUsage, [
    {
      name: 'h100',
      resources: [
        { name: 'cpu', total: '712', borrowed: '0' },
        { name: 'memory', total: '8128Gi', borrowed: '0' },
        { name: 'nvidia.com/gpu', total: String(TRAINING_GPU_QUOTA), borrowed: '0' },
      ],
    },
  ]);
  const lq = f.get(R.localqueues, 'research', 'research-queue')!['status'] as Record<string, number>;
  assert.equal(lq.pendingWorkloads, 1);
  assert.equal(lq.admittedWorkloads, 0);
});

test('KAI gang research/vlm-pretrain: a PodGroup with minMember, queue and the Unschedulable verdict; pods annotated, unbound', async (t) => {
  const f = startSim(t);
  const pg = await until('the PodGroup is judged', () => {
    const g = f.store.list(R.podgroups, 'research')[0];
    return (g?.['status'] as { schedulingConditions?: unknown[] } | undefined)?.schedulingConditions ? g : undefined;
  });
  const spec = pg.spec as { minMember: number; queue: string };
  assert.equal(spec.minMember, 8);
  assert.equal(spec.queue, 'research');
  assert.equal(pg.metadata.ownerReferences?.[0]?.name, 'vlm-pretrain');
  const status = pg['status'] as { phase: string; schedulingConditions: Condition[] };
  assert.equal(status.phase, 'Pending');
  const [verdict] = status.schedulingConditions;
  assert.equal(verdict.type, 'UnschedulableOnNodePool');
  assert.equal(verdict.reason, 'Unschedulable');
  assert.match(verdict.message!, /while 8 are required for gang scheduling/);
  const pods = f.pods('research').filter((p) => p.metadata.name.startsWith('vlm-pretrain-'));
  assert.equal(pods.length, 8);
  for (const p of pods) {
    assert.equal(p.spec.schedulerName, 'kai-scheduler');
    assert.equal(p.metadata.annotations?.['pod-group-name'], pg.metadata.name);
    assert.equal(p.spec.nodeName, undefined);
  }
  const kaiQueue = f.get(R.kaiqueues, undefined, 'research')!;
  assert.equal((kaiQueue.spec as { resources: { gpu: { quota: number } } }).resources.gpu.quota, 16);
  assert.deepEqual((kaiQueue['status'] as { requested: unknown }).requested, { 'nvidia.com/gpu': '64' });
});

/** A control plane with one ClusterQueue of `gpus` and jobs the test creates. */
function smallCluster(gpus: number) {
  const store = new ObjectStore();
  const plane = assembleControlPlane(store, { seed: 1, speed: 1000 });
  const meta = (name: string, namespace?: string) => ({
    name,
    ...(namespace ? { namespace } : {}),
    uid: '',
    resourceVersion: '',
    creationTimestamp: '',
  });
  plane.rt.create(R.clusterqueues, {
    apiVersion: 'kueue.x-k8s.io/v1beta2',
    kind: 'ClusterQueue',
    metadata: meta('cq'),
    spec: {
      resourceGroups: [
        {
          coveredResources: ['nvidia.com/gpu'],
          flavors: [{ name: 'a100', resources: [{ name: 'nvidia.com/gpu', nominalQuota: gpus }] }],
        },
      ],
    },
  });
  plane.rt.create(R.localqueues, {
    apiVersion: 'kueue.x-k8s.io/v1beta2',
    kind: 'LocalQueue',
    metadata: meta('lq', 'team'),
    spec: { clusterQueue: 'cq' },
  });
  const submit = (name: string, workers: number, createdAt: string): void => {
    plane.rt.create(R.pytorchjobs, {
      apiVersion: 'kubeflow.org/v1',
      kind: 'PyTorchJob',
      metadata: { ...meta(name, 'team'), creationTimestamp: createdAt, labels: { 'kueue.x-k8s.io/queue-name': 'lq' } },
      spec: {
        runPolicy: { suspend: true },
        pytorchReplicaSpecs: {
          Worker: {
            replicas: workers,
            template: {
              spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { 'nvidia.com/gpu': '1' } } }] },
            },
          },
        },
      },
    });
  };
  return { store, plane, submit };
}

test('admission in order while quota fits (BestEffortFIFO), and a finished job frees its quota for the next', async (t) => {
  const { store, plane, submit } = smallCluster(4);
  t.after(() => plane.stop());
  submit('first', 3, '2026-01-01T00:00:00Z');
  submit('too-big', 2, '2026-01-01T00:00:01Z');
  submit('small', 1, '2026-01-01T00:00:02Z');
  plane.rt.flush();
  const admitted = (job: string) => condition(workloadOf(store, 'team', job), 'Admitted')?.status === 'True';
  assert.deepEqual(['first', 'too-big', 'small'].map(admitted), [true, false, true], 'small fits behind too-big');
  assert.equal(
    condition(workloadOf(store, 'team', 'too-big'), 'QuotaReserved')?.message,
    "couldn't assign flavors to pod set worker: insufficient unused quota for nvidia.com/gpu in flavor a100, 2 more needed",
  );
  assert.equal(pendingInClusterQueue(store, 'cq')?.length, 1);
  assert.equal(pendingInClusterQueue(store, 'missing'), undefined);
  await until('first has pods', () =>
    (store.list(R.pods, 'team') as Pod[]).some((p) => p.metadata.name === 'first-worker-0'),
  );

  // first finishes: its Workload is Finished and too-big is admitted into the freed quota.
  const first = store.get(R.pytorchjobs, 'team', 'first')!;
  plane.rt.update(R.pytorchjobs, first, {
    status: { conditions: [{ type: 'Succeeded', status: 'True', reason: 'PyTorchJobSucceeded', message: 'done' }] },
  });
  plane.rt.flush();
  assert.equal(condition(workloadOf(store, 'team', 'first'), 'Finished')?.status, 'True');
  assert.equal(admitted('too-big'), true);
  assert.equal(
    (store.get(R.pytorchjobs, 'team', 'too-big')!.spec as { runPolicy: { suspend: boolean } }).runPolicy.suspend,
    false,
  );
  assert.equal((store.get(R.clusterqueues, undefined, 'cq')!['status'] as Record<string, number>).pendingWorkloads, 0);
});
