// A definition turned into what evaluation needs: every jq expression compiled
// once (never per pod or per event), the component tree as indexes, and which
// components can hold pods. Built when definitions are (re)loaded.
import type { Definition, Component, StatusName, StatusKey, ConditionMatcher } from '../definitions/types.js';
import { newDefinitionHealth, type DefinitionHealth, type Expr, type ExprCompiler } from './expr.js';

/**
 * Where a component's pod template is: a whole pod template or pod spec, or
 * the fragments a fragmentedPodSpecDefinition names. Of the fragments only
 * those that carry GPU requests are kept: `containersPath` (a list of
 * containers), `containerPath` (the main container) and `resourcesPath` (a
 * resources block of the main container). Each is matched to instances by
 * position, like every other path of a component.
 */
export type TemplatePlan =
  | { kind: 'podTemplateSpec' | 'podSpec'; expr: Expr }
  | { kind: 'fragmented'; containers: Expr | null; container: Expr | null; resources: Expr | null };

/** The jq expressions a template is read with. */
export function templateExprs(t: TemplatePlan | null): Expr[] {
  if (!t) return [];
  if (t.kind !== 'fragmented') return [t.expr];
  return [t.containers, t.container, t.resources].filter((e): e is Expr => e !== null);
}

export interface ComponentPlan {
  index: number;
  name: string;
  component: Component;
  /** Index of the parent component; -1 for the root. */
  parent: number;
  children: number[];
  /** Has a pod template or a pod selector: pods can be placed in it. */
  podBearing: boolean;
  /** No selector, but the only pod-bearing component: takes every owned pod. */
  claimsAll: boolean;
  typeKey: Expr | null;
  typeValue: string | null;
  matchLabels: Record<string, string> | null;
  hasTypeSelector: boolean;
  instanceKey: Expr | null;
  replicaKey: Expr | null;
  instanceIds: Expr | null;
  replicas: Expr | null;
  minReplicas: Expr | null;
  hasScale: boolean;
  template: TemplatePlan | null;
}

export interface MatcherPlan {
  byPhase: string | null;
  byConditions: ConditionMatcher[] | null;
  byExpression: { expr: Expr; expected: string } | null;
}

export interface StatusPlan {
  conditions: {
    expr: Expr;
    typeField: string;
    statusField: string;
    messageField: string;
    reasonField: string | null;
  } | null;
  phase: Expr | null;
  /** In severity order. */
  mappings: { status: StatusName; matchers: MatcherPlan[] }[];
}

export interface GangMemberPlan {
  component: number;
  keys: Expr[];
  filters: Expr[];
}

export interface GangPlan {
  name: string;
  members: GangMemberPlan[];
}

export interface DefinitionPlan {
  definition: Definition;
  components: ComponentPlan[];
  byName: Map<string, number>;
  status: StatusPlan | null;
  gangs: GangPlan[];
  /** Expressions that did not compile, structural problems (unknown ownerRef...). */
  problems: string[];
  /**
   * Every expression run against pods reads only the pod's metadata labels,
   * annotations, name and namespace (see readsOnlyPodMetadata): a pod change
   * that leaves those alone keeps its placement and gang keys.
   */
  podExprsReadMetadataOnly: boolean;
  /** Non-native (jq-wasm) expressions run against pods / against the workload: prefetched in batches. */
  slowPodExprs: Expr[];
  slowWorkloadExprs: Expr[];
  /** Shared by all its expressions: broken once one runs over the jq budget (expr.ts). */
  health: DefinitionHealth;
}

/** Chips are ordered by severity (the Headlamp design), not upstream kli's order. */
export const STATUS_ORDER: readonly StatusName[] = [
  'Failed',
  'Degraded',
  'Suspending',
  'Resuming',
  'Suspended',
  'Initializing',
  'Running',
  'Completed',
  'Undefined',
];

