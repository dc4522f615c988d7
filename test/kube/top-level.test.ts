import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topLevelWorkloads, topLevelWorkloadsMemoised } from '../../src/kube/engine.js';
import type { WorkloadTree } from '../../src/model/types.js';

function w(uid: string, rev = 0): WorkloadTree {
  return { uid, name: `${uid}@${rev}` } as WorkloadTree;
}

// A JobSet with two Jobs, a lone Job, and a Job whose owner kind is still listing.
const controllers = new Map([
  ['job-a', 'js'],
  ['job-b', 'js'],
  ['job-p', 'js-unlisted'],
]);
const pendingKind = (uid: string): boolean => uid === 'job-p';

test('memoised top-level: same verdicts as topLevelWorkloads, also with the sync-time ownerPending rule', () => {
  const all = [w('js'), w('job-a'), w('lone'), w('job-b'), w('job-p')];
  const settled = topLevelWorkloadsMemoised(all, controllers, 'v1|', undefined, null);
  assert.deepEqual(
    settled.out.map((x) => x.uid),
    topLevelWorkloads(all, controllers).map((x) => x.uid),
  );
  assert.deepEqual(
    settled.out.map((x) => x.uid),
    ['js', 'lone', 'job-p'],
  );
  const syncing = topLevelWorkloadsMemoised(all, controllers, 'v1|batch/JobSet', pendingKind, settled);
  assert.deepEqual(
    syncing.out.map((x) => x.uid),
    ['js', 'lone'],
    'a new key recomputes: job-p is nested while its owner kind lists',
  );
  assert.deepEqual(
    syncing.out.map((x) => x.uid),
    topLevelWorkloads(all, controllers, pendingKind).map((x) => x.uid),
  );
});

test('memoised top-level: unchanged input keeps the result; changed trees reuse verdicts; identity kept when visible trees are the same', () => {
  const all = [w('js'), w('job-a'), w('lone'), w('job-b'), w('job-p')];
  const m1 = topLevelWorkloadsMemoised(all, controllers, 'k', undefined, null);
  assert.equal(topLevelWorkloadsMemoised(all, controllers, 'k', undefined, m1), m1);

  // Only a nested Job's tree changed: the visible list is the same array.
  const nestedChanged = all.slice();
  nestedChanged[1] = w('job-a', 1);
  const m2 = topLevelWorkloadsMemoised(nestedChanged, controllers, 'k', undefined, m1);
  assert.equal(m2.out, m1.out);

  // A visible tree changed: a new array holding the new tree, same membership.
  const visibleChanged = nestedChanged.slice();
  visibleChanged[2] = w('lone', 1);
  const m3 = topLevelWorkloadsMemoised(visibleChanged, controllers, 'k', undefined, m2);
  assert.notEqual(m3.out, m2.out);
  assert.deepEqual(m3.out, [all[0], visibleChanged[2], all[4]]);

  // The memo does not consult the controller map while the key is unchanged
  // (the caller bumps the key when it changes); with a new key it does.
  const moreControllers = new Map([...controllers, ['lone', 'js']]);
  const m4 = topLevelWorkloadsMemoised(visibleChanged, moreControllers, 'k2', undefined, m3);
  assert.deepEqual(
    m4.out.map((x) => x.uid),
    ['js', 'job-p'],
  );
});

test('memoised top-level: a changed uid set recomputes (a new owner hides workloads it controls)', () => {
  const before = [w('job-a'), w('job-b'), w('lone')];
  const m1 = topLevelWorkloadsMemoised(before, controllers, 'k', undefined, null);
  assert.equal(m1.out, before, 'nothing hidden: the input array itself');
  // Same length, different uids: the JobSet replaced the lone Job.
  const after = [w('job-a'), w('job-b'), w('js')];
  const m2 = topLevelWorkloadsMemoised(after, controllers, 'k', undefined, m1);
  assert.deepEqual(
    m2.out.map((x) => x.uid),
    ['js'],
  );
  // One more workload: recomputed too.
  const grown = [...after, w('lone')];
  assert.deepEqual(
    topLevelWorkloadsMemoised(grown, controllers, 'k', undefined, m2).out.map((x) => x.uid),
    ['js', 'lone'],
  );
});

test("memoised top-level at 20,000 workloads: churned snapshots give the full recompute's answer (timings printed, not asserted)", () => {
  const n = 20_000;
  const ctrl = new Map<string, string>();
  const all: WorkloadTree[] = [];
  for (let i = 0; i < n; i++) {
    const uid = `w${i}`;
    all.push(w(uid));
    if (i % 10) ctrl.set(uid, `w${i - (i % 10)}`); // groups of 10: one top-level owner, nine nested
    ctrl.set(`pod${i}`, uid);
  }
  const churn = (list: WorkloadTree[], round: number): WorkloadTree[] => {
    const next = list.slice();
    for (let k = 0; k < 50; k++) {
      const i = (round * 131 + k * 397) % n;
      next[i] = w(next[i].uid, round);
    }
    return next;
  };
  const rounds = 30;
  let list = all;
  let memo = topLevelWorkloadsMemoised(list, ctrl, 'k', undefined, null);
  const t0 = process.hrtime.bigint();
  for (let r = 1; r <= rounds; r++) {
    list = churn(list, r);
    memo = topLevelWorkloadsMemoised(list, ctrl, 'k', undefined, memo);
  }
  const memoMs = Number(process.hrtime.bigint() - t0) / 1e6;
  assert.deepEqual(memo.out, topLevelWorkloads(list, ctrl));
  assert.equal(memo.out.length, n / 10);
  list = all;
  const t1 = process.hrtime.bigint();
  for (let r = 1; r <= rounds; r++) {
    list = churn(list, r);
    topLevelWorkloads(list, ctrl);
  }
  const fullMs = Number(process.hrtime.bigint() - t1) / 1e6;
  console.log(
    `# top-level over ${n} workloads, ${rounds} churned snapshots: memoised ${memoMs.toFixed(1)} ms, full ${fullMs.toFixed(1)} ms`,
  );
  // Speed is reported, not asserted: timed assertions flake on a shared 2-core machine.
});
