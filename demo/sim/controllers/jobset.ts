// JobSet controller (jobset.x-k8s.io/v1alpha2, as v0.12 behaves): one Job per
// replicatedJob replica, named <jobset>-<replicatedJob>-<index>, carrying the
// jobset.sigs.k8s.io labels and annotations on the Job and its pod template
// (the Job controller copies them to pods); pods get the JobSet name as DNS
// subdomain. Status: replicatedJobsStatus, Completed/Failed conditions and
// terminalState.
import { createHash } from 'node:crypto';
import type { StoredObject } from '../../object-store.js';
import type { Controller, Runtime } from '../runtime.js';
import { ownerRefTo, R, type Condition, type PodTemplate } from '../types.js';
import type { JobObject } from './job.js';

export interface ReplicatedJob {
  name: string;
  replicas?: number;
  template: {
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    spec: JobObject['spec'];
  };
}

export interface JobSetObject extends StoredObject {
  spec: {
    replicatedJobs: ReplicatedJob[];
    network?: { enableDNSHostnames?: boolean; subdomain?: string; publishNotReadyAddresses?: boolean };
    successPolicy?: { operator: 'All' | 'Any'; targetReplicatedJobs?: string[] };
    failurePolicy?: { maxRestarts?: number };
    suspend?: boolean;
    [k: string]: unknown;
  };
  status?: { conditions?: Condition[]; restarts?: number; terminalState?: string; [k: string]: unknown };
}

const P = 'jobset.sigs.k8s.io/';

export class JobSetController implements Controller {
  readonly resource = R.jobsets;
  constructor(private readonly rt: Runtime) {}

  reconcile(namespace: string | undefined, name: string): void {
    const rt = this.rt;
    const js = rt.store.get(R.jobsets, namespace, name) as JobSetObject | undefined;
    if (!js || js.metadata.deletionTimestamp) return;
    const jobs = new Map(rt.children<JobObject>(js.metadata.uid, R.jobs).map((j) => [j.metadata.name, j]));
    const terminal = js.status?.terminalState !== undefined;
    const globalReplicas = js.spec.replicatedJobs.reduce((a, r) => a + (r.replicas ?? 1), 0);
    let globalIndex = 0;
    for (const rj of js.spec.replicatedJobs) {
      const replicas = rj.replicas ?? 1;
      for (let i = 0; i < replicas; i++, globalIndex++) {
        const jobName = `${js.metadata.name}-${rj.name}-${i}`;
        if (!jobs.has(jobName) && !terminal) this.createJob(js, rj, i, globalIndex, globalReplicas, jobName);
      }
    }

    const current = rt.store.get(R.jobsets, namespace, name) as JobSetObject;
    const all = rt.children<JobObject>(js.metadata.uid, R.jobs);
    const isTrue = (j: JobObject, t: string): boolean =>
      j.status?.conditions?.some((c) => c.type === t && c.status === 'True') ?? false;
    const replicatedJobsStatus = js.spec.replicatedJobs.map((rj) => {
      const mine = all.filter((j) => j.metadata.labels?.[`${P}replicatedjob-name`] === rj.name);
      const need = (j: JobObject): number =>
        Math.min(j.spec.parallelism ?? 1, j.spec.completions ?? j.spec.parallelism ?? 1);
      const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
      return {
        name: rj.name,
        ready: mine.filter(
          (j) =>
            !isTrue(j, 'Complete') &&
            !isTrue(j, 'Failed') &&
            num(j.status?.['ready']) + num(j.status?.['succeeded']) >= need(j),
        ).length,
        succeeded: mine.filter((j) => isTrue(j, 'Complete')).length,
        failed: mine.filter((j) => isTrue(j, 'Failed')).length,
        active: mine.filter((j) => !isTrue(j, 'Complete') && !isTrue(j, 'Failed') && num(j.status?.['active']) > 0)
          .length,
        suspended: mine.filter((j) => j.spec.suspend).length,
      };
    });
    let conditions = current.status?.conditions ?? [];
    let terminalState = current.status?.terminalState;
    if (!terminalState) {
      const failed = replicatedJobsStatus.some((s) => s.failed > 0);
      const targets = js.spec.successPolicy?.targetReplicatedJobs;
      const relevant = replicatedJobsStatus.filter((s) => !targets?.length || targets.includes(s.name));
      const anyPolicy = js.spec.successPolicy?.operator === 'Any';
      const replicasOf = (n: string): number => js.spec.replicatedJobs.find((r) => r.name === n)?.replicas ?? 1;
      const succeeded = anyPolicy
        ? relevant.some((s) => s.succeeded > 0)
        : relevant.every((s) => s.succeeded >= replicasOf(s.name));
      if (failed) {
        const failedJob = all.find((j) => isTrue(j, 'Failed'))?.metadata.name ?? '';
        conditions = rt.setCondition(conditions, {
          type: 'Failed',
          status: 'True',
          reason: 'FailedJobs',
          message: `jobset failed due to one or more job failures (first failed job: ${failedJob})`,
        });
        terminalState = 'Failed';
        rt.events.record(js, {
          type: 'Warning',
          reason: 'FailedJobs',
          message: 'jobset failed due to one or more job failures',
          component: 'jobset-controller',
        });
      } else if (succeeded && all.length) {
        conditions = rt.setCondition(conditions, {
          type: 'Completed',
          status: 'True',
          reason: 'AllJobsCompleted',
          message: 'jobset completed successfully',
        });
        terminalState = 'Completed';
        rt.events.record(js, {
          type: 'Normal',
          reason: 'AllJobsCompleted',
          message: 'jobset completed successfully',
          component: 'jobset-controller',
        });
      }
    }
    rt.putStatus(R.jobsets, current, {
      ...(conditions.length ? { conditions } : {}),
      restarts: current.status?.restarts ?? 0,
      ...(terminalState ? { terminalState } : {}),
      replicatedJobsStatus,
    });
  }

