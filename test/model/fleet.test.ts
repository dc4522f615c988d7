// The fleet's pure parts: the MultiKueue link from a manager's job to its copy
// in a worker, from newer Kueue (status.clusterName) and older (the check's
// message only); the workers a waiting job was tried on; which context a
// MultiKueueCluster name stands for; GPUs by model; the merged snapshot
// (tags, totals, one dead cluster named, tagged objects reused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FleetMember, KubeObject, ModelSnapshot } from '../../src/model/types.js';
import { MultiKueueIndex, readDispatch, reservationCluster } from '../../src/model/fleet/multikueue.js';
import { fleetKey, linkFleet, resolveWorker, type FleetMemberModel } from '../../src/model/fleet/link.js';
import { fleetState, gpusByModel, summariseCluster } from '../../src/model/fleet/summary.js';
import { FleetMerger } from '../../src/model/fleet/merge.js';
import { EMPTY_SCHEDULING } from '../../src/model/scheduling/index.js';
import { defaultSnapshot, node, workload } from '../ui/fixtures.js';

const KUEUE = 'kueue.x-k8s.io/v1beta2';

function kueueWorkload(
  name: string,
  owner: { name: string; uid: string } | null,
  status: Record<string, unknown>,
  labels: Record<string, string> = {},
): KubeObject {
  return {
    apiVersion: KUEUE,
    kind: 'Workload',
    metadata: {
      name,
      namespace: 'training',
      uid: `wl-${name}-${owner?.uid ?? 'none'}`,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels,
      ...(owner
        ? {
            ownerReferences: [
              { apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', name: owner.name, uid: owner.uid, controller: true },
            ],
          }
        : {}),
    },
    spec: { queueName: 'training-queue' },
    status,
  };
}

function cluster(kind: string, name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: KUEUE, kind, metadata: { name, uid: `${kind}-${name}` }, spec };
}

const reserved = { type: 'QuotaReserved', status: 'True', reason: 'QuotaReserved', message: 'Quota reserved' };
const pytorch = (name: string, uid: string, status: string[] = ['Running']) =>
  workload(name, [], { uid, kind: 'PyTorchJob', apiVersion: 'kubeflow.org/v1', status: status as never });

/** A manager (context wlx-fleet-manager) holding llm-sft on `east` and llm-pretrain waiting, in Kueue's newer or older shape. */
function managerIndex(shape: 'newer' | 'older'): MultiKueueIndex {
  const idx = new MultiKueueIndex();
  idx.apply(
    'ADDED',
    cluster('AdmissionCheck', 'mk', {
      controllerName: 'kueue.x-k8s.io/multikueue',
      parameters: { apiGroup: 'kueue.x-k8s.io', kind: 'MultiKueueConfig', name: 'cfg' },
    }),
  );
  idx.apply('ADDED', cluster('MultiKueueConfig', 'cfg', { clusters: ['east', 'west'] }));
  idx.apply(
    'ADDED',
    cluster('MultiKueueCluster', 'east', {
      clusterSource: { kubeConfig: { locationType: 'Secret', location: 'east-kc' } },
    }),
  );
  // v1beta1 spells the kubeconfig directly under spec.
  idx.apply(
    'ADDED',
    cluster('MultiKueueCluster', 'west', { kubeConfig: { location: '/etc/west.kubeconfig', locationType: 'Path' } }),
  );
  const ready = { name: 'mk', state: 'Ready', message: 'The workload got reservation on "east"' };
  idx.apply(
    'ADDED',
    kueueWorkload(
      'pytorchjob-llm-sft-1',
      { name: 'llm-sft', uid: 'm-sft' },
      shape === 'newer'
        ? { conditions: [reserved], admissionChecks: [ready], clusterName: 'east' }
        : { conditions: [reserved], admissionChecks: [ready] },
    ),
  );
  idx.apply(
    'ADDED',
    kueueWorkload(
      'pytorchjob-llm-pretrain-2',
      { name: 'llm-pretrain', uid: 'm-pre' },
      shape === 'newer'
        ? {
            conditions: [reserved],
            admissionChecks: [{ name: 'mk', state: 'Pending' }],
            nominatedClusterNames: ['east', 'west'],
          }
        : { conditions: [reserved], admissionChecks: [{ name: 'mk', state: 'Pending' }] },
    ),
  );
  return idx;
}

