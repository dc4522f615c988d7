// Node objects, the pods bound to each, and their summaries, recomputed at a
// flush only for nodes something touched.
import type { KubeObject, NodeSummary } from './types.js';
import { summariseNode, type NodePodLoad } from './nodes.js';
import { gpuResourceMatcher, type GpuResourceMatcher } from './gpu.js';
import { deepEqual } from './equal.js';
import { naturalCompare } from './order.js';
import { UidIndex } from './uid-set.js';
import type { WorkCounters } from './work-counters.js';

export class NodeSummaries {
  private readonly objects = new Map<string, KubeObject>();
  private readonly podsByNode = new UidIndex();
  private readonly summaries = new Map<string, NodeSummary>();
  private readonly dirty = new Set<string>();
  /** Sorted names; re-sorted only when a node comes or goes. */
  private order: string[] | null = [];
  private list: NodeSummary[] | null = [];

  private readonly gpuKinds: GpuResourceMatcher;

  constructor(
    private readonly gpuResources: readonly string[],
    private readonly work: WorkCounters,
    /** A node's DRA GPU capacity by `dra:<class>` (from its ResourceSlices). */
    private readonly draCapacity: (node: string) => Readonly<Record<string, number>> | undefined = () => undefined,
  ) {
    this.gpuKinds = gpuResourceMatcher(gpuResources);
  }

  get size(): number {
    return this.objects.size;
  }

  object(name: string): KubeObject | undefined {
    return this.objects.get(name);
  }

  names(): Iterable<[string, KubeObject]> {
    return this.objects;
  }

  upsert(obj: KubeObject): void {
    this.objects.set(obj.metadata.name, obj);
    this.dirty.add(obj.metadata.name);
  }

  delete(name: string): void {
    this.objects.delete(name);
    this.dirty.add(name);
  }

  /** The pod `uid` moved from node `before` to `after` (null: unbound). */
  movePod(uid: string, before: string | null, after: string | null): void {
    if (before) this.podsByNode.remove(before, uid);
    if (after) this.podsByNode.add(after, uid);
  }

  podsOn(name: string): Iterable<string> {
    return this.podsByNode.get(name);
  }

  /** Summarise `name` again at the next flush. */
  touch(name: string | null): void {
    if (name) this.dirty.add(name);
  }

  /** Every node (what names each pod's workload changed: definitions reloaded). */
  touchAll(): void {
    for (const name of this.objects.keys()) this.dirty.add(name);
  }

  /** Summarises the touched nodes; true when a summary changed, came or went. */
  flush(loads: (name: string) => Iterable<NodePodLoad>): boolean {
    let changed = false;
    for (const name of this.dirty) {
      const n = this.objects.get(name);
      const old = this.summaries.get(name);
      if (!n) {
        if (old) {
          this.summaries.delete(name);
          changed = true;
          this.order = null;
        }
        continue;
      }
      this.work.nodeSummaries++;
      const summary = summariseNode(n, loads(name), this.gpuResources, this.gpuKinds, this.draCapacity(name));
      if (old && deepEqual(old, summary)) continue;
      if (!old) this.order = null;
      this.summaries.set(name, summary);
      changed = true;
    }
    this.dirty.clear();
    if (changed) this.list = null;
    return changed;
  }

  /** Summaries as of the last flush, by name (the same array while none changed). */
  nodes(): NodeSummary[] {
    if (!this.list) {
      if (!this.order) this.order = [...this.summaries.keys()].sort(naturalCompare);
      this.list = this.order.map((name) => this.summaries.get(name)!);
    }
    return this.list;
  }
}
