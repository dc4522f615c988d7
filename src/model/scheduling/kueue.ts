// Kueue: its Workloads' states and GPU requests, ClusterQueues' quota, the
// visibility API's positions. Field names are those of kueue
// apis/kueue/v1beta1|v1beta2.
import type { KubeObject } from '../types.js';
import { parseQuantity } from '../quantity.js';
import { DEFAULT_GPU_RESOURCES } from '../gpu.js';
import { condition, isGpuResource, isTrue, list, num, obj, str, type TimedCondition } from './read.js';
import type { WorkloadQueue } from './words.js';

export const KUEUE_GROUP = 'kueue.x-k8s.io';
export const KUEUE_QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';

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
  /** Positions cannot be had (visibility API forbidden or not served): a null one is unknown, not being fetched. */
  positionsUnavailable: boolean;
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
