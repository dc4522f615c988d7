// Queues and gang schedulers: Kueue Workloads / LocalQueues / ClusterQueues,
// KAI and Volcano PodGroups and Queues, the Kubernetes Workload API. Pure
// functions over plain objects, and `SchedulingIndex`, which keeps those
// objects (fed by the engine's watches or a dump) and answers per wlx
// workload: its queue, why it waits, its PodGroups' verdicts. Field names are
// those of the projects' CRDs (kueue apis/kueue/v1beta1|v1beta2, KAI
// scheduling.run.ai v2alpha2 PodGroup / v2 Queue, volcano scheduling v1beta1).
import type { Gvk } from '../definitions/types.js';
import type { GangSummary, KubeObject, WorkloadTree } from './types.js';
import { treePods } from './pod-nodes.js';
import { parseQuantity } from './quantity.js';
import { DEFAULT_GPU_RESOURCES } from './gpu.js';

export const KUEUE_GROUP = 'kueue.x-k8s.io';
export const KAI_GROUP = 'scheduling.run.ai';
export const VOLCANO_GROUP = 'scheduling.volcano.sh';
export const WORKLOAD_API_GROUP = 'scheduling.k8s.io';
export const KUEUE_QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';

/**
 * The kinds watched for queues and gangs, at the newest version each project
 * serves; discovery falls back to another served version of the kind (Kueue
 * v1beta1). Absent kinds are simply not shown.
 */
export const SCHEDULING_GVKS: readonly Gvk[] = [
  { group: KUEUE_GROUP, version: 'v1beta2', kind: 'Workload' },
  { group: KUEUE_GROUP, version: 'v1beta2', kind: 'LocalQueue' },
  { group: KUEUE_GROUP, version: 'v1beta2', kind: 'ClusterQueue' },
  { group: KAI_GROUP, version: 'v2alpha2', kind: 'PodGroup' },
  { group: KAI_GROUP, version: 'v2', kind: 'Queue' },
  { group: VOLCANO_GROUP, version: 'v1beta1', kind: 'PodGroup' },
  { group: VOLCANO_GROUP, version: 'v1beta1', kind: 'Queue' },
  { group: WORKLOAD_API_GROUP, version: 'v1alpha1', kind: 'Workload' },
];

export type QueueSystem = 'kueue' | 'kai' | 'volcano';
export type GangScheduler = 'kai' | 'volcano' | 'workload-api';

/** `workloads[].queue` of `wlx get -o json` (README contract). */
export interface WorkloadQueue {
  system: QueueSystem;
  /** The LocalQueue (Kueue) or the scheduler's queue. */
  name: string | null;
  clusterQueue: string | null;
  /** Kueue: Pending | QuotaReserved | Admitted | Evicted | Preempted | Finished; others: the PodGroup phase. */
  state: string;
  /** 0-based within the ClusterQueue; null when not pending or unknown. */
  position: number | null;
  reason: string | null;
  message: string | null;
}

/** `insufficient unused quota for nvidia.com/gpu in flavor h100, 4 more needed`. */
export interface QuotaShortfall {
  resource: string;
  flavor: string | null;
  /** How much more is needed, as the message says it (a quantity); null when it does not say. */
  more: string | null;
}

/** One (flavor, GPU resource) of a ClusterQueue. */
export interface FlavorQuota {
  flavor: string;
  resource: string;
  nominal: number;
  /** null: no limit (in a cohort) or no cohort. */
  borrowingLimit: number | null;
  usage: number;
  borrowed: number;
}

export interface ClusterQueueSummary {
  name: string;
  cohort: string | null;
  gpu: FlavorQuota[];
  pending: number;
  admitted: number;
  reserving: number;
}

export interface TimedCondition {
  type: string;
  status: string;
  reason: string | null;
  message: string | null;
  at: string | null;
}

/** A pending Kueue workload in line (the `:queues` drill-down). */
export interface PendingEntry {
  /** The Kueue Workload's namespace/name. */
  namespace: string;
  name: string;
  /** The wlx workload (its owner), when it is one. */
  ownerUid: string | null;
  ownerName: string | null;
  localQueue: string | null;
  clusterQueue: string;
  positionInClusterQueue: number | null;
  positionInLocalQueue: number | null;
  gpus: number;
  since: string | null;
}

