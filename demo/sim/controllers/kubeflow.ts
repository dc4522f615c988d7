// Kubeflow training-operator (v1.9) for PyTorchJob and TFJob: pods
// <job>-<replica type lower case>-<index> owned by the job, with the
// training.kubeflow.org labels and the env the operator injects (MASTER_ADDR,
// WORLD_SIZE, RANK / TF_CONFIG). Status: Created → Running → Succeeded or Failed
// conditions with reasons <Kind><Reason>, replicaStatuses, startTime,
// completionTime. runPolicy.backoffLimit counts container restarts of
// OnFailure pods, as the operator does; cleanPodPolicy None keeps pods.
// runPolicy.suspend (set by Kueue until admission): no pods, a Suspended
// condition and no startTime until resumed. runPolicy.managedBy naming
// another controller (MultiKueue on a manager cluster): the job is left alone.
import type { StoredObject } from '../../object-store.js';
import type { Controller, Runtime } from '../runtime.js';
import { R, type Condition, type Pod, type PodTemplate } from '../types.js';
import { countPods, createOwnedPod } from './common.js';

export interface ReplicaSpec {
  replicas?: number;
  restartPolicy?: 'Always' | 'OnFailure' | 'Never' | 'ExitCode';
  template: PodTemplate;
}

export interface TrainingJobObject extends StoredObject {
  spec: {
    runPolicy?: {
      backoffLimit?: number;
      cleanPodPolicy?: string;
      suspend?: boolean;
      schedulingPolicy?: unknown;
      managedBy?: string;
    };
    pytorchReplicaSpecs?: Record<string, ReplicaSpec>;
    tfReplicaSpecs?: Record<string, ReplicaSpec>;
    [k: string]: unknown;
  };
  status?: { conditions?: Condition[]; startTime?: string; completionTime?: string; [k: string]: unknown };
}

interface Flavor {
  resource: string;
  kind: 'PyTorchJob' | 'TFJob';
  specField: 'pytorchReplicaSpecs' | 'tfReplicaSpecs';
  operatorName: string;
  /** Replica types in the order the operator reconciles them. */
  order: string[];
  /** The replica type whose pod carries job-role: master. */
  masterType: string;
}

export const PYTORCH: Flavor = {
  resource: R.pytorchjobs,
  kind: 'PyTorchJob',
  specField: 'pytorchReplicaSpecs',
  operatorName: 'pytorchjob-controller',
  order: ['Master', 'Worker'],
  masterType: 'Master',
};
export const TENSORFLOW: Flavor = {
  resource: R.tfjobs,
  kind: 'TFJob',
  specField: 'tfReplicaSpecs',
  operatorName: 'tfjob-controller',
  order: ['Chief', 'Master', 'PS', 'Worker', 'Evaluator'],
  masterType: 'Chief',
};

const L = 'training.kubeflow.org/';
/** runPolicy.managedBy of jobs the training-operator itself runs (its default). */
const TRAINING_OPERATOR = 'kubeflow.org/training-operator';

export class TrainingJobController implements Controller {
  readonly resource: string;
  constructor(
    private readonly rt: Runtime,
    private readonly flavor: Flavor,
  ) {
    this.resource = flavor.resource;
  }

  private replicaTypes(job: TrainingJobObject): Array<[string, ReplicaSpec]> {
    const specs = job.spec[this.flavor.specField] ?? {};
    const rank = (t: string): number => {
      const i = this.flavor.order.indexOf(t);
      return i < 0 ? 99 : i;
    };
    return Object.entries(specs).sort((a, b) => rank(a[0]) - rank(b[0]));
  }

