// KAI Scheduler's pod grouper and its verdict, as far as the demo needs them:
// pods with schedulerName `kai-scheduler` are grouped per owning job into a
// PodGroup (scheduling.run.ai/v2alpha2) named pg-<job>-<job uid>, owned by the
// job, with minMember (the job's schedulingPolicy.minAvailable, or all its
// pods) and the queue from the `kai.scheduler/queue` label; each pod gets the
// `pod-group-name` annotation. The gang is placed whole or not at all: when
// fewer than minMember pods fit on the nodes' free GPUs, the PodGroup stays
// Pending with KAI's UnschedulableOnNodePool scheduling condition and the
// pods get PodScheduled=False. This simulation never binds a KAI gang.
import { KAI_POD_GROUP_ANNOTATION, KAI_QUEUE_LABEL, KAI_SCHEDULER_NAME } from '../../kinds-queueing.js';
import type { StoredObject } from '../../object-store.js';
import { podRequests } from '../pods.js';
import type { Controller, Runtime } from '../runtime.js';
import { controllerRef, isPodTerminal, R, type Condition, type NodeObject, type Pod } from '../types.js';

export interface PodGroupObject extends StoredObject {
  spec: { minMember: number; queue: string; priorityClassName?: string; [k: string]: unknown };
  status?: Record<string, unknown>;
}

/** Free GPUs per schedulable node: allocatable minus what bound, live pods request. */
function freeGpus(rt: Runtime): number[] {
  const used = new Map<string, number>();
  for (const p of rt.store.list(R.pods) as Pod[])
    if (p.spec.nodeName && !isPodTerminal(p))
      used.set(p.spec.nodeName, (used.get(p.spec.nodeName) ?? 0) + podRequests(p.spec).gpu);
  return (rt.store.list(R.nodes) as NodeObject[])
    .filter((n) => !n.spec?.['unschedulable'])
    .map((n) => Number(n.status.allocatable['nvidia.com/gpu'] ?? 0) - (used.get(n.metadata.name) ?? 0));
}

/** How many of `pods` fit on the free GPUs, placed greedily largest first. */
function podsThatFit(free: number[], pods: Pod[]): number {
  const left = [...free].sort((a, b) => b - a);
  let fit = 0;
  for (const need of pods.map((p) => podRequests(p.spec).gpu).sort((a, b) => b - a)) {
    const i = left.findIndex((g) => g >= need);
    if (i < 0) continue;
    left[i] -= need;
    fit++;
  }
  return fit;
}

export class KaiPodGroupController implements Controller {
  /** Reconciled as one pass over every KAI pod, keyed on PodGroups. */
  readonly resource = R.podgroups;
  private waitingGangs = 0;

  constructor(private readonly rt: Runtime) {
    // Any pod that binds or ends changes the free GPUs a waiting gang is judged on.
    rt.hook((e) => {
      if (e.resourceKey !== R.pods) return;
      if (this.waitingGangs || (e.object as Pod).spec?.schedulerName === KAI_SCHEDULER_NAME)
        rt.enqueue(this.resource, undefined, '*');
    });
  }

