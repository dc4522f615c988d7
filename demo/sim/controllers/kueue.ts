// A small Kueue (kueue.x-k8s.io/v1beta2) on the simulation's clock: a job
// labelled `kueue.x-k8s.io/queue-name` gets a Workload owned by it (one pod
// set per replica type or replicated job, with counts and the pod template);
// pending workloads are admitted in queue order (priority, then creation)
// while their ClusterQueue's nominal quota fits (BestEffortFIFO: one that does
// not fit does not block those behind it), and the admitted job is
// unsuspended. Conditions, admission and messages are worded as Kueue's;
// ClusterQueue and LocalQueue status carry usage, reservation and counts.
// A ClusterQueue with admission checks (admissionChecksStrategy) reserves
// quota and leaves the workload unadmitted, its checks Pending, until another
// controller (MultiKueue: demo/sim/multikueue.ts) marks every check Ready. A
// job labelled kueue.x-k8s.io/prebuilt-workload-name adopts that Workload
// (a MultiKueue worker's copy) instead of getting a new one.
// No cohorts, borrowing or preemption.
import type { ObjectStore, StoredObject } from '../../object-store.js';
import { QUEUE_NAME_LABEL } from '../../kinds-queueing.js';
import { PREBUILT_WORKLOAD_LABEL } from '../../kinds-multikueue.js';
import { parseQuantity, PRIORITY_CLASSES } from '../pods.js';
import type { Controller, Runtime } from '../runtime.js';
import { ownerRefTo, R, type Condition, type PodTemplate } from '../types.js';
import type { TrainingJobObject } from './kubeflow.js';
import type { JobSetObject } from './jobset.js';

type Json = Record<string, unknown>;
type Resources = Record<string, number>;

export interface PodSet {
  name: string;
  count: number;
  template: PodTemplate;
}

export interface WorkloadObject extends StoredObject {
  spec: { podSets: PodSet[]; queueName: string; priority?: number; active?: boolean; [k: string]: unknown };
  status?: {
    conditions?: Condition[];
    admission?: { clusterQueue: string; podSetAssignments: Json[] };
    resourceRequests?: Array<{ name: string; resources: Record<string, string> }>;
    [k: string]: unknown;
  };
}

interface FlavorQuotas {
  name: string;
  resources: Array<{ name: string; nominalQuota: string | number }>;
}
export interface ClusterQueueObject extends StoredObject {
  spec: {
    resourceGroups: Array<{ coveredResources: string[]; flavors: FlavorQuotas[] }>;
    queueingStrategy?: string;
    admissionChecksStrategy?: { admissionChecks?: Array<{ name: string }> };
    [k: string]: unknown;
  };
}
export interface LocalQueueObject extends StoredObject {
  spec: { clusterQueue: string; [k: string]: unknown };
}

/** How Kueue's integration for one job kind sees the job. */
interface JobIntegration {
  resource: string;
  podSets(job: StoredObject): PodSet[];
  suspended(job: StoredObject): boolean;
  /** The job with `suspend` set. */
  withSuspend(job: StoredObject, suspend: boolean): Partial<StoredObject>;
  /** 'Succeeded' / 'Failed' once the job is over. */
  finished(job: StoredObject): { reason: string; message: string } | undefined;
}

