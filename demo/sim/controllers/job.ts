// batch/v1 Job controller (Indexed and NonIndexed completion modes): one pod
// per pending index up to `parallelism`, named <job>-<index>-<5 chars>, with the
// labels, annotation, finalizer and env the real controller sets; status with
// active/ready/succeeded/failed, completedIndexes, uncountedTerminatedPods and
// the SuccessCriteriaMet/Complete or FailureTarget/Failed conditions.
import type { StoredObject } from '../../object-store.js';
import type { Runtime, Controller } from '../runtime.js';
import { R, type Condition, type Pod, type PodTemplate } from '../types.js';
import { countPods, createOwnedPod } from './common.js';

export interface JobObject extends StoredObject {
  spec: {
    parallelism?: number;
    completions?: number;
    completionMode?: 'Indexed' | 'NonIndexed';
    backoffLimit?: number;
    suspend?: boolean;
    template: PodTemplate;
    [k: string]: unknown;
  };
  status?: { conditions?: Condition[]; startTime?: string; completionTime?: string; [k: string]: unknown };
}

const JOB_FINALIZERS = ['batch.kubernetes.io/job-tracking'];

export class JobController implements Controller {
  readonly resource = R.jobs;
  constructor(private readonly rt: Runtime) {}

  reconcile(namespace: string | undefined, name: string): void {
    const rt = this.rt;
    const job = rt.store.get(R.jobs, namespace, name) as JobObject | undefined;
    if (!job || job.metadata.deletionTimestamp) return;
    const pods = rt.children<Pod>(job.metadata.uid, R.pods);
    const spec = job.spec;
    const parallelism = spec.parallelism ?? 1;
    const completions = spec.completions ?? parallelism;
    const indexed = (spec.completionMode ?? 'NonIndexed') === 'Indexed';
    const backoffLimit = spec.backoffLimit ?? 6;
    const counts = countPods(pods);
    const finished =
      job.status?.conditions?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') ??
      false;
    const indexOf = (p: Pod): number => Number(p.metadata.labels?.['batch.kubernetes.io/job-completion-index'] ?? -1);
    const succeededIdx = new Set(pods.filter((p) => p.status.phase === 'Succeeded').map(indexOf));
    const activeIdx = new Set(
      pods
        .filter((p) => !p.metadata.deletionTimestamp && p.status.phase !== 'Succeeded' && p.status.phase !== 'Failed')
        .map(indexOf),
    );
    const failedTooOften = counts.failed > backoffLimit;

    if (!finished && !spec.suspend && !failedTooOften) {
      let active = counts.active;
      const want = indexed ? completions : Math.min(parallelism, completions - counts.succeeded);
      for (let i = 0; i < want && active < parallelism; i++) {
        if (indexed && (succeededIdx.has(i) || activeIdx.has(i))) continue;
        if (!indexed && i < counts.active) continue;
        this.createPod(job, indexed ? i : undefined);
        active++;
      }
    }

    const now = rt.isoNow();
    const done = indexed ? succeededIdx.size >= completions : counts.succeeded >= completions;
    let conditions = job.status?.conditions;
    let completionTime = job.status?.completionTime;
    if (!finished && done) {
      conditions = rt.setCondition(
        conditions,
        {
          type: 'SuccessCriteriaMet',
          status: 'True',
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
        },
        ['lastProbeTime', 'lastTransitionTime'],
      );
      conditions = rt.setCondition(
        conditions,
        {
          type: 'Complete',
          status: 'True',
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
        },
        ['lastProbeTime', 'lastTransitionTime'],
      );
      completionTime = now;
      rt.events.record(job, {
        type: 'Normal',
        reason: 'Completed',
        message: 'Job completed',
        component: 'job-controller',
      });
    } else if (!finished && failedTooOften) {
      conditions = rt.setCondition(
        conditions,
        {
          type: 'FailureTarget',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
        ['lastProbeTime', 'lastTransitionTime'],
      );
      conditions = rt.setCondition(
        conditions,
        {
          type: 'Failed',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
        ['lastProbeTime', 'lastTransitionTime'],
      );
      rt.events.record(job, {
        type: 'Warning',
        reason: 'BackoffLimitExceeded',
        message: 'Job has reached the specified backoff limit',
        component: 'job-controller',
      });
    }
    const current = rt.store.get(R.jobs, namespace, name) as JobObject;
    const after = countPods(rt.children<Pod>(job.metadata.uid, R.pods));
    const status = {
      ...(conditions ? { conditions } : {}),
      startTime: job.status?.startTime ?? now,
      ...(completionTime ? { completionTime } : {}),
      active: after.active,
      ready: after.ready,
      ...(after.succeeded ? { succeeded: after.succeeded } : {}),
      ...(after.failed ? { failed: after.failed } : {}),
      terminating: pods.filter((p) => p.metadata.deletionTimestamp).length,
      ...(indexed && succeededIdx.size
        ? { completedIndexes: compressIndexes([...succeededIdx].filter((i) => i >= 0)) }
        : {}),
      uncountedTerminatedPods: {},
    };
    rt.putStatus(R.jobs, current, status);
  }

  private createPod(job: JobObject, index: number | undefined): void {
    const name = job.metadata.name;
    const prefix = index === undefined ? `${name}-` : `${name}-${index}-`;
    const tmpl = job.spec.template;
    const labels: Record<string, string> = {
      'batch.kubernetes.io/controller-uid': job.metadata.uid,
      'batch.kubernetes.io/job-name': name,
      'controller-uid': job.metadata.uid,
      'job-name': name,
      ...(index !== undefined ? { 'batch.kubernetes.io/job-completion-index': String(index) } : {}),
    };
    const subdomain = tmpl.spec['subdomain'] as string | undefined;
    createOwnedPod(
      this.rt,
      job,
      {
        namespace: job.metadata.namespace!,
        name: `${prefix}${this.rt.rng.suffix(5)}`,
        generateName: prefix,
        template: tmpl,
        labels,
        annotations: index !== undefined ? { 'batch.kubernetes.io/job-completion-index': String(index) } : {},
        finalizers: JOB_FINALIZERS,
        ...(index !== undefined && subdomain ? { hostname: `${name}-${index}` } : {}),
        ...(index !== undefined ? { env: [{ name: 'JOB_COMPLETION_INDEX', value: String(index) }] } : {}),
      },
      { component: 'job-controller', reason: 'SuccessfulCreate', message: (p) => `Created pod: ${p.metadata.name}` },
    );
  }
}

/** "0-2,5" as the Job controller writes completedIndexes. */
export function compressIndexes(indexes: number[]): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