  reconcile(): void {
    const rt = this.rt;
    const gangs = new Map<string, { owner: NonNullable<ReturnType<typeof controllerRef>>; pods: Pod[] }>();
    for (const p of rt.store.list(R.pods) as Pod[]) {
      const owner = controllerRef(p);
      if (p.spec.schedulerName !== KAI_SCHEDULER_NAME || !owner || p.metadata.deletionTimestamp) continue;
      const key = `${p.metadata.namespace}/${owner.uid}`;
      const gang = gangs.get(key) ?? { owner, pods: [] };
      gangs.set(key, gang);
      gang.pods.push(p);
    }
    this.waitingGangs = gangs.size;
    const free = freeGpus(rt);
    const perQueue = new Map<string, { requested: number; allocated: number }>();
    for (const { owner, pods } of gangs.values()) {
      const namespace = pods[0].metadata.namespace;
      const name = `pg-${owner.name}-${owner.uid}`;
      let pg = rt.store.get(R.podgroups, namespace, name) as PodGroupObject | undefined;
      if (!pg) {
        const job = rt.store.list(R.pytorchjobs, namespace).find((j) => j.metadata.uid === owner.uid) as
          { spec?: { runPolicy?: { schedulingPolicy?: { minAvailable?: number } } } } | undefined;
        const queue = pods[0].metadata.labels?.[KAI_QUEUE_LABEL] ?? 'default-queue';
        pg = rt.create<PodGroupObject>(R.podgroups, {
          apiVersion: 'scheduling.run.ai/v2alpha2',
          kind: 'PodGroup',
          metadata: {
            name,
            namespace,
            uid: '',
            resourceVersion: '',
            creationTimestamp: '',
            generation: 1,
            labels: { [KAI_QUEUE_LABEL]: queue },
            ownerReferences: [{ ...owner }],
          },
          spec: {
            minMember: job?.spec?.runPolicy?.schedulingPolicy?.minAvailable ?? pods.length,
            queue,
            priorityClassName: 'train',
            preemptibility: 'preemptible',
            markUnschedulable: true,
          },
        });
      }
      for (const p of pods)
        if (p.metadata.annotations?.[KAI_POD_GROUP_ANNOTATION] !== name)
          rt.update(
            R.pods,
            p,
            {},
            { annotations: { ...(p.metadata.annotations ?? {}), [KAI_POD_GROUP_ANNOTATION]: name } },
          );
      this.judge(pg, pods, free);
      const q = perQueue.get(pg.spec.queue) ?? { requested: 0, allocated: 0 };
      perQueue.set(pg.spec.queue, q);
      for (const p of pods) {
        const gpus = podRequests(p.spec).gpu;
        q.requested += gpus;
        if (p.spec.nodeName) q.allocated += gpus;
      }
    }
    // KAI's queue status: GPUs (in devices) requested and allocated by its gangs.
    for (const queue of rt.store.list(R.kaiqueues)) {
      const q = perQueue.get(queue.metadata.name) ?? { requested: 0, allocated: 0 };
      rt.putStatus(R.kaiqueues, queue, {
        requested: { 'nvidia.com/gpu': String(q.requested) },
        allocated: { 'nvidia.com/gpu': String(q.allocated) },
        allocatedNonPreemptible: { 'nvidia.com/gpu': '0' },
      });
    }
  }

  /** KAI's verdict on a gang it cannot place, on the PodGroup and its pods. */
  private judge(pg: PodGroupObject, pods: Pod[], free: number[]): void {
    const rt = this.rt;
    const fit = podsThatFit(free, pods);
    const gpus = pods.reduce((a, p) => a + podRequests(p.spec).gpu, 0);
    const previous = (pg.status?.['schedulingConditions'] as Condition[] | undefined)?.[0];
    const base = {
      phase: 'Pending',
      pending: pods.length,
      resourcesStatus: { requested: { 'nvidia.com/gpu': String(gpus) } },
    };
    if (fit >= pg.spec.minMember) {
      rt.putStatus(R.podgroups, pg, base);
      return;
    }
    const message = `PodSchedulingErrors: Resources were found for ${fit} pods while ${pg.spec.minMember} are required for gang scheduling. Additional pods cannot be scheduled due to: node(s) didn't have enough resources: GPUs.`;
    const now = previous?.message === message ? previous.lastTransitionTime : rt.isoNow();
    rt.putStatus(R.podgroups, pg, {
      ...base,
      schedulingConditions: [
        {
          type: 'UnschedulableOnNodePool',
          nodePool: 'default',
          reason: 'Unschedulable',
          message,
          status: 'True',
          transitionID: '0',
          lastTransitionTime: now,
        },
      ],
    });
    if (previous?.message !== message && !rt.quiet)
      rt.events.record(pg, { type: 'Normal', reason: 'Unschedulable', message, component: KAI_SCHEDULER_NAME });
    for (const p of pods) {
      if (p.spec.nodeName) continue;
      const conditions = rt.setCondition(
        p.status.conditions,
        { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message },
        ['lastProbeTime', 'lastTransitionTime'],
      );
      rt.putStatus(R.pods, p, { ...p.status, conditions });
    }
  }
}