  reconcile(namespace: string | undefined, name: string): void {
    const rt = this.rt;
    const f = this.flavor;
    const job = rt.store.get(f.resource, namespace, name) as TrainingJobObject | undefined;
    if (!job || job.metadata.deletionTimestamp) return;
    const managedBy = job.spec.runPolicy?.managedBy;
    if (managedBy && managedBy !== TRAINING_OPERATOR) return;
    const pods = rt.children<Pod>(job.metadata.uid, R.pods);
    const byName = new Map(pods.map((p) => [p.metadata.name, p]));
    const isTrue = (t: string): boolean =>
      job.status?.conditions?.some((c) => c.type === t && c.status === 'True') ?? false;
    const finished = isTrue('Succeeded') || isTrue('Failed');
    const types = this.replicaTypes(job);
    const worldSize = types.reduce((a, [, s]) => a + (s.replicas ?? 1), 0);

    if (!finished && !job.spec.runPolicy?.suspend) {
      for (const [type, spec] of types) {
        for (let i = 0; i < (spec.replicas ?? 1); i++) {
          const podName = `${name}-${type.toLowerCase()}-${i}`;
          if (byName.has(podName) || rt.store.get(R.pods, namespace, podName)) continue;
          this.createPod(job, type, spec, i, worldSize, podName);
        }
      }
    }

    const now = rt.isoNow();
    const current = rt.store.get(f.resource, namespace, name) as TrainingJobObject;
    const all = rt.children<Pod>(job.metadata.uid, R.pods);
    const replicaStatuses: Record<string, Record<string, unknown>> = {};
    for (const [type] of types) {
      const mine = all.filter((p) => p.metadata.labels?.[`${L}replica-type`] === type.toLowerCase());
      const c = countPods(mine);
      replicaStatuses[type] = {
        ...(c.running ? { active: c.running } : {}),
        ...(c.succeeded ? { succeeded: c.succeeded } : {}),
        ...(c.failed ? { failed: c.failed } : {}),
        selector: `${L}job-name=${name},${L}operator-name=${f.operatorName},${L}replica-type=${type.toLowerCase()}`,
      };
    }
    let conditions = current.status?.conditions ?? [];
    let completionTime = current.status?.completionTime;
    conditions = rt.setCondition(
      conditions,
      { type: 'Created', status: 'True', reason: `${f.kind}Created`, message: `${f.kind} ${name} is created.` },
      ['lastTransitionTime', 'lastUpdateTime'],
    );
    const suspended = !!job.spec.runPolicy?.suspend;
    const wasSuspended = conditions.some((c) => c.type === 'Suspended' && c.status === 'True');
    if (!finished && (suspended || wasSuspended))
      conditions = rt.setCondition(
        conditions,
        suspended
          ? {
              type: 'Suspended',
              status: 'True',
              reason: `${f.kind}Suspended`,
              message: `${f.kind} ${name} is suspended.`,
            }
          : {
              type: 'Suspended',
              status: 'False',
              reason: `${f.kind}Resumed`,
              message: `${f.kind} ${name} is resumed.`,
            },
        ['lastTransitionTime', 'lastUpdateTime'],
      );
    if (!finished && !suspended) {
      const expected = types.reduce((a, [, s]) => a + (s.replicas ?? 1), 0);
      const counts = countPods(all);
      const restarts = all.reduce(
        (a, p) => a + (p.status.containerStatuses ?? []).reduce((b, s) => b + s.restartCount, 0),
        0,
      );
      const backoffLimit = job.spec.runPolicy?.backoffLimit;
      const masterType = types.find(([t]) => t === f.masterType || t === 'Master')?.[0];
      const masterDone = masterType
        ? (replicaStatuses[masterType]?.['succeeded'] as number | undefined) ===
          (job.spec[f.specField]?.[masterType]?.replicas ?? 1)
        : false;
      const failedPod = all.find((p) => p.status.phase === 'Failed');
      if (backoffLimit !== undefined && restarts >= backoffLimit && restarts > 0) {
        const worst = [...all].sort((a, b) => podRestarts(b) - podRestarts(a))[0];
        const last = worst.status.containerStatuses?.find((s) => s.lastState.terminated || s.state.terminated);
        const why = last?.lastState.terminated ?? last?.state.terminated;
        const message = `${f.kind} ${name} is failed because it has reached the specified backoff limit (${backoffLimit}): pod ${worst.metadata.name} restarted ${podRestarts(worst)} times${why ? ` (last exit: ${why.reason}, exit code ${why.exitCode})` : ''}.`;
        conditions = this.fail(job, conditions, message);
        completionTime = now;
      } else if (failedPod) {
        const type = failedPod.metadata.labels?.[`${L}replica-type`] ?? 'worker';
        const message = `${f.kind} ${name} is failed because 1 ${capitalize(type)} replica(s) failed: pod ${failedPod.metadata.name} exited with a non-zero code.`;
        conditions = this.fail(job, conditions, message);
        completionTime = now;
      } else if (masterDone) {
        conditions = rt.setCondition(
          conditions,
          {
            type: 'Running',
            status: 'False',
            reason: `${f.kind}Succeeded`,
            message: `${f.kind} ${name} is successfully completed.`,
          },
          ['lastTransitionTime', 'lastUpdateTime'],
        );
        conditions = rt.setCondition(
          conditions,
          {
            type: 'Succeeded',
            status: 'True',
            reason: `${f.kind}Succeeded`,
            message: `${f.kind} ${name} is successfully completed.`,
          },
          ['lastTransitionTime', 'lastUpdateTime'],
        );
        completionTime = now;
        rt.events.record(job, {
          type: 'Normal',
          reason: `${f.kind}Succeeded`,
          message: `${f.kind} ${name} is successfully completed.`,
          component: f.operatorName,
        });
      } else if (counts.running >= expected) {
        conditions = rt.setCondition(
          conditions,
          {
            type: 'Running',
            status: 'True',
            reason: `${f.kind}Running`,
            message: `${f.kind} ${namespace}/${name} is running.`,
          },
          ['lastTransitionTime', 'lastUpdateTime'],
        );
      }
    }
    rt.putStatus(f.resource, current, {
      conditions,
      replicaStatuses,
      ...(suspended && !current.status?.startTime ? {} : { startTime: current.status?.startTime ?? now }),
      ...(completionTime ? { completionTime } : {}),
      lastReconcileTime: current.status?.['lastReconcileTime'] ?? now,
    });
  }

