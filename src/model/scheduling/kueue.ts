// Kueue: its Workloads' states and GPU requests, ClusterQueues' quota, the
// visibility API's positions. Field names are those of kueue
// apis/kueue/v1beta1|v1beta2.
import type { KubeObject, ClusterQueueSummary, FlavorQuota, PendingPosition, QuotaShortfall } from '../types.js';
import { parseQuantity } from '../quantity.js';
import { gpuAccounting, gpuSlicesOf, podGpuResources, type GpuAccounting } from '../gpu.js';
import { condition, isTrue, list, num, obj, str } from './read.js';

export const KUEUE_GROUP = 'kueue.x-k8s.io';

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

/**
 * The Kueue workload's GPUs, counted as the trees count their pods' (gpuAccounting): the whole GPUs, and the
 * other GPU kinds by name. From status.resourceRequests (Σ over its podSets), else Σ podSets count × the pod
 * template's request by the scheduler's rule.
 */
export function kueueGpus(
  w: KubeObject,
  gpus: GpuAccounting = gpuAccounting(),
): { gpus: number; slices: Record<string, number> | null } {
  const byName: Record<string, number> = {};
  for (const ps of list(obj(w.status).resourceRequests))
    for (const [name, q] of Object.entries(obj(ps.resources)))
      if (gpus.isGpu(name)) byName[name] = (byName[name] ?? 0) + parseQuantity(q);
  if (Object.keys(byName).length === 0)
    for (const ps of list(obj(w.spec).podSets)) {
      const count = num(ps.count) ?? 1;
      for (const [name, n] of Object.entries(podGpuResources(obj(ps.template).spec, gpus.isGpu)))
        byName[name] = (byName[name] ?? 0) + n * count;
    }
  let whole = 0;
  for (const name of gpus.counted) whole += byName[name] ?? 0;
  return { gpus: whole, slices: gpuSlicesOf(byName, gpus.counted) };
}

function quantityOrNull(v: unknown): number | null {
  return v === undefined || v === null ? null : parseQuantity(v);
}

/** A ClusterQueue's GPU quota per flavor with its usage, and its workload counts. */
export function summariseClusterQueue(cq: KubeObject, gpus: GpuAccounting = gpuAccounting()): ClusterQueueSummary {
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
        if (!gpus.isGpu(resource)) continue;
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
