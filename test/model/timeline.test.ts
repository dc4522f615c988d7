import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildTimeline,
  formatDuration,
  groupSegments,
  phaseDurations,
  podSegments,
  progressBar,
  pullSeconds,
  quantile,
  timelineAxis,
  schedulerKeyReason,
  gangProgress,
} from '../../src/model/timeline.js';
import { FIT_ERROR, T0, at, event, pod, readyPodConds, summary, tree, unschedulableCond } from './incident-fixtures.js';

function startedPod(name: string, node: string, sched: number, pullS: number, start: number, ready: number) {
  const p = pod(name, {
    node,
    conditions: readyPodConds(sched, ready),
    containerStatuses: [{ name: 'main', restartCount: 0, state: { running: { startedAt: at(start) } } }],
  });
  const events = [
    event(name, 'Scheduled', `Successfully assigned ns/${name} to ${node}`, sched),
    event(name, 'Pulling', 'Pulling image "img:1"', sched),
    event(
      name,
      'Pulled',
      `Successfully pulled image "img:1" in ${pullS}s (${pullS}s including waiting). Image size: 1 bytes.`,
      sched + pullS,
    ),
    event(name, 'Started', 'Started container main', start),
  ];
  return { p, events };
}

test('timeline: milestones, role progress and a waterfall slowest first', () => {
  const a = startedPod('a', 'n1', 1, 10, 12, 15);
  const b = startedPod('b', 'n2', 2, 20.5, 24, 30);
  const w = tree('job', [
    { component: 'leader', desired: 1, pods: [summary(a.p, true)] },
    { component: 'worker', desired: 1, pods: [summary(b.p, true)] },
  ]);
  const t = buildTimeline(w, [a.p, b.p], [...a.events, ...b.events], T0 + 60_000);
  assert.deepEqual(
    t.milestones.map((m) => [m.label, m.elapsedMs]),
    [
      ['created', 0],
      ['first pod scheduled', 1000],
      ['all scheduled', 2000],
      ['all ready', 30_000],
    ],
  );
  assert.deepEqual(t.roles, [
    { role: 'leader', desired: 1, pods: 1, scheduled: 1, ready: 1 },
    { role: 'worker', desired: 1, pods: 1, scheduled: 1, ready: 1 },
  ]);
  assert.deepEqual(
    t.pods.map((p) => p.name),
    ['b', 'a'],
  );
  const pb = t.pods[0];
  assert.equal(pb.pullSeconds, 20.5);
  assert.equal(pb.startedMs, T0 + 24_000);
  assert.equal(pb.totalMs, 30_000);
  assert.equal(pb.waiting, null);
  assert.equal(pb.role, 'worker');
});

test('timeline: waiting pods say what they wait for and come first; a stuck gang says it cannot start', () => {
  const a = startedPod('a', 'n1', 1, 5, 7, 9);
  const stuck = pod('s', { conditions: [unschedulableCond] });
  const creating = pod('c', {
    node: 'n2',
    conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: at(2) }],
    containerStatuses: [{ name: 'main', state: { waiting: { reason: 'ContainerCreating' } } }],
  });
  const pulling = pod('i', {
    node: 'n3',
    containerStatuses: [
      { name: 'main', state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "x"' } } },
    ],
  });
  const w = tree(
    'g',
    [{ component: 'worker', desired: 4, pods: [a.p, stuck, creating, pulling].map((p) => summary(p, p === a.p)) }],
    {
      gangs: [{ name: 'jobset', key: 'g/0', members: 4, scheduled: 3, ready: 1 }],
    },
  );
  const t = buildTimeline(w, [a.p, stuck, creating, pulling], a.events, T0 + 42_000);
  assert.equal(t.milestones[2].atMs, null, 'not all scheduled');
  assert.equal(t.milestones[3].atMs, null, 'not all ready');
  assert.deepEqual(t.roles[0], { role: 'worker', desired: 4, pods: 4, scheduled: 3, ready: 1 });
  const by = new Map(t.pods.map((p) => [p.name, p.waiting]));
  assert.equal(by.get('s'), `Unschedulable: ${FIT_ERROR}`);
  assert.equal(by.get('c'), 'ContainerCreating for 40s');
  assert.equal(by.get('i'), 'ImagePullBackOff: Back-off pulling image "x"');
  assert.equal(t.pods[t.pods.length - 1].name, 'a', 'the ready pod last');
  assert.equal(t.gangs[0].blocked, 'gang cannot start: 1 of 4 members unschedulable (Insufficient nvidia.com/gpu)');
});

test('timeline: a finished workload from conditions and container states alone (events expired)', () => {
  const done = pod('d', {
    node: 'n1',
    phase: 'Succeeded',
    conditions: [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: at(3) },
      { type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: at(100) },
    ],
    containerStatuses: [
      {
        name: 'main',
        state: { terminated: { reason: 'Completed', exitCode: 0, startedAt: at(20), finishedAt: at(100) } },
      },
    ],
  });
  const t = buildTimeline(
    tree('f', [{ component: 'w', desired: 1, pods: [summary(done, false)] }]),
    [done],
    [],
    T0 + 500_000,
  );
  const p = t.pods[0];
  assert.equal(p.scheduledMs, T0 + 3000);
  assert.equal(p.startedMs, T0 + 20_000);
  assert.equal(p.done, true);
  assert.equal(p.waiting, null);
  assert.equal(t.milestones[3].elapsedMs, 20_000);
});