function workerIndex(admittedCopy: boolean, quotaMessage: string): MultiKueueIndex {
  const idx = new MultiKueueIndex();
  const origin = { 'kueue.x-k8s.io/multikueue-origin': 'multikueue' };
  if (admittedCopy)
    idx.apply(
      'ADDED',
      kueueWorkload(
        'pytorchjob-llm-sft-1',
        { name: 'llm-sft', uid: 'e-sft' },
        { conditions: [reserved, { type: 'Admitted', status: 'True' }] },
        origin,
      ),
    );
  idx.apply(
    'ADDED',
    kueueWorkload(
      'pytorchjob-llm-pretrain-2',
      null,
      { conditions: [{ type: 'QuotaReserved', status: 'False', reason: 'Pending', message: quotaMessage }] },
      origin,
    ),
  );
  return idx;
}

function fleetModels(shape: 'newer' | 'older'): FleetMemberModel[] {
  return [
    {
      context: 'wlx-fleet-manager',
      multiKueue: managerIndex(shape).view(),
      workloads: [pytorch('llm-sft', 'm-sft'), pytorch('llm-pretrain', 'm-pre', ['Initializing'])],
    },
    {
      context: 'wlx-fleet-east',
      multiKueue: workerIndex(
        true,
        'insufficient unused quota for nvidia.com/gpu in flavor h100, 24 more needed',
      ).view(),
      workloads: [pytorch('llm-sft', 'e-sft')],
    },
    {
      context: 'wlx-fleet-west',
      multiKueue: workerIndex(
        false,
        'insufficient unused quota for nvidia.com/gpu in flavor a100, 28 more needed',
      ).view(),
      workloads: [],
    },
  ];
}

for (const shape of ['newer', 'older'] as const)
  test(`MultiKueue link (${shape} Kueue): the manager's job runs on east; the copy knows where it came from`, () => {
    const links = linkFleet(fleetModels(shape));
    assert.deepEqual(links.remote.get(fleetKey('wlx-fleet-manager', 'm-sft')), {
      cluster: 'wlx-fleet-east',
      worker: 'east',
      namespace: 'training',
      name: 'llm-sft',
      uid: 'e-sft',
      status: ['Running'],
    });
    assert.deepEqual(links.origin.get(fleetKey('wlx-fleet-east', 'e-sft')), {
      cluster: 'wlx-fleet-manager',
      origin: 'multikueue',
      namespace: 'training',
      name: 'llm-sft',
      uid: 'm-sft',
    });
    // The waiting job: both workers of the config tried, each with its Kueue's word.
    assert.deepEqual(links.tried.get(fleetKey('wlx-fleet-manager', 'm-pre')), [
      {
        worker: 'east',
        cluster: 'wlx-fleet-east',
        state: 'Pending',
        message: 'insufficient unused quota for nvidia.com/gpu in flavor h100, 24 more needed',
      },
      {
        worker: 'west',
        cluster: 'wlx-fleet-west',
        state: 'Pending',
        message: 'insufficient unused quota for nvidia.com/gpu in flavor a100, 28 more needed',
      },
    ]);
    assert.equal(links.remote.has(fleetKey('wlx-fleet-manager', 'm-pre')), false);
  });

