import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podTrouble, TroubleMemo, troubleText, workloadTrouble } from '../../src/model/trouble.js';
import { summarisePod } from '../../src/model/pod-status.js';
import type { KubeObject } from '../../src/model/types.js';
import { pod, role, workload } from '../ui/fixtures.js';
import { workloadRow } from '../../src/ui/render/workloads.js';

function crashLooping(waiting: string | null): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'w-1', namespace: 'training', uid: 'u1' },
    spec: { nodeName: 'n1', containers: [{ name: 'main' }] },
    status: {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'main',
          ready: false,
          restartCount: 3,
          state: waiting ? { waiting: { reason: waiting } } : { running: {} },
          lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
        },
      ],
    },
  };
}

test('pod trouble: an OOMKilled crash loop reads OOMKilled in back-off and between crashes', () => {
  const backingOff = summarisePod(crashLooping('CrashLoopBackOff'));
  assert.equal(backingOff.status, 'CrashLoopBackOff');
  assert.equal(backingOff.lastFailure, 'OOMKilled');
  assert.deepEqual(podTrouble(backingOff), { reason: 'OOMKilled', severity: 'error' });
  const running = summarisePod(crashLooping(null));
  assert.equal(running.status, 'Running');
  assert.deepEqual(podTrouble(running), { reason: 'OOMKilled', severity: 'error' });
  assert.equal(podTrouble(pod('fine')), null);
  assert.equal(podTrouble(pod('old-crash', { restarts: 2, lastFailure: 'Error' })), null, 'ready again: no trouble');
  assert.equal(podTrouble(pod('creating', { status: 'ContainerCreating', ready: false })), null);
  assert.deepEqual(podTrouble(pod('img', { status: 'ImagePullBackOff', reason: 'ImagePullBackOff', ready: false })), {
    reason: 'ImagePullBackOff',
    severity: 'error',
  });
  assert.deepEqual(podTrouble(pod('p', { status: 'Pending', reason: 'Unschedulable', ready: false, node: null })), {
    reason: 'Unschedulable',
    severity: 'warn',
  });
});

test('workload trouble: counted by reason, worst first, restarts of the troubled pods; kept per tree by its reader', () => {
  const w = workload('ft', [
    role('master', [pod('m-0', { restarts: 5, lastFailure: 'Error' })]),
    role('worker', [
      pod('w-0'),
      pod('w-1', {
        status: 'CrashLoopBackOff',
        reason: 'CrashLoopBackOff',
        ready: false,
        restarts: 1,
        lastFailure: 'OOMKilled',
      }),
      pod('w-2', { status: 'Pending', reason: 'Unschedulable', ready: false, node: null }),
      pod('w-3', { status: 'Pending', reason: 'Unschedulable', ready: false, node: null }),
    ]),
  ]);
  const memo = new TroubleMemo();
  const t = workloadTrouble(w, memo);
  assert.equal(t.severity, 'error');
  assert.deepEqual(
    t.counts.map((c) => [c.reason, c.pods]),
    [
      ['OOMKilled', 1],
      ['Unschedulable', 2],
    ],
  );
  assert.equal(troubleText(t), '1 pod OOMKilled, 2 pods Unschedulable, 1 restart');
  assert.equal(workloadTrouble(w, memo), t, 'the same tree object, the same reader: computed once');
  assert.notEqual(workloadTrouble(w, new TroubleMemo()), t, 'another reader keeps its own');
  assert.notEqual(workloadTrouble(w), t, 'without a memo: counted afresh');
  assert.deepEqual(workloadTrouble(w), t);
  const healthy = workload('ok', [role('worker', [pod('a'), pod('b')])]);
  assert.equal(workloadTrouble(healthy).severity, null);
  assert.equal(troubleText(workloadTrouble(healthy)), '');

  // The row: Degraded while a pod crash-loops, marked and coloured by its worst pod.
  const row = workloadRow(w);
  assert.equal(row.cells[3], 'Degraded (OOMKilled+1)');
  assert.equal(row.tone, 'error');
  assert.equal(workloadRow(healthy).cells[3], 'Running');
  assert.equal(workloadRow(healthy).tone, 'ok');
  assert.ok(row.sort.status < workloadRow(healthy).sort.status, 'sorts with the errors');
});

test('pod trouble: the words answered before the pattern, beside the failing words they resemble', () => {
  for (const status of ['Completed', 'Pending', 'ContainerCreating', 'PodInitializing', 'Terminating'])
    assert.equal(podTrouble(pod('p', { status, ready: false, restarts: 3, lastFailure: 'Error' })), null, status);
  for (const status of ['Error', 'Init:Error', 'Init:CrashLoopBackOff', 'ExitCode:3', 'Evicted'])
    assert.deepEqual(podTrouble(pod('p', { status, ready: false })), { reason: status, severity: 'error' }, status);
  assert.equal(podTrouble(pod('p', { ready: false, restarts: 3 })), null, 'restarted without a known failure');
  assert.equal(podTrouble(pod('p', { ready: false, lastFailure: 'Error' })), null, 'a failure but no restart');
  // Restarted and not ready yet: a crash loop, named for the loop rather than the moment's word.
  assert.deepEqual(podTrouble(pod('p', { ready: false, restarts: 1, lastFailure: 'Error' })), {
    reason: 'CrashLoopBackOff',
    severity: 'error',
  });
});