/** Everything the why-panel says about a Kueue-held workload. */
export interface QueueFacts {
  queue: WorkloadQueue;
  positionInLocalQueue: number | null;
  kueueWorkload: string;
  queuedSince: string | null;
  gpusAsked: number;
  shortfalls: QuotaShortfall[];
  clusterQueue: ClusterQueueSummary | null;
  admissionChecks: { name: string; state: string; message: string | null }[];
  /** Evicted / Preempted / Requeued conditions, newest last. */
  history: TimedCondition[];
  /** queued → quota reserved → admitted (ISO times or null). */
  steps: { label: 'queued' | 'quota reserved' | 'admitted'; at: string | null }[];
}

/** A PodGroup's own verdict (KAI, Volcano) or a Workload API pod group's policy. */
export interface GangVerdict {
  scheduler: GangScheduler;
  name: string;
  minMember: number;
  /** Members the scheduler counts as running (Volcano/KAI status.running), else null. */
  running: number | null;
  phase: string | null;
  reason: string | null;
  message: string | null;
  queue: string | null;
  /** The scheduler queue's GPU quota and usage, when its Queue object is readable. */
  queueGpu: { quota: number | null; usage: number | null } | null;
}

// ---- small readers ----------------------------------------------------------

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function groupOf(o: KubeObject): string {
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  return av.includes('/') ? av.slice(0, av.indexOf('/')) : '';
}

export function conditionsOf(o: KubeObject): TimedCondition[] {
  return list(obj(o.status).conditions).map((c) => ({
    type: str(c.type) ?? '',
    status: str(c.status) ?? '',
    reason: str(c.reason),
    message: str(c.message),
    at: str(c.lastTransitionTime),
  }));
}

function condition(o: KubeObject, type: string): TimedCondition | undefined {
  return conditionsOf(o).find((c) => c.type === type);
}

const isTrue = (c: TimedCondition | undefined) => c?.status === 'True';

/** A resource counts as a GPU when it is one of the GPU resources, or a MIG / shared variant of nvidia.com/gpu. */
export function isGpuResource(name: string, gpuResources: readonly string[] = DEFAULT_GPU_RESOURCES): boolean {
  return gpuResources.includes(name) || name.startsWith('nvidia.com/mig-') || name === 'nvidia.com/gpu.shared';
}

// ---- Kueue ------------------------------------------------------------------

/**
 * The quota shortfalls a Kueue QuotaReserved=False message names, e.g.
 * `couldn't assign flavors to pod set main: insufficient unused quota for
 * nvidia.com/gpu in flavor h100, 4 more needed` (one per resource and flavor).
 */
export function parseQuotaShortfalls(message: string | null): QuotaShortfall[] {
  if (!message) return [];
  const out: QuotaShortfall[] = [];
  const re =
    /insufficient (?:unused )?quota for ([A-Za-z0-9./_-]+)(?: in flavor ([A-Za-z0-9._-]+))?(?:,\s*([0-9.]+[A-Za-z]*) more needed)?/g;
  for (let m = re.exec(message); m; m = re.exec(message)) {
    out.push({ resource: m[1], flavor: m[2] ?? null, more: m[3] ?? null });
  }
  return out;
}

/** Kueue's state of one of its Workloads, by its conditions (newest meaning first). */
export function kueueState(w: KubeObject): string {
  if (isTrue(condition(w, 'Finished'))) return 'Finished';
  if (isTrue(condition(w, 'Admitted'))) return 'Admitted';
  if (isTrue(condition(w, 'QuotaReserved'))) return 'QuotaReserved';
  const preempted = condition(w, 'Preempted');
  const evicted = condition(w, 'Evicted');
  // An evicted workload waits again: it is named by why it left, until admitted anew.
  if (isTrue(preempted)) return 'Preempted';
  if (isTrue(evicted)) return evicted?.reason === 'Preempted' ? 'Preempted' : 'Evicted';
  return 'Pending';
}

