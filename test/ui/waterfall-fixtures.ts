// Timelines as plain objects for the waterfall tests: pods created at T0 whose
// phases are given in seconds, and a timeline over them as buildTimeline makes it.
import type { PodWaterfall, StartupTimeline } from '../../src/model/timeline.js';

export const T0 = Date.parse('2026-01-01T10:00:00Z');
const s = (x: number) => T0 + x * 1000;

/** A pod created at T0: scheduled at `sched`, pulling `pull` seconds from then, started at `start`, ready at `ready` (seconds). */
export function podAt(
  name: string,
  role: string,
  t: { sched?: number; pull?: number; start?: number; ready?: number; created?: number },
): PodWaterfall {
  const done = t.ready !== undefined;
  return {
    namespace: 'ns',
    name,
    uid: `uid-${name}`,
    role,
    node: t.sched !== undefined ? 'gpu-node-1' : null,
    createdMs: s(t.created ?? 0),
    scheduledMs: t.sched !== undefined ? s(t.sched) : null,
    pullStartMs: t.pull !== undefined && t.sched !== undefined ? s(t.sched) : null,
    pullSeconds: t.pull ?? null,
    startedMs: t.start !== undefined ? s(t.start) : null,
    readyMs: done ? s(t.ready!) : null,
    done,
    waiting: t.sched === undefined ? 'Unschedulable: 0/4 nodes are available' : done ? null : 'ContainerCreating',
    totalMs: done ? (t.ready! - (t.created ?? 0)) * 1000 : null,
  };
}

export function timelineOf(pods: PodWaterfall[], roles: string[], nowS: number): StartupTimeline {
  const allScheduled = pods.every((p) => p.scheduledMs !== null) ? Math.max(...pods.map((p) => p.scheduledMs!)) : null;
  const allReady = pods.every((p) => p.done) ? Math.max(...pods.map((p) => p.readyMs!)) : null;
  const sorted = [...pods].sort(
    (a, b) => Number(a.done) - Number(b.done) || (b.totalMs ?? s(nowS) - T0) - (a.totalMs ?? s(nowS) - T0),
  );
  return {
    workload: 'ns/llama',
    createdMs: T0,
    milestones: [
      { label: 'created', atMs: T0, elapsedMs: 0 },
      { label: 'all scheduled', atMs: allScheduled, elapsedMs: allScheduled && allScheduled - T0 },
      { label: 'all ready', atMs: allReady, elapsedMs: allReady && allReady - T0 },
    ],
    roles: roles.map((role) => ({ role, desired: 0, pods: 0, scheduled: 0, ready: 0 })),
    pods: sorted,
    gangs: [],
  };
}
