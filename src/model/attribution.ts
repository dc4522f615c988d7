// Placing one pod (already known to be owned by the workload) in the
// definition's component tree, with the pod selectors run against the POD:
// componentTypeSelector (keyPath non-null, keyPath == value, matchLabels),
// componentInstanceSelector (idPath = instance id), replicaSelector (keyPath =
// replica key). A pod goes to the deepest component that claims it; one no
// component claims stays with the workload as unattributed.
import type { KubeObject } from './types.js';
import { firstOf, singleKey, ExprError, type Expr } from './expr.js';
import type { DefinitionPlan, ComponentPlan } from './plan.js';

export interface AttributionStep {
  /** Component index in the plan. */
  comp: number;
  instance: string | null;
  replica: string | null;
}

export interface PodEvalError {
  expr: Expr;
  message: string;
}

export interface PodFacts {
  /** Components from the outermost role to the deepest; null: unattributed. */
  path: AttributionStep[] | null;
  /** Per gang group of the plan: the pod's gang key, or null when not a member. */
  gangKeys: (string | null)[];
  errors: PodEvalError[];
}

type Claim = { instance: string | null; replica: string | null } | null;

function claim(c: ComponentPlan, pod: KubeObject, errors: PodEvalError[]): Claim {
  if (c.claimsAll) return { instance: null, replica: null };
  try {
    if (c.hasTypeSelector) {
      if (c.typeKey) {
        const v = singleKey(c.typeKey, pod);
        if (v === undefined) return null;
        if (c.typeValue !== null && v !== c.typeValue) return null;
      }
      if (c.matchLabels) {
        const labels = pod.metadata.labels ?? {};
        for (const [k, v] of Object.entries(c.matchLabels)) if (labels[k] !== v) return null;
      }
    }
    let instance: string | null = null;
    if (c.instanceKey) {
      instance = singleKey(c.instanceKey, pod) ?? null;
      // Without a type selector the instance id is what says the pod is ours.
      if (instance === null && !c.hasTypeSelector) return null;
    }
    let replica: string | null = null;
    if (c.replicaKey) {
      replica = singleKey(c.replicaKey, pod) ?? null;
      if (replica === null) return null;
    }
    if (!c.hasTypeSelector && !c.instanceKey && !c.replicaKey) return null;
    return { instance, replica };
  } catch (err) {
    if (err instanceof ExprError) errors.push({ expr: err.expr, message: err.message });
    else throw err;
    return null;
  }
}

function descend(
  plan: DefinitionPlan,
  at: number,
  pod: KubeObject,
  path: AttributionStep[],
  errors: PodEvalError[],
): boolean {
  for (const child of plan.components[at].children) {
    const d = plan.components[child];
    if (d.podBearing) {
      const got = claim(d, pod, errors);
      if (!got) continue;
      path.push({ comp: child, instance: got.instance, replica: got.replica });
      descend(plan, child, pod, path, errors);
      return true;
    }
    // A component that cannot hold pods itself (no template, no selector) is
    // transparent: it groups the roles of its children.
    const mark = path.length;
    path.push({ comp: child, instance: null, replica: null });
    if (descend(plan, child, pod, path, errors)) return true;
    path.length = mark;
  }
  return false;
}

/** Where the pod goes in the plan's component tree, and its gang keys. */
export function evaluatePod(plan: DefinitionPlan, pod: KubeObject): PodFacts {
  const errors: PodEvalError[] = [];
  const path: AttributionStep[] = [];
  const root = plan.components[0];
  const rootClaim = root.podBearing ? claim(root, pod, errors) : null;
  if (rootClaim) path.push({ comp: 0, instance: rootClaim.instance, replica: rootClaim.replica });
  descend(plan, 0, pod, path, errors);
  const placed = path.length > 0 ? path : null;
  return { path: placed, gangKeys: gangKeys(plan, pod, placed, errors), errors };
}

function gangKeys(
  plan: DefinitionPlan,
  pod: KubeObject,
  path: AttributionStep[] | null,
  errors: PodEvalError[],
): (string | null)[] {
  return plan.gangs.map((g) => {
    if (!path) return null;
    for (const m of g.members) {
      if (!path.some((s) => s.comp === m.component)) continue;
      try {
        if (!m.filters.every((f) => firstOf(f, pod) === true)) continue;
        const parts: string[] = [];
        for (const k of m.keys) {
          const v = singleKey(k, pod);
          if (v === undefined) throw new ExprError(k, 'yields no value, a gang key path must yield exactly one');
          parts.push(v);
        }
        return parts.join('/');
      } catch (err) {
        if (err instanceof ExprError) errors.push({ expr: err.expr, message: err.message });
        else throw err;
      }
    }
    return null;
  });
}
