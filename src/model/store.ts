// The incremental cluster store the engine feeds with watch events.
//
// apply() only updates indexes and records what an event touches; flush()
// recomputes exactly that, once per batch, and in proportion to it:
//   - a pod MODIFIED in place (same workloads) is patched into each tree that
//     holds it (patchTreePod: the roles on its path and the workload's rollups
//     by difference; every other role keeps its identity) - no re-sort, no
//     recount of other roles. When its labels/annotations did not change and
//     the definition's pod expressions read only those (plan
//     podExprsReadMetadataOnly), its placement is kept: nothing is evaluated.
//   - a workload object MODIFIED with the same definition and links: facts
//     evaluated again; if its components' facts did not change, only the
//     tree's root (status, statusMessage, own errors) is replaced.
//   - anything else (a pod added, deleted, moved, placed elsewhere; a new
//     workload; a chain or definition change) rebuilds the touched trees.
// Nested workloads (whose controller chain reaches another workload of a
// defined kind: a JobSet's Jobs, an LWS's StatefulSets) get no tree of their
// own unless `buildNested` (wlx get --include-nested); they gain or lose one
// when the parent or the chain changes (removedWorkloads reports the loss).
// Nothing scans all pods. Indexes kept:
//   pods by uid, by controller uid (one uid or a Set), by node;
//   owners and workloads by uid, and their children by controller uid (to find
//   whose chain an arriving/leaving owner changes);
//   workloads by GVK (to re-plan them on a definitions hot reload).
// Per pod the store keeps one PodEntry: the trimmed object (placements are
// evaluated again from it when its workloads or definitions change without a
// pod event, e.g. a JobSet listed after its pods), its PodSummary, and one
// Placed (TreePod + plan; a list only when two plans place it) whose PodFacts
// are shared by every pod placed the same way.
// Outputs are immutable: a WorkloadTree, NodeSummary or PodSummary that did not
// change keeps its identity, and so do unchanged parts of a changed tree.
import type { Definition, Gvk } from '../definitions/types.js';
import { gvkKey } from '../definitions/types.js';
import type { KubeObject, PodSummary, WorkloadTree, NodeSummary, ClusterTotals, NodePodEntry } from './types.js';
import { planDefinition, type DefinitionPlan } from './plan.js';
import { evaluateWorkload, type WorkloadFacts } from './workload-facts.js';
import { evaluatePod, type PodFacts } from './attribution.js';
import { summarisePod, isTerminalPhase } from './pod-status.js';
import { assembleTree, naturalCompare, patchTreePod, treePod, type TreePod } from './tree.js';
import { controllerUidOf, walkControllerChain, MAX_OWNER_HOPS } from './ownership.js';
import { summariseNode, totalsOf, type NodePodLoad } from './nodes.js';
import { deepEqual, shareStructure } from './equal.js';
import { DEFAULT_GPU_RESOURCES } from './gpu.js';
import { prefetch } from './expr.js';

export type StoreKind = 'pod' | 'node' | 'owner' | 'workload';
export type StoreEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface FlushResult {
  /** uids of workloads whose tree is new or changed (new identity). */
  changedWorkloads: string[];
  /** uids of workloads that no longer have a tree (deleted, or their definition went away). */
  removedWorkloads: string[];
  nodesChanged: boolean;
}

interface PodEntry {
  uid: string;
  obj: KubeObject;
  /** The node is summary.node, the namespace summary.namespace. */
  controller: string | null;
  /** Workload uids on the controller chain, nearest first. */
  workloads: string[];
  summary: PodSummary;
  active: boolean;
  /**
   * Placement per plan (a pod can belong to a StatefulSet and to the LWS above
   * it): one, or a list when there are several (rare), or null before any.
   */
  placed: Placed | Placed[] | null;
}

/** A pod placed by one definition plan. */
interface Placed extends TreePod {
  plan: DefinitionPlan;
}

/** treePod's fields and the plan, built as one literal (a spread of treePod's object would give each pod a second property store). */
function placedTreePod(pod: KubeObject, summary: PodSummary, facts: PodFacts, plan: DefinitionPlan): Placed {
  const tp = treePod(pod, summary, facts);
  return { summary: tp.summary, facts: tp.facts, terminating: tp.terminating, active: tp.active, plan };
}

function findPlaced(placed: Placed | Placed[] | null, plan: DefinitionPlan): Placed | undefined {
  if (placed === null) return undefined;
  if (!Array.isArray(placed)) return placed.plan === plan ? placed : undefined;
  for (const x of placed) if (x.plan === plan) return x;
  return undefined;
}

/**
 * Shared PodFacts per plan: the pods of one role have the same placement and
 * (mostly) the same gang keys, so one object serves them all instead of a
 * path, steps and key lists per pod. Facts with errors are not shared.
 */
const sharedFacts = new WeakMap<DefinitionPlan, Map<string, PodFacts>>();
const NULL_KEY = '\u0000';

function shareFacts(plan: DefinitionPlan, facts: PodFacts): PodFacts {
  if (facts.errors.length > 0) return facts;
  let key = '';
  if (facts.path === null) key = NULL_KEY;
  else
    for (const s of facts.path) key += `${s.comp}\u0001${s.instance ?? NULL_KEY}\u0001${s.replica ?? NULL_KEY}\u0002`;
  key += '\u0003';
  for (const k of facts.gangKeys) key += `${k ?? NULL_KEY}\u0001`;
  let byKey = sharedFacts.get(plan);
  if (!byKey) {
    byKey = new Map();
    sharedFacts.set(plan, byKey);
  }
  const got = byKey.get(key);
  if (got) return got;
  // Bounded: keys are roles × gang keys, but never let a pathological definition grow it without limit.
  if (byKey.size >= 100_000) byKey.clear();
  byKey.set(key, facts);
  return facts;
}

