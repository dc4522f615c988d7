// The workloads' trees between flushes: what events touched is recorded here
// and flush() brings exactly those trees up to date, each the cheapest way
// that is still exact (src/model/README.md, Incremental store): patch (pods
// modified in place), refresh (workload object modified in place), rebuild.
import type { KubeObject, WorkloadTree } from './types.js';
import type { DefinitionPlan } from './plan.js';
import { evaluateWorkload } from './workload-facts.js';
import type { DraLookup } from './dra.js';
import { evaluatePod } from './attribution.js';
import { assembleTree, patchTreePod } from './tree.js';
import { deepEqual, shareStructure } from './equal.js';
import { prefetch } from './expr.js';
import { addTo } from './uid-set.js';
import { findAttributed, treePod, withAttribution, SharedPodFacts, type TreePod } from './attributions.js';
import type { OwnershipGraph } from './ownership-graph.js';
import type { PodEntry, WorkloadEntry } from './cluster-store-entries.js';
import type { PodBefore } from './pod-record.js';
import type { WorkCounters } from './work-counters.js';
import { WorkloadOrder } from './workload-order.js';

export function workloadName(w: WorkloadEntry): string {
  const ns = w.obj.metadata.namespace;
  return ns ? `${ns}/${w.obj.metadata.name}` : w.obj.metadata.name;
}

export class TreeMaintenance {
  private readonly trees = new Map<string, WorkloadTree>();
  private readonly order = new WorkloadOrder();
  private list: WorkloadTree[] | null = [];
  /** Bumped when some tree's errors changed (the store's problems()). */
  errorsVersion = 0;
  /** The plans of the current definitions (attributions by others are dropped). */
  currentPlans: ReadonlySet<DefinitionPlan> = new Set();

  /** Workloads whose tree is rebuilt at the next flush. */
  private readonly dirty = new Set<string>();
  /** Workloads whose object changed but not their definition or links (see refreshTree). */
  private readonly refreshes = new Set<string>();
  /** Workload uid → pods MODIFIED in place (same workloads): their trees are patched, not rebuilt. */
  private readonly podChanges = new Map<string, Set<string>>();
  /** Pod uid → what the trees hold of it (as of the last flush), for podChanges. */
  private readonly podsBefore = new Map<string, PodBefore>();
  /** Workloads with no tree yet because an owner kind on their chain is still listing. */
  private readonly deferred = new Set<string>();
  private readonly sharedFacts = new SharedPodFacts();

  constructor(
    private readonly graph: OwnershipGraph,
    /** Also build trees of nested workloads (wlx get --include-nested). */
    private readonly buildNested: boolean,
    private readonly gpuResources: readonly string[],
    private readonly work: WorkCounters,
    private readonly reportMalformed: (message: string) => void,
    /** The store's DRA objects: pod templates' ResourceClaimTemplates count toward desired GPUs. */
    private readonly draLookup?: DraLookup,
  ) {}

  /** ResourceClaimTemplate `namespace/name` arrived, changed or went: the workloads whose templates name it. */
  draTemplateChanged(key: string): void {
    for (const e of this.graph.workloads.values()) {
      if (!e.facts?.draTemplates?.includes(key)) continue;
      e.facts = null;
      this.dirty.add(e.uid);
    }
  }

  /** Rebuild the tree of `uid` at the next flush. */
  rebuild(uid: string): void {
    this.dirty.add(uid);
  }

  /** The object of workload `uid` changed, not its definition or links. */
  refresh(uid: string): void {
    this.refreshes.add(uid);
  }

  /** Pod `uid` was modified in place (same workloads); `before`, what it was before the event, is what the trees hold. */
  podModified(uid: string, before: PodBefore, workloads: string[]): void {
    if (!this.podsBefore.has(uid)) this.podsBefore.set(uid, before);
    for (const w of workloads) addTo(this.podChanges, w, uid);
  }

  /** The workloads whose nested state may change with `uid`'s definition (see OwnershipGraph.place). */
  definitionChanged(uid: string): void {
    this.dirty.add(uid);
    if (!this.buildNested) this.graph.workloadsBelow(uid, (w) => this.dirty.add(w));
  }

  get size(): number {
    return this.trees.size;
  }

  get(uid: string): WorkloadTree | undefined {
    return this.trees.get(uid);
  }

  /** Trees as of the last flush, in display order (the same array while none changed). */
  workloads(): WorkloadTree[] {
    if (!this.list) this.list = this.order.list(this.trees);
    return this.list;
  }

