// The fleet's one snapshot: every member's workloads, nodes and orphan pods
// tagged with their cluster (its context name), totals summed, the
// connections summarised (one failing cluster is named, never blanks the
// others), and `fleet`: each member's own snapshot, its summary line and the
// MultiKueue links between them. Views that show one cluster (a workload's
// tree, a node, a narrowed explorer) read that member's own snapshot.
//
// Workload uids are kept as they are (the API server makes them random and
// unique); node names, namespaces and names repeat across clusters, so
// whatever is keyed by them carries the cluster.
import type {
  AccessScope,
  FleetMember,
  SchedulingView,
  ClusterConnection,
  ClusterTotals,
  ModelSnapshot,
  NodeSummary,
  OrphanPod,
  WorkloadTree,
} from '../types.js';
import { EMPTY_SCHEDULING } from '../scheduling/index.js';
import { linkFleet, type FleetMemberModel } from './link.js';

const EMPTY_TOTALS: ClusterTotals = {
  gpuCapacity: 0,
  gpuAllocatable: 0,
  gpuRequested: 0,
  gpuFree: 0,
  gpuPending: 0,
  pods: 0,
  nodes: 0,
};

type ByResource = NonNullable<ClusterTotals['byResource']>;

/** One member's GPUs by resource, from its nodes (kept per member while its node list is the same). */
function nodesByResource(nodes: readonly NodeSummary[]): ByResource {
  const byResource: ByResource = {};
  for (const n of nodes)
    for (const [k, r] of Object.entries(n.gpuResources ?? {})) {
      const s = (byResource[k] ??= { capacity: 0, allocatable: 0, requested: 0 });
      s.capacity += r.capacity;
      s.allocatable += r.allocatable;
      s.requested += r.requested;
    }
  return byResource;
}

/** The members' totals summed; by resource from the nodes (a member with one kind has no byResource of its own). */
function sumTotals(all: readonly ClusterTotals[], perMember: readonly ByResource[]): ClusterTotals {
  const out: ClusterTotals = { ...EMPTY_TOTALS };
  const byResource: ByResource = {};
  for (const m of perMember)
    for (const [k, r] of Object.entries(m)) {
      const s = (byResource[k] ??= { capacity: 0, allocatable: 0, requested: 0 });
      s.capacity += r.capacity;
      s.allocatable += r.allocatable;
      s.requested += r.requested;
    }
  for (const t of all) {
    out.gpuCapacity += t.gpuCapacity;
    out.gpuAllocatable += t.gpuAllocatable;
    out.gpuRequested += t.gpuRequested;
    out.gpuFree += t.gpuFree;
    out.gpuPending += t.gpuPending;
    out.pods += t.pods;
    out.nodes += t.nodes;
  }
  return Object.keys(byResource).length > 1 ? { ...out, byResource } : out;
}

/** The members' connections as one: live when all are; failing clusters named in `failing`. */
export function mergeConnections(
  members: readonly { context: string; connection: ClusterConnection | null; failed: boolean }[],
): ClusterConnection {
  const known = members.filter((m) => m.connection);
  const failing = members.filter((m) => m.connection?.state === 'retrying' || m.failed);
  const since = known.map((m) => m.connection!.since).sort()[0] ?? new Date(0).toISOString();
  const synced = known.reduce((n, m) => n + m.connection!.synced, 0);
  const total = known.reduce((n, m) => n + m.connection!.total, 0);
  const forbidden = known.flatMap((m) => m.connection!.forbidden.map((f) => `${m.context}/${f}`));
  const anyLive = known.some((m) => m.connection!.state === 'live');
  const settling =
    known.some((m) => m.connection!.state === 'syncing' || m.connection!.state === 'connecting') ||
    members.some((m) => !m.connection && !m.failed);
  if (failing.length) {
    const first = failing.find((m) => m.connection?.cause)?.connection;
    return {
      state: 'retrying',
      ...(first?.cause ? { cause: first.cause } : {}),
      ...(first?.retryAt ? { retryAt: first.retryAt } : {}),
      since,
      synced,
      total,
      // Others live: the failing ones are named, and the header stays a warning.
      failing: anyLive || settling ? failing.map((m) => m.context) : [],
      forbidden,
    };
  }
  return {
    state: settling ? (anyLive || synced ? 'syncing' : 'connecting') : 'live',
    since,
    synced,
    total,
    failing: [],
    forbidden,
  };
}