function conditionTrue(obj: StoredObject, type: string): Condition | undefined {
  const conds = (obj['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? [];
  return conds.find((c) => c.type === type && c.status === 'True');
}

function kubeflow(resource: string, specField: 'pytorchReplicaSpecs' | 'tfReplicaSpecs'): JobIntegration {
  return {
    resource,
    podSets: (job) =>
      Object.entries((job as TrainingJobObject).spec[specField] ?? {}).map(([type, s]) => ({
        name: type.toLowerCase(),
        count: s.replicas ?? 1,
        template: s.template,
      })),
    suspended: (job) => !!(job as TrainingJobObject).spec.runPolicy?.suspend,
    withSuspend: (job, suspend) => {
      const spec = (job as TrainingJobObject).spec;
      return { spec: { ...spec, runPolicy: { ...spec.runPolicy, suspend } } };
    },
    finished: (job) => {
      const done = conditionTrue(job, 'Succeeded') ?? conditionTrue(job, 'Failed');
      return done && { reason: done.type, message: done.message ?? '' };
    },
  };
}

const INTEGRATIONS: JobIntegration[] = [
  kubeflow(R.pytorchjobs, 'pytorchReplicaSpecs'),
  kubeflow(R.tfjobs, 'tfReplicaSpecs'),
  {
    resource: R.jobsets,
    podSets: (job) =>
      (job as JobSetObject).spec.replicatedJobs.map((rj) => ({
        name: rj.name,
        count: (rj.replicas ?? 1) * (rj.template.spec.parallelism ?? 1),
        template: rj.template.spec.template,
      })),
    suspended: (job) => !!(job as JobSetObject).spec.suspend,
    withSuspend: (job, suspend) => ({ spec: { ...(job as JobSetObject).spec, suspend } }),
    finished: (job) => {
      const state = (job as JobSetObject).status?.terminalState;
      if (!state) return undefined;
      const cond = conditionTrue(job, state);
      return { reason: state === 'Completed' ? 'Succeeded' : 'Failed', message: cond?.message ?? state };
    },
  },
];

/** Requests of one pod of a template, as Kueue counts them (containers summed; no init/overhead subtleties). */
function podResources(template: PodTemplate): Resources {
  const out: Resources = {};
  for (const c of template.spec.containers)
    for (const [name, q] of Object.entries(c.resources?.requests ?? c.resources?.limits ?? {}))
      out[name] = (out[name] ?? 0) + parseQuantity(q);
  return out;
}

function podSetResources(ps: PodSet): Resources {
  const one = podResources(ps.template);
  return Object.fromEntries(Object.entries(one).map(([k, v]) => [k, v * ps.count]));
}

/** A number of base units back as a quantity string, in the unit the resource is usually written in. */
export function formatQuantity(resource: string, value: number): string {
  if (resource === 'memory') {
    for (const [unit, size] of [
      ['Ti', 2 ** 40],
      ['Gi', 2 ** 30],
      ['Mi', 2 ** 20],
    ] as const)
      if (value >= size && Number.isInteger(value / size)) return `${value / size}${unit}`;
    return String(value);
  }
  if (Number.isInteger(value)) return String(value);
  return `${Math.round(value * 1000)}m`;
}

function quantities(r: Resources): Record<string, string> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, formatQuantity(k, v)]));
}

function isFinished(w: WorkloadObject): boolean {
  return w.status?.conditions?.some((c) => c.type === 'Finished' && c.status === 'True') ?? false;
}

/** Holds quota (reserved, maybe not yet admitted): what the ClusterQueue's usage counts. */
function isAdmitted(w: WorkloadObject): boolean {
  return !!w.status?.admission && !isFinished(w);
}

/** Reserved and every admission check passed: its job may run. */
function mayRun(w: WorkloadObject): boolean {
  return isAdmitted(w) && (w.status?.conditions?.some((c) => c.type === 'Admitted' && c.status === 'True') ?? false);
}

export interface AdmissionCheckState {
  name: string;
  state: 'Pending' | 'Ready' | 'Retry' | 'Rejected';
  message: string;
  lastTransitionTime: string;
}

function checksOf(cq: ClusterQueueObject): string[] {
  return (cq.spec.admissionChecksStrategy?.admissionChecks ?? []).map((c) => c.name);
}

/** Kueue's queue order: higher priority first, then earlier creation (then the order they were stored in). */
function queueOrder(a: WorkloadObject, b: WorkloadObject): number {
  return (
    (b.spec.priority ?? 0) - (a.spec.priority ?? 0) ||
    a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp)
  );
}

export interface PendingEntry {
  workload: WorkloadObject;
  localQueue: string;
  positionInClusterQueue: number;
  positionInLocalQueue: number;
}

/**
 * The pending workloads of a ClusterQueue in Kueue's order, with their
 * positions (what the visibility API answers), or undefined when no such
 * ClusterQueue exists.
 */
