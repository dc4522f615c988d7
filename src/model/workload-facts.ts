// What a definition says about one workload object, independent of its pods:
// status, and per component the instances, desired replicas and the GPU
// request of its pod templates. Recomputed only when the workload object (or
// its definition) changes, never on pod events.
import type { StatusName } from '../definitions/types.js';
import type { KubeObject } from './types.js';
import { runExpr, keyString, ExprError, describeFailure, type Expr } from './expr.js';
import type { DefinitionPlan, ComponentPlan } from './plan.js';
import { evaluateStatus } from './status.js';
import { podGpuRequest, containersGpuRequest, resourcesGpuRequest } from './gpu.js';

export interface ComponentFacts {
  /** Instance ids from instanceIdPath, in order; null when the component has none. */
  instances: string[] | null;
  /** Desired replicas per instance (aligned with instances), or one total. */
  desired: number[];
  totalDesired: number;
  /** GPU request of one replica, per instance (or per template output). */
  templateGpus: number[];
  /** Σ template GPUs × desired replicas. */
  desiredGpus: number;
}

export interface WorkloadFacts {
  status: StatusName[];
  statusMessage: string | null;
  components: ComponentFacts[];
  errors: string[];
}

export function workloadSubject(workload: KubeObject): string {
  const ns = workload.metadata.namespace;
  return ns ? `${ns}/${workload.metadata.name}` : workload.metadata.name;
}

/** Replica counts are numbers or numeric strings; null means "not given". */
function toCount(expr: Expr, v: unknown): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return Math.floor(v);
  if (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.floor(Number(v));
  throw new ExprError(expr, `yields ${JSON.stringify(v)}, not a replica count`);
}

function templateGpu(kind: NonNullable<ComponentPlan['template']>['kind'], v: unknown, gpuResources: readonly string[]): number {
  if (v === null || v === undefined || typeof v !== 'object') return 0;
  const o = v as Record<string, unknown>;
  switch (kind) {
    case 'podTemplateSpec':
      return podGpuRequest(o.spec, gpuResources);
    case 'podSpec':
      return podGpuRequest(o, gpuResources);
    case 'resources':
      return resourcesGpuRequest(o, gpuResources);
    case 'containers':
      return containersGpuRequest(o, gpuResources);
    case 'container':
      return containersGpuRequest([o], gpuResources);
  }
}

function componentFacts(c: ComponentPlan, workload: KubeObject, gpuResources: readonly string[], fail: (e: unknown) => void): ComponentFacts {
  let instances: string[] | null = null;
  if (c.instanceIds) {
    instances = [];
    try {
      const out = runExpr(c.instanceIds, workload);
      out.forEach((v, i) => {
        const id = keyString(v);
        if (id === undefined) fail(new ExprError(c.instanceIds!, `instance ${i} has an empty id`));
        instances!.push(id ?? `#${i}`);
      });
    } catch (err) {
      fail(err);
    }
  }
  const n = instances ? instances.length : 1;

  const counts = (expr: Expr | null): (number | undefined)[] => {
    if (!expr) return [];
    try {
      const out = runExpr(expr, workload).map((v) => toCount(expr, v));
      if (instances && out.length > 0 && out.length !== n) {
        fail(new ExprError(expr, `yields ${out.length} values for ${n} instances (matched by position)`));
      }
      return out;
    } catch (err) {
      fail(err);
      return [];
    }
  };
  const replicas = counts(c.replicas);
  // minReplicasPath is only read when replicasPath gives nothing.
  const needMin = !replicas.some((v) => v !== undefined);
  const minReplicas = needMin ? counts(c.minReplicas) : [];

  let desired: number[];
  if (instances) {
    desired = instances.map((_, i) => replicas[i] ?? minReplicas[i] ?? 1);
  } else {
    const given = replicas.filter((v): v is number => v !== undefined);
    const givenMin = minReplicas.filter((v): v is number => v !== undefined);
    desired = [given.length > 0 ? sum(given) : givenMin.length > 0 ? sum(givenMin) : 1];
  }
  const totalDesired = sum(desired);

  let templateGpus: number[] = [];
  let desiredGpus = 0;
  if (c.template) {
    try {
      const out = runExpr(c.template.expr, workload);
      templateGpus = out.map((v) => templateGpu(c.template!.kind, v, gpuResources));
      if (instances) {
        if (out.length > 0 && out.length !== n) {
          fail(new ExprError(c.template.expr, `yields ${out.length} templates for ${n} instances (matched by position)`));
        }
        desiredGpus = sum(desired.map((d, i) => d * (templateGpus[i] ?? templateGpus[0] ?? 0)));
      } else if (templateGpus.length > 1 && replicas.length === templateGpus.length) {
        // Several templates and as many counts, no instance ids: pair them by position.
        desiredGpus = sum(templateGpus.map((g, i) => g * (replicas[i] ?? 1)));
      } else {
        desiredGpus = (templateGpus[0] ?? 0) * totalDesired;
      }
    } catch (err) {
      fail(err);
    }
  }
  return { instances, desired, totalDesired, templateGpus, desiredGpus };
}

function sum(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

export function evaluateWorkload(plan: DefinitionPlan, workload: KubeObject, gpuResources: readonly string[]): WorkloadFacts {
  const subject = workloadSubject(workload);
  const errors: string[] = [];
  const fail = (err: unknown) => {
    if (err instanceof ExprError) errors.push(describeFailure(subject, err.expr, err.message));
    else errors.push(`${subject}: ${err instanceof Error ? err.message : String(err)}`);
  };
  const status = evaluateStatus(plan.status, workload, subject);
  errors.push(...status.errors);
  const components = plan.components.map((c) => componentFacts(c, workload, gpuResources, fail));
  return { status: status.status, statusMessage: status.statusMessage, components, errors };
}
