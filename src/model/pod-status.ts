// The status word kubectl prints for a pod, and a pod's summary for trees.
// podStatusWord follows kubectl's printPod (pkg/printers/internalversion,
// v1.32) step by step, so that wlx and `kubectl get pods` never disagree.
import type { KubeObject, PodSummary } from './types.js';
import { DEFAULT_GPU_RESOURCES, podGpuRequest } from './gpu.js';

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}
function arr(v: unknown): Obj[] {
  return Array.isArray(v) ? (v.filter((x) => obj(x)) as Obj[]) : [];
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

interface ContainerState {
  waiting?: Obj;
  running?: Obj;
  terminated?: Obj;
}

function state(status: Obj, key: 'state' | 'lastState'): ContainerState {
  const s = obj(status[key]) ?? {};
  return { waiting: obj(s.waiting), running: obj(s.running), terminated: obj(s.terminated) };
}

function hasCondition(pod: KubeObject, type: string): boolean {
  return arr(pod.status?.conditions).some((c) => c.type === type && c.status === 'True');
}

/** Terminated without a reason: kubectl prints the signal or the exit code. */
function terminatedWord(t: Obj, prefix: string): string {
  const reason = str(t.reason);
  if (reason) return prefix + reason;
  const signal = num(t.signal);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${num(t.exitCode)}`;
}

interface PrintedPod {
  status: string;
  restarts: number;
  readyContainers: number;
  totalContainers: number;
  lastRestartAt: string | null;
  /** The container state that gave the word, for its message. */
  drivingMessage: string | null;
}

function later(a: string | null, b: unknown): string | null {
  const s = str(b);
  if (!s) return a;
  if (a === null) return s;
  return Date.parse(s) > Date.parse(a) ? s : a;
}

function printPod(pod: KubeObject): PrintedPod {
  const spec = obj(pod.spec) ?? {};
  const status = obj(pod.status) ?? {};
  const phase = str(status.phase);
  let reason = phase;
  if (str(status.reason)) reason = str(status.reason);
  let message: string | null = str(status.message) || null;

  for (const c of arr(status.conditions)) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }

  const initSpecs = new Map<string, Obj>();
  let totalContainers = arr(spec.containers).length;
  for (const c of arr(spec.initContainers)) {
    initSpecs.set(str(c.name), c);
    if (c.restartPolicy === 'Always') totalContainers++;
  }
  const restartable = (name: string) => initSpecs.get(name)?.restartPolicy === 'Always';
  const initCount = arr(spec.initContainers).length;

  let restarts = 0;
  let restartableRestarts = 0;
  let readyContainers = 0;
  let lastRestart: string | null = null;
  let lastRestartableRestart: string | null = null;
  let initializing = false;

  const initStatuses = arr(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    const name = str(c.name);
    restarts += num(c.restartCount);
    const last = state(c, 'lastState').terminated;
    if (last) lastRestart = later(lastRestart, last.finishedAt);
    if (restartable(name)) {
      restartableRestarts += num(c.restartCount);
      if (last) lastRestartableRestart = later(lastRestartableRestart, last.finishedAt);
    }
    const s = state(c, 'state');
    if (s.terminated && num(s.terminated.exitCode) === 0) continue;
    if (restartable(name) && c.started === true) {
      if (c.ready === true) readyContainers++;
      continue;
    }
    if (s.terminated) {
      reason = terminatedWord(s.terminated, 'Init:');
      message = str(s.terminated.message) || message;
    } else if (s.waiting && str(s.waiting.reason) && s.waiting.reason !== 'PodInitializing') {
      reason = 'Init:' + str(s.waiting.reason);
      message = str(s.waiting.message) || message;
    } else {
      reason = `Init:${i}/${initCount}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || hasCondition(pod, 'Initialized')) {
    restarts = restartableRestarts;
    lastRestart = lastRestartableRestart;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i];
      restarts += num(c.restartCount);
      const last = state(c, 'lastState').terminated;
      if (last) lastRestart = later(lastRestart, last.finishedAt);
      const s = state(c, 'state');
      if (s.waiting && str(s.waiting.reason)) {
        reason = str(s.waiting.reason);
        message = str(s.waiting.message) || message;
      } else if (s.terminated) {
        reason = terminatedWord(s.terminated, '');
        message = str(s.terminated.message) || message;
      } else if (c.ready === true && s.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = hasCondition(pod, 'Ready') ? 'Running' : 'NotReady';
    }
  }

  const deleting = typeof pod.metadata.deletionTimestamp === 'string' && pod.metadata.deletionTimestamp !== '';
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  return {
    status: reason,
    restarts,
    readyContainers,
    totalContainers,
    lastRestartAt: lastRestart,
    drivingMessage: message,
  };
}

/** Words that mean the pod is fine, done or making progress: no reason to show beside them. */
const QUIET = new Set([
  'Running',
  'Completed',
  'Succeeded',
  'Pending',
  'Terminating',
  'ContainerCreating',
  'PodInitializing',
]);
const INIT_PROGRESS = /^Init:\d+\/\d+$/;