export function pendingInClusterQueue(store: ObjectStore, clusterQueue: string): PendingEntry[] | undefined {
  if (!store.get(R.clusterqueues, undefined, clusterQueue)) return undefined;
  const lqs = new Set(
    (store.list(R.localqueues) as LocalQueueObject[])
      .filter((lq) => lq.spec.clusterQueue === clusterQueue)
      .map((lq) => `${lq.metadata.namespace}/${lq.metadata.name}`),
  );
  const pending = (store.list(R.workloads) as WorkloadObject[])
    .filter((w) => !w.status?.admission && !isFinished(w) && w.spec.active !== false)
    .filter((w) => lqs.has(`${w.metadata.namespace}/${w.spec.queueName}`))
    .sort(queueOrder);
  const perLocalQueue = new Map<string, number>();
  return pending.map((w, i) => {
    const lq = `${w.metadata.namespace}/${w.spec.queueName}`;
    const inLq = perLocalQueue.get(lq) ?? 0;
    perLocalQueue.set(lq, inLq + 1);
    return { workload: w, localQueue: w.spec.queueName, positionInClusterQueue: i, positionInLocalQueue: inLq };
  });
}

/** The workload name Kueue's job reconciler derives: <kind>-<job name>-<5 hex of a hash>. */
function workloadName(job: StoredObject, hash: string): string {
  return `${job.kind.toLowerCase()}-${job.metadata.name}`.slice(0, 57) + `-${hash}`;
}

export class KueueController implements Controller {
  /** Reconciled as one whole pass, keyed on ClusterQueues. */
  readonly resource = R.clusterqueues;

  constructor(private readonly rt: Runtime) {
    const jobs = new Set(INTEGRATIONS.map((i) => i.resource));
    // Only queued jobs matter: the scale scenario's thousands of unlabelled jobs cost no pass.
    rt.hook((e) => {
      const queued = jobs.has(e.resourceKey) && e.object.metadata.labels?.[QUEUE_NAME_LABEL] !== undefined;
      if (queued || e.resourceKey === R.localqueues || e.resourceKey === R.workloads)
        rt.enqueue(this.resource, undefined, '*');
    });
  }

  reconcile(): void {
    this.sync();
  }

  /** One pass: workloads for new jobs, finished ones, admission in order, queue status. */
  sync(): void {
    const rt = this.rt;
    for (const integration of INTEGRATIONS)
      for (const job of rt.store.list(integration.resource)) {
        const queueName = job.metadata.labels?.[QUEUE_NAME_LABEL];
        if (!queueName || job.metadata.deletionTimestamp) continue;
        this.reconcileJob(integration, job, queueName);
      }
    this.admit();
    this.writeQueueStatus();
  }

  private reconcileJob(integration: JobIntegration, job: StoredObject, queueName: string): void {
    const rt = this.rt;
    let workload = rt.children<WorkloadObject>(job.metadata.uid, R.workloads)[0];
    const prebuilt = job.metadata.labels?.[PREBUILT_WORKLOAD_LABEL];
    if (!workload && prebuilt) {
      const found = rt.store.get(R.workloads, job.metadata.namespace, prebuilt) as WorkloadObject | undefined;
      // Kueue waits for a prebuilt Workload that is not there yet.
      if (!found) return;
      workload = rt.update(R.workloads, found, {}, { ownerReferences: [ownerRefTo(job)] });
    }
    if (!workload) {
      const podSets = integration.podSets(job);
      const priorityClass = podSets.map((p) => p.template.spec.priorityClassName).find((c) => c);
      workload = rt.create<WorkloadObject>(R.workloads, {
        apiVersion: 'kueue.x-k8s.io/v1beta2',
        kind: 'Workload',
        metadata: {
          name: workloadName(job, rt.rng.uid().replace(/-/g, '').slice(0, 5)),
          namespace: job.metadata.namespace,
          uid: '',
          resourceVersion: '',
          creationTimestamp: job.metadata.creationTimestamp,
          generation: 1,
          labels: { 'kueue.x-k8s.io/job-uid': job.metadata.uid },
          ownerReferences: [ownerRefTo(job)],
          finalizers: ['kueue.x-k8s.io/resource-in-use'],
        },
        spec: {
          active: true,
          queueName,
          podSets: podSets.map((p) => ({ name: p.name, count: p.count, template: p.template })),
          priority: priorityClass ? (PRIORITY_CLASSES[priorityClass] ?? 0) : 0,
          ...(priorityClass
            ? { priorityClassRef: { group: 'scheduling.k8s.io', kind: 'PriorityClass', name: priorityClass } }
            : {}),
        },
      });
      if (!rt.quiet)
        rt.events.record(job, {
          type: 'Normal',
          reason: 'CreatedWorkload',
          message: `Created Workload: ${workload.metadata.namespace}/${workload.metadata.name}`,
          component: 'kueue-admission',
        });
    }
    const done = integration.finished(job);
    if (done && !isFinished(workload)) {
      const conditions = rt.setCondition(workload.status?.conditions, {
        type: 'Finished',
        status: 'True',
        reason: done.reason,
        message: done.message || `Job finished: ${done.reason}`,
      });
      rt.putStatus(R.workloads, workload, { ...workload.status, conditions });
      return;
    }
    if (mayRun(workload) && integration.suspended(job)) {
      rt.update(integration.resource, job, integration.withSuspend(job, false));
      if (!rt.quiet)
        rt.events.record(job, {
          type: 'Normal',
          reason: 'Started',
          message: `Admitted by clusterQueue ${workload.status!.admission!.clusterQueue}`,
          component: 'kueue-admission',
        });
    }
  }

