// Trouble named once, and stable: over a crash loop's whole cycle (just died,
// backing off, restarted and not ready, running between crashes) a workload
// reads one word and one cause; the word changes when the state does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarisePod, RECENT_RESTART_MS } from '../../src/model/pod-status.js';
import { workloadTrouble } from '../../src/model/trouble.js';
import { troubleMarker, workloadWords } from '../../src/model/workload-word.js';
import { ClusterStore } from '../../src/model/cluster-store.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import { workloadCounts } from '../../src/ui/render/header.js';
import type { KubeObject, ModelSnapshot, PodSummary, WorkloadQueue } from '../../src/model/types.js';
import type { StatusName } from '../../src/definitions/types.js';
import { pod, role, workload } from '../ui/fixtures.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

type Stage = 'died' | 'backoff' | 'restarted' | 'running';

/** A container that keeps dying of `reason`, at one moment of its cycle, `restarts` deaths in. */
function crashPod(stage: Stage, reason: 'OOMKilled' | 'Error', restarts: number, lastDeath = T0): KubeObject {
  const exitCode = reason === 'OOMKilled' ? 137 : 1;
  const died = { terminated: { reason, exitCode, finishedAt: iso(lastDeath) } };
  const state =
    stage === 'died'
      ? died
      : stage === 'backoff'
        ? { waiting: { reason: 'CrashLoopBackOff' } }
        : { running: { startedAt: iso(lastDeath + 1000) } };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'w-1', namespace: 'training', uid: 'u1', resourceVersion: `${restarts}-${stage}` },
    spec: { nodeName: 'n1', containers: [{ name: 'main' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: stage === 'running' ? 'True' : 'False' }],
      containerStatuses: [
        {
          name: 'main',
          ready: stage === 'running',
          restartCount: restarts,
          state,
          ...(restarts > 0 ? { lastState: died } : {}),
        },
      ],
    },
  };
}

function shown(p: PodSummary, status: StatusName[] = ['Running'], queue?: WorkloadQueue | null): string {
  const w = workload('ft', [role('worker', [pod('w-0'), p])], { status });
  const words = workloadWords(w, queue);
  return words.join(',') + troubleMarker(workloadTrouble(w), words);
}

test('a crash loop reads one word and one cause through its whole cycle', () => {
  const now = T0 + 30_000;
  for (const reason of ['OOMKilled', 'Error'] as const) {
    const cause = reason === 'OOMKilled' ? 'OOMKilled' : 'CrashLoopBackOff';
    const seen = new Set<string>();
    for (const restarts of [1, 2, 5])
      for (const stage of ['died', 'backoff', 'restarted', 'running'] as Stage[]) {
        const p = summarisePod(crashPod(stage, reason, restarts), undefined, now);
        // The definition's own verdict flips with the pod (pod-v1: Initializing between crashes,
        // Degraded in back-off; a PyTorchJob stays Running): the word shown does not.
        for (const verdict of [['Running'], ['Initializing'], ['Degraded']] as StatusName[][])
          seen.add(shown(p, verdict));
      }
    assert.deepEqual([...seen], [`Degraded (${cause})`], reason);
  }
});

test('a restart stays trouble for ten minutes, then the workload is Running again', () => {
  const p = (at: number) => summarisePod(crashPod('running', 'Error', 1), undefined, at);
  assert.equal(p(T0 + 5 * 60_000).recentRestart, true);
  assert.equal(shown(p(T0 + 5 * 60_000)), 'Degraded (CrashLoopBackOff)');
  assert.equal(p(T0 + RECENT_RESTART_MS + 1).recentRestart, undefined);
  assert.equal(shown(p(T0 + RECENT_RESTART_MS + 1)), 'Running');
  // A finished pod's old restarts are not trouble.
  const done = crashPod('running', 'Error', 1);
  done.status!['phase'] = 'Succeeded';
  assert.equal(summarisePod(done, undefined, T0 + 1000).recentRestart, undefined);
});

test('the word changes with the state: Failed, Completed, Queued and Suspended are not overridden', () => {
  const p = summarisePod(crashPod('backoff', 'OOMKilled', 4), undefined, T0 + 1000);
  assert.equal(shown(p, ['Failed']), 'Failed (OOMKilled)');
  assert.equal(shown(p, ['Completed']), 'Completed (OOMKilled)');
  assert.equal(shown(p, ['Suspended']), 'Suspended (OOMKilled)');
  // No crash loop: the definition's word.
  assert.equal(shown(pod('w-1')), 'Running');
  assert.equal(
    shown(pod('w-1', { status: 'ImagePullBackOff', reason: 'ImagePullBackOff', ready: false })),
    'Running (ImagePullBackOff)',
  );
});

