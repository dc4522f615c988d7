// Gang schedulers: KAI and Volcano PodGroups and Queues, the Kubernetes
// Workload API's pod groups. Field names are those of the projects' CRDs (KAI
// scheduling.run.ai v2alpha2 PodGroup / v2 Queue, volcano scheduling v1beta1).
import type { GangSummary, KubeObject, WorkloadTree, GangScheduler, GangVerdict } from '../types.js';
import { treePods } from '../tree-pods.js';
import { parseQuantity } from '../quantity.js';
import { gpuAccounting, type GpuAccounting } from '../gpu.js';
import { conditionsOf, groupOf, list, num, obj, str, type Obj } from './read.js';

export const KAI_GROUP = 'scheduling.run.ai';
export const VOLCANO_GROUP = 'scheduling.volcano.sh';
export const WORKLOAD_API_GROUP = 'scheduling.k8s.io';

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

/**
 * A KAI (`spec.resources.gpu.quota`, `status.allocated`) or Volcano (`spec.capability`, `status.allocated`)
 * queue's whole GPUs: KAI's `gpu`, or the counted resource names (gpuAccounting).
 */
export function schedulerQueueGpu(
  q: KubeObject,
  gpus: GpuAccounting = gpuAccounting(),
): { quota: number | null; usage: number | null } {
  const spec = obj(q.spec);
  const status = obj(q.status);
  const gpuOf = (m: Obj): number | null => {
    let total: number | null = null;
    for (const [k, v] of Object.entries(m))
      if (k === 'gpu' || gpus.counted.includes(k)) total = (total ?? 0) + parseQuantity(v);
    return total;
  };
  const kaiQuota = obj(obj(spec.resources).gpu).quota;
  const quota = kaiQuota !== undefined ? parseQuantity(kaiQuota) : gpuOf(obj(spec.capability));
  return { quota, usage: gpuOf(obj(status.allocated)) };
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