interface LinkEntry {
  uid: string;
  obj: KubeObject;
  gvk: string;
  controller: string | null;
}

interface WorkloadEntry extends LinkEntry {
  plan: DefinitionPlan | null;
  facts: WorkloadFacts | null;
  pods: UidSet;
}

interface NodeEntry {
  obj: KubeObject;
}

/** Most recent malformed-object reports kept for problems(). */
const MAX_MALFORMED = 50;

function gvkOfObject(obj: KubeObject): string | null {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return null;
  const slash = obj.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : obj.apiVersion.slice(0, slash);
  const version = slash < 0 ? obj.apiVersion : obj.apiVersion.slice(slash + 1);
  return gvkKey({ group, version, kind: obj.kind });
}

function addTo<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  let s = index.get(key);
  if (!s) {
    s = new Set();
    index.set(key, s);
  }
  s.add(value);
}

function removeFrom<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  const s = index.get(key);
  if (!s) return;
  s.delete(value);
  if (s.size === 0) index.delete(key);
}

/**
 * A set of uids that is a plain string while it holds one (most Jobs' and
 * StatefulSets' pods, a JobSet's Jobs) and a Set only from the second: one
 * Set object per key or workload saved. Values are replaced, not mutated in
 * place, when they change shape.
 */
type Uids = string | Set<string> | undefined;

function withUid(b: Uids, uid: string): string | Set<string> {
  if (b === undefined) return uid;
  if (typeof b === 'string') return b === uid ? b : new Set([b, uid]);
  b.add(uid);
  return b;
}

function withoutUid(b: Uids, uid: string): Uids {
  if (b === undefined || typeof b === 'string') return b === uid ? undefined : b;
  b.delete(uid);
  return b.size === 0 ? undefined : b.size === 1 ? b.values().next().value! : b;
}

function eachOf(b: Uids): Iterable<string> {
  return b === undefined ? [] : typeof b === 'string' ? [b] : b;
}

function addOne(index: Map<string, string | Set<string>>, key: string, value: string): void {
  index.set(key, withUid(index.get(key), value));
}

function removeOne(index: Map<string, string | Set<string>>, key: string, value: string): void {
  const b = withoutUid(index.get(key), value);
  if (b === undefined) index.delete(key);
  else index.set(key, b);
}

/** A workload's pod uids (see Uids). */
class UidSet implements Iterable<string> {
  private v: Uids = undefined;

  add(uid: string): void {
    this.v = withUid(this.v, uid);
  }

  delete(uid: string): void {
    this.v = withoutUid(this.v, uid);
  }

  [Symbol.iterator](): Iterator<string> {
    return eachOf(this.v)[Symbol.iterator]();
  }
}

