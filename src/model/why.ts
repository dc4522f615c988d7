// The why-panel: why a workload (or a role, or a pod) is not running, as root
// causes grouped by kind, each with the pods it affects. Pure function over
// plain objects: the pods' whole objects, their events, the nodes, the Jobs
// that own them, the workload's own failure message and, for crash loops,
// the last log lines the caller fetched.
import type {
  KubeObject,
  NodeSummary,
  PodSummary,
  RoleTree,
  WorkloadTree,
  GangVerdict,
  QueueFacts,
  Straggler,
} from './types.js';
import { podGpuRequest, withSlices } from './gpu.js';
import { humanDuration } from '../text/duration.js';
import { positionText } from './scheduling/words.js';
import {
  containerStatuses,
  eventsByObject,
  gangProgress,
  nodeNameOf,
  podCondition,
  podPhase,
  schedulerKeyReason,
  type ContainerState,
  type EventFacts,
} from './timeline.js';

import { idleSentence, stragglerSentence } from './utilisation.js';
import { rolePods, treePods } from './tree-pods.js';
import type { WorkerTry } from './fleet/types.js';
import { waitingText, workerTryLines } from './fleet/words.js';
import { roleName } from './role-name.js';
import { domainNoun, splitAcross, splitSentence, spreadOf, spreadSentence, topologyIndex } from './topology.js';

export type CauseKind =
  | 'workload-failed'
  | 'job-failed'
  | 'unschedulable'
  | 'image-pull'
  | 'oom-killed'
  | 'crash-loop'
  | 'container-error'
  | 'node-problem'
  | 'queued'
  | 'gang-unschedulable'
  | 'gpu-idle'
  | 'gpu-straggler'
  | 'topology-split'
  | 'multikueue-waiting';

export interface AffectedPod {
  namespace: string;
  name: string;
  uid: string;
  node: string | null;
  /** One line about this pod for this cause: `container pytorch OOMKilled, exit 137, 3 restarts`. */
  detail: string;
  /** Last log lines of the crashed container, when the caller supplied them. */
  logTail?: string[];
}

export interface Cause {
  kind: CauseKind;
  severity: 'error' | 'warn';
  /** `Unschedulable: 4 pods`, `OOMKilled: 1 pod`, … */
  title: string;
  /** The key message (scheduler message, workload condition message, image error). */
  message: string | null;
  /** Extra lines: free GPUs per node, gang verdicts, node conditions. */
  details: string[];
  pods: AffectedPod[];
}

export interface WhyInput {
  workload?: WorkloadTree | null;
  /** Whole pod objects in scope (the workload's, a role's, or one pod). */
  pods: readonly KubeObject[];
  events?: readonly KubeObject[];
  nodes?: readonly NodeSummary[];
  /** Jobs (or other owners) whose Failed condition counts as a cause. */
  owners?: readonly KubeObject[];
  /** pod uid → last lines of the crashed container's previous log. */
  logTails?: ReadonlyMap<string, string[]>;
  gpuResources?: readonly string[];
  /**
   * The part of the workload the user selected (a role): `pods` cover the
   * whole workload, the causes touching these pods come first, and the summary
   * says when the part itself has nothing wrong.
   */
  focus?: { name: string; podUids: ReadonlySet<string> };
  /** Kueue's facts when it holds the workload (src/model/scheduling/). */
  queue?: QueueFacts | null;
  /** A MultiKueue job waiting on its manager: the workers it was copied to and what each one's Kueue says. */
  multiKueueTries?: readonly WorkerTry[];
  /** The PodGroups' own verdicts (KAI, Volcano, Workload API). */
  gangVerdicts?: readonly GangVerdict[];
  /** For "waiting 12m". */
  nowMs?: number;
  /** The DCGM overlay's verdicts on the workload (src/model/gpu-overlay.ts); absent: no metrics. */
  gpu?: { workload: string; idle: number | null; idleForMs: number | null; stragglers: readonly Straggler[] };
  /**
   * The topology label keys in effect (src/model/topology.ts `topologyKeysInEffect`), read against
   * `nodes`: a role or the workload split across NVLink domains / racks though one could hold it is a
   * warning. Absent: no topology cause.
   */
  topologyKeys?: readonly string[];
}

