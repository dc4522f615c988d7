// The startup timeline of a workload: when it was created, when its first and
// last pods were scheduled, when all were ready; per role, how many are
// scheduled and ready of desired; per pod, a waterfall of phases (scheduling,
// image pull, container start, readiness) with what a pod still waits for;
// per gang, whether it can start at all. Pure functions over plain objects:
// the workload tree, the pods' whole objects and the events still held.
// Times come from conditions' transition times, container states and events,
// so the same code explains a job starting now and one that finished.
import type { GangSummary, KubeObject, RoleTree, WorkloadTree } from './types.js';
import { roleName, UNATTRIBUTED } from './role-name.js';

// ---- reading raw objects ---------------------------------------------------

export interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: { reason?: string; message?: string; exitCode?: number; startedAt?: string; finishedAt?: string };
}

export interface ContainerStatus {
  name: string;
  ready?: boolean;
  restartCount?: number;
  image?: string;
  state?: ContainerState;
  lastState?: ContainerState;
}

export function podConditions(pod: KubeObject): PodCondition[] {
  const c = (pod.status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(c) ? (c as PodCondition[]) : [];
}

export function podCondition(pod: KubeObject, type: string): PodCondition | undefined {
  return podConditions(pod).find((c) => c.type === type);
}

export function containerStatuses(pod: KubeObject, init = false): ContainerStatus[] {
  const s = pod.status as { containerStatuses?: unknown; initContainerStatuses?: unknown } | undefined;
  const c = init ? s?.initContainerStatuses : s?.containerStatuses;
  return Array.isArray(c) ? (c as ContainerStatus[]) : [];
}

export function nodeNameOf(pod: KubeObject): string | null {
  const n = (pod.spec as { nodeName?: unknown } | undefined)?.nodeName;
  return typeof n === 'string' && n ? n : null;
}

export function podPhase(pod: KubeObject): string {
  const p = (pod.status as { phase?: unknown } | undefined)?.phase;
  return typeof p === 'string' ? p : 'Pending';
}

export function ms(iso: unknown): number | null {
  if (typeof iso !== 'string' || !iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

export interface EventFacts {
  type: string;
  reason: string;
  message: string;
  count: number;
  firstMs: number | null;
  lastMs: number | null;
  involvedKind: string;
  involvedName: string;
  involvedUid: string;
  involvedNamespace: string;
  fieldPath: string;
  source: string;
}

/** The fields of a core/v1 (or events.k8s.io-shaped) Event the views use. */
export function eventFacts(e: KubeObject): EventFacts {
  const r = e as Record<string, unknown>;
  const inv = (r['involvedObject'] ?? r['regarding'] ?? {}) as Record<string, unknown>;
  const source = (r['source'] ?? {}) as { component?: string; host?: string };
  const series = r['series'] as { count?: number; lastObservedTime?: string } | undefined;
  const first = ms(r['firstTimestamp']) ?? ms(r['eventTime']) ?? ms(e.metadata.creationTimestamp);
  const last = ms(series?.lastObservedTime) ?? ms(r['lastTimestamp']) ?? first;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    type: str(r['type']) || 'Normal',
    reason: str(r['reason']),
    message: str(r['message']) || str(r['note']),
    count: typeof r['count'] === 'number' ? r['count'] : typeof series?.count === 'number' ? series.count : 1,
    firstMs: first,
    lastMs: last,
    involvedKind: str(inv['kind']),
    involvedName: str(inv['name']),
    involvedUid: str(inv['uid']),
    involvedNamespace: str(inv['namespace']),
    fieldPath: str(inv['fieldPath']),
    source: str(source.component) || str(r['reportingComponent']) || str(r['reportingController']),
  };
}

/** Events by involved object uid (name as a fallback key: `Kind/name`). */
export function eventsByObject(events: readonly KubeObject[]): Map<string, EventFacts[]> {
  const out = new Map<string, EventFacts[]>();
  for (const e of events) {
    const f = eventFacts(e);
    for (const k of [f.involvedUid, `${f.involvedKind}/${f.involvedNamespace}/${f.involvedName}`]) {
      if (!k || k === '//') continue;
      let list = out.get(k);
      if (!list) out.set(k, (list = []));
      list.push(f);
    }
  }
  return out;
}

function podEvents(byObject: Map<string, EventFacts[]>, pod: KubeObject): EventFacts[] {
  return (
    byObject.get(pod.metadata.uid) ?? byObject.get(`Pod/${pod.metadata.namespace ?? ''}/${pod.metadata.name}`) ?? []
  );
}

/** Seconds of an image pull from the kubelet's "Successfully pulled image ... in 12.037s" message. */
export function pullSeconds(message: string): number | null {
  // A Go duration: 812ms, 12.037s, 1m2.5s, 1h0m3s.
  const m = /\bin ((?:\d+h)?(?:\d+m(?!s))?(?:[0-9.]+(?:ms|s))?)(?=[\s,.(]|$)/.exec(message);
  if (!m || !m[1]) return null;
  let total = 0;
  for (const part of m[1].matchAll(/([0-9.]+)(ms|h|m|s)/g)) {
    const n = Number(part[1]);
    if (!Number.isFinite(n)) return null;
    total += part[2] === 'ms' ? n / 1000 : part[2] === 'h' ? n * 3600 : part[2] === 'm' ? n * 60 : n;
  }
  return total;
}

// ---- roles -------------------------------------------------------------------

function rolePodUids(r: RoleTree, out: string[] = []): string[] {
  for (const p of r.pods) out.push(p.uid);
  for (const c of r.roles) rolePodUids(c, out);
  return out;
}

/** pod uid → top-level role name. */
export function podRoles(w: WorkloadTree): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of w.roles) for (const uid of rolePodUids(r)) out.set(uid, roleName(r));
  for (const p of w.unattributedPods) out.set(p.uid, UNATTRIBUTED);
  return out;
}

// ---- timeline ------------------------------------------------------------------

export interface PodWaterfall {
  namespace: string;
  name: string;
  uid: string;
  role: string;
  node: string | null;
  createdMs: number | null;
  scheduledMs: number | null;
  pullStartMs: number | null;
  /** Seconds the image pull took (from the Pulled event); 0 when the image was present. */
  pullSeconds: number | null;
  startedMs: number | null;
  readyMs: number | null;
  /** Ready, or ran to completion. */
  done: boolean;
  /** What the pod still waits for, e.g. `Unschedulable: 0/14 nodes…`, `ImagePullBackOff: …`, `ContainerCreating for 42s`. */
  waiting: string | null;
  /** Created → ready (or → now while waiting). */
  totalMs: number | null;
}

export interface RoleProgress {
  role: string;
  desired: number;
  pods: number;
  scheduled: number;
  ready: number;
}

export interface GangProgress {
  name: string;
  key: string;
  members: number;
  scheduled: number;
  ready: number;
  /** Set when the gang cannot start: `gang cannot start: 4 of 8 members unschedulable (Insufficient nvidia.com/gpu)`. */
  blocked: string | null;
}

export interface Milestone {
  label:
    | 'created'
    | 'queued'
    | 'quota reserved'
    | 'admitted'
    | 'pods created'
    | 'first pod scheduled'
    | 'all scheduled'
    | 'all ready';
  atMs: number | null;
  /** Since the workload's creation. */
  elapsedMs: number | null;
}

export interface StartupTimeline {
  workload: string;
  createdMs: number | null;
  milestones: Milestone[];
  roles: RoleProgress[];
  /** Slowest first; pods still waiting come first of all. */
  pods: PodWaterfall[];
  gangs: GangProgress[];
}

const WAITING_REASONS = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'CrashLoopBackOff',
  'RunContainerError',
]);

