// Kueue: its Workloads' states and GPU requests, ClusterQueues' quota, the
// visibility API's positions. Field names are those of kueue
// apis/kueue/v1beta1|v1beta2.
import type { KubeObject, ClusterQueueSummary, FlavorQuota, PendingPosition, QuotaShortfall } from '../types.js';
import { parseQuantity } from '../quantity.js';
import { DEFAULT_GPU_RESOURCES } from '../gpu.js';
import { condition, isGpuResource, isTrue, list, num, obj, str } from './read.js';

export const KUEUE_GROUP = 'kueue.x-k8s.io';
export const KUEUE_QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';

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
