// The status word must be what `kubectl get pods` prints: cases modelled on
// kubectl's own printer tests (pkg/printers/internalversion TestPrintPod*).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podStatusWord, summarisePod } from '../../src/model/pod-status.js';
import type { KubeObject } from '../../src/model/types.js';

type Obj = Record<string, unknown>;

function pod(opts: { spec?: Obj; status?: Obj; deletionTimestamp?: string } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'p',
      namespace: 'ns',
      uid: 'u1',
      creationTimestamp: '2026-01-01T00:00:00Z',
      ...(opts.deletionTimestamp ? { deletionTimestamp: opts.deletionTimestamp } : {}),
    },
    spec: { containers: [{ name: 'a' }], ...(opts.spec ?? {}) },
    status: { phase: 'Running', ...(opts.status ?? {}) },
  };
}

const running = { running: { startedAt: '2026-01-01T00:00:00Z' } };
const readyCond = { type: 'Ready', status: 'True' };

test('phase is the word when nothing more specific is known', () => {
  assert.equal(podStatusWord(pod({ status: { phase: 'Pending' } })).status, 'Pending');
  assert.equal(podStatusWord(pod({ status: { phase: 'Unknown' } })).status, 'Unknown');
});

test('Running with all containers ready; restarts and ready counts summed as kubectl does', () => {
  const p = pod({
    spec: { containers: [{ name: 'a' }, { name: 'b' }] },
    status: {
      conditions: [readyCond],
      containerStatuses: [
        { name: 'a', ready: true, restartCount: 3, state: running },
        { name: 'b', ready: false, restartCount: 2, state: running },
      ],
    },
  });
  const s = summarisePod(p, []);
  assert.equal(s.status, 'Running');
  assert.equal(s.readyContainers, '1/2');
  assert.equal(s.restarts, 5);
  assert.equal(s.ready, true);
});

test('the first container waiting reason wins over later ones (kubectl walks containers backwards)', () => {
  const p = pod({
    spec: { containers: [{ name: 'a' }, { name: 'b' }] },
    status: {
      containerStatuses: [
        { name: 'a', state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "x"' } } },
        { name: 'b', state: { terminated: { reason: 'Error', exitCode: 1 } } },
      ],
    },
  });
  const w = podStatusWord(p);
  assert.equal(w.status, 'ImagePullBackOff');
  assert.equal(w.reason, 'ImagePullBackOff');
  assert.equal(w.message, 'Back-off pulling image "x"');
});

for (const reason of ['ContainerCreating', 'PodInitializing', 'ErrImagePull', 'CrashLoopBackOff']) {
  test(`waiting reason ${reason}`, () => {
    const p = pod({ status: { phase: 'Pending', containerStatuses: [{ name: 'a', state: { waiting: { reason } } }] } });
    assert.equal(podStatusWord(p).status, reason);
  });
}

test('terminated reasons: OOMKilled, Error, Completed; no reason gives Signal:N or ExitCode:N', () => {
  const t = (terminated: Obj, phase = 'Running') =>
    podStatusWord(pod({ status: { phase, containerStatuses: [{ name: 'a', state: { terminated } }] } })).status;
  assert.equal(t({ reason: 'OOMKilled', exitCode: 137 }), 'OOMKilled');
  assert.equal(t({ reason: 'Error', exitCode: 1 }, 'Failed'), 'Error');
  assert.equal(t({ reason: 'Completed', exitCode: 0 }, 'Succeeded'), 'Completed');
  assert.equal(t({ exitCode: 0, signal: 9 }), 'Signal:9');
  assert.equal(t({ exitCode: 3 }), 'ExitCode:3');
});

test('Completed with a container still running: Running when Ready, else NotReady', () => {
  const statuses = [
    { name: 'a', ready: true, state: running },
    { name: 'b', state: { terminated: { reason: 'Completed', exitCode: 0 } } },
  ];
  const spec = { containers: [{ name: 'a' }, { name: 'b' }] };
  assert.equal(podStatusWord(pod({ spec, status: { containerStatuses: statuses } })).status, 'NotReady');
  assert.equal(
    podStatusWord(pod({ spec, status: { containerStatuses: statuses, conditions: [readyCond] } })).status,
    'Running',
  );
});

test('init containers: Init:N/M, Init:<waiting reason>, Init:<terminated reason>, Init:ExitCode', () => {
  const spec = { initContainers: [{ name: 'i0' }, { name: 'i1' }, { name: 'i2' }] };
  const done = { name: 'i0', state: { terminated: { reason: 'Completed', exitCode: 0 } } };
  const w = (second: Obj) =>
    podStatusWord(pod({ spec, status: { phase: 'Pending', initContainerStatuses: [done, { name: 'i1', ...second }] } }))
      .status;
  assert.equal(w({ state: running }), 'Init:1/3');
  assert.equal(w({ state: { waiting: { reason: 'PodInitializing' } } }), 'Init:1/3');
  assert.equal(w({ state: { waiting: { reason: 'CrashLoopBackOff' } }, restartCount: 4 }), 'Init:CrashLoopBackOff');
  assert.equal(w({ state: { terminated: { reason: 'Error', exitCode: 1 } } }), 'Init:Error');
  assert.equal(w({ state: { terminated: { exitCode: 2 } } }), 'Init:ExitCode:2');
  assert.equal(w({ state: { terminated: { exitCode: 2, signal: 15 } } }), 'Init:Signal:15');
});

test('init restarts count until initialised; afterwards only sidecar restarts are kept', () => {
  const spec = { initContainers: [{ name: 'i0' }] };
  const p = pod({
    spec,
    status: {
      phase: 'Pending',
      initContainerStatuses: [{ name: 'i0', restartCount: 7, state: { waiting: { reason: 'CrashLoopBackOff' } } }],
    },
  });
  assert.equal(summarisePod(p, []).restarts, 7);
  const done = pod({
    spec,
    status: {
      conditions: [{ type: 'Initialized', status: 'True' }, readyCond],
      initContainerStatuses: [
        { name: 'i0', restartCount: 7, state: { terminated: { reason: 'Completed', exitCode: 0 } } },
      ],
      containerStatuses: [{ name: 'a', ready: true, restartCount: 1, state: running }],
    },
  });
  assert.equal(summarisePod(done, []).restarts, 1);
  assert.equal(summarisePod(done, []).status, 'Running');
});

test('a started sidecar (restartPolicy Always) does not block init and counts as a container', () => {
  const p = pod({
    spec: { initContainers: [{ name: 'side', restartPolicy: 'Always' }, { name: 'i1' }] },
    status: {
      phase: 'Pending',
      initContainerStatuses: [
        { name: 'side', started: true, ready: true, restartCount: 2, state: running },
        { name: 'i1', state: running },
      ],
    },
  });
  const s = summarisePod(p, []);
  assert.equal(s.status, 'Init:1/2');
  assert.equal(s.readyContainers, '1/2');
});

test('Terminating while deleting a non-terminal pod; Unknown for NodeLost; terminal pods keep their word', () => {
  const del = '2026-01-01T00:00:05Z';
  assert.equal(
    podStatusWord(
      pod({ deletionTimestamp: del, status: { containerStatuses: [{ name: 'a', ready: true, state: running }] } }),
    ).status,
    'Terminating',
  );
  assert.equal(podStatusWord(pod({ deletionTimestamp: del, status: { reason: 'NodeLost' } })).status, 'Unknown');
  assert.equal(
    podStatusWord(
      pod({
        deletionTimestamp: del,
        status: {
          phase: 'Succeeded',
          containerStatuses: [{ name: 'a', state: { terminated: { reason: 'Completed', exitCode: 0 } } }],
        },
      }),
    ).status,
    'Completed',
  );
});

test('Evicted: the pod reason, with its message', () => {
  const w = podStatusWord(
    pod({ status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' } }),
  );
  assert.deepEqual(w, { status: 'Evicted', reason: 'Evicted', message: 'The node was low on resource: memory.' });
});

test('SchedulingGated from the PodScheduled condition', () => {
  const w = podStatusWord(
    pod({
      status: {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'SchedulingGated',
            message: 'Scheduling is blocked due to non-empty scheduling gates',
          },
        ],
      },
    }),
  );
  assert.equal(w.status, 'SchedulingGated');
  assert.equal(w.reason, 'SchedulingGated');
});

test('Pending (Unschedulable) carries the scheduler message', () => {
  const msg = '0/14 nodes are available: 14 Insufficient nvidia.com/gpu.';
  const p = pod({
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: msg }],
    },
  });
  assert.deepEqual(podStatusWord(p), { status: 'Pending', reason: 'Unschedulable', message: msg });
  const s = summarisePod(p);
  assert.equal(s.node, null);
  assert.equal(s.reason, 'Unschedulable');
});

