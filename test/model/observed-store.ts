// A ClusterStore with its test seams attached: the work it does and the sizes
// of its indexes, for tests that check work stays proportional to what changed.
import { ClusterStore, type ClusterStoreOptions } from '../../src/model/cluster-store.js';
import { OwnershipGraph } from '../../src/model/ownership-graph.js';
import { newWorkCounters, type WorkCounters } from '../../src/model/work-counters.js';
import { naturalCompare } from '../../src/model/order.js';
import type { PodSummary } from '../../src/model/types.js';

export class ObservedStore extends ClusterStore {
  readonly counters: WorkCounters;
  readonly links: OwnershipGraph;

  constructor(options: Omit<ClusterStoreOptions, 'counters' | 'graph'>) {
    const counters = newWorkCounters();
    const graph = new OwnershipGraph();
    super({ ...options, counters, graph });
    this.counters = counters;
    this.links = graph;
  }

  /** Work counters and index sizes as of now. */
  stats(): WorkCounters & { pods: number; owners: number; workloads: number; nodes: number; trees: number } {
    return {
      ...this.counters,
      pods: this.links.pods.size,
      owners: this.links.owners.size,
      workloads: this.links.workloads.size,
      nodes: this.nodes().length,
      trees: this.workloads().length,
    };
  }

  /** Summaries of the pods of one namespace, by name. */
  namespacePods(namespace: string): PodSummary[] {
    const out: PodSummary[] = [];
    for (const p of this.links.pods.values()) if (p.namespace === namespace) out.push(p);
    return out.sort((a, b) => naturalCompare(a.name, b.name));
  }
}