test('status and cause never repeat a word', () => {
  const unschedulable = pod('w-1', { status: 'Pending', reason: 'Unschedulable', ready: false, node: null });
  const kai: WorkloadQueue = {
    system: 'kai',
    name: 'research',
    clusterQueue: null,
    state: 'Pending',
    position: null,
    reason: 'Unschedulable',
    message: 'cannot place the gang',
  };
  assert.equal(shown(unschedulable, ['Initializing'], kai), 'Unschedulable');
  assert.equal(shown(unschedulable, ['Initializing']), 'Initializing (Unschedulable)');
  const crash = summarisePod(crashPod('backoff', 'Error', 3), undefined, T0 + 1000);
  assert.equal(shown(crash, ['Degraded']), 'Degraded (CrashLoopBackOff)');
});

test('the header counts a crash-looping workload as Degraded, not Running', () => {
  const crash = summarisePod(crashPod('running', 'OOMKilled', 2), undefined, T0 + 1000);
  const snapshot = {
    workloads: [workload('ft', [role('worker', [crash])]), workload('ok', [role('worker', [pod('a')])])],
  } as unknown as ModelSnapshot;
  assert.equal(workloadCounts(snapshot, null), '2  1 Running 1 Degraded');
});

test('the store summarises a pod again when its restart stops being recent', () => {
  let now = T0 + 60_000;
  const def = loadDefinitions({ includeBuiltin: true, envPaths: '' }).definitions.find((d) => d.name === 'pod-v1')!;
  const store = new ClusterStore({ definitions: [def], now: () => now });
  store.apply('pod', 'ADDED', crashPod('running', 'Error', 1));
  store.flush();
  const [before] = store.workloads();
  assert.deepEqual(workloadWords(before), ['Degraded']);
  assert.equal(store.nextRestartExpiry(), T0 + RECENT_RESTART_MS);
  // Nothing happens to the pod; only time passes.
  now = T0 + RECENT_RESTART_MS - 1;
  assert.deepEqual(store.flush().changedWorkloads, []);
  now = T0 + RECENT_RESTART_MS;
  assert.deepEqual(store.flush().changedWorkloads, [before.uid]);
  const [after] = store.workloads();
  assert.deepEqual(workloadWords(after), ['Running']);
  assert.equal(store.nextRestartExpiry(), null);
});

test('restarts expire in order, each on time, while other pods restart and go', () => {
  let now = T0 + 60_000;
  const def = loadDefinitions({ includeBuiltin: true, envPaths: '' }).definitions.find((d) => d.name === 'pod-v1')!;
  const store = new ClusterStore({ definitions: [def], now: () => now });
  const named = (o: KubeObject, n: number): KubeObject => ({
    ...o,
    metadata: { ...o.metadata, name: `w-${n}`, uid: `u${n}` },
  });
  const words = () => new Map(store.workloads().map((w) => [w.name, workloadWords(w)[0]]));
  store.apply('pod', 'ADDED', named(crashPod('running', 'Error', 1, T0), 1));
  store.apply('pod', 'ADDED', named(crashPod('running', 'Error', 1, T0 + 10_000), 2));
  store.apply('pod', 'ADDED', named(crashPod('running', 'Error', 1, T0 + 20_000), 3));
  store.flush();
  assert.equal(store.nextRestartExpiry(), T0 + RECENT_RESTART_MS);
  // The earliest goes: the next expiry may be told early (a flush then finds none due), never late.
  store.apply('pod', 'DELETED', named(crashPod('running', 'Error', 1, T0), 1));
  store.flush();
  assert.ok(store.nextRestartExpiry()! <= T0 + 10_000 + RECENT_RESTART_MS);
  now = T0 + RECENT_RESTART_MS;
  assert.deepEqual(store.flush().changedWorkloads, [], 'nothing due yet: nothing changed');
  assert.equal(store.nextRestartExpiry(), T0 + 10_000 + RECENT_RESTART_MS, 'exact after a flush');
  // A later restart of pod 3 moves its own expiry on; pod 2's comes first.
  store.apply('pod', 'MODIFIED', named(crashPod('running', 'Error', 2, T0 + RECENT_RESTART_MS - 1_000), 3));
  store.flush();
  now = T0 + 10_000 + RECENT_RESTART_MS - 1;
  assert.deepEqual(store.flush().changedWorkloads, []);
  assert.deepEqual(
    words(),
    new Map([
      ['w-2', 'Degraded'],
      ['w-3', 'Degraded'],
    ]),
  );
  now += 1;
  assert.equal(store.flush().changedWorkloads.length, 1, 'pod 2 on time');
  assert.deepEqual(
    words(),
    new Map([
      ['w-2', 'Running'],
      ['w-3', 'Degraded'],
    ]),
  );
  assert.equal(store.nextRestartExpiry(), T0 + 2 * RECENT_RESTART_MS - 1_000);
  now = T0 + 2 * RECENT_RESTART_MS - 1_000;
  assert.equal(store.flush().changedWorkloads.length, 1, 'pod 3 on time');
  assert.deepEqual(
    words(),
    new Map([
      ['w-2', 'Running'],
      ['w-3', 'Running'],
    ]),
  );
  assert.equal(store.nextRestartExpiry(), null);
});