test('progress words carry no reason; failures carry themselves as reason', () => {
  const waiting = (reason: string) =>
    podStatusWord(
      pod({
        status: { phase: 'Pending', containerStatuses: [{ name: 'a', state: { waiting: { reason, message: 'm' } } }] },
      }),
    );
  assert.equal(waiting('ContainerCreating').reason, null);
  assert.equal(waiting('PodInitializing').reason, null);
  assert.deepEqual(waiting('CrashLoopBackOff'), {
    status: 'CrashLoopBackOff',
    reason: 'CrashLoopBackOff',
    message: 'm',
  });
  const init = pod({
    spec: { initContainers: [{ name: 'i0' }] },
    status: { phase: 'Pending', initContainerStatuses: [{ name: 'i0', state: running }] },
  });
  assert.deepEqual(podStatusWord(init), { status: 'Init:0/1', reason: null, message: null });
});

test('Running and Completed pods have no reason', () => {
  const p = pod({
    status: { conditions: [readyCond], containerStatuses: [{ name: 'a', ready: true, state: running }] },
  });
  assert.deepEqual(podStatusWord(p), { status: 'Running', reason: null, message: null });
});

test('summary: node, gpus, lastRestartAt from the newest last termination', () => {
  const p = pod({
    spec: { nodeName: 'node-1', containers: [{ name: 'a', resources: { limits: { 'nvidia.com/gpu': '8' } } }] },
    status: {
      containerStatuses: [
        {
          name: 'a',
          ready: true,
          restartCount: 2,
          state: running,
          lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T01:00:00Z' } },
        },
      ],
    },
  });
  const s = summarisePod(p);
  assert.equal(s.node, 'node-1');
  assert.equal(s.gpus, 8);
  assert.equal(s.lastRestartAt, '2026-01-01T01:00:00Z');
  assert.equal(s.createdAt, '2026-01-01T00:00:00Z');
  assert.equal(s.uid, 'u1');
});