  /** Usage of admitted, unfinished workloads per ClusterQueue, flavor and resource. */
  private usage(): Map<string, Map<string, Resources>> {
    const out = new Map<string, Map<string, Resources>>();
    for (const w of this.rt.store.list(R.workloads) as WorkloadObject[]) {
      if (!isAdmitted(w)) continue;
      const byFlavor = out.get(w.status!.admission!.clusterQueue) ?? new Map<string, Resources>();
      out.set(w.status!.admission!.clusterQueue, byFlavor);
      addAdmittedUsage(byFlavor, w);
    }
    return out;
  }

  /** Reserved workloads whose admission checks all turned Ready are admitted now, and their jobs unsuspended. */
  private admitChecked(): void {
    const rt = this.rt;
    for (const w of rt.store.list(R.workloads) as WorkloadObject[]) {
      const checks = (w.status?.admissionChecks ?? []) as AdmissionCheckState[];
      if (!isAdmitted(w) || mayRun(w) || !checks.length || checks.some((c) => c.state !== 'Ready')) continue;
      const conditions = rt.setCondition(w.status?.conditions, {
        type: 'Admitted',
        status: 'True',
        reason: 'Admitted',
        message: 'The workload is admitted',
      });
      const admitted = rt.putStatus(R.workloads, w, { ...w.status, conditions });
      if (!rt.quiet)
        rt.events.record(admitted, {
          type: 'Normal',
          reason: 'Admitted',
          message: `Admitted by ClusterQueue ${w.status!.admission!.clusterQueue}, wait time since reservation was 0s`,
          component: 'kueue-admission',
        });
      this.reconcileOwner(admitted);
    }
  }

  /** Reconciles the job that owns a workload (to unsuspend it at once). */
  private reconcileOwner(w: WorkloadObject): void {
    const owner = w.metadata.ownerReferences?.[0];
    for (const integration of INTEGRATIONS) {
      const job = owner && this.rt.store.get(integration.resource, w.metadata.namespace, owner.name);
      if (job && job.metadata.uid === owner.uid) this.reconcileJob(integration, job, w.spec.queueName);
    }
  }