const STATUS_KEY: Record<Exclude<StatusName, 'Undefined'>, StatusKey> = {
  Failed: 'failed',
  Degraded: 'degraded',
  Suspending: 'suspending',
  Resuming: 'resuming',
  Suspended: 'suspended',
  Initializing: 'initializing',
  Running: 'running',
  Completed: 'completed',
};

function planComponent(
  c: Component,
  index: number,
  problems: string[],
  name: string,
  health: DefinitionHealth,
  exprs: ExprCompiler,
): ComponentPlan {
  const compile = (src: string | undefined, field: string): Expr | null => {
    if (src === undefined || src === '') return null;
    const e = exprs.compile(src, field, c.name, health);
    if (e.compileError)
      problems.push(`definition ${name}: component ${c.name}: ${field} \`${src}\`: ${e.compileError}`);
    return e;
  };
  const spec = c.specDefinition;
  let template: TemplatePlan | null = null;
  if (spec?.podTemplateSpecPath)
    template = {
      kind: 'podTemplateSpec',
      expr: compile(spec.podTemplateSpecPath, 'specDefinition.podTemplateSpecPath')!,
    };
  else if (spec?.podSpecPath)
    template = { kind: 'podSpec', expr: compile(spec.podSpecPath, 'specDefinition.podSpecPath')! };
  else if (spec?.fragmentedPodSpecDefinition) {
    // All three fragments together describe one pod (see workload-facts.ts for how they combine).
    const f = spec.fragmentedPodSpecDefinition;
    const field = 'specDefinition.fragmentedPodSpecDefinition.';
    const fragments = {
      containers: compile(f.containersPath, `${field}containersPath`),
      container: compile(f.containerPath, `${field}containerPath`),
      resources: compile(f.resourcesPath, `${field}resourcesPath`),
    };
    if (fragments.containers || fragments.container || fragments.resources)
      template = { kind: 'fragmented', ...fragments };
  }
  const sel = c.podSelector;
  const ts = sel?.componentTypeSelector;
  const hasTypeSelector = !!ts && (!!ts.keyPath || (!!ts.matchLabels && Object.keys(ts.matchLabels).length > 0));
  const hasSelector = hasTypeSelector || !!sel?.componentInstanceSelector?.idPath || !!sel?.replicaSelector?.keyPath;
  return {
    index,
    name: c.name,
    component: c,
    parent: -1,
    children: [],
    podBearing: hasSelector || !!spec,
    claimsAll: false,
    typeKey: compile(ts?.keyPath, 'podSelector.componentTypeSelector.keyPath'),
    typeValue: ts?.value ?? null,
    matchLabels: ts?.matchLabels && Object.keys(ts.matchLabels).length > 0 ? ts.matchLabels : null,
    hasTypeSelector,
    instanceKey: compile(sel?.componentInstanceSelector?.idPath, 'podSelector.componentInstanceSelector.idPath'),
    replicaKey: compile(sel?.replicaSelector?.keyPath, 'podSelector.replicaSelector.keyPath'),
    instanceIds: compile(c.instanceIdPath, 'instanceIdPath'),
    replicas: compile(c.scaleDefinition?.replicasPath, 'scaleDefinition.replicasPath'),
    minReplicas: compile(c.scaleDefinition?.minReplicasPath, 'scaleDefinition.minReplicasPath'),
    hasScale: !!(c.scaleDefinition?.replicasPath || c.scaleDefinition?.minReplicasPath),
    template,
  };
}

