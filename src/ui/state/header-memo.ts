// The header's figures over every workload and node, kept between screens: the
// counts by status word and the GPU kinds besides whole GPUs. Without them a
// frame walked 2,000 workloads and 5,000 nodes; a fleet's are kept per member,
// since a member still listing changes its own arrays (and the merged ones)
// with every page while the other members' stay the same.
import type { ModelSnapshot, NodeSummary } from '../../model/types.js';
import type { TroubleMemo } from '../../model/trouble.js';
import {
  countWorkloadWords,
  formatKindTotals,
  formatWorkloadCounts,
  otherGpuKinds,
  sumWordCounts,
  type WorkloadWordCounts,
} from '../render/header.js';

export class HeaderMemo {
  /** Kept while the workloads and queues are the same. */
  private counts: {
    workloads: ModelSnapshot['workloads'];
    queues: unknown;
    namespace: string | null;
    text: string;
    compact: string;
  } | null = null;
  /** A fleet member's counts, per workloads array. */
  private readonly memberCounts = new WeakMap<
    ModelSnapshot['workloads'],
    { queues: unknown; namespace: string | null; words: WorkloadWordCounts }
  >();
  /** Kept while the nodes array is the same (the store keeps it while no node changed). */
  private kindTotals: { nodes: readonly NodeSummary[]; text: string } | null = null;
  /** A fleet member's other GPU kinds, per nodes array. */
  private readonly memberKindTotals = new WeakMap<readonly NodeSummary[], ReadonlyMap<string, number>>();

  constructor(private readonly trouble: TroubleMemo) {}

  /** The header's other GPU kinds (gpuKindTotals of the snapshot's nodes). */
  gpuKindTotals(snapshot: ModelSnapshot): string {
    const nodes = snapshot.nodes;
    if (this.kindTotals?.nodes === nodes) return this.kindTotals.text;
    // A fleet's: each member's nodes walked while its own list changes, so one listing walks only its own.
    const members = snapshot.fleet?.members.flatMap((m) => (m.snapshot ? [m.snapshot.nodes] : []));
    const byKind = new Map<string, number>();
    for (const kinds of members ? members.map((m) => this.memberKinds(m)) : [otherGpuKinds(nodes)])
      for (const [k, v] of kinds) byKind.set(k, (byKind.get(k) ?? 0) + v);
    this.kindTotals = { nodes, text: formatKindTotals(byKind) };
    return this.kindTotals.text;
  }

  private memberKinds(nodes: readonly NodeSummary[]): ReadonlyMap<string, number> {
    let kinds = this.memberKindTotals.get(nodes);
    if (!kinds) this.memberKindTotals.set(nodes, (kinds = otherGpuKinds(nodes)));
    return kinds;
  }

  private memberWords(member: ModelSnapshot, namespace: string | null): WorkloadWordCounts {
    const queues = member.scheduling?.queues;
    const memo = this.memberCounts.get(member.workloads);
    if (memo && memo.queues === queues && memo.namespace === namespace) return memo.words;
    const words = countWorkloadWords(member, namespace, this.trouble);
    this.memberCounts.set(member.workloads, { queues, namespace, words });
    return words;
  }

  /** The header's workload counts, both forms. */
  workloadCounts(snapshot: ModelSnapshot, namespace: string | null): { text: string; compact: string } {
    const c = this.counts;
    const queues = snapshot.scheduling?.queues;
    if (c && c.workloads === snapshot.workloads && c.queues === queues && c.namespace === namespace) return c;
    // A fleet's: each member's counted while its own workloads are the same, so one listing recounts only its own.
    const members = snapshot.fleet?.members.flatMap((m) => (m.snapshot ? [m.snapshot] : []));
    const words = members
      ? sumWordCounts(members.map((m) => this.memberWords(m, namespace)))
      : countWorkloadWords(snapshot, namespace, this.trouble);
    const counts = {
      workloads: snapshot.workloads,
      queues,
      namespace,
      text: formatWorkloadCounts(words, false),
      compact: formatWorkloadCounts(words, true),
    };
    this.counts = counts;
    return counts;
  }
}