/** The Kueue workload's GPU request: Σ podSets count × the pod template's GPU requests (or its status.resourceRequests). */
export function kueueGpus(w: KubeObject, gpuResources: readonly string[] = DEFAULT_GPU_RESOURCES): number {
  const fromStatus = list(obj(w.status).resourceRequests);
  if (fromStatus.length) {
    let total = 0;
    for (const ps of fromStatus)
      for (const [name, q] of Object.entries(obj(ps.resources)))
        if (isGpuResource(name, gpuResources)) total += parseQuantity(q);
    if (total > 0) return total;
  }
  let total = 0;
  for (const ps of list(obj(w.spec).podSets)) {
    const count = num(ps.count) ?? 1;
    const spec = obj(obj(ps.template).spec);
    let perPod = 0;
    for (const c of list(spec.containers)) {
      const res = obj(c.resources);
      const requests = obj(res.requests);
      const limits = obj(res.limits);
      for (const name of new Set([...Object.keys(requests), ...Object.keys(limits)]))
        if (isGpuResource(name, gpuResources)) perPod += parseQuantity(requests[name] ?? limits[name]);
    }
    total += perPod * count;
  }
  return total;
}

function quantityOrNull(v: unknown): number | null {
  return v === undefined || v === null ? null : parseQuantity(v);
}

/** A ClusterQueue's GPU quota per flavor with its usage, and its workload counts. */
export function summariseClusterQueue(
  cq: KubeObject,
  gpuResources: readonly string[] = DEFAULT_GPU_RESOURCES,
): ClusterQueueSummary {
  const spec = obj(cq.spec);
  const status = obj(cq.status);
  const usage = new Map<string, { total: number; borrowed: number }>();
  for (const f of list(status.flavorsUsage))
    for (const r of list(f.resources))
      usage.set(`${str(f.name)}\u0000${str(r.name)}`, {
        total: parseQuantity(r.total),
        borrowed: parseQuantity(r.borrowed),
      });
  const gpu: FlavorQuota[] = [];
  for (const g of list(spec.resourceGroups))
    for (const f of list(g.flavors))
      for (const r of list(f.resources)) {
        const flavor = str(f.name) ?? '';
        const resource = str(r.name) ?? '';
        if (!isGpuResource(resource, gpuResources)) continue;
        const u = usage.get(`${flavor}\u0000${resource}`);
        gpu.push({
          flavor,
          resource,
          nominal: parseQuantity(r.nominalQuota),
          borrowingLimit: quantityOrNull(r.borrowingLimit),
          usage: u?.total ?? 0,
          borrowed: u?.borrowed ?? 0,
        });
      }
  return {
    name: cq.metadata.name,
    // v1beta2 renamed spec.cohort to spec.cohortName.
    cohort: str(spec.cohortName) ?? str(spec.cohort),
    gpu,
    pending: num(status.pendingWorkloads) ?? 0,
    admitted: num(status.admittedWorkloads) ?? 0,
    reserving: num(status.reservingWorkloads) ?? 0,
  };
}

/** One item of the visibility API's pendingworkloads list. */
export interface PendingPosition {
  namespace: string;
  name: string;
  localQueue: string | null;
  positionInClusterQueue: number | null;
  positionInLocalQueue: number | null;
}

/** `GET …/pendingworkloads` → positions (`items[]{metadata, localQueueName, positionInClusterQueue, positionInLocalQueue}`). */
export function parsePendingWorkloads(body: unknown): PendingPosition[] {
  return list(obj(body).items).map((i) => {
    const meta = obj(i.metadata);
    return {
      namespace: str(meta.namespace) ?? '',
      name: str(meta.name) ?? '',
      localQueue: str(i.localQueueName),
      positionInClusterQueue: num(i.positionInClusterQueue),
      positionInLocalQueue: num(i.positionInLocalQueue),
    };
  });
}

// ---- PodGroups ----------------------------------------------------------------

function schedulerOf(o: KubeObject): GangScheduler | null {
  const g = groupOf(o);
  if (g === KAI_GROUP) return 'kai';
  if (g === VOLCANO_GROUP) return 'volcano';
  if (g === WORKLOAD_API_GROUP) return 'workload-api';
  return null;
}