/** One pod's phases, from its conditions, container states and events. */
export function podWaterfall(
  pod: KubeObject,
  events: readonly EventFacts[],
  role: string,
  nowMs: number,
): PodWaterfall {
  const createdMs = ms(pod.metadata.creationTimestamp);
  const scheduledCond = podCondition(pod, 'PodScheduled');
  const scheduledEvent = events.find((e) => e.reason === 'Scheduled');
  const node = nodeNameOf(pod);
  let scheduledMs: number | null = null;
  if (scheduledCond?.status === 'True') scheduledMs = ms(scheduledCond.lastTransitionTime);
  if (scheduledMs === null && node) scheduledMs = scheduledEvent?.firstMs ?? null;
  const pulling = events.filter((e) => e.reason === 'Pulling');
  const pulled = events.filter((e) => e.reason === 'Pulled');
  const pullStartMs = pulling.length ? Math.min(...pulling.map((e) => e.firstMs ?? Infinity)) : null;
  let pullSecs: number | null = null;
  for (const e of pulled) {
    const s = pullSeconds(e.message);
    if (s !== null) pullSecs = (pullSecs ?? 0) + s;
    else if (/already present/.test(e.message) && pullSecs === null && !pulling.length) pullSecs = 0;
  }
  // The first start: the earliest Started event, else the container states.
  const started = events.filter((e) => e.reason === 'Started' && (!e.fieldPath || !/initContainers/.test(e.fieldPath)));
  let startedMs: number | null = started.length ? Math.min(...started.map((e) => e.firstMs ?? Infinity)) : null;
  if (startedMs === Infinity) startedMs = null;
  const statuses = containerStatuses(pod);
  if (startedMs === null) {
    const times = statuses
      .map(
        (c) =>
          ms(c.lastState?.terminated?.startedAt) ??
          ms(c.state?.running?.startedAt) ??
          ms(c.state?.terminated?.startedAt),
      )
      .filter((t): t is number => t !== null);
    if (times.length) startedMs = Math.min(...times);
  }
  const readyCond = podCondition(pod, 'Ready');
  const phase = podPhase(pod);
  const readyMs = readyCond?.status === 'True' ? ms(readyCond.lastTransitionTime) : null;
  const completed = phase === 'Succeeded';
  const done = readyMs !== null || completed;

  let waiting: string | null = null;
  if (!done && !pod.metadata.deletionTimestamp) {
    if (!node) {
      const why = scheduledCond?.status === 'False' ? scheduledCond : undefined;
      const ev = [...events].reverse().find((e) => e.reason === 'FailedScheduling');
      const msg = why?.message || ev?.message || '';
      waiting = `${why?.reason || (ev ? 'Unschedulable' : 'Pending')}${msg ? `: ${msg}` : ''}`;
    } else if (phase === 'Failed') {
      const t = statuses.map((c) => c.state?.terminated).find((x) => x);
      waiting = `Failed${t?.reason ? `: ${t.reason}` : ''}${t?.exitCode !== undefined ? ` (exit ${t.exitCode})` : ''}`;
    } else {
      const w = statuses.map((c) => c.state?.waiting).find((x) => x?.reason && WAITING_REASONS.has(x.reason));
      if (w) waiting = `${w.reason}${w.message ? `: ${w.message}` : ''}`;
      else if (!statuses.some((c) => c.state?.running || c.state?.terminated)) {
        const since = scheduledMs ?? createdMs;
        waiting = `ContainerCreating${since !== null ? ` for ${Math.max(0, Math.round((nowMs - since) / 1000))}s` : ''}`;
        if (pullStartMs !== null && !pulled.length)
          waiting = `pulling image for ${Math.max(0, Math.round((nowMs - pullStartMs) / 1000))}s`;
      } else
        waiting = `not ready: ${readyCond?.reason ?? 'containers not ready'}${readyCond?.message ? ` (${readyCond.message})` : ''}`;
    }
  }
  const end = readyMs ?? (completed ? startedMs : null) ?? (done ? null : nowMs);
  const totalMs = createdMs !== null && end !== null ? Math.max(0, end - createdMs) : null;
  return {
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name,
    uid: pod.metadata.uid,
    role,
    node,
    createdMs,
    scheduledMs,
    pullStartMs,
    pullSeconds: pullSecs,
    startedMs,
    readyMs,
    done,
    waiting,
    totalMs,
  };
}