  /** Brings the touched trees up to date; returns the uids of trees changed and removed. */
  flush(): { changed: string[]; removed: string[] } {
    const changed: string[] = [];
    const removed: string[] = [];
    // Deferred workloads are looked at again (their owner's kind may have listed).
    for (const uid of this.deferred) this.dirty.add(uid);
    this.deferred.clear();
    const refreshes = this.inPlaceCandidates(this.refreshes);
    this.refreshes.clear();
    const slow = new Map<DefinitionPlan, KubeObject[]>();
    for (const e of refreshes) {
      if (e.plan!.slowWorkloadExprs.length === 0) continue;
      const list = slow.get(e.plan!) ?? [];
      list.push(e.obj);
      slow.set(e.plan!, list);
    }
    for (const [plan, objs] of slow) prefetch(plan.slowWorkloadExprs, objs);
    this.updateInPlace(refreshes, (e, old) => this.refreshTree(e, e.plan!, old), changed);
    const patches = this.inPlaceCandidates(this.podChanges.keys());
    this.prefetchSlowExpressions(patches);
    this.updateInPlace(patches, (e, old) => this.patchTree(e, e.plan!, old, this.podChanges.get(e.uid)!), changed);
    this.podChanges.clear();
    this.podsBefore.clear();
    for (const uid of this.dirty) {
      const e = this.graph.workloads.get(uid);
      const old = this.trees.get(uid);
      const place = e && e.plan ? (this.buildNested ? 'top-level' : this.graph.place(e)) : null;
      if (!e || !e.plan || place === 'nested') {
        if (old) {
          this.trees.delete(uid);
          removed.push(uid);
          this.order.remove(uid);
          if (old.errors.length > 0) this.errorsVersion++;
        }
        continue;
      }
      if (!old && place === 'owner-listing') {
        this.deferred.add(uid);
        continue;
      }
      let tree: WorkloadTree;
      try {
        tree = this.buildTree(e, e.plan);
      } catch (err) {
        // A bug or an object shape nothing anticipated: keep the previous tree, say why.
        this.reportMalformed(
          `${workloadName(e)}: cannot build its tree: ${err instanceof Error ? err.message : String(err)}`,
        );
        continue;
      }
      const shared = old ? shareStructure(old, tree) : tree;
      if (shared === old) continue;
      if (!old) this.order.add(uid);
      if (old ? old.errors !== shared.errors : shared.errors.length > 0) this.errorsVersion++;
      this.trees.set(uid, shared);
      changed.push(uid);
    }
    this.dirty.clear();
    if (changed.length > 0 || removed.length > 0) this.list = null;
    return { changed, removed };
  }

  /**
   * The workloads of `uids` whose tree can be updated in place (held, planned,
   * evaluated, shown); the others are marked for a rebuild.
   */
  private inPlaceCandidates(uids: Iterable<string>): WorkloadEntry[] {
    const out: WorkloadEntry[] = [];
    for (const uid of uids) {
      if (this.dirty.has(uid)) continue;
      const e = this.graph.workloads.get(uid);
      if (!e || !e.plan || !e.facts || !this.trees.has(uid) || (!this.buildNested && this.graph.isNested(e)))
        this.dirty.add(uid);
      else out.push(e);
    }
    return out;
  }

  /** Each tree replaced by `update`'s; null (or a throw) marks it for a rebuild instead. */
  private updateInPlace(
    entries: WorkloadEntry[],
    update: (e: WorkloadEntry, old: WorkloadTree) => WorkloadTree | null,
    changed: string[],
  ): void {
    for (const e of entries) {
      const old = this.trees.get(e.uid)!;
      let tree: WorkloadTree | null;
      try {
        tree = update(e, old);
      } catch {
        tree = null;
      }
      if (tree === null) this.dirty.add(e.uid);
      else if (tree !== old) {
        if (old.errors !== tree.errors) this.errorsVersion++;
        this.trees.set(e.uid, tree);
        changed.push(e.uid);
      }
    }
  }