/** A KAI or Volcano PodGroup's verdict: its phase and why it cannot be placed. */
export function podGroupVerdict(pg: KubeObject): GangVerdict {
  const scheduler = schedulerOf(pg) ?? 'volcano';
  const spec = obj(pg.spec);
  const status = obj(pg.status);
  let reason: string | null = null;
  let message: string | null = null;
  // KAI: schedulingConditions[] (reasons[] newer, reason/message older); Volcano: conditions[type=Unschedulable].
  const kai = list(status.schedulingConditions).filter((c) => str(c.status) !== 'False');
  const last = kai[kai.length - 1];
  if (last) {
    const reasons = list(last.reasons);
    reason = str(reasons[0]?.reason) ?? str(last.reason) ?? str(last.type);
    const texts = reasons.map((r) => str(r.message)).filter((m): m is string => m !== null);
    message = texts.length ? texts.join('; ') : str(last.message);
  }
  if (!reason && !message) {
    const unsched = conditionsOf(pg).find((c) => c.type === 'Unschedulable' && c.status === 'True');
    if (unsched) {
      reason = unsched.reason ?? 'Unschedulable';
      message = unsched.message;
    }
  }
  return {
    scheduler,
    name: pg.metadata.name,
    minMember: num(spec.minMember) ?? 1,
    running: num(status.running),
    phase: str(status.phase),
    reason,
    message,
    queue: str(spec.queue),
    queueGpu: null,
  };
}

/** The Workload API's gang pod groups (`spec.podGroups[].policy.gang.minCount`). */
export function workloadApiVerdicts(w: KubeObject): GangVerdict[] {
  return list(obj(w.spec).podGroups).flatMap((g) => {
    const gang = obj(obj(g.policy).gang);
    const min = num(gang.minCount);
    if (min === null) return [];
    return [
      {
        scheduler: 'workload-api' as const,
        name: `${w.metadata.name}/${str(g.name) ?? ''}`,
        minMember: min,
        running: null,
        phase: null,
        reason: null,
        message: null,
        queue: null,
        queueGpu: null,
      },
    ];
  });
}

/** A KAI (`spec.resources.gpu.quota`, `status.allocated`) or Volcano (`spec.capability`, `status.allocated`) queue's GPUs. */
export function schedulerQueueGpu(
  q: KubeObject,
  gpuResources: readonly string[] = DEFAULT_GPU_RESOURCES,
): { quota: number | null; usage: number | null } {
  const spec = obj(q.spec);
  const status = obj(q.status);
  const gpuOf = (m: Obj): number | null => {
    let total: number | null = null;
    for (const [k, v] of Object.entries(m))
      if (k === 'gpu' || isGpuResource(k, gpuResources)) total = (total ?? 0) + parseQuantity(v);
    return total;
  };
  const kaiQuota = obj(obj(spec.resources).gpu).quota;
  const quota = kaiQuota !== undefined ? parseQuantity(kaiQuota) : gpuOf(obj(spec.capability));
  return { quota, usage: gpuOf(obj(status.allocated)) };
}

// ---- the index ------------------------------------------------------------------

function key(ns: string | undefined, name: string): string {
  return `${ns ?? ''}/${name}`;
}

function controllerUid(o: KubeObject): string | null {
  const refs = o.metadata.ownerReferences ?? [];
  return (refs.find((r) => r.controller) ?? refs[0])?.uid ?? null;
}

export interface SchedulingView {
  /** Per wlx workload uid. */
  queues: ReadonlyMap<string, WorkloadQueue>;
  gangs: ReadonlyMap<string, GangVerdict[]>;
  clusterQueues: ClusterQueueSummary[];
  /** Per ClusterQueue, its pending workloads in line (see pendingIn). */
  pending: ReadonlyMap<string, PendingEntry[]>;
  /** Per wlx workload uid held by Kueue: the why-panel's facts. */
  facts: ReadonlyMap<string, QueueFacts>;
  /** Whether any queue or gang kind holds objects (the QUEUE column shows only then). */
  active: boolean;
}

export const EMPTY_SCHEDULING: SchedulingView = {
  queues: new Map(),
  gangs: new Map(),
  clusterQueues: [],
  pending: new Map(),
  facts: new Map(),
  active: false,
};

/**
 * The queue and gang objects, kept by kind and uid. `view()` is recomputed
 * only after a change (the objects are few: one per job, not per pod), and
 * each workload's `WorkloadQueue` keeps its identity while unchanged.
 */
export class SchedulingIndex {
  private readonly kueueWorkloads = new Map<string, KubeObject>();
  private readonly localQueues = new Map<string, KubeObject>();
  private readonly clusterQueues = new Map<string, KubeObject>();
  private readonly podGroups = new Map<string, KubeObject>();
  private readonly schedulerQueues = new Map<string, KubeObject>();
  private readonly apiWorkloads = new Map<string, KubeObject>();
  /** Per ClusterQueue, `ns/name` of a Kueue Workload → its position (visibility API). */
  private readonly positionsByQueue = new Map<string, Map<string, PendingPosition>>();
  private cached: SchedulingView | null = EMPTY_SCHEDULING;
  private previousQueues = new Map<string, WorkloadQueue>();
  version = 0;