/**
 * The word kubectl would print in the STATUS column, plus why the pod is not
 * running: the scheduler's reason and message when PodScheduled is False
 * (e.g. Unschedulable, "0/14 nodes are available: ..."), else the waiting or
 * terminated state that produced the word (CrashLoopBackOff, OOMKilled, ...).
 */
export function podStatusWord(pod: KubeObject): { status: string; reason: string | null; message: string | null } {
  return statusWordOf(pod, printPod(pod));
}

function statusWordOf(
  pod: KubeObject,
  printed: PrintedPod,
): { status: string; reason: string | null; message: string | null } {
  const scheduled = arr(pod.status?.conditions).find((c) => c.type === 'PodScheduled');
  if (scheduled && scheduled.status === 'False' && !pod.spec?.['nodeName']) {
    return {
      status: printed.status,
      reason: str(scheduled.reason) || 'Unschedulable',
      message: str(scheduled.message) || null,
    };
  }
  if (QUIET.has(printed.status) || INIT_PROGRESS.test(printed.status) || printed.status === '') {
    return { status: printed.status, reason: null, message: null };
  }
  return { status: printed.status, reason: printed.status, message: printed.drivingMessage };
}

/** Whether the API server has started deleting the pod. */
export function isTerminating(pod: KubeObject): boolean {
  return typeof pod.metadata.deletionTimestamp === 'string' && pod.metadata.deletionTimestamp !== '';
}

/** Succeeded and Failed pods no longer hold resources on their node. */
export function isTerminalPhase(pod: KubeObject): boolean {
  const phase = pod.status?.['phase'];
  return phase === 'Succeeded' || phase === 'Failed';
}

/** What a container last died of (OOMKilled, Error, …), kept while the pod restarts or backs off. */
function lastFailure(pod: KubeObject): string | null {
  for (const c of arr(obj(pod.status)?.containerStatuses)) {
    const t = state(c, 'state').terminated ?? state(c, 'lastState').terminated;
    if (t && num(t.exitCode) !== 0) return terminatedWord(t, '');
  }
  return null;
}

/**
 * How long a restart keeps a pod "recently restarted" (the kubelet's own
 * crash-loop back-off resets after a container ran this long): between two
 * crashes a crash-looping pod reads Running, and its workload must not.
 */
export const RECENT_RESTART_MS = 10 * 60_000;

/** When a pod's last restart stops being recent (ms), or null: no restart, or a finished pod. */
export function recentRestartEnds(pod: Pick<PodSummary, 'restarts' | 'lastRestartAt' | 'phase'>): number | null {
  if (pod.restarts <= 0 || !pod.lastRestartAt || pod.phase === 'Succeeded' || pod.phase === 'Failed') return null;
  const at = Date.parse(pod.lastRestartAt);
  return Number.isNaN(at) ? null : at + RECENT_RESTART_MS;
}

/**
 * A plain summary of a pod for trees, node views and `wlx get -o json`; `nowMs` says what "recent" is. Every
 * property is there, the optional ones `undefined` when they do not apply (the store's PodRecord copies them).
 */
export function summarisePod(
  pod: KubeObject,
  gpuResources: readonly string[] = DEFAULT_GPU_RESOURCES,
  nowMs = Date.now(),
): PodSummary {
  const printed = printPod(pod);
  const word = statusWordOf(pod, printed);
  const nodeName = pod.spec?.['nodeName'];
  const createdAt = pod.metadata.creationTimestamp;
  const summary: PodSummary = {
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name,
    status: word.status,
    phase: str(pod.status?.['phase']),
    ready: hasCondition(pod, 'Ready'),
    node: typeof nodeName === 'string' && nodeName !== '' ? nodeName : null,
    gpus: podGpuRequest(pod.spec, gpuResources),
    restarts: printed.restarts,
    reason: word.reason,
    uid: pod.metadata.uid,
    readyContainers: readyText(printed.readyContainers, printed.totalContainers),
    message: word.message,
    createdAt: typeof createdAt === 'string' ? createdAt : null,
    lastRestartAt: printed.lastRestartAt,
    lastFailure: lastFailure(pod),
    // Written out even when absent: a property added later would give the summary a shape of its own and a second array.
    recentRestart: undefined,
    gpuResources: undefined,
    gpuSlices: undefined,
    draClaims: undefined,
  };
  const ends = recentRestartEnds(summary);
  if (ends !== null && ends > nowMs) summary.recentRestart = true;
  return summary;
}

/** Containers per pod up to which "ready/total" texts are shared. */
const SHARED_READY_MAX = 16;
/** "ready/total" for every pair up to SHARED_READY_MAX: one string per pair, not one per pod summary; constant. */
const READY_TEXTS: readonly (readonly string[])[] = Array.from({ length: SHARED_READY_MAX + 1 }, (_, total) =>
  Array.from({ length: total + 1 }, (_, ready) => `${ready}/${total}`),
);
function readyText(ready: number, total: number): string {
  return READY_TEXTS[total]?.[ready] ?? `${ready}/${total}`;
}
