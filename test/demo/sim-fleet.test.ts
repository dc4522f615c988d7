// The fleet scenario and its MultiKueue (demo/sim/fleet.ts, multikueue.ts):
// llm-sft's Workload is copied to both workers, east admits it, west's copy
// goes, the job's copy runs on east with the origin and prebuilt labels while
// the manager's job (managed by MultiKueue) has no pods and mirrors the copy's
// status; llm-pretrain-70b keeps its check Pending, nominated to both workers,
// each copy waiting with Kueue's quota message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore, type StoredObject } from '../../demo/object-store.js';
import { FLEET_MEMBERS, startFleetSimulation } from '../../demo/sim/fleet.js';
import { FLEET_DISPATCHED, FLEET_WAITING, type FleetMember } from '../../demo/sim/scenarios/fleet.js';
import { MULTIKUEUE_ORIGIN_LABEL, PREBUILT_WORKLOAD_LABEL } from '../../demo/kinds-multikueue.js';
import type { WorkloadObject } from '../../demo/sim/controllers/kueue.js';
import { R, type Condition, type Pod } from '../../demo/sim/types.js';
import { until } from './sim-helpers.js';

function condition(obj: StoredObject | undefined, type: string): Condition | undefined {
  return (obj?.['status'] as { conditions?: Condition[] } | undefined)?.conditions?.find((c) => c.type === type);
}

function kueueWorkload(store: ObjectStore, job: string): WorkloadObject | undefined {
  return (store.list(R.workloads, 'training') as WorkloadObject[]).find((w) =>
    w.metadata.name.startsWith(`pytorchjob-${job}-`),
  );
}

test('MultiKueue: one job runs on east, the other waits on the manager with both workers tried', async (t) => {
  const stores = {} as Record<FleetMember, ObjectStore>;
  for (const m of FLEET_MEMBERS) stores[m] = new ObjectStore();
  const sim = startFleetSimulation(stores, { seed: 1, speed: 50 });
  t.after(() => sim.stop());
  const { manager, east, west } = stores;

  await until('llm-sft pods on east', () => east.list(R.pods, 'training').length >= 2);
  const sft = kueueWorkload(manager, FLEET_DISPATCHED.name)!;
  assert.equal(sft.status?.['clusterName'], 'east');
  const check = (sft.status?.admissionChecks as { name: string; state: string; message: string }[])[0];
  assert.deepEqual(
    [check.name, check.state, check.message],
    ['multikueue', 'Ready', 'The workload got reservation on "east"'],
  );
  assert.equal(condition(sft, 'Admitted')?.status, 'True');
  // The copy on east: same namespace and name, owned by the job's copy, which carries the origin.
  const copy = east.get(R.workloads, 'training', sft.metadata.name)!;
  assert.equal(copy.metadata.labels?.[MULTIKUEUE_ORIGIN_LABEL], 'multikueue');
  const jobCopy = east.get(R.pytorchjobs, 'training', FLEET_DISPATCHED.name)!;
  assert.equal(jobCopy.metadata.labels?.[MULTIKUEUE_ORIGIN_LABEL], 'multikueue');
  assert.equal(jobCopy.metadata.labels?.[PREBUILT_WORKLOAD_LABEL], sft.metadata.name);
  assert.equal(copy.metadata.ownerReferences?.[0]?.uid, jobCopy.metadata.uid);
  assert.equal(west.get(R.workloads, 'training', sft.metadata.name), undefined, "west's copy removed");
  // Pods only on the worker; the manager's job mirrors the copy's status.
  assert.deepEqual((east.list(R.pods, 'training') as Pod[]).map((p) => p.metadata.name).sort(), [
    'llm-sft-master-0',
    'llm-sft-worker-0',
  ]);
  assert.equal(manager.list(R.pods, 'training').length, 0);
  await until(
    "the manager's job mirrors Running",
    () => condition(manager.get(R.pytorchjobs, 'training', FLEET_DISPATCHED.name), 'Running')?.status === 'True',
  );

  const waiting = kueueWorkload(manager, FLEET_WAITING.name)!;
  assert.equal(condition(waiting, 'QuotaReserved')?.status, 'True');
  assert.equal(condition(waiting, 'Admitted')?.status, 'False');
  assert.equal(waiting.status?.['clusterName'], undefined);
  assert.deepEqual(waiting.status?.['nominatedClusterNames'], ['east', 'west']);
  assert.equal((waiting.status?.admissionChecks as { state: string }[])[0].state, 'Pending');
  const messages = [east, west].map((s) =>
    condition(s.get(R.workloads, 'training', waiting.metadata.name), 'QuotaReserved'),
  );
  assert.deepEqual(
    messages.map((c) => [c?.status, c?.message]),
    [
      [
        'False',
        "couldn't assign flavors to pod set worker: insufficient unused quota for nvidia.com/gpu in flavor h100, 24 more needed",
      ],
      [
        'False',
        "couldn't assign flavors to pod set worker: insufficient unused quota for nvidia.com/gpu in flavor a100, 28 more needed",
      ],
    ],
  );
  assert.equal(
    east.get(R.pytorchjobs, 'training', FLEET_WAITING.name),
    undefined,
    'no job copy before a worker admits',
  );
  // Each worker has local work of its own.
  assert.ok(east.get(R.leaderworkersets, 'inference', 'llama-70b'));
  assert.ok(west.get(R.pytorchjobs, 'training', 'resnet-finetune'));
});
