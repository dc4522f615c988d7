// Which compiled plan reads an object: the definitions by `group/version/Kind`,
// a kind's newest definition for objects at a version no definition names
// (with one warning each), and the kinds the definitions chain between
// workloads and pods. An unchanged definition keeps its plan across reloads
// (and with it every cached attribution).
import type { Definition } from '../definitions/types.js';
import { apiVersionOf, gvkKey } from '../definitions/types.js';
import { ExprCompiler } from './expr.js';
import { planDefinition, type DefinitionPlan } from './plan.js';
import { deepEqual } from './equal.js';
import { OWNER_GVKS } from './ownership-graph.js';

/** Kubernetes' version order (v1 > v1beta2 > v1beta1 > v1alpha1 > anything else): a higher rank sorts first. */
function versionRank(version: string): number[] {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version);
  if (!m) return [-1, 0, 0];
  return [m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, Number(m[1]), Number(m[3] ?? 0)];
}

function newerVersion(a: string, b: string): boolean {
  const ra = versionRank(a);
  const rb = versionRank(b);
  for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i] > rb[i];
  return a < b;
}

/** `group/Kind` of a `group/version/Kind` key. */
function kindOfKey(key: string): string {
  const [group, , kind] = key.split('/');
  return `${group}/${kind}`;
}

export class DefinitionPlans {
  private byGvk = new Map<string, DefinitionPlan>();
  /** Per `group/Kind`, the plan at its newest version: objects at a version no definition names fall back to it. */
  private byKind = new Map<string, DefinitionPlan>();
  /** One warning per object version read with another version's definition. */
  private fallbacks = new Map<string, string>();
  /** `group/Kind` of every kind the definitions put between workloads and pods, roots included. */
  chainKinds = new Set<string>();
  /** The plans of the current definitions. */
  current = new Set<DefinitionPlan>();
  /** Definitions ignored (a kind covered twice) and the plans' own problems. */
  problems: string[] = [];

  /**
   * @param onWarning told when a fallback warning is added (the store's problem list is then stale).
   * @param exprs compiles the plans' expressions (the engine's, shared with its pre-flight).
   */
  constructor(
    private readonly onWarning: () => void,
    private readonly exprs: ExprCompiler = new ExprCompiler(),
  ) {}

  /** Plans the definitions; returns whether the set of plans changed. */
  set(definitions: Definition[]): boolean {
    const next = new Map<string, DefinitionPlan>();
    const problems: string[] = [];
    for (const def of definitions) {
      const key = gvkKey(def.rootGvk);
      const taken = next.get(key);
      if (taken) {
        problems.push(
          `definition ${def.name}: ${key} is already covered by definition ${taken.definition.name}; ignored`,
        );
        continue;
      }
      const old = this.byGvk.get(key);
      // Keep the compiled plan (and every cached attribution) when the definition is unchanged.
      next.set(
        key,
        old && (old.definition === def || deepEqual(old.definition, def)) ? old : planDefinition(def, this.exprs),
      );
    }
    const byKind = new Map<string, DefinitionPlan>();
    for (const [key, plan] of next) {
      const kindKey = kindOfKey(key);
      const taken = byKind.get(kindKey);
      if (!taken || newerVersion(plan.definition.rootGvk.version, taken.definition.rootGvk.version))
        byKind.set(kindKey, plan);
    }
    this.byGvk = next;
    this.byKind = byKind;
    const chainKinds = new Set(OWNER_GVKS.map((g) => `${g.group}/${g.kind}`));
    for (const d of definitions) {
      chainKinds.add(`${d.rootGvk.group}/${d.rootGvk.kind}`);
      for (const g of d.additionalChildKinds) chainKinds.add(`${g.group}/${g.kind}`);
      for (const c of d.components) if (c.kind) chainKinds.add(`${c.kind.group}/${c.kind.kind}`);
    }
    this.chainKinds = chainKinds;
    this.fallbacks = new Map();
    const changed = next.size !== this.current.size || [...next.values()].some((p) => !this.current.has(p));
    this.current = new Set(next.values());
    for (const p of next.values()) problems.push(...p.problems);
    this.problems = problems;
    return changed;
  }

  /** The plan of exactly this `group/version/Kind`. */
  get(key: string): DefinitionPlan | undefined {
    return this.byGvk.get(key);
  }

  /**
   * The plan for objects of `key` (`group/version/Kind`): its definition, else
   * (an older or newer version of a defined kind) the kind's definition at
   * another version, with one warning.
   */
  planFor(key: string): DefinitionPlan | null {
    const exact = this.byGvk.get(key);
    if (exact) return exact;
    const other = this.byKind.get(kindOfKey(key));
    if (!other) return null;
    if (!this.fallbacks.has(key)) {
      const [group, version, kind] = key.split('/');
      const d = other.definition;
      this.fallbacks.set(
        key,
        `${kind} ${apiVersionOf({ group, version })}: no definition at this version; read with definition ${d.name} (${apiVersionOf(d.rootGvk)})`,
      );
      this.onWarning();
    }
    return other;
  }

  /** The fallback warnings given so far (since the last set()). */
  warnings(): Iterable<string> {
    return this.fallbacks.values();
  }
}
