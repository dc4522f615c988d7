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
  WorkloadTree,
} from '../model/types.js';
import type { ExprError } from '../model/expr.js';
import type { SchedulingView } from '../model/scheduling/index.js';
import { EMPTY_MULTIKUEUE, type MultiKueueView } from '../model/fleet/multikueue.js';
import type { PodNode } from '../model/pod-nodes.js';
import type { ModelStoreLike } from './engine-types.js';
import { topologyKeysInEffect } from '../model/topology.js';

const MAX_ENGINE_PROBLEMS = 50;

/** Recent problems, newest last, each with how often it happened (repeats are merged). */
export class ProblemLog {
  private readonly counts = new Map<string, number>();

  add(message: string): void {
    // A flaky stream repeats the same problem: count it instead of flooding out
    // the others (re-inserted so it counts as recent).
    const count = (this.counts.get(message) ?? 0) + 1;
    this.counts.delete(message);
    this.counts.set(message, count);
    if (this.counts.size > MAX_ENGINE_PROBLEMS) {
      const oldest = this.counts.keys().next().value;
      if (oldest !== undefined) this.counts.delete(oldest);
    }
  }

  messages(): string[] {
    return [...this.counts].map(([m, n]) => (n > 1 ? `${m} (×${n})` : m));
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
  const causes = failing.map((k) => ({ cause: k.cause, retryAt: k.retryAt, since: k.since }));
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
  const state = !readable.length ? 'connecting' : synced < readable.length ? 'syncing' : 'live';
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
  const problems = [
    ...(notice ? [notice] : gpuNotice ? [gpuNotice] : []),
    ...input.definitionProblems.map(formatProblem),
    // Kinds that cannot be read are problems for as long as they last (a
    // connection failure is told once, by input.connection, not per kind;
    // a namespace-scoped user's forbidden kinds once, by the notice).
    ...input.kinds
      .filter((k) => (k.state === 'forbidden' || k.state === 'error') && (!k.cause || k.cause.kind === 'forbidden'))
      .filter((k) => !notice || k.state !== 'forbidden')
      .map((k) => `${k.resource}: ${k.state}${k.message ? `: ${k.message}` : ''}`),
    ...input.engineProblems.messages(),
    ...input.store.problems(),
  ];
  const nodes = input.store.nodes();
  const topologyLevels = input.store.kueueTopologyLevels?.() ?? NO_LEVELS;
  return Object.freeze({
    version: input.version,
    workloads: input.workloads,
    nodes,
    orphanPods: input.store.orphanPods(),
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
    changedWorkloads: input.changedWorkloads,
    scheduling: input.scheduling,
    access: input.access,
    ...(notice ? { accessNotice: notice } : {}),
    ...(input.podNodes ? { podNodes: input.podNodes } : {}),
    ...(input.gpuMetrics ? { gpuMetrics: input.gpuMetrics } : {}),
    topologyLevels,
    topologyKeys: keysInEffect(input.topologyKeys, nodes, topologyLevels),
    ...(input.multiKueue && input.multiKueue !== EMPTY_MULTIKUEUE ? { multiKueue: input.multiKueue } : {}),
  });
}

const NO_LEVELS: string[][] = [];
const keysMemo = new WeakMap<object, { configured?: readonly string[]; levels: string[][]; keys: readonly string[] }>();

/** The keys in effect, recomputed only when the nodes, the Kueue levels or the configured keys change. */
function keysInEffect(
  configured: readonly string[] | undefined,
  nodes: readonly NodeSummary[],
  levels: string[][],
): readonly string[] {
  const memo = keysMemo.get(nodes);
  if (memo && memo.configured === configured && memo.levels === levels) return memo.keys;
  const keys = Object.freeze(topologyKeysInEffect(configured, nodes, levels));
  keysMemo.set(nodes, { configured, levels, keys });
  return keys;
}