export interface WhyReport {
  causes: Cause[];
  /** One line: `2 causes: Unschedulable (4 pods), OOMKilled (1 pod)` or `nothing wrong found`. */
  summary: string;
}

const IMAGE_REASONS = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'ErrImageNeverPull',
  'RegistryUnavailable',
]);
const CONTAINER_ERRORS = new Set([
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
  'PreStartHookError',
  'PostStartHookError',
]);
const PRESSURE = ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable'];

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function affected(pod: KubeObject, detail: string): AffectedPod {
  return {
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name,
    uid: pod.metadata.uid,
    node: nodeNameOf(pod),
    detail,
  };
}

function terminationText(t: NonNullable<ContainerState['terminated']>): string {
  return `${t.reason ?? 'terminated'}${t.exitCode !== undefined ? `, exit ${t.exitCode}` : ''}`;
}

/** Free GPUs per schedulable node, biggest first, and whether a request of `want` fits on any. */
export function freeGpuLines(nodes: readonly NodeSummary[], want: number): string[] {
  const free = nodes
    .filter((n) => n.ready && !n.unschedulable && n.gpuAllocatable > 0)
    .map((n) => ({ name: n.name, free: Math.max(0, n.gpuAllocatable - n.gpuRequested) }))
    .sort((a, b) => b.free - a.free || (a.name < b.name ? -1 : 1));
  if (!free.length) return want > 0 ? ['no schedulable GPU node'] : [];
  const fits = free.filter((f) => f.free >= want);
  const withFree = free.filter((f) => f.free > 0);
  const shown = withFree.slice(0, 8).map((f) => `${f.name} ${f.free}`);
  const lines: string[] = [];
  if (want > 0) {
    lines.push(
      fits.length
        ? `${plural(fits.length, 'node')} with ${want} free GPUs would fit: ${fits
            .slice(0, 8)
            .map((f) => f.name)
            .join(', ')}`
        : `no node has ${want} free GPUs (a pod needs ${want})`,
    );
  }
  lines.push(
    `free GPUs per node: ${shown.length ? shown.join(', ') + (withFree.length > shown.length ? `, … ${withFree.length - shown.length} more` : '') : 'none free'}`,
  );
  return lines;
}

function latest(events: readonly EventFacts[], reason: string): EventFacts | undefined {
  let best: EventFacts | undefined;
  for (const e of events) if (e.reason === reason && (!best || (e.lastMs ?? 0) >= (best.lastMs ?? 0))) best = e;
  return best;
}

