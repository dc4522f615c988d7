// The snapshot the engine hands the UI: the store's outputs with the state of
// every watched kind, the definitions in effect and every problem.
import type { Definition, DefinitionProblem } from '../definitions/types.js';
import { formatProblem } from '../definitions/problem.js';
import type {
  AccessScope,
  ClusterConnection,
  ConnectionCause,
  DefinitionInfo,
  GpuMetrics,
  KindState,
  ModelSnapshot,
  NodeSummary,
  OrphanPod,
  ProblemEntry,
  WorkloadTree,
  SchedulingView,
  PodNode,
} from '../model/types.js';
import type { MultiKueueView } from '../model/fleet/types.js';
import type { ExprError } from '../model/expr.js';
import { EMPTY_MULTIKUEUE } from '../model/fleet/multikueue.js';
import type { ModelStoreLike } from './engine-types.js';
import { topologyKeysInEffect } from '../model/topology.js';

const MAX_ENGINE_PROBLEMS = 50;

/** Recent problems, newest last, each with how often it happened (repeats are merged) and when first. */
export class ProblemLog {
  private readonly counts = new Map<string, { count: number; since: string }>();

  add(message: string): void {
    // A flaky stream repeats the same problem: count it instead of flooding out
    // the others (re-inserted so it counts as recent).
    const seen = this.counts.get(message);
    this.counts.delete(message);
    this.counts.set(message, { count: (seen?.count ?? 0) + 1, since: seen?.since ?? new Date().toISOString() });
    if (this.counts.size > MAX_ENGINE_PROBLEMS) {
      const oldest = this.counts.keys().next().value;
      if (oldest !== undefined) this.counts.delete(oldest);
    }
  }

  messages(): string[] {
    return this.entries().map((e) => e.text);
  }

  entries(): { text: string; since: string }[] {
    return [...this.counts].map(([m, { count, since }]) => ({ text: count > 1 ? `${m} (×${count})` : m, since }));
  }
}

/**
 * When each problem of the snapshots was first seen: the engine keeps one,
 * assembleSnapshot stamps and prunes it (a problem that goes and comes back
 * is new again).
 */
export class ProblemTimes {
  private seen = new Map<string, string>();

  /** Stamps every entry (its own time when it has one), forgetting what is gone. */
  stamp(entries: Array<Omit<ProblemEntry, 'since'> & { since?: string }>, now: string): ProblemEntry[] {
    const next = new Map<string, string>();
    const out = entries.map((e) => {
      const key = `${e.source}\u0000${e.text}`;
      const since = e.since ?? this.seen.get(key) ?? now;
      next.set(key, since);
      return { ...e, since };
    });
    this.seen = next;
    return out;
  }
}

export function definitionInfos(
  definitions: Definition[],
  problems: DefinitionProblem[],
  workloads: WorkloadTree[],
  broken: ReadonlyMap<string, ExprError> = new Map(),
): DefinitionInfo[] {
  const counts = new Map<string, number>();
  for (const w of workloads) counts.set(w.definition, (counts.get(w.definition) ?? 0) + 1);
  return definitions.map((d) => {
    const own = problems.filter((p) => p.file === d.source.location);
    // Over the jq budget while evaluating: broken until the definition changes (model/expr.ts).
    const failure = broken.get(d.name);
    if (failure)
      own.push({
        file: d.source.location,
        field: failure.expr.field,
        message: `\`${failure.expr.source}\`: ${failure.message}`,
        severity: 'error',
      });
    return {
      name: d.name,
      kind: `${d.rootGvk.group}/${d.rootGvk.version}/${d.rootGvk.kind}`,
      source: d.source.kind,
      location: d.source.location,
      valid: !own.some((p) => p.severity === 'error'),
      workloads: counts.get(d.name) ?? 0,
      problems: own,
    };
  });
}

/** The engine's own failure before kinds are watched (discovery), or null. */
export interface PendingConnection {
  cause: ConnectionCause;
  since: string;
  retryAt?: string;
}

/** When several causes are seen at once, the one to name: the one a user must act on first. */
const CAUSE_ORDER: ConnectionCause['kind'][] = [
  'credentials',
  'unauthorized',
  'tls',
  'unreachable',
  'forbidden',
  'server',
  'stalled',
];

/** Why a cluster none of whose kinds may be listed is failing (each kind's own 403 carries no cause). */
const NOTHING_READABLE: ConnectionCause = {
  kind: 'forbidden',
  text: 'forbidden (403): the user may list none of the watched kinds',
};