test('dispatch: where the worker is read from, and the workers as MultiKueueClusters say', () => {
  const newer = managerIndex('newer').view();
  const older = managerIndex('older').view();
  assert.equal(newer.dispatches.get('m-sft')?.via, 'clusterName');
  assert.equal(older.dispatches.get('m-sft')?.via, 'message');
  assert.equal(older.dispatches.get('m-sft')?.cluster, 'east');
  // Nominated (newer) or the config's clusters (older): the same candidates.
  assert.deepEqual(newer.dispatches.get('m-pre')?.candidates, ['east', 'west']);
  assert.deepEqual(older.dispatches.get('m-pre')?.candidates, ['east', 'west']);
  assert.deepEqual(
    newer.workers.map((w) => [w.name, w.kubeconfig]),
    [
      ['east', { location: 'east-kc', locationType: 'Secret' }],
      ['west', { location: '/etc/west.kubeconfig', locationType: 'Path' }],
    ],
  );
  assert.equal(reservationCluster('The workload got reservation on "worker1"'), 'worker1');
  assert.equal(reservationCluster('Reserving remote lost'), null);
  // A Pending check's old message does not name where it runs.
  const retry = readDispatch(
    kueueWorkload(
      'x',
      { name: 'x', uid: 'x' },
      {
        admissionChecks: [{ name: 'mk', state: 'Retry', message: 'The workload got reservation on "east"' }],
      },
    ),
    new Set(['mk']),
  );
  assert.equal(retry?.cluster, null);
  // Without AdmissionCheck objects (not readable), a check is MultiKueue's by its message or name.
  assert.equal(
    readDispatch(kueueWorkload('y', null, { admissionChecks: [{ name: 'prov', state: 'Pending' }] }), null),
    null,
  );
});

test('a MultiKueueCluster name as a fleet context: exact, one word of one context, the copy holder; else unknown', () => {
  const m = (context: string, clusterName: string | null = null): FleetMemberModel => ({
    context,
    clusterName,
    workloads: [],
  });
  assert.equal(resolveWorker('east', [m('east'), m('wlx-east')]), 'east');
  assert.equal(resolveWorker('worker1', [m('prod', 'worker1')]), 'prod');
  assert.equal(
    resolveWorker('east', [m('gke_proj_us-east1_east'), m('gke_proj_us-west1_west')]),
    'gke_proj_us-east1_east',
  );
  assert.equal(resolveWorker('gpu', [m('gpu-a'), m('gpu-b')]), null, 'two contexts have the word');
  const holder = m('gpu-b');
  assert.equal(
    resolveWorker('gpu', [m('gpu-a'), holder], (x) => x === holder),
    'gpu-b',
  );
});

test('GPUs by model: whole GPUs by product, each MIG profile and DRA class by resource; free never negative', () => {
  const byModel = gpusByModel([
    node('h1', {
      gpuModel: 'NVIDIA-H100-80GB-HBM3',
      gpuResources: { 'nvidia.com/gpu': { capacity: 8, allocatable: 8, requested: 6 } },
    }),
    node('h2', {
      gpuModel: 'NVIDIA-H100-80GB-HBM3',
      gpuResources: { 'nvidia.com/gpu': { capacity: 8, allocatable: 8, requested: 8 } },
    }),
    node('a1', {
      gpuModel: 'NVIDIA-A100-SXM4-80GB',
      gpuResources: {
        'nvidia.com/gpu': { capacity: 8, allocatable: 7, requested: 8 },
        'nvidia.com/mig-1g.10gb': { capacity: 56, allocatable: 56, requested: 1 },
      },
    }),
    node('d1', {
      gpuModel: null,
      gpuResources: { 'dra:gpu.nvidia.com': { capacity: 8, allocatable: 8, requested: 1 } },
    }),
    node('unlabelled', {
      gpuModel: null,
      gpuResources: { 'nvidia.com/gpu': { capacity: 4, allocatable: 4, requested: 0 } },
    }),
  ]);
  assert.deepEqual(byModel, {
    'NVIDIA-A100-SXM4-80GB': { allocatable: 7, requested: 8, free: 0 },
    'NVIDIA-H100-80GB-HBM3': { allocatable: 16, requested: 14, free: 2 },
    'dra:gpu.nvidia.com': { allocatable: 8, requested: 1, free: 7 },
    'nvidia.com/gpu': { allocatable: 4, requested: 0, free: 4 },
    'nvidia.com/mig-1g.10gb': { allocatable: 56, requested: 1, free: 55 },
  });
});