  private admit(): void {
    const rt = this.rt;
    this.admitChecked();
    const usage = this.usage();
    for (const cq of rt.store.list(R.clusterqueues) as ClusterQueueObject[]) {
      const used = usage.get(cq.metadata.name) ?? new Map<string, Resources>();
      for (const entry of pendingInClusterQueue(rt.store, cq.metadata.name) ?? []) {
        const w = entry.workload;
        const attempt = assignFlavors(cq, used, w);
        if ('message' in attempt) {
          const conditions = rt.setCondition(w.status?.conditions, {
            type: 'QuotaReserved',
            status: 'False',
            reason: 'Pending',
            message: attempt.message,
          });
          const changed = w.status?.conditions?.find((c) => c.type === 'QuotaReserved')?.message !== attempt.message;
          rt.putStatus(R.workloads, w, { ...w.status, conditions, resourceRequests: requestsOf(w) });
          if (changed && !rt.quiet)
            rt.events.record(w, {
              type: 'Warning',
              reason: 'Pending',
              message: attempt.message,
              component: 'kueue-admission',
            });
          if (cq.spec.queueingStrategy === 'StrictFIFO') break;
          continue;
        }
        for (const [flavor, r] of attempt.add) for (const [res, v] of Object.entries(r)) addTo(used, flavor, res, v);
        const checks = checksOf(cq);
        let conditions = rt.setCondition(w.status?.conditions, {
          type: 'QuotaReserved',
          status: 'True',
          reason: 'QuotaReserved',
          message: `Quota reserved in ClusterQueue ${cq.metadata.name}`,
        });
        conditions = rt.setCondition(
          conditions,
          checks.length
            ? {
                type: 'Admitted',
                status: 'False',
                reason: 'UnsatisfiedChecks',
                message: 'The workload has not all checks ready',
              }
            : { type: 'Admitted', status: 'True', reason: 'Admitted', message: 'The workload is admitted' },
        );
        const admissionChecks: AdmissionCheckState[] = checks.map((name) => ({
          name,
          state: 'Pending',
          message: '',
          lastTransitionTime: rt.isoNow(),
        }));
        const admitted = rt.putStatus(R.workloads, w, {
          ...w.status,
          conditions,
          admission: { clusterQueue: cq.metadata.name, podSetAssignments: attempt.assignments },
          resourceRequests: requestsOf(w),
          ...(checks.length ? { admissionChecks } : {}),
        });
        if (!rt.quiet) {
          const waited = Math.max(
            0,
            Math.round((Date.parse(rt.isoNow()) - Date.parse(w.metadata.creationTimestamp)) / 1000),
          );
          rt.events.record(admitted, {
            type: 'Normal',
            reason: 'QuotaReserved',
            message: `Quota reserved in ClusterQueue ${cq.metadata.name}, wait time since queued was ${waited}s`,
            component: 'kueue-admission',
          });
          if (!checks.length)
            rt.events.record(admitted, {
              type: 'Normal',
              reason: 'Admitted',
              message: `Admitted by ClusterQueue ${cq.metadata.name}, wait time since reservation was 0s`,
              component: 'kueue-admission',
            });
        }
        // Unsuspend now, at admission, so the job's pods start at the same instant.
        this.reconcileOwner(admitted);
      }
    }
  }

  private writeQueueStatus(): void {
    const rt = this.rt;
    const workloads = rt.store.list(R.workloads) as WorkloadObject[];
    const usage = this.usage();
    const counts = (ws: WorkloadObject[]): Json => ({
      pendingWorkloads: ws.filter((w) => !w.status?.admission && !isFinished(w)).length,
      reservingWorkloads: ws.filter(isAdmitted).length,
      admittedWorkloads: ws.filter(isAdmitted).length,
    });
    const localQueues = rt.store.list(R.localqueues) as LocalQueueObject[];
    for (const cq of rt.store.list(R.clusterqueues) as ClusterQueueObject[]) {
      const mine = new Set(
        localQueues
          .filter((lq) => lq.spec.clusterQueue === cq.metadata.name)
          .map((lq) => `${lq.metadata.namespace}/${lq.metadata.name}`),
      );
      const used = usage.get(cq.metadata.name) ?? new Map<string, Resources>();
      const flavors = flavorUsage(cq, used);
      rt.putStatus(R.clusterqueues, cq, {
        ...counts(workloads.filter((w) => mine.has(`${w.metadata.namespace}/${w.spec.queueName}`))),
        flavorsReservation: flavors,
        flavorsUsage: flavors,
        conditions: rt.setCondition((cq['status'] as { conditions?: Condition[] } | undefined)?.conditions, {
          type: 'Active',
          status: 'True',
          reason: 'Ready',
          message: 'Can admit new workloads',
        }),
      });
    }
    for (const lq of localQueues) {
      const mine = workloads.filter(
        (w) => w.metadata.namespace === lq.metadata.namespace && w.spec.queueName === lq.metadata.name,
      );
      const lqUsage = new Map<string, Resources>();
      for (const w of mine.filter(isAdmitted)) addAdmittedUsage(lqUsage, w);
      const cq = rt.store.get(R.clusterqueues, undefined, lq.spec.clusterQueue) as ClusterQueueObject | undefined;
      const flavors = cq ? flavorUsage(cq, lqUsage) : [];
      rt.putStatus(R.localqueues, lq, {
        ...counts(mine),
        flavorsReservation: flavors,
        flavorsUsage: flavors,
        conditions: rt.setCondition(
          (lq['status'] as { conditions?: Condition[] } | undefined)?.conditions,
          cq
            ? { type: 'Active', status: 'True', reason: 'Ready', message: 'Can submit new workloads to localQueue' }
            : {
                type: 'Active',
                status: 'False',
                reason: 'ClusterQueueDoesNotExist',
                message: "Can't submit new workloads to clusterQueue",
              },
        ),
      });
    }
  }
}