/** A kind that cannot be read and is being retried (403 counts only when nothing can be read). */
function isFailing(k: KindState, allForbidden: boolean): boolean {
  if (k.state === 'reconnecting' || (k.state === 'error' && k.cause)) return true;
  return k.state === 'forbidden' && (allForbidden || (k.cause !== undefined && k.cause.kind !== 'forbidden'));
}

/** One connection state for the whole cluster: one cause, the earliest next retry. */
export function summariseConnection(
  kinds: readonly KindState[],
  pending: PendingConnection | null,
  since: string,
  /** The engine has not started every kind it will watch yet: never live before their first lists. */
  starting = false,
): ClusterConnection {
  const readable = kinds.filter((k) => k.state !== 'not-served');
  const allForbidden = readable.length > 0 && readable.every((k) => k.state === 'forbidden');
  const failing = readable.filter((k) => isFailing(k, allForbidden));
  const forbidden = readable.filter((k) => k.state === 'forbidden' && !isFailing(k, allForbidden));
  const synced = readable.filter((k) => k.state !== 'syncing').length;
  const base = {
    synced,
    total: readable.length,
    forbidden: forbidden.map((k) => k.resource),
  };
  const causes = failing.map((k) => ({
    cause: k.cause ?? (k.state === 'forbidden' ? NOTHING_READABLE : undefined),
    retryAt: k.retryAt,
    since: k.since,
  }));
  if (pending) causes.push({ cause: pending.cause, retryAt: pending.retryAt, since: pending.since });
  if (causes.length) {
    const rank = (c: ConnectionCause) => CAUSE_ORDER.indexOf(c.kind);
    const named = causes
      .map((c) => c.cause)
      .reduce<ConnectionCause | undefined>((a, b) => (!b ? a : !a || rank(b) < rank(a) ? b : a), undefined);
    const retries = causes.map((c) => c.retryAt).filter((t): t is string => !!t);
    return {
      ...base,
      state: 'retrying',
      cause: named,
      retryAt: retries.length ? retries.reduce((a, b) => (a <= b ? a : b)) : undefined,
      since: causes.map((c) => c.since).reduce((a, b) => (a <= b ? a : b)),
      failing: failing.length < readable.length ? failing.map((k) => k.resource) : [],
    };
  }
  const state = !readable.length ? 'connecting' : synced < readable.length || starting ? 'syncing' : 'live';
  return { ...base, state, since, failing: [] };
}

export interface SnapshotInput {
  version: number;
  workloads: WorkloadTree[];
  store: ModelStoreLike;
  kinds: KindState[];
  connection: ClusterConnection;
  definitions: Definition[];
  definitionProblems: DefinitionProblem[];
  engineProblems: ProblemLog;
  changedWorkloads: string[];
  scheduling?: SchedulingView;
  access?: AccessScope;
  /**
   * Set when cluster-wide lists were forbidden and wlx reads namespaces
   * instead: the one notice that replaces a forbidden line per kind.
   */
  accessNotice?: string | null;
  /** The nodes as pods see them, when node objects are not readable. */
  podNodes?: PodNode[];
  gpuMetrics?: GpuMetrics;
  /** `--topology-key` values; absent: the defaults present on the nodes. */
  topologyKeys?: readonly string[];
  /** The engine's: the keys of the last snapshot, kept while their inputs are the same. */
  topologyKeysMemo?: TopologyKeysMemo;
  /** Facts worth knowing that are not problems (kinds watched at another served version). */
  facts?: { text: string; since: string }[];
  /** The engine's first-seen times of problems; absent: each snapshot's own time. */
  problemTimes?: ProblemTimes;
  /** The orphan pods to show (the label selector's); absent: the store's. */
  orphanPods?: OrphanPod[];
  multiKueue?: MultiKueueView;
}

/** `namespace-scoped access: showing training (not readable: nodes, clusterqueues.kueue.x-k8s.io)`. */
export function namespaceNotice(access: AccessScope): string {
  const ns = access.namespaces.join(', ');
  const hidden = access.forbidden.length ? ` (not readable: ${access.forbidden.join(', ')})` : '';
  return `namespace-scoped access: showing ${access.namespaces.length === 1 ? 'namespace' : 'namespaces'} ${ns}${hidden}`;
}