test('fleet state: live, connecting, and why a cluster fails', () => {
  const c = (state: 'live' | 'syncing' | 'connecting' | 'retrying', kind?: string) =>
    ({
      state,
      since: '',
      synced: 0,
      total: 1,
      failing: [],
      forbidden: [],
      ...(kind ? { cause: { kind, text: kind } } : {}),
    }) as never;
  assert.equal(fleetState(c('live')), 'live');
  assert.equal(fleetState(c('syncing')), 'connecting');
  assert.equal(fleetState(c('connecting')), 'connecting');
  assert.equal(fleetState(c('retrying', 'unreachable')), 'unreachable');
  assert.equal(fleetState(c('retrying', 'tls')), 'unreachable');
  assert.equal(fleetState(c('retrying', 'unauthorized')), 'unauthorized');
  assert.equal(fleetState(c('retrying', 'credentials')), 'unauthorized');
  assert.equal(fleetState(c('retrying', 'forbidden')), 'forbidden');
  assert.equal(fleetState(null, { kind: 'unreachable', text: 'connection timed out after 10 s' }), 'unreachable');
});

function member(context: string, snapshot: ModelSnapshot | null, error?: string): FleetMember {
  return {
    context,
    snapshot,
    summary: summariseCluster(
      { context, server: null, version: null, error: error ? { kind: 'unreachable', text: error } : null },
      snapshot,
    ),
  };
}

test('merge: workloads and nodes tagged with their cluster, totals summed, a dead cluster named, objects reused', () => {
  const a = defaultSnapshot(3);
  const b = { ...defaultSnapshot(5), workloads: [workload('other', [], { uid: 'uid-other' })] };
  const merger = new FleetMerger();
  const members = [member('a', a), member('b', b), member('dead', null, 'connect ECONNREFUSED 127.0.0.1:1')];
  const merged = merger.merge(members);
  assert.equal(merged.workloads.length, a.workloads.length + 1);
  assert.deepEqual([...new Set(merged.workloads.map((w) => w.cluster))], ['a', 'b']);
  assert.equal(merged.nodes.length, a.nodes.length + b.nodes.length);
  assert.ok(merged.nodes.every((n) => n.cluster === 'a' || n.cluster === 'b'));
  assert.equal(merged.totals.gpuAllocatable, a.totals.gpuAllocatable + b.totals.gpuAllocatable);
  assert.equal(merged.connection.state, 'retrying');
  assert.deepEqual(merged.connection.failing, ['dead']);
  assert.ok(merged.problems[0].startsWith('dead: unreachable: connect ECONNREFUSED'));
  assert.equal(merged.fleet?.members.length, 3);
  assert.equal(merged.fleet?.members[2].summary.state, 'unreachable');
  // The source untouched; the same inputs give the same snapshot; a change elsewhere keeps a's tagged objects.
  assert.equal(a.workloads[0].cluster, undefined);
  assert.equal(merger.merge(members), merged);
  const again = merger.merge([members[0], member('b', { ...b, version: 6 }), members[2]]);
  assert.notEqual(again, merged);
  assert.ok(again.version > merged.version);
  assert.equal(again.workloads[0], merged.workloads[0]);
  // A member's line changes without a snapshot (it failed to open): a new merge, not the cached one.
  const failed = merger.merge([members[0], member('b', { ...b, version: 6 }), member('dead', null, 'forbidden')]);
  assert.notEqual(failed, again);
  assert.equal(failed.fleet?.members[2].summary.error, 'forbidden');
});