  private fail(job: TrainingJobObject, conditions: Condition[], message: string): Condition[] {
    const rt = this.rt;
    const f = this.flavor;
    let next = conditions;
    if (next.some((c) => c.type === 'Running'))
      next = rt.setCondition(next, { type: 'Running', status: 'False', reason: `${f.kind}Failed`, message }, [
        'lastTransitionTime',
        'lastUpdateTime',
      ]);
    next = rt.setCondition(next, { type: 'Failed', status: 'True', reason: `${f.kind}Failed`, message }, [
      'lastTransitionTime',
      'lastUpdateTime',
    ]);
    rt.events.record(job, { type: 'Warning', reason: `${f.kind}Failed`, message, component: f.operatorName });
    return next;
  }

  private createPod(
    job: TrainingJobObject,
    type: string,
    spec: ReplicaSpec,
    index: number,
    worldSize: number,
    podName: string,
  ): void {
    const f = this.flavor;
    const name = job.metadata.name;
    const lower = type.toLowerCase();
    const types = this.replicaTypes(job);
    let env: Array<{ name: string; value: string }>;
    if (f.kind === 'PyTorchJob') {
      // Master is rank 0, workers follow.
      const rank = type === 'Master' ? index : (job.spec.pytorchReplicaSpecs?.['Master']?.replicas ?? 0) + index;
      const master = job.spec.pytorchReplicaSpecs?.['Master'] ? `${name}-master-0` : `${name}-worker-0`;
      env = [
        { name: 'PYTHONUNBUFFERED', value: '1' },
        { name: 'MASTER_PORT', value: '23456' },
        { name: 'PET_MASTER_PORT', value: '23456' },
        { name: 'MASTER_ADDR', value: master },
        { name: 'PET_MASTER_ADDR', value: master },
        { name: 'WORLD_SIZE', value: String(worldSize) },
        { name: 'RANK', value: String(rank) },
        { name: 'PET_NPROC_PER_NODE', value: 'auto' },
        { name: 'PET_NODE_RANK', value: String(rank) },
        { name: 'PET_NNODES', value: String(worldSize) },
      ];
    } else {
      const cluster: Record<string, string[]> = {};
      for (const [t, s] of types)
        cluster[t.toLowerCase()] = Array.from(
          { length: s.replicas ?? 1 },
          (_, i) => `${name}-${t.toLowerCase()}-${i}.${job.metadata.namespace}.svc:2222`,
        );
      env = [
        { name: 'TF_CONFIG', value: JSON.stringify({ cluster, task: { type: lower, index }, environment: 'cloud' }) },
      ];
    }
    createOwnedPod(
      this.rt,
      job,
      {
        namespace: job.metadata.namespace!,
        name: podName,
        template: spec.template,
        restartPolicy:
          spec.restartPolicy === 'ExitCode'
            ? 'Never'
            : (spec.restartPolicy ?? spec.template.spec.restartPolicy ?? 'Never'),
        labels: {
          [`${L}job-name`]: name,
          [`${L}operator-name`]: f.operatorName,
          [`${L}replica-type`]: lower,
          [`${L}replica-index`]: String(index),
          ...(type === f.masterType || type === 'Master' ? { [`${L}job-role`]: 'master' } : {}),
        },
        env,
      },
      { component: f.operatorName, reason: 'SuccessfulCreatePod', message: (p) => `Created pod: ${p.metadata.name}` },
    );
  }
}

function podRestarts(p: Pod): number {
  return (p.status.containerStatuses ?? []).reduce((a, s) => a + s.restartCount, 0);
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