/** The most telling reason in a scheduler FitError, e.g. `Insufficient nvidia.com/gpu`. */
export function schedulerKeyReason(message: string): string | null {
  const head = (message.split(/preemption:/)[0] ?? message).replace(/^[^:]*:\s*/, '');
  const parts = head
    .split(/,\s+/)
    .map((p) => /^(\d+) (.+?)\.?\s*$/.exec(p.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ n: Number(m[1]), text: m[2].trim() }));
  const useful = parts.filter((p) => !/^nodes? are available/.test(p.text));
  if (!useful.length) return null;
  const insufficient = useful.filter((p) => p.text.startsWith('Insufficient'));
  const pick = (insufficient.length ? insufficient : useful).sort((a, b) => b.n - a.n)[0];
  return pick.text;
}

/** A gang that cannot start says why. `unscheduledReasons`: scheduler messages of the workload's unscheduled pods. */
export function gangProgress(g: GangSummary, unscheduledReasons: readonly string[]): GangProgress {
  let blocked: string | null = null;
  const missing = g.members - g.scheduled;
  if (missing > 0 && unscheduledReasons.length) {
    const reasons = new Map<string, number>();
    for (const m of unscheduledReasons) {
      const r = schedulerKeyReason(m);
      if (r) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    }
    const top = [...reasons.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    blocked = `gang cannot start: ${missing} of ${g.members} members unschedulable${top ? ` (${top})` : ''}`;
  }
  return { name: g.name, key: g.key, members: g.members, scheduled: g.scheduled, ready: g.ready, blocked };
}

function roleProgress(r: RoleTree, pods: Map<string, KubeObject>): RoleProgress {
  const uids = rolePodUids(r);
  let scheduled = 0;
  let ready = 0;
  for (const uid of uids) {
    const p = pods.get(uid);
    const summaryNode = p ? nodeNameOf(p) : null;
    if (summaryNode) scheduled++;
    if (p && podCondition(p, 'Ready')?.status === 'True') ready++;
  }
  return { role: roleName(r), desired: r.replicas.desired, pods: uids.length, scheduled, ready };
}

/**
 * The workload's startup. `pods`: whole pod objects (others are ignored);
 * `events`: events of the workload, its owners and its pods.
 */
export function buildTimeline(
  w: WorkloadTree,
  pods: readonly KubeObject[],
  events: readonly KubeObject[],
  nowMs: number,
  /** Kueue's steps when it holds the workload: queued → quota reserved → admitted come before the pods. */
  queueSteps?: readonly { label: 'queued' | 'quota reserved' | 'admitted'; at: string | null }[],
): StartupTimeline {
  const roles = podRoles(w);
  const byUid = new Map<string, KubeObject>();
  for (const p of pods) if (roles.has(p.metadata.uid)) byUid.set(p.metadata.uid, p);
  const byObject = eventsByObject(events);
  const waterfall = [...byUid.values()].map((p) =>
    podWaterfall(p, podEvents(byObject, p), roles.get(p.metadata.uid) ?? '', nowMs),
  );
  const createdMs =
    ms(w.createdAt) ?? (waterfall.length ? Math.min(...waterfall.map((p) => p.createdMs ?? Infinity)) : null);
  const created = createdMs === Infinity ? null : createdMs;
  const desired = Math.max(w.replicas.desired, waterfall.length);
  const sched = waterfall
    .map((p) => p.scheduledMs)
    .filter((t): t is number => t !== null)
    .sort((a, b) => a - b);
  const ready = waterfall
    .map((p) => p.readyMs ?? (p.done ? p.startedMs : null))
    .filter((t): t is number => t !== null)
    .sort((a, b) => a - b);
  const at = (label: Milestone['label'], t: number | null): Milestone => ({
    label,
    atMs: t,
    elapsedMs: t !== null && created !== null ? Math.max(0, t - created) : null,
  });
  const allScheduled =
    desired > 0 && sched.length >= desired && waterfall.every((p) => p.node !== null) ? sched[sched.length - 1] : null;
  const allReady =
    desired > 0 && ready.length >= desired && waterfall.every((p) => p.done) ? ready[ready.length - 1] : null;
  const podsCreated = waterfall
    .map((p) => p.createdMs)
    .filter((t): t is number => t !== null)
    .sort((a, b) => a - b)[0];
  const milestones = [
    at('created', created),
    ...(queueSteps?.length
      ? [...queueSteps.map((s) => at(s.label, ms(s.at))), at('pods created', podsCreated ?? null)]
      : []),
    at('first pod scheduled', sched[0] ?? null),
    at('all scheduled', allScheduled),
    at('all ready', allReady),
  ];
  const unscheduled = waterfall
    .filter((p) => p.node === null && p.waiting)
    .map((p) => p.waiting!.replace(/^[^:]*: /, ''));
  waterfall.sort((a, b) => {
    if (a.done !== b.done) return a.done ? 1 : -1;
    return (b.totalMs ?? -1) - (a.totalMs ?? -1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  });
  return {
    workload: `${w.namespace}/${w.name}`,
    createdMs: created,
    milestones,
    roles: w.roles.map((r) => roleProgress(r, byUid)),
    pods: waterfall,
    gangs: w.gangs.map((g) => gangProgress(g, unscheduled)),
  };
}

/** `12.3s`, `4m05s`, `2h03m`. */
export function formatDuration(msValue: number | null): string {
  if (msValue === null || !Number.isFinite(msValue)) return '-';
  const s = msValue / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return `${h}h${String(m % 60).padStart(2, '0')}m`;
}

/** `[#####-----]` of width `width`. */
export function progressBar(done: number, total: number, width = 20): string {
  const frac = total > 0 ? Math.max(0, Math.min(1, done / total)) : 0;
  const n = Math.round(frac * width);
  return '[' + '#'.repeat(n) + '-'.repeat(width - n) + ']';
}

// ---- phases on a time axis (the waterfall) -----------------------------------

/** A pod's startup phases in order: waiting to be scheduled, pulling images, starting (creating, running, not yet ready), ready. */
export type StartupPhase = 'waiting' | 'pulling' | 'starting' | 'ready';
export const STARTUP_PHASES: readonly StartupPhase[] = ['waiting', 'pulling', 'starting', 'ready'];

export interface PhaseSegment {
  phase: StartupPhase;
  fromMs: number;
  toMs: number;
}

/** Where a phase timeline ends for a pod: ready, or its first start when it ran to completion, else still going. */
function readyEndMs(p: PodWaterfall, endMs: number): number {
  return p.readyMs ?? (p.done ? (p.startedMs ?? endMs) : endMs);
}

/** When the image pull ended (the Pulled event's duration); a pull still running ends now. */
function pullEndMs(p: PodWaterfall, endMs: number): number | null {
  if (p.pullStartMs === null) return null;
  // A container starts only after its image is pulled: the start bounds a pull the kubelet's clock overstates.
  if (p.pullSeconds !== null) return Math.min(p.pullStartMs + p.pullSeconds * 1000, p.startedMs ?? Infinity);
  return p.done ? p.pullStartMs : (p.startedMs ?? endMs);
}

/**
 * How long the pod's image pull took, as the kubelet measured it (bounded by
 * the container's start), whatever the pod's other clocks say; null when unknown.
 */
export function pullDurationMs(p: PodWaterfall, endMs: number): number | null {
  const end = pullEndMs(p, endMs);
  return p.pullStartMs === null || end === null ? null : Math.max(0, end - p.pullStartMs);
}

/** Appends a segment, clamped to start where the previous one ended; empty ones are dropped, equal neighbours merged. */
function pushSegment(out: PhaseSegment[], phase: StartupPhase, fromMs: number, toMs: number): void {
  const last = out[out.length - 1];
  const from = Math.max(fromMs, last?.toMs ?? fromMs);
  if (toMs <= from) return;
  if (last && last.phase === phase && last.toMs === from) last.toMs = toMs;
  else out.push({ phase, fromMs: from, toMs });
}

/**
 * A pod's phases from its creation to `endMs` (the axis' end): waiting until
 * scheduled, then starting with the image pull cut out of it, then ready.
 * Contiguous and in order; empty when the pod's creation or scheduling time is unknown.
 */
export function podSegments(p: PodWaterfall, endMs: number): PhaseSegment[] {
  const out: PhaseSegment[] = [];
  // Bound to a node at an unknown time: nothing to draw rather than a wrong wait.
  if (p.createdMs === null || (p.node !== null && p.scheduledMs === null)) return out;
  const scheduled = p.scheduledMs !== null && p.node !== null ? Math.max(p.createdMs, p.scheduledMs) : null;
  pushSegment(out, 'waiting', p.createdMs, Math.min(endMs, scheduled ?? endMs));
  if (scheduled === null) return out;
  const readyAt = Math.min(endMs, Math.max(scheduled, readyEndMs(p, endMs)));
  const pullEnd = pullEndMs(p, endMs);
  if (p.pullStartMs !== null && pullEnd !== null) {
    const pullFrom = Math.max(scheduled, p.pullStartMs);
    pushSegment(out, 'starting', scheduled, Math.min(pullFrom, readyAt));
    pushSegment(out, 'pulling', pullFrom, Math.min(pullEnd, readyAt));
  }
  pushSegment(out, 'starting', scheduled, readyAt);
  if (p.done) pushSegment(out, 'ready', readyAt, endMs);
  return out;
}

/**
 * A group of pods (a role, a gang) as one band: waiting until the last is
 * scheduled, pulling until the last pull ends, starting until the last is
 * ready, then ready. The band shows the group's critical path.
 */
export function groupSegments(pods: readonly PodWaterfall[], startMs: number, endMs: number): PhaseSegment[] {
  const out: PhaseSegment[] = [];
  if (!pods.length) return out;
  const max = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), -Infinity);
  const allScheduled = pods.every((p) => p.scheduledMs !== null && p.node !== null)
    ? max(pods.map((p) => p.scheduledMs!))
    : endMs;
  pushSegment(out, 'waiting', startMs, Math.min(endMs, allScheduled));
  const pulls = pods.map((p) => pullEndMs(p, endMs)).filter((t): t is number => t !== null);
  const allReady = pods.every((p) => p.done) ? max(pods.map((p) => readyEndMs(p, endMs))) : endMs;
  if (pulls.length) {
    // Containers being created before the first pull began are starting, not pulling.
    const firstPull = -max(pods.filter((p) => p.pullStartMs !== null).map((p) => -p.pullStartMs!));
    pushSegment(out, 'starting', allScheduled, Math.min(endMs, allReady, firstPull));
    pushSegment(out, 'pulling', allScheduled, Math.min(endMs, allReady, max(pulls)));
  }
  pushSegment(out, 'starting', allScheduled, Math.min(endMs, allReady));
  if (pods.every((p) => p.done)) pushSegment(out, 'ready', allReady, endMs);
  return out;
}

/** Milliseconds spent in each phase but ready. */
export function phaseDurations(segments: readonly PhaseSegment[]): Record<Exclude<StartupPhase, 'ready'>, number> {
  const out = { waiting: 0, pulling: 0, starting: 0 };
  for (const s of segments) if (s.phase !== 'ready') out[s.phase] += s.toMs - s.fromMs;
  return out;
}

/** The `q`-quantile (0..1) of `values` by the nearest-rank method; 0 when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1];
}

/** The waterfall's time axis: the workload's creation (else its first pod's) → all ready, or now while starting. */
export function timelineAxis(t: StartupTimeline, nowMs: number): { startMs: number; endMs: number } | null {
  const firstPod = t.pods.reduce((a, p) => Math.min(a, p.createdMs ?? Infinity), Infinity);
  const startMs = Math.min(t.createdMs ?? Infinity, firstPod);
  if (!Number.isFinite(startMs)) return null;
  const allReady = t.milestones.find((m) => m.label === 'all ready')?.atMs ?? null;
  const endMs = allReady ?? nowMs;
  return { startMs, endMs: Math.max(endMs, startMs + 1000) };
}
