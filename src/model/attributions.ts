// Where a pod sits in a workload's tree (its attribution to a role, by
// attribution.ts), per definition plan, kept between flushes so that a pod
// whose attribution inputs did not change is not evaluated again. (Placement,
// in wlx, is where pods run: nodes and topology domains.)
import type { KubeObject, PodSummary } from './types.js';
import type { DefinitionPlan } from './plan.js';
import type { PodFacts } from './attribution.js';
import { deepEqual } from './equal.js';
import { isTerminating } from './pod-status.js';

/**
 * A pod as a workload's tree is built or patched with it: its summary and where its definition puts it. Made
 * for a build or a patch (`treePod`), not kept: what is kept per pod is its store record.
 */
export interface TreePod {
  summary: PodSummary;
  facts: PodFacts;
  terminating: boolean;
  /** Not Succeeded/Failed: still holds what it requested. */
  active: boolean;
}

/** The tree pod of a pod with `summary`, held as `state` (its object and whether it is active), with `facts`. */
export function treePod(summary: PodSummary, state: { obj: KubeObject; active: boolean }, facts: PodFacts): TreePod {
  return { summary, facts, terminating: isTerminating(state.obj), active: state.active };
}

/**
 * Where one definition plan puts a pod: one object for all the pods it puts there the same way
 * (`SharedPodFacts.attributed`), so a pod costs no object of its own for it.
 */
export interface Attributed {
  facts: PodFacts;
  plan: DefinitionPlan;
}

/**
 * A pod's attributions: one, a list when several plans attribute it (a pod of a
 * StatefulSet and of the LWS above it; rare), or null before any.
 */
export type Attributions = Attributed | Attributed[] | null;

export function findAttributed(attributed: Attributions, plan: DefinitionPlan): Attributed | undefined {
  if (attributed === null) return undefined;
  if (!Array.isArray(attributed)) return attributed.plan === plan ? attributed : undefined;
  for (const x of attributed) if (x.plan === plan) return x;
  return undefined;
}

/** `attributed` with `added`, dropping attributions by plans no longer current (definitions reloaded). */
export function withAttribution(
  attributed: Attributions,
  added: Attributed,
  current: ReadonlySet<DefinitionPlan>,
): Attributions {
  const kept =
    attributed === null
      ? []
      : (Array.isArray(attributed) ? attributed : [attributed]).filter((x) => current.has(x.plan));
  return kept.length === 0 ? added : [...kept, added];
}

/**
 * The previous attributions of plans whose pod expressions read only metadata,
 * when that metadata did not change (a status change): nothing is evaluated
 * again. Null: attribute it again.
 */
export function carriedAttributions(
  prevObj: KubeObject,
  prevAttributed: Attributions,
  obj: KubeObject,
  current: ReadonlySet<DefinitionPlan>,
): Attributions {
  if (prevAttributed === null) return null;
  const a = prevObj.metadata;
  const b = obj.metadata;
  if (
    a.name !== b.name ||
    a.namespace !== b.namespace ||
    !deepEqual(a.labels, b.labels) ||
    !deepEqual(a.annotations, b.annotations)
  )
    return null;
  const carries = (x: Attributed) => x.plan.podExprsReadMetadataOnly && current.has(x.plan);
  if (!Array.isArray(prevAttributed)) return carries(prevAttributed) ? prevAttributed : null;
  const out = prevAttributed.filter(carries);
  return out.length === 0 ? null : out.length === 1 ? out[0] : out;
}

const NULL_KEY = '\u0000';
const NO_ERRORS: PodFacts['errors'] = Object.freeze([]) as unknown as PodFacts['errors'];
/** Bound on facts kept per plan: keys are roles × gang keys, but a pathological definition must not grow it without limit. */
const MAX_SHARED_FACTS = 100_000;

/**
 * One `Attributed` (and PodFacts) object per distinct attribution and gang keys of a plan: the
 * pods of one role share it instead of a path, steps and key lists per pod.
 * Facts with errors are not shared.
 */
export class SharedPodFacts {
  private readonly byPlan = new WeakMap<DefinitionPlan, Map<string, Attributed>>();

  attributed(plan: DefinitionPlan, facts: PodFacts): Attributed {
    if (facts.errors.length > 0) return { facts, plan };
    // Joined, not concatenated: a key kept in the map would otherwise be a tree of ~4 string pieces (32 bytes each).
    const parts: (string | number)[] = [];
    if (facts.path === null) parts.push(NULL_KEY);
    else
      for (const s of facts.path)
        parts.push(s.comp, '\u0001', s.instance ?? NULL_KEY, '\u0001', s.replica ?? NULL_KEY, '\u0002');
    parts.push('\u0003');
    for (const k of facts.gangKeys) parts.push(k ?? NULL_KEY, '\u0001');
    const key = parts.join('');
    let byKey = this.byPlan.get(plan);
    if (!byKey) {
      byKey = new Map();
      this.byPlan.set(plan, byKey);
    }
    const got = byKey.get(key);
    if (got) return got;
    if (byKey.size >= MAX_SHARED_FACTS) byKey.clear();
    // Kept as long as a pod is put there: its arrays exactly as long as they are (grown by push, each keeps
    // room for 16 more), and no errors one shared empty list.
    const kept: PodFacts = {
      path: facts.path && facts.path.slice(),
      gangKeys: facts.gangKeys.slice(),
      errors: NO_ERRORS,
    };
    const attributed = { facts: kept, plan };
    byKey.set(key, attributed);
    return attributed;
  }
}