export function assembleSnapshot(input: SnapshotInput): ModelSnapshot {
  // Missing GPU metrics are one line, whatever number of exporters failed; a
  // namespace-scoped user's is part of the one access notice (the exporters
  // are out of sight for the same reason).
  const gpuNotice = input.gpuMetrics?.notice?.text ?? null;
  const notice = input.accessNotice && gpuNotice ? `${input.accessNotice}; ${gpuNotice}` : (input.accessNotice ?? null);
  const unreadable = input.kinds.filter(
    (k) => (k.state === 'forbidden' || k.state === 'error') && (!k.cause || k.cause.kind === 'forbidden'),
  );
  const kindProblem = (k: KindState) => `${k.resource}: ${k.state}${k.message ? `: ${k.message}` : ''}`;
  const definitionProblems = input.definitionProblems.map(formatProblem);
  const engineProblems = input.engineProblems.entries();
  const storeProblems = input.store.problems();
  const problems = [
    ...(notice ? [notice] : gpuNotice ? [gpuNotice] : []),
    ...definitionProblems,
    // Kinds that cannot be read are problems for as long as they last (a
    // connection failure is told once, by input.connection, not per kind;
    // a namespace-scoped user's forbidden kinds once, by the notice).
    ...unreadable.filter((k) => !notice || k.state !== 'forbidden').map(kindProblem),
    ...engineProblems.map((e) => e.text),
    ...storeProblems,
  ];
  const now = new Date().toISOString();
  const connection = input.connection;
  const entries: Array<Omit<ProblemEntry, 'since'> & { since?: string }> = [
    ...(connection.state === 'retrying' && connection.cause
      ? [
          {
            source: 'connection',
            text: `${connection.failing.length ? `${connection.failing.join(', ')}: ` : ''}${connection.cause.text}`,
            since: connection.since,
            level: 'problem' as const,
          },
        ]
      : []),
    ...(input.accessNotice ? [{ source: 'access', text: input.accessNotice, level: 'problem' as const }] : []),
    ...(gpuNotice
      ? [{ source: 'GPU metrics', text: gpuNotice.replace(/^GPU metrics: /, ''), level: 'problem' as const }]
      : []),
    // Every kind not readable, one by one (the line above names them together).
    ...unreadable.map((k) => ({ source: k.state, text: kindProblem(k), since: k.since, level: 'problem' as const })),
    ...definitionProblems.map((text) => ({ source: 'definition', text, level: 'problem' as const })),
    ...engineProblems.map((e) => ({ source: 'watch', text: e.text, since: e.since, level: 'problem' as const })),
    ...storeProblems.map((text) => ({ source: 'model', text, level: 'problem' as const })),
    ...(input.facts ?? []).map((f) => ({ source: 'served version', ...f, level: 'fact' as const })),
  ];
  const problemEntries = input.problemTimes
    ? input.problemTimes.stamp(entries, now)
    : entries.map((e) => ({ ...e, since: e.since ?? now }));
  const nodes = input.store.nodes();
  const topologyLevels = input.store.kueueTopologyLevels?.() ?? NO_LEVELS;
  return Object.freeze({
    version: input.version,
    workloads: input.workloads,
    nodes,
    orphanPods: input.orphanPods ?? input.store.orphanPods(),
    ...(input.store.podsWithoutWorkload ? { podsWithoutWorkload: input.store.podsWithoutWorkload() } : {}),
    totals: input.store.totals(),
    kinds: input.kinds,
    // The notice names what cannot be read; the header does not list it again.
    connection: notice ? { ...input.connection, forbidden: [] } : input.connection,
    definitions: definitionInfos(
      input.definitions,
      input.definitionProblems,
      input.workloads,
      input.store.brokenDefinitions(),
    ),
    problems,
    problemEntries,
    changedWorkloads: input.changedWorkloads,
    scheduling: input.scheduling,
    access: input.access,
    ...(notice ? { accessNotice: notice } : {}),
    ...(input.podNodes ? { podNodes: input.podNodes } : {}),
    ...(input.gpuMetrics ? { gpuMetrics: input.gpuMetrics } : {}),
    topologyLevels,
    topologyKeys: (input.topologyKeysMemo ?? new TopologyKeysMemo()).keysInEffect(
      input.topologyKeys,
      nodes,
      topologyLevels,
    ),
    ...(input.multiKueue && input.multiKueue !== EMPTY_MULTIKUEUE ? { multiKueue: input.multiKueue } : {}),
  });
}

const NO_LEVELS: string[][] = [];
/** The topology keys in effect, recomputed only when the nodes, the Kueue levels or the configured keys change. */
export class TopologyKeysMemo {
  private last: {
    nodes: readonly NodeSummary[];
    configured?: readonly string[];
    levels: string[][];
    keys: readonly string[];
  } | null = null;

  keysInEffect(
    configured: readonly string[] | undefined,
    nodes: readonly NodeSummary[],
    levels: string[][],
  ): readonly string[] {
    const last = this.last;
    if (last && last.nodes === nodes && last.configured === configured && last.levels === levels) return last.keys;
    const keys = Object.freeze(topologyKeysInEffect(configured, nodes, levels));
    this.last = { nodes, configured, levels, keys };
    return keys;
  }
}