/** The plan of `definition`, its expressions compiled by `exprs` (its owner's: programs and what they learnt are shared there). */
export function planDefinition(definition: Definition, exprs: ExprCompiler): DefinitionPlan {
  const problems: string[] = [];
  const name = definition.name;
  const health = newDefinitionHealth(name);
  const components = definition.components.map((c, i) => planComponent(c, i, problems, name, health, exprs));
  const byName = new Map<string, number>();
  components.forEach((c, i) => {
    if (!byName.has(c.name)) byName.set(c.name, i);
  });
  for (const c of components) {
    if (c.component.isRoot || c.component.ownerRef === undefined) continue;
    const parent = byName.get(c.component.ownerRef);
    if (parent === undefined || parent === c.index) {
      problems.push(
        `definition ${name}: component ${c.name}: ownerRef "${c.component.ownerRef}" names no other component; placed under the root`,
      );
      c.parent = 0;
    } else {
      c.parent = parent;
    }
  }
  // A cycle in ownerRefs would make placement loop: cut it at the root.
  for (const c of components) {
    const seen = new Set<number>();
    let p = c.parent;
    while (p > 0 && !seen.has(p)) {
      seen.add(p);
      p = components[p].parent;
    }
    if (p > 0) {
      problems.push(`definition ${name}: component ${c.name}: ownerRef chain forms a cycle; placed under the root`);
      c.parent = 0;
    }
  }
  for (const c of components) if (c.index !== 0 && c.parent >= 0) components[c.parent].children.push(c.index);
  // The only pod-bearing component without any selector takes every pod.
  const bearing = components.filter((c) => c.podBearing);
  if (bearing.length === 1) {
    const only = bearing[0];
    if (!only.hasTypeSelector && !only.instanceKey && !only.replicaKey) only.claimsAll = true;
  }

  let status: StatusPlan | null = null;
  const sd = definition.root.statusDefinition;
  if (sd) {
    const root = definition.root.name;
    const compile = (src: string, field: string): Expr => {
      const e = exprs.compile(src, field, root, health);
      if (e.compileError)
        problems.push(`definition ${name}: component ${root}: ${field} \`${src}\`: ${e.compileError}`);
      return e;
    };
    const cd = sd.conditionsDefinition;
    status = {
      conditions: cd
        ? {
            expr: compile(cd.path, 'statusDefinition.conditionsDefinition.path'),
            typeField: cd.typeFieldName || 'type',
            statusField: cd.statusFieldName || 'status',
            messageField: cd.messageFieldName || 'message',
            reasonField: cd.reasonFieldName || null,
          }
        : null,
      phase: sd.phaseDefinition?.path
        ? compile(sd.phaseDefinition.path, 'statusDefinition.phaseDefinition.path')
        : null,
      mappings: [],
    };
    for (const statusName of STATUS_ORDER) {
      if (statusName === 'Undefined') continue;
      const key = STATUS_KEY[statusName];
      const list = sd.statusMappings[key];
      if (!list) continue;
      status.mappings.push({
        status: statusName,
        matchers: list.map((m, i) => ({
          byPhase: m.byPhase ?? null,
          byConditions: m.byConditions && m.byConditions.length > 0 ? m.byConditions : null,
          byExpression: m.byExpression
            ? {
                // Upstream compares the first output of `(expr) | tostring`.
                expr: compile(
                  `(${m.byExpression.expression}) | tostring`,
                  `statusDefinition.statusMappings.${key}[${i}].byExpression`,
                ),
                expected: m.byExpression.expectedResult,
              }
            : null,
        })),
      });
    }
  }

  const gangs: GangPlan[] = [];
  for (const g of definition.gangs) {
    const members: GangMemberPlan[] = [];
    g.members.forEach((m, mi) => {
      const component = byName.get(m.componentName);
      if (component === undefined) {
        problems.push(
          `definition ${name}: gang ${g.name}: member componentName "${m.componentName}" names no component`,
        );
        return;
      }
      const compileGang = (src: string, field: string): Expr => {
        const e = exprs.compile(src, `gangs.${g.name}.members[${mi}].${field}`, m.componentName, health);
        if (e.compileError) problems.push(`definition ${name}: gang ${g.name}: ${field} \`${src}\`: ${e.compileError}`);
        return e;
      };
      members.push({
        component,
        keys: m.groupByKeyPaths.map((k, ki) => compileGang(k, `groupByKeyPaths[${ki}]`)),
        filters: m.filters.map((f, fi) => compileGang(f, `filters[${fi}]`)),
      });
    });
    gangs.push({ name: g.name, members });
  }

  const slow = (list: (Expr | null | undefined)[]) =>
    list.filter((e): e is Expr => !!e && !!e.program && !e.program.native);
  const slowPodExprs = slow([
    ...components.flatMap((c) => [c.typeKey, c.instanceKey, c.replicaKey]),
    ...gangs.flatMap((g) => g.members.flatMap((m) => [...m.keys, ...m.filters])),
  ]);
  const slowWorkloadExprs = slow([
    ...components.flatMap((c) => [c.instanceIds, c.replicas, c.minReplicas, ...templateExprs(c.template)]),
    status?.conditions?.expr,
    status?.phase,
    ...(status?.mappings ?? []).flatMap((m) => m.matchers.map((x) => x.byExpression?.expr)),
  ]);
  const podExprs = [
    ...components.flatMap((c) => [c.typeKey, c.instanceKey, c.replicaKey]),
    ...gangs.flatMap((g) => g.members.flatMap((m) => [...m.keys, ...m.filters])),
  ].filter((e): e is Expr => !!e);
  const podExprsReadMetadataOnly = podExprs.every((e) => e.program !== null && readsOnlyPodMetadata(e.source));
  return {
    definition,
    components,
    byName,
    status,
    gangs,
    problems,
    podExprsReadMetadataOnly,
    slowPodExprs,
    slowWorkloadExprs,
    health,
  };
}

