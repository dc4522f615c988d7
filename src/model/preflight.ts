// The pre-flight of definitions about to be handed to the store (a hot reload
// of cluster Kartas): their jq-wasm expressions are evaluated off the main
// thread, over the objects already held, before any synchronous evaluation
// needs them. One over the budget is found in the worker while the explorer
// keeps drawing — the store's plan then breaks at its first evaluation
// without calling jq (expr.ts, ProgramLearnt) — and the healthy ones are
// prefetched, so the flush after the reload reads their results.
import { apiVersionOf, type Definition, type Gvk } from '../definitions/types.js';
import { prefetchAsync, type ExprCompiler, type ExprError } from './expr.js';
import { POD_GVK } from './ownership-graph.js';
import { planDefinition } from './plan.js';

interface Namespaced {
  metadata?: { namespace?: string };
}

/**
 * The pods that can belong to `workloads`: owner references never cross
 * namespaces, so pods in their namespaces (all pods when one is cluster-scoped).
 */
function podsNear(workloads: readonly object[], pods: readonly object[]): readonly object[] {
  const namespaces = new Set<string>();
  for (const w of workloads) {
    const ns = (w as Namespaced).metadata?.namespace;
    if (!ns) return pods;
    namespaces.add(ns);
  }
  return pods.filter((p) => namespaces.has((p as Namespaced).metadata?.namespace ?? ''));
}

/**
 * Stands in for the objects of a kind not watched yet (a Karta for a new kind):
 * an expression that loops whatever its input (`def f: f; f`, `until(false; .)`)
 * is still found in the worker before the kind's first list reaches the store.
 */
function probeOf(gvk: Gvk): object {
  return { apiVersion: apiVersionOf(gvk), kind: gvk.kind, metadata: { name: '', namespace: '' }, spec: {}, status: {} };
}

/**
 * Evaluates the non-native expressions of `definitions` off the main thread:
 * those a plan runs against workloads over `objectsOf(rootGvk)`, those it runs
 * against pods over the pods in the same namespaces. Resolves with the
 * definitions found over the budget (name → the failure); none rejects.
 * `exprs` must be the compiler of the store that gets the definitions next:
 * what the pre-flight learns is kept with its programs.
 */
export async function preflightDefinitions(
  definitions: readonly Definition[],
  objectsOf: (gvk: Gvk) => readonly object[],
  exprs: ExprCompiler,
): Promise<Map<string, ExprError>> {
  const broken = new Map<string, ExprError>();
  for (const definition of definitions) {
    const plan = planDefinition(definition, exprs);
    if (plan.slowWorkloadExprs.length === 0 && plan.slowPodExprs.length === 0) continue;
    const held = objectsOf(definition.rootGvk);
    const workloads = held.length > 0 ? held : [probeOf(definition.rootGvk)];
    await prefetchAsync(plan.slowWorkloadExprs, workloads);
    if (plan.slowPodExprs.length > 0 && !plan.health.broken)
      await prefetchAsync(plan.slowPodExprs, podsNear(workloads, objectsOf(POD_GVK)));
    if (plan.health.broken) broken.set(definition.name, plan.health.broken);
  }
  return broken;
}