/** Adds `value` of `resource` to what `flavor` uses. */
function addTo(usage: Map<string, Resources>, flavor: string, resource: string, value: number): void {
  const r = usage.get(flavor) ?? {};
  usage.set(flavor, r);
  r[resource] = (r[resource] ?? 0) + value;
}

/** Adds an admitted workload's resourceUsage, per assigned flavor. */
function addAdmittedUsage(usage: Map<string, Resources>, w: WorkloadObject): void {
  for (const a of w.status!.admission!.podSetAssignments) {
    const flavors = (a['flavors'] ?? {}) as Record<string, string>;
    for (const [res, q] of Object.entries((a['resourceUsage'] ?? {}) as Record<string, string>))
      if (flavors[res]) addTo(usage, flavors[res], res, parseQuantity(q));
  }
}

function requestsOf(w: WorkloadObject): Array<{ name: string; resources: Record<string, string> }> {
  return w.spec.podSets.map((ps) => ({ name: ps.name, resources: quantities(podSetResources(ps)) }));
}

/** Every covered resource of every flavor, with what is used of it. */
function flavorUsage(cq: ClusterQueueObject, used: Map<string, Resources>): Json[] {
  const out: Json[] = [];
  for (const group of cq.spec.resourceGroups)
    for (const f of group.flavors)
      out.push({
        name: f.name,
        resources: group.coveredResources.map((res) => ({
          name: res,
          total: formatQuantity(res, used.get(f.name)?.[res] ?? 0),
          borrowed: '0',
        })),
      });
  return out;
}

/**
 * Kueue's flavor assignment, pod set by pod set: the first flavor of each
 * resource group whose unused nominal quota fits. The message of a failure is
 * Kueue's, naming the pod set, resource, flavor and how much more is needed.
 */
function assignFlavors(
  cq: ClusterQueueObject,
  used: Map<string, Resources>,
  w: WorkloadObject,
): { assignments: Json[]; add: Map<string, Resources> } | { message: string } {
  const add = new Map<string, Resources>();
  const assignments: Json[] = [];
  const usedOf = (flavor: string, res: string): number =>
    (used.get(flavor)?.[res] ?? 0) + (add.get(flavor)?.[res] ?? 0);
  for (const ps of w.spec.podSets) {
    const need = podSetResources(ps);
    const flavors: Record<string, string> = {};
    for (const res of Object.keys(need)) {
      if (!need[res]) continue;
      const group = cq.spec.resourceGroups.find((g) => g.coveredResources.includes(res));
      if (!group)
        return {
          message: `couldn't assign flavors to pod set ${ps.name}: resource ${res} unavailable in ClusterQueue`,
        };
      let shortfall: { flavor: string; more: number } | undefined;
      for (const f of group.flavors) {
        const quota = parseQuantity(f.resources.find((r) => r.name === res)?.nominalQuota);
        const free = quota - usedOf(f.name, res);
        if (need[res] <= free) {
          flavors[res] = f.name;
          shortfall = undefined;
          break;
        }
        shortfall ??= { flavor: f.name, more: need[res] - Math.max(0, free) };
      }
      if (shortfall)
        return {
          message: `couldn't assign flavors to pod set ${ps.name}: insufficient unused quota for ${res} in flavor ${shortfall.flavor}, ${formatQuantity(res, shortfall.more)} more needed`,
        };
    }
    for (const [res, flavor] of Object.entries(flavors)) addTo(add, flavor, res, need[res]);
    assignments.push({ name: ps.name, flavors, resourceUsage: quantities(need), count: ps.count });
  }
  return { assignments, add };
}