/** Words the part of an expression that reads the pod may use besides the allowed paths. */
const FIRST_WORDS = new Set(['P', 'and', 'or', 'not', 'null', 'true', 'false', 'if', 'then', 'else', 'elif', 'end']);
/** ...and what may follow the first pipe (it only sees values derived from the allowed paths). */
const REST_WORDS = new Set([
  ...FIRST_WORDS,
  'select',
  'test',
  'startswith',
  'endswith',
  'split',
  'join',
  'tostring',
  'tonumber',
  'ascii_downcase',
  'ascii_upcase',
  'ltrimstr',
  'rtrimstr',
  'length',
  'empty',
  'contains',
]);

/**
 * Conservatively (syntactically), whether a jq expression reads nothing of its
 * input pod but `.metadata.labels`, `.metadata.annotations`, `.metadata.name`
 * and `.metadata.namespace`: the part before the first top-level pipe may use
 * only those paths (indexed by string literals), literals, operators and
 * if/and/or/not; after it (values derived from those) a few plain builtins and
 * `.`. Anything else (variables, string interpolation, `..`, other paths or
 * builtins) answers false: such an expression is evaluated on every change.
 */
export function readsOnlyPodMetadata(source: string): boolean {
  if (source.includes('\\(') || source.includes('$') || source.includes('..') || source.includes('|=')) return false;
  const s = source
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(
      /\.metadata\.(?:(?:labels|annotations)(?:\.[A-Za-z_][A-Za-z0-9_]*|\[""\])?|name|namespace)(?![A-Za-z0-9_])/g,
      ' P ',
    );
  let depth = 0;
  let cut = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === '|' && depth === 0) {
      cut = i;
      break;
    }
  }
  const first = cut < 0 ? s : s.slice(0, cut);
  const rest = cut < 0 ? '' : s.slice(cut + 1);
  if (first.includes('.')) return false;
  const wordsOk = (part: string, allowed: Set<string>): boolean => {
    for (const m of part.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
      if (allowed.has(m[0])) continue;
      // A field of a derived value (only after the pipe: the first part has no dots).
      if (m.index > 0 && part[m.index - 1] === '.') continue;
      // An object key: `{c: ...}`.
      if (/^\s*:/.test(part.slice(m.index + m[0].length))) continue;
      return false;
    }
    return true;
  };
  return wordsOk(first, FIRST_WORDS) && wordsOk(rest, REST_WORDS);
}
