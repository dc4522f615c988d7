// `SchedulingIndex` keeps the queue and gang objects (fed by the engine's
// watches or a dump) and answers per wlx workload: its queue, why it waits,
// its PodGroups' verdicts.
import type { Gvk } from '../../definitions/types.js';
import type {
  KubeObject,
  WorkloadTree,
  SchedulingView,
  PendingEntry,
  PendingPosition,
  QueueFacts,
  GangVerdict,
  WorkloadQueue,
} from '../types.js';
import { gpuAccounting, type GpuAccounting } from '../gpu.js';
import { condition, conditionsOf, groupOf, isTrue, list, num, obj, str } from './read.js';
import { KUEUE_GROUP, kueueGpus, kueueState, parseQuotaShortfalls, summariseClusterQueue } from './kueue.js';
import {
  KAI_GROUP,
  podGroupVerdict,
  schedulerQueueGpu,
  VOLCANO_GROUP,
  WORKLOAD_API_GROUP,
  workloadApiVerdicts,
} from './gangs.js';

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

function key(ns: string | undefined, name: string): string {
  return `${ns ?? ''}/${name}`;
}

function controllerUid(o: KubeObject): string | null {
  const refs = o.metadata.ownerReferences ?? [];
  return (refs.find((r) => r.controller) ?? refs[0])?.uid ?? null;
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
  private positionsUnavailable: string | null = null;
  private previousQueues = new Map<string, WorkloadQueue>();
  version = 0;

  private readonly gpus: GpuAccounting;

  /** `gpuResources`: the `--gpu-resource` names (gpuAccounting). */
  constructor(gpuResources: readonly string[] = []) {
    this.gpus = gpuAccounting(gpuResources);
  }

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

  /** Kueue's positions cannot be had (src/kube/queue-positions.ts): a null position is then unknown, not on its way. */
  setPositionsUnavailable(reason: string): void {
    if (this.positionsUnavailable === reason) return;
    this.positionsUnavailable = reason;
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
      return q ? { ...v, queueGpu: schedulerQueueGpu(q, this.gpus) } : v;
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
      .map((cq) => summariseClusterQueue(cq, this.gpus))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const owners = new Map(workloads.map((w) => [w.uid, { name: w.name }]));
    const pending = new Map(clusterQueues.map((c) => [c.name, this.pendingIn(c.name, owners)]));
    this.cachedFor = workloads;
    return (this.cached = {
      queues,
      gangs,
      clusterQueues,
      pending,
      facts,
      active: true,
      ...(this.positionsUnavailable ? { positionsUnavailable: this.positionsUnavailable } : {}),
    });
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
      positionsUnavailable: this.positionsUnavailable !== null,
      kueueWorkload: `${w.metadata.namespace ?? ''}/${w.metadata.name}`,
      queuedSince: w.metadata.creationTimestamp ?? null,
      ...askedGpus(kueueGpus(w, this.gpus)),
      shortfalls: pending && reserved?.status !== 'True' ? parseQuotaShortfalls(reserved?.message ?? null) : [],
      clusterQueue: cqObj ? summariseClusterQueue(cqObj, this.gpus) : null,
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
        ...pendingGpus(kueueGpus(w, this.gpus)),
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

function askedGpus(k: ReturnType<typeof kueueGpus>): Pick<QueueFacts, 'gpusAsked' | 'gpuSlicesAsked'> {
  return k.slices ? { gpusAsked: k.gpus, gpuSlicesAsked: k.slices } : { gpusAsked: k.gpus };
}

function pendingGpus(k: ReturnType<typeof kueueGpus>): Pick<PendingEntry, 'gpus' | 'gpuSlices'> {
  return k.slices ? { gpus: k.gpus, gpuSlices: k.slices } : { gpus: k.gpus };
}