  /** Batch the jq-wasm evaluations this flush will need (see expr.ts prefetch). */
  private prefetchSlowExpressions(patches: WorkloadEntry[]): void {
    const work = new Map<DefinitionPlan, { workloads: KubeObject[]; pods: KubeObject[] }>();
    const workFor = (plan: DefinitionPlan) => {
      let w = work.get(plan);
      if (!w) {
        w = { workloads: [], pods: [] };
        work.set(plan, w);
      }
      return w;
    };
    for (const e of patches) {
      const plan = e.plan!;
      if (plan.slowPodExprs.length === 0) continue;
      const w = workFor(plan);
      for (const podUid of this.podChanges.get(e.uid) ?? []) {
        const p = this.graph.pods.get(podUid);
        if (p && !findAttributed(p.attributed, plan)) w.pods.push(p.obj);
      }
    }
    for (const uid of this.dirty) {
      const e = this.graph.workloads.get(uid);
      const plan = e?.plan;
      if (!e || !plan || (plan.slowPodExprs.length === 0 && plan.slowWorkloadExprs.length === 0)) continue;
      if (!this.buildNested && this.graph.isNested(e)) continue;
      const w = workFor(plan);
      if (!e.facts) w.workloads.push(e.obj);
      for (const podUid of e.pods) {
        const p = this.graph.pods.get(podUid);
        if (p && !findAttributed(p.attributed, plan)) w.pods.push(p.obj);
      }
    }
    for (const [plan, w] of work) {
      prefetch(plan.slowWorkloadExprs, w.workloads);
      prefetch(plan.slowPodExprs, w.pods);
    }
  }

  private buildTree(e: WorkloadEntry, plan: DefinitionPlan): WorkloadTree {
    this.work.treeBuilds++;
    if (!e.facts) {
      this.work.workloadEvaluations++;
      e.facts = evaluateWorkload(plan, e.obj, this.gpuResources, this.draLookup);
    }
    const tps: TreePod[] = [];
    for (const uid of e.pods) {
      const p = this.graph.pods.get(uid);
      if (p) tps.push(this.attributedFor(p, plan));
    }
    return assembleTree(plan, e.obj, e.facts, tps);
  }

  /**
   * The tree after its workload object changed (same definition, same links):
   * when the components' facts are the same, only status, statusMessage and
   * the workload's own errors are replaced. Null: rebuild (e.facts is then
   * already the new facts).
   */
  private refreshTree(e: WorkloadEntry, plan: DefinitionPlan, tree: WorkloadTree): WorkloadTree | null {
    const before = e.facts!;
    this.work.workloadEvaluations++;
    const facts = evaluateWorkload(plan, e.obj, this.gpuResources, this.draLookup);
    e.facts = facts;
    const createdAt = e.obj.metadata.creationTimestamp;
    if (
      !deepEqual(before.components, facts.components) ||
      tree.apiVersion !== (e.obj.apiVersion ?? '') ||
      tree.kind !== (e.obj.kind ?? plan.definition.rootGvk.kind) ||
      tree.createdAt !== (typeof createdAt === 'string' ? createdAt : null) ||
      tree.errors.length < before.errors.length
    ) {
      return null;
    }
    this.work.treeRefreshes++;
    const { terminating: _was, ...rest } = tree;
    const next: WorkloadTree = {
      ...rest,
      status: facts.status,
      statusMessage: facts.statusMessage,
      errors: [...facts.errors, ...tree.errors.slice(before.errors.length)],
      ...(e.obj.metadata.deletionTimestamp ? { terminating: true as const } : {}),
    };
    return shareStructure(tree, next);
  }

  /** The tree with each pod in `podUids` replaced in place; null when one of them cannot be (then rebuild). */
  private patchTree(
    e: WorkloadEntry,
    plan: DefinitionPlan,
    tree: WorkloadTree,
    podUids: Set<string>,
  ): WorkloadTree | null {
    let t = tree;
    for (const uid of podUids) {
      const p = this.graph.pods.get(uid);
      const prev = this.podsBefore.get(uid);
      const was = prev && findAttributed(prev.attributed, plan);
      if (!p || !prev || !was) return null;
      const before = treePod(prev.summary, prev, was.facts);
      const next = patchTreePod(plan, e.facts!, e.obj.metadata.name, t, before, this.attributedFor(p, plan), this.work);
      if (!next) return null;
      t = next;
    }
    if (t !== tree) this.work.treePatches++;
    return t;
  }

  private attributedFor(p: PodEntry, plan: DefinitionPlan): TreePod {
    let got = findAttributed(p.attributed, plan);
    if (!got) {
      this.work.podAttributions++;
      got = this.sharedFacts.attributed(plan, evaluatePod(plan, p.obj));
      p.attributed = withAttribution(p.attributed, got, this.currentPlans);
    }
    return treePod(p, p, got.facts);
  }
}