function amount(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** A job Kueue keeps waiting: where it is in line and what quota it lacks. */
export function queueCause(q: QueueFacts, nowMs: number | undefined): Cause | null {
  const { queue } = q;
  if (queue.state !== 'Pending' && queue.state !== 'Evicted' && queue.state !== 'Preempted') return null;
  // Places in line as people count them (Kueue's own numbers start at 0: see wlx get -o json).
  const place = (position: number | null) =>
    position === null ? `${positionText(null, q.positionsUnavailable)} place` : positionText(position, false);
  const line =
    `${place(queue.position)} in ClusterQueue ${queue.clusterQueue ?? '?'}` +
    (queue.name ? ` · ${place(q.positionInLocalQueue)} in LocalQueue ${queue.name}` : '');
  const title = queue.state === 'Pending' ? `Queued: ${line}` : `${queue.state} by Kueue, waiting again: ${line}`;
  const message = q.shortfalls.length
    ? q.shortfalls
        .map(
          (s) =>
            `needs ${s.more ? `${s.more} more ` : 'more '}${s.resource} of quota${s.flavor ? ` in flavor ${s.flavor}` : ''}`,
        )
        .join('; ')
    : (queue.message ?? null);
  const details: string[] = [];
  const since = q.queuedSince ? Date.parse(q.queuedSince) : NaN;
  if (!Number.isNaN(since))
    details.push(`waiting ${nowMs !== undefined ? `${humanDuration(nowMs - since)} ` : ''}since ${q.queuedSince}`);
  details.push(
    `asks ${withSlices(`${amount(q.gpusAsked)} GPUs`, q.gpusAsked === 0, q.gpuSlicesAsked)} (Kueue workload ${q.kueueWorkload})`,
  );
  for (const f of q.clusterQueue?.gpu ?? [])
    details.push(
      `${q.clusterQueue!.name} ${f.flavor} ${f.resource}: usage ${amount(f.usage)} / nominal ${amount(f.nominal)}, borrowed ${amount(f.borrowed)}${f.borrowingLimit !== null ? ` (limit ${amount(f.borrowingLimit)})` : ''}`,
    );
  if (q.clusterQueue)
    details.push(`${q.clusterQueue.name}: ${q.clusterQueue.pending} pending, ${q.clusterQueue.admitted} admitted`);
  for (const c of q.admissionChecks)
    details.push(`admission check ${c.name}: ${c.state}${c.message ? ` (${c.message})` : ''}`);
  if (q.shortfalls.length && queue.message) details.push(`Kueue: ${queue.reason ?? 'Pending'}: ${queue.message}`);
  for (const h of q.history.slice(-3))
    details.push(`${h.type} ${h.reason ?? ''}${h.at ? ` at ${h.at}` : ''}${h.message ? `: ${h.message}` : ''}`);
  return { kind: 'queued', severity: 'warn', title, message, details, pods: [] };
}

/** A MultiKueue job no worker has admitted: each worker tried, with its Kueue's word (src/model/fleet/words.ts). */
export function multiKueueCause(tries: readonly WorkerTry[]): Cause {
  return {
    kind: 'multikueue-waiting',
    severity: 'warn',
    title: waitingText(tries),
    message: null,
    details: workerTryLines(tries),
    pods: [],
  };
}

/** A PodGroup that says it cannot be placed. */
export function gangCause(v: GangVerdict): Cause | null {
  if (!v.reason && !v.message) return null;
  const details = [
    `min members ${v.minMember}${v.running !== null ? `, running ${v.running}` : ''}${v.phase ? `, phase ${v.phase}` : ''}`,
  ];
  if (v.queue)
    details.push(
      `queue ${v.queue}${v.queueGpu ? `: GPU quota ${v.queueGpu.quota ?? '?'}, in use ${v.queueGpu.usage ?? '?'}` : ''}`,
    );
  return {
    kind: 'gang-unschedulable',
    severity: 'warn',
    title: `Gang not placed: PodGroup ${v.name} (${v.scheduler}${v.reason ? `, ${v.reason}` : ''})`,
    message: v.message,
    details,
    pods: [],
  };
}

/** Root causes of what is wrong, most severe first. */
export function explainWhy(input: WhyInput): WhyReport {
  const causes: Cause[] = [];
  // A queue or gang scheduler holding the job back is the first answer (its pods may not exist yet).
  const held = [
    ...(input.multiKueueTries ? [multiKueueCause(input.multiKueueTries)] : []),
    ...(input.queue ? [queueCause(input.queue, input.nowMs)] : []),
    ...(input.gangVerdicts ?? []).map(gangCause),
  ].filter((c): c is Cause => c !== null);
  const byObject = eventsByObject(input.events ?? []);
  const w = input.workload ?? null;

  if (w && (w.status.includes('Failed') || (w.statusMessage && w.status.some((s) => s === 'Degraded')))) {
    causes.push({
      kind: 'workload-failed',
      severity: w.status.includes('Failed') ? 'error' : 'warn',
      title: `${w.kind} ${w.status.includes('Failed') ? 'Failed' : 'Degraded'}`,
      message: w.statusMessage,
      details: [],
      pods: [],
    });
  }

  for (const o of input.owners ?? []) {
    const conds = ((o.status as { conditions?: unknown } | undefined)?.conditions ?? []) as Array<{
      type?: string;
      status?: string;
      reason?: string;
      message?: string;
    }>;
    const failed = Array.isArray(conds) ? conds.find((c) => c.type === 'Failed' && c.status === 'True') : undefined;
    if (!failed) continue;
    let cause = causes.find((c) => c.kind === 'job-failed');
    if (!cause)
      causes.push((cause = { kind: 'job-failed', severity: 'error', title: '', message: null, details: [], pods: [] }));
    cause.details.push(
      `${o.kind ?? 'Job'} ${o.metadata.name}: ${failed.reason ?? 'Failed'}${failed.message ? `: ${failed.message}` : ''}`,
    );
  }

  // Unschedulable pods, grouped by the scheduler's message.
  const unschedulable = new Map<string, { pods: KubeObject[]; gpus: number }>();
  const byCause = new Map<CauseKind, Cause>();
  const cause = (kind: CauseKind, severity: Cause['severity'], message: string | null = null): Cause => {
    const key = `${kind}\u0000${message ?? ''}` as CauseKind;
    let c = byCause.get(key);
    if (!c) {
      c = { kind, severity, title: '', message, details: [], pods: [] };
      byCause.set(key, c);
      causes.push(c);
    }
    return c;
  };

  const nodesByName = new Map((input.nodes ?? []).map((n) => [n.name, n]));
  const badNodes = new Map<string, { node: NodeSummary; problems: string[]; pods: KubeObject[] }>();

  for (const pod of input.pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const events = byObject.get(pod.metadata.uid) ?? [];
    const node = nodeNameOf(pod);
    const phase = podPhase(pod);
    if (!node && phase === 'Pending') {
      const cond = podCondition(pod, 'PodScheduled');
      const ev = latest(events, 'FailedScheduling');
      if (cond?.reason === 'Unschedulable' || ev) {
        const msg = cond?.message || ev?.message || 'unschedulable';
        let u = unschedulable.get(msg);
        if (!u) unschedulable.set(msg, (u = { pods: [], gpus: 0 }));
        u.pods.push(pod);
        u.gpus = Math.max(u.gpus, podGpuRequest(pod.spec, input.gpuResources ?? undefined));
      }
      continue;
    }
    if (node) {
      const n = nodesByName.get(node);
      if (n) {
        const problems: string[] = [];
        if (!n.ready) problems.push('NotReady');
        for (const c of n.conditions) if (PRESSURE.includes(c.type) && c.status === 'True') problems.push(c.type);
        if (problems.length) {
          let b = badNodes.get(node);
          if (!b) badNodes.set(node, (b = { node: n, problems, pods: [] }));
          b.pods.push(pod);
        }
      }
    }
    for (const cs of [...containerStatuses(pod, true), ...containerStatuses(pod)]) {
      const waiting = cs.state?.waiting;
      const restarts = cs.restartCount ?? 0;
      const last = cs.lastState?.terminated;
      const term = cs.state?.terminated;
      if (waiting?.reason && IMAGE_REASONS.has(waiting.reason)) {
        const c = cause('image-pull', 'error');
        c.pods.push(
          affected(
            pod,
            `container ${cs.name}: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}${cs.image ? ` (image ${cs.image})` : ''}`,
          ),
        );
        continue;
      }
      if (waiting?.reason && CONTAINER_ERRORS.has(waiting.reason)) {
        const c = cause('container-error', 'error');
        c.pods.push(
          affected(pod, `container ${cs.name}: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`),
        );
        continue;
      }
      // A crash: restarted after a failed run, back-off waiting, or a failed final run.
      const failedRun =
        last && (last.exitCode ?? 0) !== 0 ? last : term && (term.exitCode ?? 0) !== 0 ? term : undefined;
      if (failedRun && (restarts > 0 || waiting?.reason === 'CrashLoopBackOff' || phase === 'Failed' || term)) {
        const oom = failedRun.reason === 'OOMKilled';
        const c = cause(oom ? 'oom-killed' : 'crash-loop', 'error');
        const when = failedRun.finishedAt ? `, last at ${failedRun.finishedAt}` : '';
        const state =
          waiting?.reason === 'CrashLoopBackOff' ? ' (CrashLoopBackOff)' : phase === 'Failed' ? ' (pod Failed)' : '';
        const a = affected(
          pod,
          `container ${cs.name}: ${terminationText(failedRun)}, ${plural(restarts, 'restart')}${when}${state}`,
        );
        const tail = input.logTails?.get(pod.metadata.uid);
        if (tail?.length) a.logTail = tail;
        if (failedRun.message) a.detail += ` — ${failedRun.message.split('\n')[0]}`;
        c.pods.push(a);
        break;
      }
    }
  }

  // Unschedulable first in the list: it blocks everything else (and gangs).
  const unschedCauses: Cause[] = [];
  for (const [msg, u] of unschedulable) {
    const details = freeGpuLines(input.nodes ?? [], u.gpus);
    unschedCauses.push({
      kind: 'unschedulable',
      severity: 'warn',
      title: '',
      message: msg,
      details,
      pods: u.pods.map((p) => affected(p, `wants ${podGpuRequest(p.spec, input.gpuResources ?? undefined)} GPUs`)),
    });
  }
  if (w && unschedCauses.length) {
    const messages = [...unschedulable.entries()].flatMap(([m, u]) => u.pods.map(() => m));
    for (const g of w.gangs) {
      const gp = gangProgress(g, messages);
      if (gp.blocked)
        unschedCauses[0].details.unshift(`${g.name}${g.key && g.key !== w.name ? ` ${g.key}` : ''}: ${gp.blocked}`);
    }
  }
  const isHead = (c: Cause) => c.kind === 'workload-failed' || c.kind === 'job-failed';
  const ordered = [...held, ...causes.filter(isHead), ...unschedCauses, ...causes.filter((c) => !isHead(c))];
  causes.length = 0;
  causes.push(...ordered);

  for (const b of badNodes.values()) {
    causes.push({
      kind: 'node-problem',
      severity: b.node.ready ? 'warn' : 'error',
      title: '',
      message: `node ${b.node.name}: ${b.problems.join(', ')}`,
      details: b.node.conditions
        .filter((c) => b.problems.includes(c.type) || (c.type === 'Ready' && c.status !== 'True'))
        .map((c) => `${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''}${c.message ? `: ${c.message}` : ''}`),
      pods: b.pods.map((p) => affected(p, `on ${b.node.name}`)),
    });
  }

  causes.push(...gpuCauses(input.gpu));
  if (w && input.topologyKeys?.length) causes.push(...topologyCauses(w, input.nodes ?? [], input.topologyKeys));

  const names: Record<CauseKind, string> = {
    'workload-failed': '',
    'job-failed': 'Job failed',
    unschedulable: 'Unschedulable',
    'image-pull': 'Image pull failing',
    'oom-killed': 'OOMKilled',
    'crash-loop': 'Crash loop',
    'container-error': 'Container cannot start',
    'node-problem': 'Node problem',
    queued: '',
    'gang-unschedulable': '',
    'gpu-idle': '',
    'gpu-straggler': '',
    'topology-split': '',
    'multikueue-waiting': '',
  };
  const ownTitle = new Set<CauseKind>([
    'workload-failed',
    'queued',
    'multikueue-waiting',
    'gang-unschedulable',
    'gpu-idle',
    'gpu-straggler',
    'topology-split',
  ]);
  for (const c of causes) {
    if (ownTitle.has(c.kind)) continue;
    if (c.kind === 'job-failed') c.title = `${names[c.kind]}: ${plural(c.details.length, 'job')}`;
    else c.title = `${names[c.kind]}: ${plural(c.pods.length, 'pod')}`;
  }
  const focus = input.focus;
  let focusClear = false;
  if (focus) {
    const touches = (c: Cause) => c.pods.some((p) => focus.podUids.has(p.uid));
    const first = causes.filter(touches);
    focusClear = first.length === 0;
    const rest = causes.filter((c) => !touches(c));
    causes.length = 0;
    causes.push(...first, ...rest);
  }
  const all = causes.length
    ? `${plural(causes.length, 'cause')}: ${causes.map((c) => c.title).join('; ')}`
    : 'nothing wrong found';
  const summary =
    focus && focusClear && causes.length ? `${focus.name}: nothing wrong found; the workload has ${all}` : all;
  return { causes, summary };
}

/** Idle GPUs and stragglers: warnings, after what stops the pods. */
export function gpuCauses(gpu: WhyInput['gpu']): Cause[] {
  if (!gpu) return [];
  const out: Cause[] = [];
  const idle = idleSentence(gpu.workload, gpu.idle, gpu.idleForMs);
  if (idle)
    out.push({ kind: 'gpu-idle', severity: 'warn', title: `GPUs idle: ${idle}`, message: null, details: [], pods: [] });
  if (gpu.stragglers.length)
    out.push({
      kind: 'gpu-straggler',
      severity: 'warn',
      title: `Straggler: ${plural(gpu.stragglers.length, 'pod')}`,
      message: null,
      details: gpu.stragglers.map(stragglerSentence),
      pods: [],
    });
  return out;
}

/**
 * The workload and each of its roles split across NVLink domains / racks though one domain could have
 * held it (src/model/topology.ts `splitAcross`): one warning per group of pods, the most specific name
 * kept when a role holds the same pods as its parent or the workload.
 */
export function topologyCauses(w: WorkloadTree, nodes: readonly NodeSummary[], keys: readonly string[]): Cause[] {
  const index = topologyIndex(nodes, keys);
  const groups = new Map<string, { subject: string; pods: PodSummary[] }>();
  const add = (subject: string, pods: PodSummary[]): void => {
    const gpuPods = pods.filter((p) => p.gpus > 0 && p.node !== null);
    if (gpuPods.length < 2) return;
    groups.set(
      gpuPods
        .map((p) => p.uid)
        .sort()
        .join(' '),
      { subject, pods },
    );
  };
  add(w.name, treePods(w));
  const walk = (roles: readonly RoleTree[]): void => {
    for (const r of roles) {
      add(roleName(r), rolePods(r));
      walk(r.roles);
    }
  };
  walk(w.roles);
  const out: Cause[] = [];
  for (const { subject, pods } of groups.values()) {
    const splits = splitAcross(pods, index);
    if (!splits.length) continue;
    const main = splits[splits.length - 1];
    const where = (node: string): string => {
      const v = index.nodes.get(node)?.labels[main.key];
      return v === undefined ? `no ${domainNoun(main.key)}` : `${domainNoun(main.key)} ${v}`;
    };
    const onNodes = new Map<string, number>();
    for (const p of pods) if (p.gpus > 0 && p.node !== null) onNodes.set(p.node, (onNodes.get(p.node) ?? 0) + p.gpus);
    out.push({
      kind: 'topology-split',
      severity: 'warn',
      title: `Topology: ${subject} split across ${main.domains} ${domainNoun(main.key)}s`,
      message: `${splitSentence(subject, main)} — slow collectives likely`,
      details: [
        spreadSentence(spreadOf(pods, index), keys),
        ...splits
          .slice(0, -1)
          .reverse()
          .map((s) => splitSentence(subject, s)),
        ...splits.map(
          (s) =>
            `${domainNoun(s.key)} ${s.couldFit}: room for ${s.room} GPUs on its Ready, schedulable nodes (${s.inside} of the ${s.gpus} already there)`,
        ),
        ...[...onNodes].map(([node, gpus]) => `${node} (${where(node)}): ${gpus} GPUs`),
      ],
      pods: pods
        .filter((p) => p.gpus > 0 && p.node !== null)
        .map((p) => ({
          namespace: p.namespace,
          name: p.name,
          uid: p.uid,
          node: p.node,
          detail: `on ${p.node} (${where(p.node!)})`,
        })),
    });
  }
  return out;
}

/** One short reason for the key cause, e.g. for the workload view's header line. */
export function keyReason(c: Cause): string {
  if (c.kind === 'unschedulable' && c.message) return schedulerKeyReason(c.message) ?? c.message;
  return c.message ?? c.pods[0]?.detail ?? c.title;
}