function mergeAccess(all: readonly (AccessScope | undefined)[]): AccessScope | undefined {
  const given = all.filter((a): a is AccessScope => !!a);
  if (!given.length) return undefined;
  return {
    clusterWide: given.every((a) => a.clusterWide),
    namespaces: [...new Set(given.flatMap((a) => a.namespaces))].sort(),
    forbidden: [...new Set(given.flatMap((a) => a.forbidden))].sort(),
  };
}

/**
 * What was made from the members' parts, kept while every part is the same object: a member still listing sends
 * a snapshot per page (its progress), and the views keyed on the merged arrays (the header's counts, the table,
 * its layout) then keep theirs rather than walk every other cluster's workloads and nodes again.
 */
class FromParts<P, T> {
  private last: { parts: readonly P[]; out: T } | null = null;

  constructor(private readonly make: (parts: readonly P[]) => T) {}

  of(parts: readonly P[]): T {
    const l = this.last;
    if (l && l.parts.length === parts.length && l.parts.every((p, i) => p === parts[i])) return l.out;
    const out = this.make(parts);
    this.last = { parts, out };
    return out;
  }
}

/** The members' arrays one after the other. */
function concat<T>(parts: readonly (readonly T[])[]): T[] {
  return parts.flat();
}

function mergeScheduling(all: readonly (SchedulingView | undefined)[]): SchedulingView | undefined {
  const given = all.filter((s): s is SchedulingView => !!s && s.active);
  if (!given.length) return undefined;
  if (given.length === 1) return given[0];
  const merged = {
    ...EMPTY_SCHEDULING,
    queues: new Map(given.flatMap((s) => [...s.queues])),
    gangs: new Map(given.flatMap((s) => [...s.gangs])),
    facts: new Map(given.flatMap((s) => [...s.facts])),
    clusterQueues: given.flatMap((s) => s.clusterQueues),
    pending: new Map(given.flatMap((s) => [...s.pending])),
    active: true,
  };
  return merged;
}

/** Whose pods the merged snapshot carries: all when every member's does, else the union of each member's. */
function mergePodScope(all: readonly ModelSnapshot[]): Pick<ModelSnapshot, 'podScope'> {
  if (all.every((s) => s.podScope === undefined || s.podScope === 'all')) return {};
  const uids = all.flatMap((s) =>
    s.podScope === undefined || s.podScope === 'all' ? s.workloads.map((w) => w.uid) : s.podScope.workloads,
  );
  return { podScope: { workloads: uids } };
}

/**
 * Merges the members' snapshots into one. Tagged copies of workloads, nodes
 * and orphans are kept per original object, so an unchanged member costs no
 * new objects (row caches key on identity); what is derived from one
 * member's nodes or from the definitions is kept while they are the same, so
 * a merge after one member's flush costs that member's change plus the
 * concatenations.
 */
export class FleetMerger {
  private readonly workloads = new WeakMap<WorkloadTree, WorkloadTree>();
  private readonly nodes = new WeakMap<NodeSummary, NodeSummary>();
  private readonly orphans = new WeakMap<OrphanPod, OrphanPod>();
  private readonly perMember = new Map<
    string,
    {
      snapshot: ModelSnapshot;
      workloads: WorkloadTree[];
      nodes: NodeSummary[];
      orphans: OrphanPod[];
      byResource: ByResource;
    }
  >();
  private readonly allWorkloads = new FromParts<readonly WorkloadTree[], WorkloadTree[]>(concat);
  private readonly allNodes = new FromParts<readonly NodeSummary[], NodeSummary[]>(concat);
  private readonly allOrphans = new FromParts<readonly OrphanPod[], OrphanPod[]>(concat);
  private readonly scheduling = new FromParts(mergeScheduling);
  /** Every member's definitions, one per name and kind (the last member's wins). */
  private readonly definitions = new FromParts((inputs: readonly ModelSnapshot['definitions'][]) => [
    ...new Map(inputs.flatMap((defs) => defs.map((d) => [`${d.name}\u0000${d.kind}`, d]))).values(),
  ]);
  private version = 0;
  private last: { inputs: readonly (ModelSnapshot | null)[]; lines: string; merged: ModelSnapshot } | null = null;