  constructor(private readonly gpuResources: readonly string[] = DEFAULT_GPU_RESOURCES) {}

  private tableOf(o: KubeObject): Map<string, KubeObject> | null {
    const group = groupOf(o);
    const kind = o.kind;
    if (group === KUEUE_GROUP) {
      if (kind === 'Workload') return this.kueueWorkloads;
      if (kind === 'LocalQueue') return this.localQueues;
      if (kind === 'ClusterQueue') return this.clusterQueues;
      return null;
    }
    if (group === KAI_GROUP || group === VOLCANO_GROUP) {
      if (kind === 'PodGroup') return this.podGroups;
      if (kind === 'Queue') return this.schedulerQueues;
      return null;
    }
    if (group === WORKLOAD_API_GROUP && kind === 'Workload') return this.apiWorkloads;
    return null;
  }

  /** Whether the index keeps objects of this kind. */
  holds(o: KubeObject): boolean {
    return this.tableOf(o) !== null;
  }

  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', o: KubeObject): void {
    const table = this.tableOf(o);
    if (!table || !o.metadata?.uid) return;
    if (type === 'DELETED') table.delete(o.metadata.uid);
    else table.set(o.metadata.uid, o);
    this.changed();
  }

  /** Positions of one ClusterQueue's pending workloads (a fresh visibility answer replaces the previous one). */
  setPositions(clusterQueue: string, items: readonly PendingPosition[]): void {
    this.positionsByQueue.set(clusterQueue, new Map(items.map((p) => [key(p.namespace, p.name), { ...p }])));
    this.changed();
  }

  private position(w: KubeObject): PendingPosition | undefined {
    const k = key(w.metadata.namespace, w.metadata.name);
    for (const m of this.positionsByQueue.values()) {
      const p = m.get(k);
      if (p) return p;
    }
    return undefined;
  }

  private changed(): void {
    this.cached = null;
    this.byOwner = null;
    this.groupIndex = null;
    this.version += 1;
  }

  /** ClusterQueues with pending workloads (those whose positions are worth asking). */
  clusterQueuesWithPending(): string[] {
    const out = new Set<string>();
    for (const w of this.kueueWorkloads.values()) {
      const cq = this.clusterQueueOf(w);
      if (cq && kueueState(w) !== 'Admitted' && kueueState(w) !== 'Finished' && kueueState(w) !== 'QuotaReserved')
        out.add(cq);
    }
    for (const cq of this.clusterQueues.values())
      if ((num(obj(cq.status).pendingWorkloads) ?? 0) > 0) out.add(cq.metadata.name);
    return [...out].sort();
  }

  /** LocalQueues with pending workloads (asked one by one when the ClusterQueue's list is forbidden). */
  localQueuesWithPending(): { namespace: string; name: string }[] {
    const out = new Map<string, { namespace: string; name: string }>();
    for (const w of this.kueueWorkloads.values()) {
      const lq = str(obj(w.spec).queueName);
      const state = kueueState(w);
      if (lq && (state === 'Pending' || state === 'Evicted' || state === 'Preempted'))
        out.set(key(w.metadata.namespace, lq), { namespace: w.metadata.namespace ?? '', name: lq });
    }
    return [...out.values()];
  }

  /** The ClusterQueue a Kueue workload is admitted to, else the one its LocalQueue points at. */
  private clusterQueueOf(w: KubeObject): string | null {
    const admitted = str(obj(obj(w.status).admission).clusterQueue);
    if (admitted) return admitted;
    const lq = str(obj(w.spec).queueName);
    if (!lq) return null;
    for (const q of this.localQueues.values())
      if (q.metadata.name === lq && q.metadata.namespace === w.metadata.namespace) return str(obj(q.spec).clusterQueue);
    return null;
  }

  /** Kueue Workloads by their owner's uid; rebuilt after a change. */
  private byOwner: Map<string, KubeObject> | null = null;

  /** The Kueue Workload of a wlx workload (its owner by ownerReferences). */
  private kueueWorkloadFor(uid: string): KubeObject | null {
    if (!this.byOwner) {
      this.byOwner = new Map();
      for (const w of this.kueueWorkloads.values()) {
        const owner = controllerUid(w);
        if (!owner) continue;
        const best = this.byOwner.get(owner);
        // A job re-queued after a change gets a new Workload: the newest one speaks for it.
        if (!best || (w.metadata.creationTimestamp ?? '') > (best.metadata.creationTimestamp ?? ''))
          this.byOwner.set(owner, w);
      }
    }
    return this.byOwner.get(uid) ?? null;
  }

  private queueOfKueue(w: KubeObject): WorkloadQueue {
    const state = kueueState(w);
    const pending = state === 'Pending' || state === 'Evicted' || state === 'Preempted';
    const pos = pending ? this.position(w) : undefined;
    const reserved = condition(w, 'QuotaReserved');
    const driving =
      state === 'Evicted'
        ? condition(w, 'Evicted')
        : state === 'Preempted'
          ? (condition(w, 'Preempted') ?? condition(w, 'Evicted'))
          : state === 'Finished'
            ? condition(w, 'Finished')
            : state === 'Admitted'
              ? condition(w, 'Admitted')
              : reserved;
    return {
      system: 'kueue',
      name: str(obj(w.spec).queueName),
      clusterQueue: this.clusterQueueOf(w),
      state,
      position: pos?.positionInClusterQueue ?? null,
      reason: driving?.reason ?? null,
      message: driving?.message ?? null,
    };
  }

  /** PodGroups and Workload API objects by owner uid, and by `ns/name`; rebuilt after a change. */
  private groupIndex: { byOwner: Map<string, KubeObject[]>; byName: Map<string, KubeObject> } | null = null;

  private groups(): { byOwner: Map<string, KubeObject[]>; byName: Map<string, KubeObject> } {
    if (this.groupIndex) return this.groupIndex;
    const byOwner = new Map<string, KubeObject[]>();
    const byName = new Map<string, KubeObject>();
    for (const o of [...this.podGroups.values(), ...this.apiWorkloads.values()]) {
      for (const r of o.metadata.ownerReferences ?? []) {
        const list = byOwner.get(r.uid) ?? [];
        list.push(o);
        byOwner.set(r.uid, list);
      }
      if (this.podGroups.has(o.metadata.uid)) byName.set(key(o.metadata.namespace, o.metadata.name), o);
    }
    return (this.groupIndex = { byOwner, byName });
  }

  /** PodGroups of a workload: owned by it, or named by KAI's `pg-<name>-<uid>` rule. */
  private podGroupsFor(tree: Pick<WorkloadTree, 'uid' | 'name' | 'namespace'>): KubeObject[] {
    const { byOwner, byName } = this.groups();
    const out = (byOwner.get(tree.uid) ?? []).filter(
      (o) => this.podGroups.has(o.metadata.uid) && o.metadata.namespace === tree.namespace,
    );
    const named = byName.get(key(tree.namespace, `pg-${tree.name}-${tree.uid}`));
    if (named && !out.includes(named)) out.push(named);
    return out.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  }

  private verdictsFor(tree: Pick<WorkloadTree, 'uid' | 'name' | 'namespace'>): GangVerdict[] {
    const out = this.podGroupsFor(tree).map((pg) => {
      const v = podGroupVerdict(pg);
      const q = v.queue ? this.schedulerQueue(groupOf(pg), v.queue) : null;
      return q ? { ...v, queueGpu: schedulerQueueGpu(q, this.gpuResources) } : v;
    });
    for (const w of this.groups().byOwner.get(tree.uid) ?? [])
      if (this.apiWorkloads.has(w.metadata.uid) && w.metadata.namespace === tree.namespace)
        out.push(...workloadApiVerdicts(w));
    return out;
  }

  private schedulerQueue(group: string, name: string): KubeObject | null {
    for (const q of this.schedulerQueues.values()) if (groupOf(q) === group && q.metadata.name === name) return q;
    return null;
  }

  /** Queue of a workload and gang verdicts, for every workload given. */
  view(workloads: readonly Pick<WorkloadTree, 'uid' | 'name' | 'namespace'>[]): SchedulingView {
    if (this.cached && this.cachedFor === workloads) return this.cached;
    const active =
      this.kueueWorkloads.size + this.clusterQueues.size + this.podGroups.size + this.apiWorkloads.size > 0;
    if (!active) {
      this.cachedFor = workloads;
      this.previousQueues = new Map();
      return (this.cached = EMPTY_SCHEDULING);
    }
    const queues = new Map<string, WorkloadQueue>();
    const gangs = new Map<string, GangVerdict[]>();
    const facts = new Map<string, QueueFacts>();
    for (const t of workloads) {
      const kw = this.kueueWorkloadFor(t.uid);
      const f = kw ? this.queueFacts(t) : null;
      if (f) facts.set(t.uid, f);
      const verdicts = this.verdictsFor(t);
      if (verdicts.length) gangs.set(t.uid, verdicts);
      let q: WorkloadQueue | null = kw ? this.queueOfKueue(kw) : null;
      if (!q) {
        const pg = verdicts.find((v) => v.scheduler !== 'workload-api');
        if (pg)
          q = {
            system: pg.scheduler === 'kai' ? 'kai' : 'volcano',
            name: pg.queue,
            clusterQueue: null,
            state: pg.phase ?? 'Unknown',
            position: null,
            reason: pg.reason,
            message: pg.message,
          };
      }
      if (!q) continue;
      const prev = this.previousQueues.get(t.uid);
      queues.set(t.uid, prev && sameQueue(prev, q) ? prev : q);
    }
    this.previousQueues = queues;
    const clusterQueues = [...this.clusterQueues.values()]
      .map((cq) => summariseClusterQueue(cq, this.gpuResources))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const owners = new Map(workloads.map((w) => [w.uid, { name: w.name }]));
    const pending = new Map(clusterQueues.map((c) => [c.name, this.pendingIn(c.name, owners)]));
    this.cachedFor = workloads;
    return (this.cached = { queues, gangs, clusterQueues, pending, facts, active: true });
  }

  private cachedFor: readonly unknown[] | null = null;

  /** The why-panel's facts for a Kueue-held workload, or null. */
  queueFacts(tree: Pick<WorkloadTree, 'uid' | 'name' | 'namespace'>): QueueFacts | null {
    const w = this.kueueWorkloadFor(tree.uid);
    if (!w) return null;
    const queue = this.queueOfKueue(w);
    const cqObj = [...this.clusterQueues.values()].find((c) => c.metadata.name === queue.clusterQueue);
    const reserved = condition(w, 'QuotaReserved');
    const admitted = condition(w, 'Admitted');
    const pending = queue.state === 'Pending' || queue.state === 'Evicted' || queue.state === 'Preempted';
    const pos = pending ? this.position(w) : undefined;
    const history = conditionsOf(w)
      .filter((c) => ['Evicted', 'Preempted', 'Requeued'].includes(c.type) && c.reason)
      .sort((a, b) => ((a.at ?? '') < (b.at ?? '') ? -1 : 1));
    return {
      queue,
      positionInLocalQueue: pos?.positionInLocalQueue ?? null,
      kueueWorkload: `${w.metadata.namespace ?? ''}/${w.metadata.name}`,
      queuedSince: w.metadata.creationTimestamp ?? null,
      gpusAsked: kueueGpus(w, this.gpuResources),
      shortfalls: pending && reserved?.status !== 'True' ? parseQuotaShortfalls(reserved?.message ?? null) : [],
      clusterQueue: cqObj ? summariseClusterQueue(cqObj, this.gpuResources) : null,
      admissionChecks: list(obj(w.status).admissionChecks).map((c) => ({
        name: str(c.name) ?? '',
        state: str(c.state) ?? '',
        message: str(c.message),
      })),
      history,
      steps: [
        { label: 'queued', at: w.metadata.creationTimestamp ?? null },
        { label: 'quota reserved', at: isTrue(reserved) ? reserved!.at : null },
        { label: 'admitted', at: isTrue(admitted) ? admitted!.at : null },
      ],
    };
  }

  /** A ClusterQueue's pending Kueue workloads in line: by position when known, else by priority and age. */
  pendingIn(clusterQueue: string, owners: ReadonlyMap<string, { name: string }>): PendingEntry[] {
    const out: PendingEntry[] = [];
    for (const w of this.kueueWorkloads.values()) {
      const state = kueueState(w);
      if (state !== 'Pending' && state !== 'Evicted' && state !== 'Preempted') continue;
      if (this.clusterQueueOf(w) !== clusterQueue) continue;
      const pos = this.position(w);
      const ownerUid = controllerUid(w);
      out.push({
        namespace: w.metadata.namespace ?? '',
        name: w.metadata.name,
        ownerUid: ownerUid && owners.has(ownerUid) ? ownerUid : null,
        ownerName: ownerUid ? (owners.get(ownerUid)?.name ?? null) : null,
        localQueue: str(obj(w.spec).queueName),
        clusterQueue,
        positionInClusterQueue: pos?.positionInClusterQueue ?? null,
        positionInLocalQueue: pos?.positionInLocalQueue ?? null,
        gpus: kueueGpus(w, this.gpuResources),
        since: w.metadata.creationTimestamp ?? null,
      });
    }
    const prio = (e: PendingEntry) =>
      num(obj(this.findKueue(e.namespace, e.name)?.spec).priority) ?? Number.NEGATIVE_INFINITY;
    return out.sort(
      (a, b) =>
        (a.positionInClusterQueue ?? Infinity) - (b.positionInClusterQueue ?? Infinity) ||
        prio(b) - prio(a) ||
        ((a.since ?? '') < (b.since ?? '') ? -1 : (a.since ?? '') > (b.since ?? '') ? 1 : 0) ||
        (a.name < b.name ? -1 : 1),
    );
  }

  private findKueue(namespace: string, name: string): KubeObject | undefined {
    for (const w of this.kueueWorkloads.values())
      if (w.metadata.namespace === namespace && w.metadata.name === name) return w;
    return undefined;
  }
}