test("merge: a member's progress alone keeps the merged workloads, nodes, orphans and scheduling; a change makes new ones", () => {
  // Both with a queue view: merging two makes a new one, which a progress alone must not.
  const queued = { ...EMPTY_SCHEDULING, active: true };
  const a = { ...defaultSnapshot(3), scheduling: queued };
  const b = {
    ...defaultSnapshot(5),
    workloads: [workload('other', [], { uid: 'uid-other' })],
    scheduling: { ...queued },
  };
  const merger = new FleetMerger();
  const first = merger.merge([member('a', a), member('b', b)]);
  assert.ok(first.scheduling && first.scheduling !== a.scheduling && first.scheduling !== b.scheduling);
  // b lists another page: a new snapshot with its progress, the same objects.
  const progress = { ...b, version: 6, connection: { ...b.connection, synced: b.connection.synced + 1 } };
  const next = merger.merge([member('a', a), member('b', progress)]);
  assert.notEqual(next, first);
  assert.equal(next.workloads, first.workloads);
  assert.equal(next.nodes, first.nodes);
  assert.equal(next.orphanPods, first.orphanPods);
  assert.equal(next.scheduling, first.scheduling);
  // b's workloads change: new arrays, a's tagged objects still the same.
  const changed = { ...progress, version: 7, workloads: [workload('another', [], { uid: 'uid-another' })] };
  const after = merger.merge([member('a', a), member('b', changed)]);
  assert.notEqual(after.workloads, first.workloads);
  assert.deepEqual(after.workloads.map((w) => w.name).slice(-1), ['another']);
  assert.equal(after.workloads[0], first.workloads[0]);
  assert.equal(after.nodes, first.nodes);
});

test('cluster summary: nodes ready/total, GPUs, workloads by status; unknown (null) before the first sync', () => {
  const s = defaultSnapshot(1);
  const sum = summariseCluster({ context: 'a', server: 'https://a', version: 'v1.32.0' }, s);
  assert.equal(sum.state, 'live');
  assert.deepEqual(sum.nodes, { ready: s.nodes.filter((n) => n.ready).length, total: s.nodes.length });
  assert.equal(sum.gpus?.allocatable, s.totals.gpuAllocatable);
  assert.equal(
    Object.values(sum.workloads).reduce((x, y) => x + y, 0) >= s.workloads.length,
    true,
    'every workload counted under its words',
  );
  const none = summariseCluster({ context: 'b', server: null, version: null }, null);
  assert.deepEqual([none.state, none.nodes, none.gpus, none.utilization], ['connecting', null, null, null]);
});

test('why: a MultiKueue job waiting on its manager names each worker tried and what its Kueue said', async () => {
  const { explainWhy } = await import('../../src/model/why.js');
  const links = linkFleet(fleetModels('newer'));
  const tries = links.tried.get(fleetKey('wlx-fleet-manager', 'm-pre'))!;
  const report = explainWhy({
    workload: pytorch('llm-pretrain', 'm-pre', ['Initializing']),
    pods: [],
    multiKueueTries: tries,
  });
  const cause = report.causes.find((c) => c.kind === 'multikueue-waiting')!;
  assert.equal(cause.title, 'MultiKueue: no worker has admitted it yet (tried 2 workers)');
  assert.deepEqual(cause.details, [
    'east (cluster wlx-fleet-east): Pending: insufficient unused quota for nvidia.com/gpu in flavor h100, 24 more needed',
    'west (cluster wlx-fleet-west): Pending: insufficient unused quota for nvidia.com/gpu in flavor a100, 28 more needed',
  ]);
});

test('fleet state: a context whose kubeconfig entry is broken is invalid, not a network word', () => {
  const cause = { kind: 'kubeconfig' as const, text: 'kubeconfig /k: context "x": cluster "y" is not defined' };
  assert.equal(fleetState(null, cause), 'invalid');
  const s = summariseCluster({ context: 'x', server: null, version: null, error: cause }, null);
  assert.deepEqual([s.state, s.error], ['invalid', cause.text]);
});
