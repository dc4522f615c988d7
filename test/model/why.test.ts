import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainWhy, freeGpuLines, keyReason } from '../../src/model/why.js';
import {
  FIT_ERROR,
  at,
  event,
  node,
  pod,
  readyPodConds,
  summary,
  tree,
  unschedulableCond,
} from './incident-fixtures.js';

test('why: unschedulable pods grouped by the scheduler message, with free GPUs per node and the gang verdict', () => {
  const running = [0, 1].map((i) => pod(`w-${i}`, { node: `n${i}`, conditions: readyPodConds(1, 5) }));
  const pending = [2, 3, 4].map((i) => pod(`w-${i}`, { conditions: [unschedulableCond] }));
  const w = tree(
    'big',
    [
      {
        component: 'worker',
        desired: 5,
        pods: [...running.map((p) => summary(p, true)), ...pending.map((p) => summary(p, false))],
      },
    ],
    {
      gangs: [{ name: 'jobset', key: 'big/0', members: 5, scheduled: 2, ready: 2 }],
    },
  );
  const r = explainWhy({
    workload: w,
    pods: [...running, ...pending],
    nodes: [node('n1', 4), node('n2', 2), node('n3', 0)],
  });
  assert.equal(r.causes.length, 1);
  const c = r.causes[0];
  assert.equal(c.kind, 'unschedulable');
  assert.equal(c.message, FIT_ERROR);
  assert.deepEqual(
    c.pods.map((p) => p.name),
    ['w-2', 'w-3', 'w-4'],
  );
  assert.ok(
    c.details.includes('jobset big/0: gang cannot start: 3 of 5 members unschedulable (Insufficient nvidia.com/gpu)'),
    c.details.join('\n'),
  );
  assert.ok(c.details.includes('no node has 8 free GPUs (a pod needs 8)'), c.details.join('\n'));
  assert.ok(c.details.includes('free GPUs per node: n1 4, n2 2'), c.details.join('\n'));
  assert.equal(keyReason(c), 'Insufficient nvidia.com/gpu');
  assert.match(r.summary, /^1 cause: Unschedulable: 3 pods$/);
});

test('why: the FailedScheduling event explains a pending pod without a condition message', () => {
  const p = pod('lonely');
  const r = explainWhy({
    pods: [p],
    events: [event('lonely', 'FailedScheduling', '0/2 nodes are available: 2 Insufficient cpu.', 3, 'Warning')],
  });
  assert.equal(r.causes[0]?.kind, 'unschedulable');
  assert.equal(r.causes[0]?.message, '0/2 nodes are available: 2 Insufficient cpu.');
});

test('why: OOMKilled crash loop with exit code, restarts, log tail; the workload failure message comes first', () => {
  const crashed = pod('ft-1', {
    node: 'n1',
    containerStatuses: [
      {
        name: 'main',
        restartCount: 4,
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: { reason: 'OOMKilled', exitCode: 137, finishedAt: at(60) } },
      },
    ],
  });
  const crashErr = pod('ft-2', {
    node: 'n1',
    containerStatuses: [
      {
        name: 'main',
        restartCount: 2,
        state: { running: {} },
        lastState: { terminated: { reason: 'Error', exitCode: 1 } },
      },
    ],
  });
  const healthy = pod('ft-0', {
    node: 'n1',
    containerStatuses: [{ name: 'main', restartCount: 0, state: { running: {} } }],
  });
  const w = tree(
    'ft',
    [
      {
        component: 'worker',
        desired: 3,
        pods: [summary(healthy, true), summary(crashed, false), summary(crashErr, true)],
      },
    ],
    {
      status: ['Failed'],
      statusMessage: 'backoff limit reached',
    },
  );
  const r = explainWhy({
    workload: w,
    pods: [healthy, crashed, crashErr],
    logTails: new Map([['uid-ft-1', ['loading shards 61/64']]]),
  });
  assert.deepEqual(
    r.causes.map((c) => c.kind),
    ['workload-failed', 'oom-killed', 'crash-loop'],
  );
  assert.equal(r.causes[0].message, 'backoff limit reached');
  const oom = r.causes[1];
  assert.deepEqual(
    oom.pods.map((p) => p.name),
    ['ft-1'],
  );
  assert.match(oom.pods[0].detail, /OOMKilled, exit 137, 4 restarts, last at .*\(CrashLoopBackOff\)/);
  assert.deepEqual(oom.pods[0].logTail, ['loading shards 61/64']);
  assert.match(r.causes[2].pods[0].detail, /Error, exit 1, 2 restarts/);
});