function sameQueue(a: WorkloadQueue, b: WorkloadQueue): boolean {
  return (
    a.system === b.system &&
    a.name === b.name &&
    a.clusterQueue === b.clusterQueue &&
    a.state === b.state &&
    a.position === b.position &&
    a.reason === b.reason &&
    a.message === b.message
  );
}

/** Status words a queue's own word replaces: the job is waiting for the queue, not initialising. */
const WAITING_WORDS = new Set(['Initializing', 'Suspended', 'Pending', 'Undefined', 'Unknown']);

/**
 * A workload's status words, with the queue's (Queued, Evicted, Preempted, Unschedulable) when a queue holds
 * the job; Terminating once its object is being deleted (as kubectl and k9s say of any such object).
 */
export function statusWithQueue(
  w: Pick<WorkloadTree, 'status' | 'terminating'>,
  queue: WorkloadQueue | null | undefined,
): string[] {
  if (w.terminating) return ['Terminating'];
  const status = w.status;
  const words = status.length ? [...status] : ['Undefined'];
  const held = queueStatusWord(queue ?? undefined);
  return held && words.every((s) => WAITING_WORDS.has(s)) ? [held] : words;
}

/** The workloads view's status word when a queue holds the job (a suspended job waiting for quota is Queued, not Initializing). */
export function queueStatusWord(q: WorkloadQueue | undefined): string | null {
  if (!q) return null;
  if (q.system === 'kueue') {
    if (q.state === 'Pending' || q.state === 'QuotaReserved') return 'Queued';
    if (q.state === 'Evicted' || q.state === 'Preempted') return q.state;
    return null;
  }
  // A PodGroup still waiting for the gang (Pending / Inqueue, or unschedulable).
  if (q.reason && q.state !== 'Running') return 'Unschedulable';
  if (q.state === 'Pending' || q.state === 'Inqueue') return 'Queued';
  return null;
}

/**
 * The workload's gangs with the PodGroups' verdicts: the definition's gangs
 * carry the scheduler and its message; a PodGroup no definition gang
 * stands for is a gang of its own (min members, the workload's pods).
 */
export function gangsWithVerdicts(
  w: Pick<WorkloadTree, 'name' | 'gangs' | 'roles' | 'unattributedPods'>,
  verdicts: readonly GangVerdict[] | undefined,
): GangSummary[] {
  if (!verdicts?.length) return w.gangs;
  const speaking = verdicts.find((v) => v.message) ?? verdicts[0];
  if (w.gangs.length)
    return w.gangs.map((g) => ({ ...g, scheduler: speaking.scheduler, message: speaking.message ?? null }));
  const pods = treePods(w).filter((p) => p.phase !== 'Succeeded' && p.phase !== 'Failed');
  return verdicts.map((v) => ({
    name: v.name,
    key: v.name,
    members: v.minMember,
    scheduled: pods.filter((p) => p.node !== null).length,
    ready: pods.filter((p) => p.ready).length,
    scheduler: v.scheduler,
    message: v.message,
  }));
}
