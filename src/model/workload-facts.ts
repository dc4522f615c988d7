// What a definition says about one workload object, independent of its pods:
// status, and per component the instances, desired replicas and the GPU
// request of its pod templates. Recomputed only when the workload object (or
// its definition) changes, never on pod events.
import type { StatusName } from '../definitions/types.js';
import type { KubeObject } from './types.js';
import { runExpr, keyString, ExprError, describeFailure, type Expr } from './expr.js';
import type { DefinitionPlan, ComponentPlan, TemplatePlan } from './plan.js';
import { evaluateStatus } from './status.js';
import { podGpuRequest, fragmentedGpuRequest } from './gpu.js';
import { templateDraGpus, type DraLookup } from './dra.js';

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
  /** ResourceClaimTemplates (`namespace/name`) its pod templates name: when one changes, so do its GPUs. */
  draTemplates?: string[];
}

/** How template GPUs read DRA: the store's objects, and where the templates read are collected. */
interface DraReading {
  lookup: DraLookup;
  templates: Set<string>;
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

/**
 * GPU request of one replica per template position: what the template path
 * yields, or for a fragmented spec, the fragments at the same position
 * combined into one pod (gpu.ts, fragmentedGpuRequest). A fragment path that
 * fails is reported and read as missing; the others still count.
 */
function templateGpus(
  template: TemplatePlan,
  workload: KubeObject,
  gpuResources: readonly string[],
  fail: (e: unknown) => void,
  dra: DraReading | undefined,
): { gpus: number[]; exprs: { expr: Expr; count: number }[] } {
  if (template.kind !== 'fragmented') {
    const out = runExpr(template.expr, workload);
    const gpus = out.map((v) => {
      const o = v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : null;
      if (!o) return 0;
      const spec = template.kind === 'podTemplateSpec' ? o.spec : o;
      if (!dra) return podGpuRequest(spec, gpuResources);
      // DRA GPUs count with the device-plugin ones, as on the pods.
      const claimed = templateDraGpus(spec, workload.metadata.namespace ?? '', dra.lookup);
      for (const t of claimed.templates) dra.templates.add(t);
      return podGpuRequest(spec, gpuResources) + claimed.gpus;
    });
    return { gpus, exprs: [{ expr: template.expr, count: out.length }] };
  }
  const run = (expr: Expr | null): unknown[] => {
    if (!expr) return [];
    try {
      return runExpr(expr, workload);
    } catch (err) {
      fail(err);
      return [];
    }
  };
  const containers = run(template.containers);
  const container = run(template.container);
  const resources = run(template.resources);
  const n = Math.max(containers.length, container.length, resources.length);
  const gpus: number[] = [];
  for (let i = 0; i < n; i++)
    gpus.push(
      fragmentedGpuRequest(
        { containers: containers[i], container: container[i], resources: resources[i] },
        gpuResources,
      ),
    );
  const exprs: { expr: Expr; count: number }[] = [];
  if (template.containers) exprs.push({ expr: template.containers, count: containers.length });
  if (template.container) exprs.push({ expr: template.container, count: container.length });
  if (template.resources) exprs.push({ expr: template.resources, count: resources.length });
  return { gpus, exprs };
}

function componentFacts(
  c: ComponentPlan,
  workload: KubeObject,
  gpuResources: readonly string[],
  fail: (e: unknown) => void,
  dra: DraReading | undefined,
): ComponentFacts {
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

  let templateGpuList: number[] = [];
  let desiredGpus = 0;
  if (c.template) {
    try {
      const t = templateGpus(c.template, workload, gpuResources, fail, dra);
      templateGpuList = t.gpus;
      if (instances) {
        for (const { expr, count } of t.exprs) {
          if (count > 0 && count !== n)
            fail(new ExprError(expr, `yields ${count} templates for ${n} instances (matched by position)`));
        }
        desiredGpus = sum(desired.map((d, i) => d * (templateGpuList[i] ?? templateGpuList[0] ?? 0)));
      } else if (templateGpuList.length > 1 && replicas.length === templateGpuList.length) {
        // Several templates and as many counts, no instance ids: pair them by position.
        desiredGpus = sum(templateGpuList.map((g, i) => g * (replicas[i] ?? 1)));
      } else {
        desiredGpus = (templateGpuList[0] ?? 0) * totalDesired;
      }
    } catch (err) {
      fail(err);
    }
  }
  return { instances, desired, totalDesired, templateGpus: templateGpuList, desiredGpus };
}

function sum(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

export function evaluateWorkload(
  plan: DefinitionPlan,
  workload: KubeObject,
  gpuResources: readonly string[],
  draLookup?: DraLookup,
): WorkloadFacts {
  const subject = workloadSubject(workload);
  const errors: string[] = [];
  const fail = (err: unknown) => {
    if (err instanceof ExprError) errors.push(describeFailure(subject, err.expr, err.message));
    else errors.push(`${subject}: ${err instanceof Error ? err.message : String(err)}`);
  };
  const status = evaluateStatus(plan.status, workload, subject);
  errors.push(...status.errors);
  const dra = draLookup ? { lookup: draLookup, templates: new Set<string>() } : undefined;
  const components = plan.components.map((c) => componentFacts(c, workload, gpuResources, fail, dra));
  const facts: WorkloadFacts = { status: status.status, statusMessage: status.statusMessage, components, errors };
  if (dra && dra.templates.size > 0) facts.draTemplates = [...dra.templates].sort();
  return facts;
}