  private tag<T extends object>(memo: WeakMap<T, T>, o: T, cluster: string): T {
    let t = memo.get(o);
    if (!t) memo.set(o, (t = { ...o, cluster }));
    return t;
  }

  private tagged(context: string, s: ModelSnapshot) {
    const prev = this.perMember.get(context);
    if (prev?.snapshot === s) return prev;
    const sameNodes = prev && prev.snapshot.nodes === s.nodes;
    const next = {
      snapshot: s,
      workloads:
        prev && prev.snapshot.workloads === s.workloads
          ? prev.workloads
          : s.workloads.map((w) => this.tag(this.workloads, w, context)),
      nodes: sameNodes ? prev.nodes : s.nodes.map((n) => this.tag(this.nodes, n, context)),
      byResource: sameNodes ? prev.byResource : nodesByResource(s.nodes),
      orphans:
        prev && prev.snapshot.orphanPods === s.orphanPods
          ? prev.orphans
          : s.orphanPods.map((p) => this.tag(this.orphans, p, context)),
    };
    this.perMember.set(context, next);
    return next;
  }

  merge(members: readonly FleetMember[]): ModelSnapshot {
    const inputs = members.map((m) => m.snapshot);
    // A member's line may change without its snapshot (it failed to open, or timed out).
    const lines = JSON.stringify(members.map((m) => [m.context, m.summary.state, m.summary.error, m.summary.version]));
    const last = this.last;
    if (
      last &&
      last.lines === lines &&
      last.inputs.length === inputs.length &&
      last.inputs.every((s, i) => s === inputs[i])
    )
      return last.merged;
    const live = members.filter((m): m is FleetMember & { snapshot: ModelSnapshot } => m.snapshot !== null);
    const parts = live.map((m) => ({ m, t: this.tagged(m.context, m.snapshot) }));
    const models: FleetMemberModel[] = live.map((m) => ({
      context: m.context,
      clusterName: m.clusterName ?? null,
      multiKueue: m.snapshot.multiKueue,
      workloads: m.snapshot.workloads,
      listed: m.snapshot.connection.total > 0 && m.snapshot.connection.synced >= m.snapshot.connection.total,
    }));
    const podNodes = live.flatMap((m) => m.snapshot.podNodes ?? []);
    const definitions = this.definitions.of(live.map((m) => m.snapshot.definitions));
    const merged: ModelSnapshot = {
      version: ++this.version,
      workloads: this.allWorkloads.of(parts.map((p) => p.t.workloads)),
      nodes: this.allNodes.of(parts.map((p) => p.t.nodes)),
      totals: sumTotals(
        live.map((m) => m.snapshot.totals),
        parts.map((p) => p.t.byResource),
      ),
      kinds: live.flatMap((m) => m.snapshot.kinds),
      connection: mergeConnections(
        members.map((m) => ({
          context: m.context,
          connection: m.snapshot?.connection ?? null,
          failed: m.summary.state !== 'live' && m.summary.state !== 'connecting',
        })),
      ),
      definitions,
      problems: [
        ...members.filter((m) => m.summary.error).map((m) => `${m.context}: ${m.summary.state}: ${m.summary.error}`),
        ...live.flatMap((m) => m.snapshot.problems.map((p) => `${m.context}: ${p}`)),
      ],
      changedWorkloads: live.flatMap((m) => m.snapshot.changedWorkloads),
      orphanPods: this.allOrphans.of(parts.map((p) => p.t.orphans)),
      scheduling: this.scheduling.of(live.map((m) => m.snapshot.scheduling)),
      access: mergeAccess(live.map((m) => m.snapshot.access)),
      ...(podNodes.length ? { podNodes } : {}),
      ...mergePodScope(live.map((m) => m.snapshot)),
      fleet: { members, links: linkFleet(models) },
    };
    this.last = { inputs, lines, merged };
    return merged;
  }
}