test('helpers: scheduler key reason, pull seconds, durations, bars, unblocked gangs', () => {
  assert.equal(schedulerKeyReason(FIT_ERROR), 'Insufficient nvidia.com/gpu');
  assert.equal(
    schedulerKeyReason('0/3 nodes are available: 3 node(s) had untolerated taint {gpu: true}.'),
    'node(s) had untolerated taint {gpu: true}',
  );
  assert.equal(pullSeconds('Successfully pulled image "x" in 1m2.5s (1m2.5s including waiting)'), 62.5);
  assert.equal(pullSeconds('Successfully pulled image "x" in 12.037s (12.037s including waiting)'), 12.037);
  assert.equal(pullSeconds('Container image "x" already present on machine'), null);
  assert.equal(pullSeconds('Successfully pulled image "x" in 812ms (812ms including waiting)'), 0.812);
  assert.equal(formatDuration(65_000), '1m05s');
  assert.equal(formatDuration(3_725_000), '1h02m');
  assert.equal(progressBar(1, 4, 8), '[##------]');
  assert.equal(gangProgress({ name: 'g', key: 'k', members: 2, scheduled: 2, ready: 1 }, [FIT_ERROR]).blocked, null);
});

test('phases: a pod waits, pulls, starts, is ready; an unscheduled one waits to the end', () => {
  const a = startedPod('a', 'n1', 2, 10, 15, 20);
  const stuck = pod('stuck', { conditions: [unschedulableCond] });
  const w = tree('job', [{ component: 'worker', desired: 2, pods: [summary(a.p, true), summary(stuck, false)] }]);
  const t = buildTimeline(w, [a.p, stuck], a.events, T0 + 60_000);
  const pa = t.pods.find((p) => p.name === 'a')!;
  const ps = t.pods.find((p) => p.name === 'stuck')!;
  const rel = (segs: ReturnType<typeof podSegments>) =>
    segs.map((x) => [x.phase, (x.fromMs - T0) / 1000, (x.toMs - T0) / 1000]);
  // The Pulling event comes at scheduling (2s), the pull takes 10s, the container starts at 15s, ready at 20s.
  assert.deepEqual(rel(podSegments(pa, T0 + 30_000)), [
    ['waiting', 0, 2],
    ['pulling', 2, 12],
    ['starting', 12, 20],
    ['ready', 20, 30],
  ]);
  assert.deepEqual(phaseDurations(podSegments(pa, T0 + 30_000)), { waiting: 2000, pulling: 10_000, starting: 8000 });
  assert.deepEqual(rel(podSegments(ps, T0 + 30_000)), [['waiting', 0, 30]]);
  // The role's band waits as long as its slowest member: nothing scheduled-as-a-whole yet.
  assert.deepEqual(rel(groupSegments(t.pods, T0, T0 + 30_000)), [['waiting', 0, 30]]);
  assert.deepEqual(rel(groupSegments([pa], T0, T0 + 30_000)), rel(podSegments(pa, T0 + 30_000)));
  // Not all ready: the axis runs to now.
  assert.deepEqual(timelineAxis(t, T0 + 60_000), { startMs: T0, endMs: T0 + 60_000 });
});

test('phases: the axis ends when all are ready; quantiles by nearest rank', () => {
  const a = startedPod('a', 'n1', 1, 10, 12, 15);
  const b = startedPod('b', 'n2', 2, 20, 24, 30);
  const w = tree('job', [{ component: 'worker', desired: 2, pods: [summary(a.p, true), summary(b.p, true)] }]);
  const t = buildTimeline(w, [a.p, b.p], [...a.events, ...b.events], T0 + 600_000);
  assert.deepEqual(timelineAxis(t, T0 + 600_000), { startMs: T0, endMs: T0 + 30_000 });
  // Band: waiting until both are scheduled (2s), pulling until the last pull ends (22s), starting until 30s.
  assert.deepEqual(
    groupSegments(t.pods, T0, T0 + 30_000).map((x) => [x.phase, (x.toMs - T0) / 1000]),
    [
      ['waiting', 2],
      ['pulling', 22],
      ['starting', 30],
    ],
  );
  assert.equal(quantile([5, 1, 4, 2, 3], 0.5), 3);
  assert.equal(quantile([5, 1, 4, 2, 3], 0.9), 5);
  assert.equal(quantile([5, 1, 4, 2, 3], 1), 5);
  assert.equal(quantile([], 0.5), 0);
});

test('phases: a pull the Pulled message overstates ends when the container starts', () => {
  // The message says 20s, yet the container started 6s after the pull began (a fast-running simulated clock).
  const a = startedPod('a', 'n1', 2, 20, 8, 10);
  const w = tree('job', [{ component: 'worker', desired: 1, pods: [summary(a.p, true)] }]);
  const t = buildTimeline(w, [a.p], a.events, T0 + 60_000);
  assert.deepEqual(
    podSegments(t.pods[0], T0 + 10_000).map((x) => [x.phase, (x.toMs - T0) / 1000]),
    [
      ['waiting', 2],
      ['pulling', 8],
      ['starting', 10],
    ],
  );
});