test('why: image pull failures, failed Jobs and node problems', () => {
  const pulling = pod('img', {
    node: 'n1',
    containerStatuses: [
      {
        name: 'main',
        image: 'nope:1',
        state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nope:1"' } },
      },
    ],
  });
  const onBadNode = pod('bad', { node: 'n2', containerStatuses: [{ name: 'main', state: { running: {} } }] });
  const job: import('../../src/model/types.js').KubeObject = {
    kind: 'Job',
    metadata: { name: 'j-0', uid: 'j0' },
    status: {
      conditions: [
        {
          type: 'Failed',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
      ],
    },
  };
  const r = explainWhy({
    pods: [pulling, onBadNode],
    owners: [job],
    nodes: [
      node('n1', 8),
      node('n2', 8, {
        ready: false,
        conditions: [
          { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' },
          { type: 'MemoryPressure', status: 'True' },
        ],
      }),
    ],
  });
  const kinds = r.causes.map((c) => c.kind);
  assert.deepEqual(kinds, ['job-failed', 'image-pull', 'node-problem']);
  assert.equal(r.causes[0].details[0], 'Job j-0: BackoffLimitExceeded: Job has reached the specified backoff limit');
  assert.match(r.causes[1].pods[0].detail, /ImagePullBackOff: Back-off pulling image "nope:1" \(image nope:1\)/);
  assert.equal(r.causes[2].message, 'node n2: NotReady, MemoryPressure');
  assert.equal(r.causes[2].severity, 'error');
});

test('why: a healthy workload has nothing to say', () => {
  const p = pod('ok', {
    node: 'n1',
    conditions: readyPodConds(1, 2),
    containerStatuses: [{ name: 'main', restartCount: 0, state: { running: {} } }],
  });
  const r = explainWhy({
    workload: tree('ok', [{ component: 'w', desired: 1, pods: [summary(p, true)] }], { status: ['Running'] }),
    pods: [p],
  });
  assert.deepEqual(r.causes, []);
  assert.equal(r.summary, 'nothing wrong found');
});

test('freeGpuLines: nodes that would fit, cordoned and NotReady nodes left out', () => {
  const lines = freeGpuLines(
    [node('a', 8), node('b', 2), node('c', 8, { unschedulable: true }), node('d', 8, { ready: false })],
    4,
  );
  assert.deepEqual(lines, ['1 node with 4 free GPUs would fit: a', 'free GPUs per node: a 8, b 2']);
});

test('why with a focus (the selected role): its causes first; a healthy role says so and still shows the workload', () => {
  const oom = pod('w-0', {
    node: 'n1',
    containerStatuses: [
      {
        name: 'main',
        restartCount: 1,
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
      },
    ],
  });
  const stuck = pod('m-0', { conditions: [unschedulableCond] });
  const healthy = pod('h-0', {
    node: 'n1',
    containerStatuses: [{ name: 'main', restartCount: 0, state: { running: {} } }],
  });
  const pods = [stuck, oom, healthy];
  const plain = explainWhy({ pods });
  assert.deepEqual(
    plain.causes.map((c) => c.kind),
    ['unschedulable', 'oom-killed'],
  );
  const onWorker = explainWhy({ pods, focus: { name: 'worker', podUids: new Set(['uid-w-0']) } });
  assert.deepEqual(
    onWorker.causes.map((c) => c.kind),
    ['oom-killed', 'unschedulable'],
    'the selected role’s cause first',
  );
  assert.match(onWorker.summary, /^2 causes: OOMKilled: 1 pod; Unschedulable: 1 pod$/);
  const onHealthy = explainWhy({ pods, focus: { name: 'master', podUids: new Set(['uid-h-0']) } });
  assert.equal(onHealthy.causes.length, 2, 'the workload’s causes, not "nothing wrong"');
  assert.equal(
    onHealthy.summary,
    'master: nothing wrong found; the workload has 2 causes: Unschedulable: 1 pod; OOMKilled: 1 pod',
  );
  assert.equal(
    explainWhy({ pods: [healthy], focus: { name: 'master', podUids: new Set(['uid-h-0']) } }).summary,
    'nothing wrong found',
  );
});

test('why: a role split across NVLink domains though one had room is a warning; without topology keys, nothing', () => {
  const CLIQUE = 'nvidia.com/gpu.clique';
  const RACK = 'network.topology.kubernetes.io/rack';
  const placed = (p: ReturnType<typeof pod>, gpus: number) => ({ ...summary(p, true), gpus });
  // Domain A: n1 (leader 4 + worker-0 4, full); domain B: n2 (worker-1 4, 4 free), n3 (full with others).
  const leader = pod('leader-0', { node: 'n1', gpus: 4 });
  const workers = [pod('worker-0', { node: 'n1', gpus: 4 }), pod('worker-1', { node: 'n2', gpus: 4 })];
  const w = tree('llama', [
    { component: 'leader', desired: 1, pods: [placed(leader, 4)] },
    { component: 'worker', desired: 2, pods: workers.map((p) => placed(p, 4)) },
  ]);
  const at = (clique: string) => ({ labels: { [RACK]: 'rack-2', [CLIQUE]: clique } });
  const nodes = [node('n1', 0, at('A')), node('n2', 4, at('B')), node('n3', 0, at('B'))];
  const keys = ['topology.kubernetes.io/zone', RACK, CLIQUE];
  const pods = [leader, ...workers];

  assert.deepEqual(explainWhy({ workload: w, pods, nodes }).causes, []);
  const r = explainWhy({ workload: w, pods, nodes, topologyKeys: keys });
  assert.equal(r.causes.length, 1, r.summary);
  const c = r.causes[0];
  assert.equal(c.kind, 'topology-split');
  assert.equal(c.severity, 'warn');
  assert.equal(c.title, 'Topology: worker split across 2 NVLink domains');
  assert.equal(
    c.message,
    'worker spans 2 NVLink domains; NVLink domain B had room for all 8 GPUs — slow collectives likely',
  );
  assert.deepEqual(c.details, [
    '2 nodes · 2 NVLink domains · 1 rack',
    'NVLink domain B: room for 8 GPUs on its Ready, schedulable nodes (4 of the 8 already there)',
    'n1 (NVLink domain A): 4 GPUs',
    'n2 (NVLink domain B): 4 GPUs',
  ]);
  assert.deepEqual(
    c.pods.map((p) => `${p.name} ${p.detail}`),
    ['worker-0 on n1 (NVLink domain A)', 'worker-1 on n2 (NVLink domain B)'],
  );
  assert.equal(r.summary, '1 cause: Topology: worker split across 2 NVLink domains');
  // The whole job (12 GPUs) fits nowhere: no cause of its own. With a free node in B it would, named by the job.
  const roomy = [...nodes, node('n4', 8, at('B'))];
  const both = explainWhy({ workload: w, pods, nodes: roomy, topologyKeys: keys }).causes.map((x) => x.message);
  assert.deepEqual(both, [
    'llama spans 2 NVLink domains; NVLink domain B had room for all 12 GPUs — slow collectives likely',
    'worker spans 2 NVLink domains; NVLink domain B had room for all 8 GPUs — slow collectives likely',
  ]);
  // A role holding every GPU pod of the job speaks once, by its own name; a pod alone (no workload) has none.
  const one = tree('solo', [{ component: 'worker', desired: 2, pods: workers.map((p) => placed(p, 4)) }]);
  assert.deepEqual(
    explainWhy({ workload: one, pods: workers, nodes, topologyKeys: keys }).causes.map((x) => x.title),
    ['Topology: worker split across 2 NVLink domains'],
  );
  assert.deepEqual(explainWhy({ pods: workers, nodes, topologyKeys: keys }).causes, []);
  // Full elsewhere: no domain had room, no cause.
  const full = [node('n1', 0, at('A')), node('n2', 0, at('B')), node('n3', 0, at('B'))];
  assert.deepEqual(explainWhy({ workload: w, pods, nodes: full, topologyKeys: keys }).causes, []);
});
