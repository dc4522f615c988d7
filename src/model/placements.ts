// Where a pod sits in a workload's tree, per definition plan, kept between
// flushes so that a pod whose placement inputs did not change is not
// evaluated again.
import type { KubeObject, PodSummary } from './types.js';
import type { DefinitionPlan } from './plan.js';
import type { PodFacts } from './attribution.js';
import { deepEqual } from './equal.js';
import { isTerminalPhase, isTerminating } from './pod-status.js';

/** A pod as a workload's tree holds it: its summary and where its definition places it. */
export interface TreePod {
  summary: PodSummary;
  facts: PodFacts;
  terminating: boolean;
  /** Not Succeeded/Failed: still holds what it requested. */
  active: boolean;
}

export function treePod(pod: KubeObject, summary: PodSummary, facts: PodFacts): TreePod {
  return { summary, facts, terminating: isTerminating(pod), active: !isTerminalPhase(pod) };
}

/** A pod placed by one definition plan. */
export interface Placed extends TreePod {
  plan: DefinitionPlan;
}

/**
 * A pod's placements: one, a list when several plans place it (a pod of a
 * StatefulSet and of the LWS above it; rare), or null before any.
 */
export type Placements = Placed | Placed[] | null;

/** treePod's fields and the plan as one literal (a spread would give each pod a second property store). */
export function placedTreePod(pod: KubeObject, summary: PodSummary, facts: PodFacts, plan: DefinitionPlan): Placed {
  const tp = treePod(pod, summary, facts);
  return { summary: tp.summary, facts: tp.facts, terminating: tp.terminating, active: tp.active, plan };
}

export function findPlaced(placed: Placements, plan: DefinitionPlan): Placed | undefined {
  if (placed === null) return undefined;
  if (!Array.isArray(placed)) return placed.plan === plan ? placed : undefined;
  for (const x of placed) if (x.plan === plan) return x;
  return undefined;
}

/** `placed` with `added`, dropping placements by plans no longer current (definitions reloaded). */
export function withPlacement(placed: Placements, added: Placed, current: ReadonlySet<DefinitionPlan>): Placements {
  const kept = placed === null ? [] : (Array.isArray(placed) ? placed : [placed]).filter((x) => current.has(x.plan));
  return kept.length === 0 ? added : [...kept, added];
}

/**
 * The previous placements with the new summary, for plans whose pod
 * expressions read only metadata, when that metadata did not change (a status
 * change): nothing is evaluated again. Null: place it again.
 */
export function carriedPlacements(
  prevObj: KubeObject,
  prevPlaced: Placements,
  obj: KubeObject,
  summary: PodSummary,
  current: ReadonlySet<DefinitionPlan>,
): Placements {
  if (prevPlaced === null) return null;
  const a = prevObj.metadata;
  const b = obj.metadata;
  if (
    a.name !== b.name ||
    a.namespace !== b.namespace ||
    !deepEqual(a.labels, b.labels) ||
    !deepEqual(a.annotations, b.annotations)
  )
    return null;
  const out: Placed[] = [];
  for (const x of Array.isArray(prevPlaced) ? prevPlaced : [prevPlaced]) {
    if (x.plan.podExprsReadMetadataOnly && current.has(x.plan)) out.push(placedTreePod(obj, summary, x.facts, x.plan));
  }
  return out.length === 0 ? null : out.length === 1 ? out[0] : out;
}

const NULL_KEY = '\u0000';
/** Bound on facts kept per plan: keys are roles × gang keys, but a pathological definition must not grow it without limit. */
const MAX_SHARED_FACTS = 100_000;

/**
 * One PodFacts object per distinct placement and gang keys of a plan: the
 * pods of one role share it instead of a path, steps and key lists per pod.
 * Facts with errors are not shared.
 */
export class SharedPodFacts {
  private readonly byPlan = new WeakMap<DefinitionPlan, Map<string, PodFacts>>();

  share(plan: DefinitionPlan, facts: PodFacts): PodFacts {
    if (facts.errors.length > 0) return facts;
    let key = '';
    if (facts.path === null) key = NULL_KEY;
    else
      for (const s of facts.path) key += `${s.comp}\u0001${s.instance ?? NULL_KEY}\u0001${s.replica ?? NULL_KEY}\u0002`;
    key += '\u0003';
    for (const k of facts.gangKeys) key += `${k ?? NULL_KEY}\u0001`;
    let byKey = this.byPlan.get(plan);
    if (!byKey) {
      byKey = new Map();
      this.byPlan.set(plan, byKey);
    }
    const got = byKey.get(key);
    if (got) return got;
    if (byKey.size >= MAX_SHARED_FACTS) byKey.clear();
    byKey.set(key, facts);
    return facts;
  }
}
