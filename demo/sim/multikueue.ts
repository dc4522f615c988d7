// A small MultiKueue between simulated clusters (Kueue's admission-check
// controller kueue.x-k8s.io/multikueue, dispatcher AllAtOnce): a Workload the
// manager's Kueue reserved quota for, whose MultiKueue check is Pending, is
// copied (same namespace and name, labelled with the manager's origin) to every
// worker of the check's MultiKueueConfig and nominated to them all. The first
// worker whose Kueue admits its copy wins: the other copies are removed, the
// manager creates the job's copy there (same namespace and name, the origin
// and prebuilt-workload labels, managedBy cleared) and marks the check Ready
// with Kueue's message `The workload got reservation on "east"` and
// `status.clusterName`; the manager's job then mirrors the copy's status. A
// workload no worker admits keeps its check Pending and its copies waiting in
// the workers' queues. A finished copy finishes the manager's Workload; a
// manager Workload without quota (or finished) loses its copies.
import type { StoredObject } from '../object-store.js';
import { MULTIKUEUE_ORIGIN_LABEL, PREBUILT_WORKLOAD_LABEL } from '../kinds-multikueue.js';
import type { ControlPlane } from './assemble.js';
import type { AdmissionCheckState, WorkloadObject } from './controllers/kueue.js';
import { KEY_BY_KIND, R, type Condition } from './types.js';

export interface MultiKueueWorker {
  /** The MultiKueueCluster's name. */
  name: string;
  plane: ControlPlane;
}

export interface MultiKueueOptions {
  /** The admission check whose workloads go to the workers. */
  admissionCheck: string;
  /** The origin label's value (Kueue's `multiKueue.origin`, default "multikueue"). */
  origin?: string;
  /** Simulated ms between a change and the dispatcher's pass (default 1000). */
  delayMs?: number;
}