function sameList(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class ClusterStore {
  private readonly gpuResources: readonly string[];
  private plans = new Map<string, DefinitionPlan>();
  private currentPlans = new Set<DefinitionPlan>();
  private definitionProblems: string[] = [];

  private readonly pods = new Map<string, PodEntry>();
  /** Pods by controller uid: one uid, or a Set when there are several (most Jobs and StatefulSet pods' controllers hold one pod). */
  private readonly podsByController = new Map<string, string | Set<string>>();
  private readonly podsByNode = new Map<string, Set<string>>();
  private readonly owners = new Map<string, LinkEntry>();
  private readonly workloadEntries = new Map<string, WorkloadEntry>();
  private readonly workloadsByGvk = new Map<string, Set<string>>();
  /** Owners and workloads by the uid of their controller. */
  private readonly linksByController = new Map<string, Set<string>>();
  /** Start uid (a pod's controller) → workload uids on its chain. */
  private readonly chainCache = new Map<string, string[]>();
  private readonly nodeEntries = new Map<string, NodeEntry>();

  private readonly trees = new Map<string, WorkloadTree>();
  private readonly nodeSummaries = new Map<string, NodeSummary>();
  private pendingGpus = 0;

  /** Workloads whose tree is rebuilt at the next flush. */
  private readonly dirtyWorkloads = new Set<string>();
  /** Workloads whose object changed but not their definition or links (see refreshTree). */
  private readonly refreshWorkloads = new Set<string>();
  /** Workload uid → pods MODIFIED in place (same workloads): their trees are patched, not rebuilt. */
  private readonly podChanges = new Map<string, Set<string>>();
  /** Pod uid → its placements as of the last flush (what the trees hold), for podChanges. */
  private readonly placedBefore = new Map<string, PodEntry['placed']>();
  private readonly dirtyNodes = new Set<string>();
  private malformed: string[] = [];

  /** Work counters (tests and benchmarks check that work stays proportional to what changed). */
  private readonly work = {
    treeBuilds: 0,
    treeRefreshes: 0,
    treePatches: 0,
    rolePatches: 0,
    podPlacements: 0,
    workloadEvaluations: 0,
    nodeSummaries: 0,
  };

  private workloadList: WorkloadTree[] | null = [];
  private nodeList: NodeSummary[] | null = [];
  /** Sorted keys; re-sorted only when membership changes, so a flush costs O(n), not O(n log n). */
  private workloadOrder: string[] = [];
  /** Trees added to / removed from `trees` since `workloadOrder` was last brought up to date (merged, not re-sorted). */
  private orderAdded = new Set<string>();
  private orderRemoved = new Set<string>();
  private nodeOrder: string[] | null = [];
  private totalsCache: ClusterTotals | null = null;
  private problemList: string[] | null = null;

  /** Also build trees of workloads whose controller chain reaches another held workload (see isNested). */
  private readonly buildNested: boolean;

  /** See the constructor's `ownerPending`. */
  private readonly ownerPending: (() => ((uid: string) => boolean) | undefined) | undefined;
  /** Workloads with no tree yet because an owner on their chain is of a kind still listing. */
  private readonly deferred = new Set<string>();

  /**
   * `buildNested` (default true): also build trees of nested workloads.
   * `ownerPending` (with buildNested false): asked once per flush, returns a
   * test "the controller of object `uid` is of a kind still in its first list"
   * (or undefined when no kind is). A workload not held under another one yet
   * whose chain has such a link gets no tree until the flush after that kind
   * listed (the engine hides it meanwhile: its parent is most likely coming -
   * Jobs list before their JobSets - and building it would be wasted work).
   */
  constructor(options: {
    definitions: Definition[];
    gpuResources?: string[];
    buildNested?: boolean;
    ownerPending?: () => ((uid: string) => boolean) | undefined;
  }) {
    this.buildNested = options.buildNested !== false;
    this.ownerPending = this.buildNested ? undefined : options.ownerPending;
    this.gpuResources =
      options.gpuResources && options.gpuResources.length > 0 ? [...options.gpuResources] : [...DEFAULT_GPU_RESOURCES];
    this.setDefinitions(options.definitions);
  }

  // ---------------------------------------------------------------- definitions

  /** Hot reload: workloads whose definition changed (or appeared/went) are re-planned at the next flush. */
  setDefinitions(definitions: Definition[]): void {
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
      const old = this.plans.get(key);
      // Keep the compiled plan (and every cached placement) when the definition is unchanged.
      next.set(key, old && (old.definition === def || deepEqual(old.definition, def)) ? old : planDefinition(def));
    }
    let changed = false;
    for (const key of new Set([...this.plans.keys(), ...next.keys()])) {
      const before = this.plans.get(key) ?? null;
      const after = next.get(key) ?? null;
      if (before === after) continue;
      changed = true;
      for (const uid of this.workloadsByGvk.get(key) ?? []) {
        const e = this.workloadEntries.get(uid)!;
        e.plan = after;
        e.facts = null;
        this.dirtyWorkloads.add(uid);
        // Whether the workloads below it are nested depends on it having a definition.
        if (!this.buildNested) this.dirtyWorkloadsBelow(uid);
      }
    }
    this.plans = next;
    this.currentPlans = new Set(next.values());
    for (const p of next.values()) problems.push(...p.problems);
    this.definitionProblems = problems;
    this.problemList = null;
    // Node views name each pod's workload, which depends on which kinds are defined.
    if (changed) for (const name of this.nodeEntries.keys()) this.dirtyNodes.add(name);
  }

  // ---------------------------------------------------------------- events

  /**
   * kind: 'pod' | 'node' | 'owner' (Jobs, StatefulSets, ReplicaSets... metadata
   * only) | 'workload' (a root object of a defined kind). `gvk` overrides the
   * object's apiVersion/kind (for trimmed objects without them). Never throws:
   * a malformed object is reported in problems() and skipped.
   */
  apply(kind: StoreKind, type: StoreEventType, object: KubeObject, gvk?: Gvk): void {
    try {
      const why = this.malformedReason(kind, object);
      if (why) {
        this.reportMalformed(`skipped malformed ${kind} object${this.describeObject(object)}: ${why}`);
        return;
      }
      if (type !== 'DELETED' && this.isUnchanged(kind, object)) return;
      switch (kind) {
        case 'pod':
          if (type === 'DELETED') this.deletePod(object.metadata.uid);
          else this.upsertPod(object);
          break;
        case 'node':
          if (type === 'DELETED') this.nodeEntries.delete(object.metadata.name);
          else this.nodeEntries.set(object.metadata.name, { obj: object });
          this.dirtyNodes.add(object.metadata.name);
          break;
        case 'owner':
          if (type === 'DELETED') this.deleteLink(object.metadata.uid, false);
          else this.upsertOwner(object, gvk);
          break;
        case 'workload':
          if (type === 'DELETED') this.deleteLink(object.metadata.uid, true);
          else this.upsertWorkload(object, gvk);
          break;
        default:
          this.reportMalformed(`unknown store kind ${String(kind)}`);
      }
    } catch (err) {
      this.reportMalformed(
        `failed to apply ${kind} ${type}${this.describeObject(object)}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /** A relist of one kind (of one GVK for owners/workloads when given): vanished objects are deleted. */
  replaceAll(kind: StoreKind, objects: KubeObject[], gvk?: Gvk): void {
    const want = gvk ? gvkKey(gvk) : null;
    const keep = new Set<string>();
    for (const o of objects) {
      const id = kind === 'node' ? o?.metadata?.name : o?.metadata?.uid;
      if (typeof id === 'string') keep.add(id);
    }
    const gone: KubeObject[] = [];
    switch (kind) {
      case 'pod':
        for (const [uid, e] of this.pods) if (!keep.has(uid)) gone.push(e.obj);
        break;
      case 'node':
        for (const [name, e] of this.nodeEntries) if (!keep.has(name)) gone.push(e.obj);
        break;
      case 'owner':
        for (const [uid, e] of this.owners) if (!keep.has(uid) && (want === null || e.gvk === want)) gone.push(e.obj);
        break;
      case 'workload':
        for (const [uid, e] of this.workloadEntries)
          if (!keep.has(uid) && (want === null || e.gvk === want)) gone.push(e.obj);
        break;
    }
    for (const o of gone) this.apply(kind, 'DELETED', o, gvk);
    for (const o of objects) this.apply(kind, 'MODIFIED', o, gvk);
  }

  /**
   * The same resourceVersion as the stored object: nothing changed (a relist
   * replays every object; rebuilding for those would be wasted work).
   */
  private isUnchanged(kind: StoreKind, object: KubeObject): boolean {
    const rv = object.metadata.resourceVersion;
    if (typeof rv !== 'string' || rv === '') return false;
    let stored: KubeObject | undefined;
    switch (kind) {
      case 'pod':
        stored = this.pods.get(object.metadata.uid)?.obj;
        break;
      case 'node':
        stored = this.nodeEntries.get(object.metadata.name)?.obj;
        break;
      case 'owner':
        stored = this.owners.get(object.metadata.uid)?.obj;
        break;
      case 'workload':
        stored = this.workloadEntries.get(object.metadata.uid)?.obj;
        break;
    }
    return (
      stored !== undefined && stored.metadata.uid === object.metadata.uid && stored.metadata.resourceVersion === rv
    );
  }

  private malformedReason(kind: StoreKind, object: KubeObject): string | null {
    if (object === null || typeof object !== 'object') return 'not an object';
    const m = object.metadata as unknown;
    if (m === null || typeof m !== 'object') return 'missing metadata';
    if (typeof object.metadata.name !== 'string' || object.metadata.name === '') return 'missing metadata.name';
    if (kind !== 'node' && (typeof object.metadata.uid !== 'string' || object.metadata.uid === ''))
      return 'missing metadata.uid';
    if (object.metadata.ownerReferences !== undefined && !Array.isArray(object.metadata.ownerReferences))
      return 'metadata.ownerReferences is not a list';
    return null;
  }

  private describeObject(object: unknown): string {
    const m = (object as { metadata?: { namespace?: unknown; name?: unknown } } | null)?.metadata;
    if (!m || typeof m.name !== 'string') return '';
    return typeof m.namespace === 'string' && m.namespace ? ` ${m.namespace}/${m.name}` : ` ${m.name}`;
  }

  private reportMalformed(message: string): void {
    this.malformed.push(message);
    if (this.malformed.length > MAX_MALFORMED) this.malformed = this.malformed.slice(-MAX_MALFORMED);
    this.problemList = null;
  }

  // ---------------------------------------------------------------- pods

  private upsertPod(obj: KubeObject): void {
    const uid = obj.metadata.uid;
    const prev = this.pods.get(uid);
    let summary = summarisePod(obj, this.gpuResources);
    if (prev && deepEqual(prev.summary, summary)) summary = prev.summary;
    const controller = controllerUidOf(obj);
    const node = summary.node;
    const active = !isTerminalPhase(obj);

    if (prev?.controller !== controller) {
      if (prev?.controller) removeOne(this.podsByController, prev.controller, uid);
      if (controller) addOne(this.podsByController, controller, uid);
    }
    const prevNode = prev ? prev.summary.node : null;
    if (prevNode !== node || !prev) {
      if (prevNode) removeFrom(this.podsByNode, prevNode, uid);
      if (node) addTo(this.podsByNode, node, uid);
    }
    if (prev) this.pendingGpus -= this.pendingOf(prev);

    const before = prev?.workloads ?? [];
    const entry: PodEntry = {
      uid,
      obj,
      controller,
      workloads: before,
      summary,
      active,
      placed: this.carryPlacements(prev, obj, summary),
    };
    this.pods.set(uid, entry);
    this.pendingGpus += this.pendingOf(entry);
    this.resolvePod(entry);
    if (prev && sameList(before, entry.workloads)) {
      // Modified in place: its workloads' trees are patched at flush (see patchTreePod).
      if (!this.placedBefore.has(uid)) this.placedBefore.set(uid, prev.placed);
      for (const w of entry.workloads) addTo(this.podChanges, w, uid);
    } else {
      // New, or moved between workloads: every workload it was or is in is rebuilt.
      for (const w of before) this.dirtyWorkloads.add(w);
      for (const w of entry.workloads) this.dirtyWorkloads.add(w);
    }

    if (!prev || prevNode !== node || prev.summary.gpus !== summary.gpus || prev.active !== active) {
      if (prevNode) this.dirtyNodes.add(prevNode);
      if (node) this.dirtyNodes.add(node);
    }
    // Objects controlled by this pod (rare, but LWS does it) resolve through it.
    if ((!prev || prev.controller !== controller) && this.linksByController.has(uid)) this.invalidateBelow(uid);
  }

  /**
   * The previous placements, with the new summary, for plans whose pod
   * expressions read only metadata labels/annotations/name/namespace, when
   * those did not change (a status change): nothing is evaluated again.
   */
  private carryPlacements(prev: PodEntry | undefined, obj: KubeObject, summary: PodSummary): PodEntry['placed'] {
    if (!prev || prev.placed === null) return null;
    const a = prev.obj.metadata;
    const b = obj.metadata;
    if (
      a.name !== b.name ||
      a.namespace !== b.namespace ||
      !deepEqual(a.labels, b.labels) ||
      !deepEqual(a.annotations, b.annotations)
    )
      return null;
    const out: Placed[] = [];
    for (const x of Array.isArray(prev.placed) ? prev.placed : [prev.placed]) {
      if (x.plan.podExprsReadMetadataOnly && this.currentPlans.has(x.plan))
        out.push(placedTreePod(obj, summary, x.facts, x.plan));
    }
    return out.length === 0 ? null : out.length === 1 ? out[0] : out;
  }

  private deletePod(uid: string): void {
    const e = this.pods.get(uid);
    if (!e) return;
    this.pods.delete(uid);
    if (e.controller) removeOne(this.podsByController, e.controller, uid);
    const node = e.summary.node;
    if (node) {
      removeFrom(this.podsByNode, node, uid);
      this.dirtyNodes.add(node);
    }
    this.pendingGpus -= this.pendingOf(e);
    for (const w of e.workloads) {
      this.workloadEntries.get(w)?.pods.delete(uid);
      this.dirtyWorkloads.add(w);
    }
    if (this.linksByController.has(uid)) this.invalidateBelow(uid);
  }

  private pendingOf(e: PodEntry): number {
    return e.active && e.summary.node === null ? e.summary.gpus : 0;
  }

  /** Re-reads which workloads the pod's controller chain reaches; moves it between workloads if that changed. */
  private resolvePod(e: PodEntry): void {
    const next = e.controller ? this.chainWorkloads(e.controller) : [];
    if (sameList(next, e.workloads)) {
      for (const w of next) this.workloadEntries.get(w)?.pods.add(e.uid);
      return;
    }
    for (const w of e.workloads) {
      if (next.includes(w)) continue;
      this.workloadEntries.get(w)?.pods.delete(e.uid);
      this.dirtyWorkloads.add(w);
    }
    for (const w of next) {
      this.workloadEntries.get(w)?.pods.add(e.uid);
      this.dirtyWorkloads.add(w);
    }
    e.workloads = next;
    if (e.summary.node) this.dirtyNodes.add(e.summary.node);
  }

  private chainWorkloads(start: string): string[] {
    const cached = this.chainCache.get(start);
    if (cached) return cached;
    const chain = walkControllerChain(start, (uid) => {
      // Pods are links too: LeaderWorkerSet's worker StatefulSet is controlled by the leader pod.
      const link = this.workloadEntries.get(uid) ?? this.owners.get(uid) ?? this.pods.get(uid);
      return link ? link.controller : undefined;
    });
    const result = chain.filter((uid) => this.workloadEntries.has(uid));
    this.chainCache.set(start, result);
    return result;
  }

  // ---------------------------------------------------------------- owners and workloads

  private upsertOwner(obj: KubeObject, gvk?: Gvk): void {
    const uid = obj.metadata.uid;
    const prev = this.owners.get(uid);
    const controller = controllerUidOf(obj);
    const key = gvk ? gvkKey(gvk) : (gvkOfObject(obj) ?? prev?.gvk ?? '');
    this.owners.set(uid, { uid, obj, gvk: key, controller });
    if (!prev || prev.controller !== controller) this.relink(uid, prev?.controller ?? null, controller, !prev);
  }

  private upsertWorkload(obj: KubeObject, gvk?: Gvk): void {
    const uid = obj.metadata.uid;
    const prev = this.workloadEntries.get(uid);
    const controller = controllerUidOf(obj);
    const key = gvk ? gvkKey(gvk) : (gvkOfObject(obj) ?? prev?.gvk ?? '');
    if (prev && prev.gvk !== key) removeFrom(this.workloadsByGvk, prev.gvk, uid);
    addTo(this.workloadsByGvk, key, uid);
    const plan = this.plans.get(key) ?? null;
    // Same definition and links: only the object changed (status churn). Its facts are
    // re-evaluated at flush, and the tree is rebuilt only if what shapes it changed.
    const refresh = !!prev && prev.plan === plan && prev.controller === controller && prev.facts !== null;
    const entry: WorkloadEntry = {
      uid,
      obj,
      gvk: key,
      controller,
      plan,
      facts: refresh ? prev.facts : null,
      pods: prev?.pods ?? new UidSet(),
    };
    this.workloadEntries.set(uid, entry);
    if (refresh) this.refreshWorkloads.add(uid);
    else this.dirtyWorkloads.add(uid);
    // A new workload changes the chains below it even if its controller did not.
    if (!prev || prev.controller !== controller) this.relink(uid, prev?.controller ?? null, controller, true);
  }

  private deleteLink(uid: string, isWorkload: boolean): void {
    if (isWorkload) {
      const e = this.workloadEntries.get(uid);
      if (!e) return;
      this.workloadEntries.delete(uid);
      removeFrom(this.workloadsByGvk, e.gvk, uid);
      this.dirtyWorkloads.add(uid);
      if (!this.owners.has(uid) && e.controller) removeFrom(this.linksByController, e.controller, uid);
    } else {
      const e = this.owners.get(uid);
      if (!e) return;
      this.owners.delete(uid);
      if (!this.workloadEntries.has(uid) && e.controller) removeFrom(this.linksByController, e.controller, uid);
    }
    this.invalidateBelow(uid);
  }

  private relink(uid: string, before: string | null, after: string | null, invalidate: boolean): void {
    if (before !== after) {
      if (before) removeFrom(this.linksByController, before, uid);
      if (after) addTo(this.linksByController, after, uid);
      invalidate = true;
    }
    if (invalidate) this.invalidateBelow(uid);
  }

  /**
   * Something at `uid` changed how chains through it resolve: drop cached
   * chains of everything up to MAX_OWNER_HOPS below it and re-resolve their pods.
   */
  private invalidateBelow(uid: string): void {
    if (!this.linksByController.has(uid) && !this.podsByController.has(uid)) {
      // Nothing below it (an owner arriving before its pods): nothing to re-resolve.
      this.chainCache.delete(uid);
      return;
    }
    const seen = new Set<string>([uid]);
    let frontier = [uid];
    const affected: string[] = [];
    for (let depth = 0; depth < MAX_OWNER_HOPS && frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const u of frontier) {
        this.chainCache.delete(u);
        for (const p of eachOf(this.podsByController.get(u))) {
          affected.push(p);
          // Pods are links too (LWS worker StatefulSets hang off the leader pod).
          if (this.linksByController.has(p) && !seen.has(p)) {
            seen.add(p);
            next.push(p);
          }
        }
        for (const child of this.linksByController.get(u) ?? []) {
          if (!seen.has(child)) {
            seen.add(child);
            next.push(child);
            // Its chain changed: whether it is nested may have too.
            if (this.workloadEntries.has(child)) this.dirtyWorkloads.add(child);
          }
        }
      }
      frontier = next;
    }
    for (const p of affected) {
      const e = this.pods.get(p);
      if (e) this.resolvePod(e);
    }
  }

  /** Marks every workload up to MAX_OWNER_HOPS links below `uid` dirty (its nested state may change). */
  private dirtyWorkloadsBelow(uid: string): void {
    const seen = new Set<string>([uid]);
    let frontier = [uid];
    for (let depth = 0; depth < MAX_OWNER_HOPS && frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const u of frontier) {
        const below = [
          ...(this.linksByController.get(u) ?? []),
          ...[...eachOf(this.podsByController.get(u))].filter((p) => this.linksByController.has(p)),
        ];
        for (const child of below) {
          if (seen.has(child)) continue;
          seen.add(child);
          next.push(child);
          if (this.workloadEntries.has(child)) this.dirtyWorkloads.add(child);
        }
      }
      frontier = next;
    }
  }

  /**
   * A workload whose controller chain reaches another workload of a defined
   * kind (a JobSet's Jobs, an LWS's StatefulSets): part of that workload's
   * tree. Unless built with `buildNested`, the store keeps no tree of its own
   * for it (its pods still count for the outer workload).
   */
  private isNested(e: WorkloadEntry): boolean {
    if (!e.controller) return false;
    for (const w of this.chainWorkloads(e.controller)) {
      if (w !== e.uid && this.workloadEntries.get(w)?.plan) return true;
    }
    return false;
  }

  /** Some object on the workload's chain has a controller of a kind still listing (as the engine's topLevelWorkloads). */
  private chainPending(e: WorkloadEntry, pending: (uid: string) => boolean): boolean {
    let cur = e.uid;
    let c: string | null | undefined = e.controller;
    for (let hop = 0; c && hop < MAX_OWNER_HOPS; hop++) {
      if (pending(cur)) return true;
      cur = c;
      c = (this.workloadEntries.get(c) ?? this.owners.get(c) ?? this.pods.get(c))?.controller;
    }
    return false;
  }

  // ---------------------------------------------------------------- flush

  /** Recompute only what the applied events touched since the last flush; returns what changed. */
  flush(): FlushResult {
    const changedWorkloads: string[] = [];
    const removedWorkloads: string[] = [];
    const pending = this.ownerPending?.();
    // Deferred workloads are looked at again (their owner's kind may have listed).
    for (const uid of this.deferred) this.dirtyWorkloads.add(uid);
    this.deferred.clear();
    // Workload objects modified in place: new facts; if the roles' shape did not change,
    // only the tree's root fields are replaced.
    const refreshes = this.inPlaceCandidates(this.refreshWorkloads);
    this.refreshWorkloads.clear();
    const slow = new Map<DefinitionPlan, KubeObject[]>();
    for (const e of refreshes) {
      if (e.plan!.slowWorkloadExprs.length === 0) continue;
      const list = slow.get(e.plan!) ?? [];
      list.push(e.obj);
      slow.set(e.plan!, list);
    }
    for (const [plan, objs] of slow) prefetch(plan.slowWorkloadExprs, objs);
    this.updateInPlace(refreshes, (e, old) => this.refreshTree(e, e.plan!, old), changedWorkloads);
    // Pods modified in place: patch the trees that hold them (the rest are rebuilt below).
    const patches = this.inPlaceCandidates(this.podChanges.keys());
    this.prefetchSlowExpressions(patches);
    this.updateInPlace(
      patches,
      (e, old) => this.patchTree(e, e.plan!, old, this.podChanges.get(e.uid)!),
      changedWorkloads,
    );
    this.podChanges.clear();
    this.placedBefore.clear();
    for (const uid of this.dirtyWorkloads) {
      const e = this.workloadEntries.get(uid);
      const old = this.trees.get(uid);
      if (!e || !e.plan || (!this.buildNested && this.isNested(e))) {
        if (old) {
          this.trees.delete(uid);
          removedWorkloads.push(uid);
          this.orderRemoved.add(uid);
          this.orderAdded.delete(uid);
          if (old.errors.length > 0) this.problemList = null;
        }
        continue;
      }
      if (!old && pending && this.chainPending(e, pending)) {
        this.deferred.add(uid);
        continue;
      }
      let tree: WorkloadTree;
      try {
        tree = this.buildTree(e, e.plan);
      } catch (err) {
        // A bug or an object shape nothing anticipated: keep the previous tree, say why.
        this.reportMalformed(
          `${this.workloadName(e)}: cannot build its tree: ${err instanceof Error ? err.message : String(err)}`,
        );
        continue;
      }
      const shared = old ? shareStructure(old, tree) : tree;
      if (shared === old) continue;
      if (!old) this.orderAdded.add(uid);
      if (old ? old.errors !== shared.errors : shared.errors.length > 0) this.problemList = null;
      this.trees.set(uid, shared);
      changedWorkloads.push(uid);
    }
    this.dirtyWorkloads.clear();

    let nodesChanged = false;
    for (const name of this.dirtyNodes) {
      const n = this.nodeEntries.get(name);
      const old = this.nodeSummaries.get(name);
      if (!n) {
        if (old) {
          this.nodeSummaries.delete(name);
          nodesChanged = true;
          this.nodeOrder = null;
        }
        continue;
      }
      this.work.nodeSummaries++;
      const summary = summariseNode(n.obj, this.nodeLoads(name), this.gpuResources);
      if (old && deepEqual(old, summary)) continue;
      if (!old) this.nodeOrder = null;
      this.nodeSummaries.set(name, summary);
      nodesChanged = true;
    }
    this.dirtyNodes.clear();

    if (changedWorkloads.length > 0 || removedWorkloads.length > 0) this.workloadList = null;
    if (nodesChanged) this.nodeList = null;
    const totals = totalsOf(this.nodes(), this.pods.size, this.pendingGpus);
    if (!this.totalsCache || !deepEqual(this.totalsCache, totals)) this.totalsCache = totals;
    return { changedWorkloads, removedWorkloads, nodesChanged };
  }

  /**
   * The workloads of `uids` whose tree can be updated in place (held, planned,
   * evaluated, shown); the others are marked for a rebuild.
   */
  private inPlaceCandidates(uids: Iterable<string>): WorkloadEntry[] {
    const out: WorkloadEntry[] = [];
    for (const uid of uids) {
      if (this.dirtyWorkloads.has(uid)) continue;
      const e = this.workloadEntries.get(uid);
      if (!e || !e.plan || !e.facts || !this.trees.has(uid) || (!this.buildNested && this.isNested(e)))
        this.dirtyWorkloads.add(uid);
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
      if (tree === null) this.dirtyWorkloads.add(e.uid);
      else if (tree !== old) {
        if (old.errors !== tree.errors) this.problemList = null;
        this.trees.set(e.uid, tree);
        changed.push(e.uid);
      }
    }
  }

  /** Batch the jq-wasm evaluations this flush will need (see expr.ts prefetch). */
  private prefetchSlowExpressions(patches: WorkloadEntry[]): void {
    const work = new Map<DefinitionPlan, { workloads: KubeObject[]; pods: KubeObject[] }>();
    for (const e of patches) {
      const plan = e.plan!;
      if (plan.slowPodExprs.length === 0) continue;
      let w = work.get(plan);
      if (!w) {
        w = { workloads: [], pods: [] };
        work.set(plan, w);
      }
      for (const podUid of this.podChanges.get(e.uid) ?? []) {
        const p = this.pods.get(podUid);
        if (p && !findPlaced(p.placed, plan)) w.pods.push(p.obj);
      }
    }
    for (const uid of this.dirtyWorkloads) {
      const e = this.workloadEntries.get(uid);
      const plan = e?.plan;
      if (!e || !plan || (plan.slowPodExprs.length === 0 && plan.slowWorkloadExprs.length === 0)) continue;
      if (!this.buildNested && this.isNested(e)) continue;
      let w = work.get(plan);
      if (!w) {
        w = { workloads: [], pods: [] };
        work.set(plan, w);
      }
      if (!e.facts) w.workloads.push(e.obj);
      for (const podUid of e.pods) {
        const p = this.pods.get(podUid);
        if (p && !findPlaced(p.placed, plan)) w.pods.push(p.obj);
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
      e.facts = evaluateWorkload(plan, e.obj, this.gpuResources);
    }
    const tps: TreePod[] = [];
    for (const uid of e.pods) {
      const p = this.pods.get(uid);
      if (p) tps.push(this.placedFor(p, plan));
    }
    return assembleTree(plan, e.obj, e.facts, tps);
  }

  /**
   * The tree after its workload object changed (same definition, same links):
   * facts evaluated again; when the components' facts (instances, desired,
   * template GPUs) are the same, only status, statusMessage and the workload's
   * own errors are replaced. Null: rebuild (e.facts is then already the new facts).
   */
  private refreshTree(e: WorkloadEntry, plan: DefinitionPlan, tree: WorkloadTree): WorkloadTree | null {
    const before = e.facts!;
    this.work.workloadEvaluations++;
    const facts = evaluateWorkload(plan, e.obj, this.gpuResources);
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
    const next: WorkloadTree = {
      ...tree,
      status: facts.status,
      statusMessage: facts.statusMessage,
      errors: [...facts.errors, ...tree.errors.slice(before.errors.length)],
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
      const p = this.pods.get(uid);
      const before = findPlaced(this.placedBefore.get(uid) ?? null, plan);
      if (!p || !before) return null;
      const next = patchTreePod(plan, e.facts!, e.obj.metadata.name, t, before, this.placedFor(p, plan), this.work);
      if (!next) return null;
      t = next;
    }
    if (t !== tree) this.work.treePatches++;
    return t;
  }

  private placedFor(p: PodEntry, plan: DefinitionPlan): TreePod {
    const got = findPlaced(p.placed, plan);
    if (got) return got;
    this.work.podPlacements++;
    const tp = placedTreePod(p.obj, p.summary, shareFacts(plan, evaluatePod(plan, p.obj)), plan);
    // Drop placements by plans no longer current (definitions reloaded).
    const kept =
      p.placed === null
        ? []
        : (Array.isArray(p.placed) ? p.placed : [p.placed]).filter((x) => this.currentPlans.has(x.plan));
    p.placed = kept.length === 0 ? tp : [...kept, tp];
    return tp;
  }

  /** The outermost defined workload a pod belongs to (LWS rather than its StatefulSet). */
  private topWorkload(p: PodEntry): WorkloadEntry | null {
    for (let i = p.workloads.length - 1; i >= 0; i--) {
      const w = this.workloadEntries.get(p.workloads[i]);
      if (w && w.plan) return w;
    }
    return null;
  }

  private *nodeLoads(name: string): Generator<NodePodLoad> {
    for (const uid of this.podsByNode.get(name) ?? []) {
      const p = this.pods.get(uid);
      if (!p) continue;
      const w = this.topWorkload(p);
      yield { gpus: p.summary.gpus, active: p.active, workload: w ? this.workloadName(w) : null };
    }
  }

  private workloadName(w: WorkloadEntry): string {
    const ns = w.obj.metadata.namespace;
    return ns ? `${ns}/${w.obj.metadata.name}` : w.obj.metadata.name;
  }

  // ---------------------------------------------------------------- reads

  /** Trees as of the last flush, by kind, namespace, name. */
  workloads(): WorkloadTree[] {
    if (!this.workloadList) {
      if (this.orderAdded.size > 0 || this.orderRemoved.size > 0) this.updateOrder();
      this.workloadList = this.workloadOrder.map((uid) => this.trees.get(uid)!);
    }
    return this.workloadList;
  }

  /** Brings `workloadOrder` up to date: drops removed uids, sorts only the added ones and merges them in. */
  private updateOrder(): void {
    const removed = this.orderRemoved;
    const kept = removed.size > 0 ? this.workloadOrder.filter((uid) => !removed.has(uid)) : this.workloadOrder;
    const byOrder = (a: WorkloadTree, b: WorkloadTree): number =>
      naturalCompare(a.kind, b.kind) || naturalCompare(a.namespace, b.namespace) || naturalCompare(a.name, b.name);
    const added: WorkloadTree[] = [];
    for (const uid of this.orderAdded) {
      const t = this.trees.get(uid);
      if (t) added.push(t);
    }
    added.sort(byOrder);
    const merged: string[] = [];
    let i = 0;
    for (const t of added) {
      while (i < kept.length && byOrder(this.trees.get(kept[i])!, t) <= 0) merged.push(kept[i++]);
      merged.push(t.uid);
    }
    while (i < kept.length) merged.push(kept[i++]);
    this.workloadOrder = merged;
    this.orderAdded = new Set();
    this.orderRemoved = new Set();
  }

  /** The tree of one workload as of the last flush. */
  workload(uid: string): WorkloadTree | undefined {
    return this.trees.get(uid);
  }

  nodes(): NodeSummary[] {
    if (!this.nodeList) {
      if (!this.nodeOrder) this.nodeOrder = [...this.nodeSummaries.keys()].sort(naturalCompare);
      this.nodeList = this.nodeOrder.map((name) => this.nodeSummaries.get(name)!);
    }
    return this.nodeList;
  }

  /** Totals as of the last flush (same object while they do not change). */
  totals(): ClusterTotals {
    if (!this.totalsCache) this.totalsCache = totalsOf(this.nodes(), this.pods.size, this.pendingGpus);
    return this.totalsCache;
  }

  /** Pods bound to a node, with the outermost defined workload each belongs to. */
  getNodePods(nodeName: string): NodePodEntry[] {
    const out: NodePodEntry[] = [];
    for (const uid of this.podsByNode.get(nodeName) ?? []) {
      const p = this.pods.get(uid);
      if (!p) continue;
      const w = this.topWorkload(p);
      out.push({
        pod: p.summary,
        workload: w
          ? {
              kind: w.obj.kind ?? w.plan!.definition.rootGvk.kind,
              namespace: w.obj.metadata.namespace ?? '',
              name: w.obj.metadata.name,
              uid: w.uid,
            }
          : null,
      });
    }
    return out.sort(
      (a, b) => naturalCompare(a.pod.namespace, b.pod.namespace) || naturalCompare(a.pod.name, b.pod.name),
    );
  }

  /** Summaries of the pods of one namespace (on demand: one pass over the pods, no index kept). */
  getNamespacePods(namespace: string): PodSummary[] {
    const out: PodSummary[] = [];
    for (const p of this.pods.values()) if (p.summary.namespace === namespace) out.push(p.summary);
    return out.sort((a, b) => naturalCompare(a.name, b.name));
  }

  /**
   * Definition problems (expressions that do not compile...), per-object
   * evaluation problems of every workload (which workload, component, field,
   * expression, error), and malformed objects skipped.
   */
  problems(): string[] {
    if (!this.problemList) {
      const list = [...this.definitionProblems];
      for (const t of this.workloads()) list.push(...t.errors);
      list.push(...this.malformed);
      this.problemList = list;
    }
    return this.problemList;
  }

  /** Sizes of the indexes, for tests and the benchmark. */
  stats(): {
    pods: number;
    owners: number;
    workloads: number;
    nodes: number;
    trees: number;
    cachedChains: number;
    treeBuilds: number;
    treeRefreshes: number;
    treePatches: number;
    rolePatches: number;
    podPlacements: number;
    workloadEvaluations: number;
    nodeSummaries: number;
  } {
    return {
      ...this.work,
      pods: this.pods.size,
      owners: this.owners.size,
      workloads: this.workloadEntries.size,
      nodes: this.nodeEntries.size,
      trees: this.trees.size,
      cachedChains: this.chainCache.size,
    };
  }
}