  private createJob(
    js: JobSetObject,
    rj: ReplicatedJob,
    index: number,
    globalIndex: number,
    globalReplicas: number,
    jobName: string,
  ): void {
    const rt = this.rt;
    const ns = js.metadata.namespace!;
    const meta: Record<string, string> = {
      [`${P}jobset-name`]: js.metadata.name,
      [`${P}jobset-uid`]: js.metadata.uid,
      [`${P}replicatedjob-name`]: rj.name,
      [`${P}replicatedjob-replicas`]: String(rj.replicas ?? 1),
      [`${P}global-replicas`]: String(globalReplicas),
      [`${P}job-index`]: String(index),
      [`${P}job-global-index`]: String(globalIndex),
      [`${P}job-key`]: createHash('sha1').update(`${ns}/${jobName}`).digest('hex'),
      [`${P}restart-attempt`]: String(js.status?.restarts ?? 0),
    };
    const jobUid = rt.rng.uid();
    const dns = js.spec.network?.enableDNSHostnames ?? true;
    const subdomain = js.spec.network?.subdomain ?? js.metadata.name;
    const tmpl: PodTemplate = rj.template.spec.template;
    const selectorLabels = {
      'batch.kubernetes.io/controller-uid': jobUid,
      'batch.kubernetes.io/job-name': jobName,
      'controller-uid': jobUid,
      'job-name': jobName,
    };
    const job: JobObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: jobName,
        namespace: ns,
        uid: jobUid,
        resourceVersion: '',
        creationTimestamp: '',
        generation: 1,
        labels: { ...(rj.template.metadata?.labels ?? {}), ...meta, ...selectorLabels },
        annotations: { ...(rj.template.metadata?.annotations ?? {}), ...meta },
        ownerReferences: [ownerRefTo(js)],
      },
      spec: {
        parallelism: 1,
        completions: 1,
        backoffLimit: 0,
        completionMode: 'Indexed',
        manualSelector: false,
        podReplacementPolicy: 'TerminatingOrFailed',
        suspend: js.spec.suspend ?? false,
        ...rj.template.spec,
        selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': jobUid } },
        template: {
          metadata: {
            labels: { ...(tmpl.metadata?.labels ?? {}), ...meta, ...selectorLabels },
            annotations: { ...(tmpl.metadata?.annotations ?? {}), ...meta },
          },
          spec: { ...tmpl.spec, restartPolicy: tmpl.spec.restartPolicy ?? 'Never', ...(dns ? { subdomain } : {}) },
        },
      },
      status: {},
    };
    rt.create(R.jobs, job);
  }
}