const isTrue = (obj: StoredObject, type: string): Condition | undefined =>
  ((obj['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? []).find(
    (c) => c.type === type && c.status === 'True',
  );

/** The job kinds MultiKueue's adapters handle here, by resource key. */
const JOB_RESOURCES = new Set([R.pytorchjobs, R.tfjobs, R.jobsets, R.jobs]);

export class MultiKueueBridge {
  private readonly origin: string;
  private readonly delayMs: number;
  private pending: number | undefined;
  private readonly unsubscribe: Array<() => void> = [];
  private stopped = false;

  constructor(
    private readonly manager: ControlPlane,
    private readonly workers: readonly MultiKueueWorker[],
    private readonly options: MultiKueueOptions,
  ) {
    this.origin = options.origin ?? 'multikueue';
    this.delayMs = options.delayMs ?? 1000;
    const watch = (plane: ControlPlane) =>
      plane.rt.store.subscribe((e) => {
        if (e.resourceKey === R.workloads || JOB_RESOURCES.has(e.resourceKey)) this.schedule();
      });
    this.unsubscribe.push(watch(manager), ...workers.map((w) => watch(w.plane)));
  }

  private schedule(): void {
    if (this.pending !== undefined || this.stopped) return;
    this.pending = this.manager.rt.clock.after(this.delayMs, () => {
      this.pending = undefined;
      this.sync();
    });
  }

  stop(): void {
    this.stopped = true;
    for (const u of this.unsubscribe) u();
    this.manager.rt.clock.cancel(this.pending);
  }

  /** One pass over the manager's workloads that carry the MultiKueue check. */
  sync(): void {
    const rt = this.manager.rt;
    for (const w of rt.store.list(R.workloads) as WorkloadObject[]) {
      const check = ((w.status?.admissionChecks ?? []) as AdmissionCheckState[]).find(
        (c) => c.name === this.options.admissionCheck,
      );
      if (!check) continue;
      const ns = w.metadata.namespace;
      if (!w.status?.admission || isTrue(w, 'Finished')) {
        for (const worker of this.workers) this.removeRemote(worker, w);
        continue;
      }
      const job = this.managerJob(w);
      if (!job) continue;
      const assigned = w.status['clusterName'] as string | undefined;
      if (check.state === 'Ready' && assigned) {
        this.mirror(w, job, assigned);
        continue;
      }
      const admittedOn = this.workers.find((worker) => {
        const copy = worker.plane.rt.store.get(R.workloads, ns, w.metadata.name);
        return copy && isTrue(copy, 'Admitted');
      });
      if (admittedOn) {
        for (const worker of this.workers) if (worker !== admittedOn) this.removeRemote(worker, w);
        this.createRemoteJob(admittedOn, w, job);
        const message = `The workload got reservation on "${admittedOn.name}"`;
        const checks = ((w.status.admissionChecks ?? []) as AdmissionCheckState[]).map((c) =>
          c.name === check.name ? { ...c, state: 'Ready' as const, message, lastTransitionTime: rt.isoNow() } : c,
        );
        const { nominatedClusterNames: _nominated, ...status } = w.status;
        const updated = rt.putStatus(R.workloads, w, {
          ...status,
          admissionChecks: checks,
          clusterName: admittedOn.name,
        });
        rt.events.record(updated, { type: 'Normal', reason: 'MultiKueue', message, component: 'multikueue' });
        continue;
      }
      // AllAtOnce: a copy in every worker, all nominated.
      for (const worker of this.workers) this.ensureRemoteWorkload(worker, w);
      const nominated = this.workers.map((x) => x.name);
      if (JSON.stringify(w.status['nominatedClusterNames']) !== JSON.stringify(nominated))
        rt.putStatus(R.workloads, w, { ...w.status, nominatedClusterNames: nominated });
    }
  }

  /** The job that owns a manager Workload, with its resource key. */
  private managerJob(w: WorkloadObject): { resource: string; object: StoredObject } | undefined {
    const owner = w.metadata.ownerReferences?.find((r) => r.controller) ?? w.metadata.ownerReferences?.[0];
    const resource = owner && KEY_BY_KIND[`${owner.apiVersion}/${owner.kind}`];
    const object = resource && this.manager.rt.store.get(resource, w.metadata.namespace, owner.name);
    return resource && object && object.metadata.uid === owner.uid ? { resource, object } : undefined;
  }

  private ensureRemoteWorkload(worker: MultiKueueWorker, w: WorkloadObject): void {
    const wrt = worker.plane.rt;
    if (wrt.store.get(R.workloads, w.metadata.namespace, w.metadata.name)) return;
    wrt.create<WorkloadObject>(R.workloads, {
      apiVersion: w.apiVersion,
      kind: w.kind,
      metadata: {
        name: w.metadata.name,
        namespace: w.metadata.namespace,
        uid: '',
        resourceVersion: '',
        creationTimestamp: '',
        generation: 1,
        labels: { ...(w.metadata.labels ?? {}), [MULTIKUEUE_ORIGIN_LABEL]: this.origin },
        annotations: { 'kueue.x-k8s.io/multikueue-origin-uid': w.metadata.uid },
        finalizers: ['kueue.x-k8s.io/resource-in-use'],
      },
      spec: w.spec,
    });
  }

  private createRemoteJob(
    worker: MultiKueueWorker,
    w: WorkloadObject,
    job: { resource: string; object: StoredObject },
  ): void {
    const wrt = worker.plane.rt;
    const { metadata: m } = job.object;
    if (wrt.store.get(job.resource, m.namespace, m.name)) return;
    const spec = { ...(job.object['spec'] as Record<string, unknown>) };
    // The copy runs under the worker's own controllers: no managedBy; suspended until the worker's Kueue admits it.
    if (spec['runPolicy']) {
      const { managedBy: _m, ...runPolicy } = spec['runPolicy'] as Record<string, unknown>;
      spec['runPolicy'] = { ...runPolicy, suspend: true };
    } else {
      delete spec['managedBy'];
      spec['suspend'] = true;
    }
    wrt.create(job.resource, {
      apiVersion: job.object.apiVersion,
      kind: job.object.kind,
      metadata: {
        name: m.name,
        namespace: m.namespace,
        uid: '',
        resourceVersion: '',
        creationTimestamp: '',
        generation: 1,
        labels: {
          ...(m.labels ?? {}),
          [MULTIKUEUE_ORIGIN_LABEL]: this.origin,
          [PREBUILT_WORKLOAD_LABEL]: w.metadata.name,
        },
        annotations: { 'kueue.x-k8s.io/multikueue-origin-uid': m.uid },
      },
      spec,
    });
  }

  /** The manager's job takes its copy's status; a finished copy finishes the manager's Workload. */
  private mirror(w: WorkloadObject, job: { resource: string; object: StoredObject }, cluster: string): void {
    const worker = this.workers.find((x) => x.name === cluster);
    if (!worker) return;
    const wrt = worker.plane.rt;
    const copy = wrt.store.get(job.resource, job.object.metadata.namespace, job.object.metadata.name);
    if (copy?.['status']) this.manager.rt.putStatus(job.resource, job.object, copy['status']);
    const remote = wrt.store.get(R.workloads, w.metadata.namespace, w.metadata.name);
    const finished = remote && isTrue(remote, 'Finished');
    if (finished && !isTrue(w, 'Finished')) {
      const conditions = this.manager.rt.setCondition(w.status?.conditions, { ...finished });
      this.manager.rt.putStatus(R.workloads, w, { ...w.status, conditions });
    }
  }

  /** Removes a manager Workload's copy and its job's copy from a worker (only what this origin created). */
  private removeRemote(worker: MultiKueueWorker, w: WorkloadObject): void {
    const store = worker.plane.rt.store;
    const ns = w.metadata.namespace;
    const ours = (o: StoredObject | undefined) => o?.metadata.labels?.[MULTIKUEUE_ORIGIN_LABEL] === this.origin;
    const owner = w.metadata.ownerReferences?.[0];
    const resource = owner && KEY_BY_KIND[`${owner.apiVersion}/${owner.kind}`];
    if (resource && owner && ours(store.get(resource, ns, owner.name))) store.delete(resource, ns, owner.name);
    if (ours(store.get(R.workloads, ns, w.metadata.name))) store.delete(R.workloads, ns, w.metadata.name);
  }
}
