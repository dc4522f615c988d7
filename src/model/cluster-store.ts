// The incremental cluster store the engine feeds with watch events: apply()
// updates the indexes and records what an event touches, flush() recomputes
// exactly that (src/model/README.md, Incremental store). It composes the
// ownership graph, tree maintenance, node summaries, DRA objects and the
// definitions' plans, each a file of its own; what stays here (over 650 lines)
// is where every kind's events meet and the order they are applied in.
import { type Definition, type Gvk, gvkKey, gvkOf } from '../definitions/types.js';
import type {
  KubeObject,
  WorkloadTree,
  NodeSummary,
  ClusterTotals,
  NodePodEntry,
  OrphanPod,
  PodSummary,
} from './types.js';
import type { DefinitionPlan } from './plan.js';
import { DefinitionPlans } from './definition-plans.js';
import { describeFailure, type ExprCompiler, type ExprError } from './expr.js';
import { summarisePod, isTerminalPhase, recentRestartEnds } from './pod-status.js';
import { naturalCompare } from './order.js';
import { controllerUidOf } from './ownership.js';
import { totalsOf, type NodePodLoad } from './nodes.js';
import { deepEqual } from './equal.js';
import {
  gpuAccounting,
  podGpuRequest,
  podGpuResources,
  type GpuResourceMatcher,
  addGpuResources,
  gpuSlicesOf,
} from './gpu.js';
import { UidSet, addTo, removeFrom } from './uid-set.js';
import { carriedAttributions } from './attributions.js';
import { OwnershipGraph, POD_GVK, refKindKey } from './ownership-graph.js';
import { NodeSummaries } from './node-summaries.js';
import { TreeMaintenance, workloadName } from './tree-maintenance.js';
import { newWorkCounters, type WorkCounters } from './work-counters.js';
import type { PodEntry, StoreEventType, StoreKind, WorkloadEntry } from './cluster-store-entries.js';
import { newPodRecord, nextRecord, podBefore, type PodState } from './pod-record.js';
import { DraObjects, isDraKind, DRA_KINDS } from './dra-objects.js';
import { claimGpusByClaim, draGpuResources, resourceTotal, type DraCapacity } from './dra.js';
import { nodePodEntries, PodsByNodeIndex } from './pods-on-node.js';
import { outsidePending, slimPod, type OutsidePod } from './outside-pods.js';

export type { StoreKind, StoreEventType } from './cluster-store-entries.js';

export interface FlushResult {
  /** uids of workloads whose tree is new or changed (new identity). */
  changedWorkloads: string[];
  /** uids of workloads that no longer have a tree (deleted, nested, or their definition went away). */
  removedWorkloads: string[];
  nodesChanged: boolean;
}

export interface ClusterStoreOptions {
  definitions: Definition[];
  /** Compiles the definitions' expressions: the engine's, shared with its pre-flight (preflight.ts); default a new one. */
  exprs?: ExprCompiler;
  gpuResources?: string[];
  /** Default true: also build trees of nested workloads (see OwnershipGraph.place). */
  buildNested?: boolean;
  /** The clock pods' "restarted recently" is read against (tests); default Date.now. */
  now?: () => number;
  /**
   * `-n`'s namespaces: pods of other namespaces count on their nodes (GPU
   * requests, pod counts, pending GPUs) and are offered to the exporter
   * search, but belong to no workload, list or orphan. Absent: every namespace.
   */
  viewNamespaces?: readonly string[];
  /** Test seams: counters incremented as the store works, and the graph it keeps (tests read its indexes). */
  counters?: WorkCounters;
  graph?: OwnershipGraph;
}

const POD_KEY = gvkKey(POD_GVK);
const NO_WORKLOADS: string[] = [];

/** Most recent malformed-object reports kept for problems(). */
const MAX_MALFORMED = 50;

function gvkOfObject(obj: KubeObject): string | null {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return null;
  return gvkKey(gvkOf(obj.apiVersion, obj.kind));
}

function sameList(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class ClusterStore {
  private readonly gpuResources: readonly string[];
  /** GPU kinds by resource name: the built-in ones plus `--gpu-resource`'s. */
  private readonly gpuKinds: GpuResourceMatcher;
  private readonly plans: DefinitionPlans;
  /** Pods with a controller whose chain reaches no workload: orphans when that chain ends at a missing owner. */
  private readonly orphanCandidates = new Set<string>();
  /** Its trees' pods by node, for the node view (getNodePods). */
  private readonly podsByNode = new PodsByNodeIndex();
  /** orphanPods() as of the last change that may alter it; null: work it out again. */
  private orphans: OrphanPod[] | null = [];
  /** Pods no defined workload holds (their chain reaches none with a plan): the node view lists them alone. */
  private readonly unheldPods = new Set<string>();
  /** podsWithoutWorkload() as of the last change to it; null: work it out again. */
  private unheldList: PodSummary[] | null = [];
  /** The bare Pod definition's plan: pods nobody controls are then workloads of their own. */
  private podPlan: DefinitionPlan | null = null;
  private readonly buildNested: boolean;

  private readonly graph: OwnershipGraph;
  /** Workload uids by GVK key (to re-plan them on a definitions hot reload). */
  private readonly workloadsByGvk = new Map<string, Set<string>>();
  private readonly nodeSummaries: NodeSummaries;
  private readonly trees: TreeMaintenance;
  private pendingGpus = 0;
  private malformed: string[] = [];
  /** resource.k8s.io objects and the pods naming each claim. */
  private readonly dra = new DraObjects();
  /** Kueue Topology objects by name, and their levels until the next Topology event. */
  private readonly topologies = new Map<string, KubeObject>();
  private topologyLevels: string[][] | null = null;

  /** `-n`'s namespaces (see ClusterStoreOptions.viewNamespaces); null: all. */
  private readonly view: ReadonlySet<string> | null;
  /** Pods outside the view, by uid: what their nodes count, and a slim copy (slimPod). */
  private readonly outsidePods = new Map<string, OutsidePod>();

  private readonly now: () => number;
  /** Pods whose last restart is recent, and when it stops being (ms): their summaries are made again then. */
  private readonly recentRestarts = new Map<string, number>();
  /** No restart in recentRestarts stops being recent before this (ms; exact after expireRestarts, else lower). */
  private restartsExpireFrom = Infinity;

  private totalsCache: ClusterTotals | null = null;
  private problemList: string[] | null = null;
  /** trees.errorsVersion when problemList was made. */
  private problemsErrorsVersion = 0;

  constructor(options: ClusterStoreOptions) {
    this.plans = new DefinitionPlans(() => (this.problemList = null), options.exprs);
    this.buildNested = options.buildNested !== false;
    this.view = options.viewNamespaces?.length ? new Set(options.viewNamespaces) : null;
    this.now = options.now ?? Date.now;
    const gpus = gpuAccounting(options.gpuResources);
    this.gpuResources = gpus.counted;
    this.graph = options.graph ?? new OwnershipGraph();
    const work = options.counters ?? newWorkCounters();
    this.gpuKinds = gpus.isGpu;
    this.nodeSummaries = new NodeSummaries(this.gpuResources, work, (node) => this.dra.capacity().byNode.get(node));
    this.trees = new TreeMaintenance(
      this.graph,
      this.buildNested,
      this.gpuResources,
      work,
      (m) => this.reportMalformed(m),
      this.dra.lookup,
    );
    this.setDefinitions(options.definitions);
  }

  // ---------------------------------------------------------------- definitions

  /** Hot reload: workloads whose definition changed (or appeared/went) are re-planned at the next flush. */
  setDefinitions(definitions: Definition[]): void {
    let changed = this.plans.set(definitions);
    this.orphans = null;
    for (const [key, uids] of this.workloadsByGvk) {
      const after = this.plans.planFor(key);
      for (const uid of uids) {
        const e = this.graph.workloads.get(uid)!;
        if (e.plan === after) continue;
        changed = true;
        e.plan = after;
        e.facts = null;
        this.trees.definitionChanged(uid);
      }
    }
    const podPlan = this.plans.get(POD_KEY) ?? null;
    const podWorkloadsChange = (podPlan === null) !== (this.podPlan === null);
    this.podPlan = podPlan;
    if (podWorkloadsChange) {
      for (const e of this.graph.pods.values()) {
        if (e.controller !== null) continue;
        this.syncPodWorkload(e, true);
        this.resolvePod(e);
      }
    }
    this.trees.currentPlans = this.plans.current;
    this.problemList = null;
    // Node views name each pod's workload, which depends on which kinds are defined.
    if (changed) {
      this.nodeSummaries.touchAll();
      for (const e of this.graph.pods.values()) this.syncHeld(e);
    }
  }

  /**
   * Owner kinds still in their first list (the engine says which): a workload
   * whose chain leads into one gets no tree of its own until it has listed
   * (its parent is most likely coming: Jobs list before their JobSets).
   */
  setListingKinds(kinds: Iterable<Pick<Gvk, 'group' | 'kind'>>): void {
    this.graph.setListingKinds(kinds);
    if (this.orphanCandidates.size > 0) this.orphans = null;
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
          else if (this.view && !this.view.has(object.metadata.namespace ?? '')) this.upsertOutsidePod(object);
          else this.upsertPod(object);
          break;
        case 'node':
          if (type === 'DELETED') this.nodeSummaries.delete(object.metadata.name);
          else this.nodeSummaries.upsert(object);
          break;
        case 'owner':
          if (type === 'DELETED') this.deleteLink(object.metadata.uid, false);
          else this.upsertOwner(object, gvk);
          break;
        case 'workload':
          if (type === 'DELETED') this.deleteLink(object.metadata.uid, true);
          else this.upsertWorkload(object, gvk);
          break;
        case 'dra':
          this.applyDra(type, object, gvk);
          break;
        case 'topology':
          if (type === 'DELETED') this.topologies.delete(object.metadata.name);
          else this.topologies.set(object.metadata.name, object);
          this.topologyLevels = null;
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
        for (const [uid, e] of this.graph.pods) if (!keep.has(uid)) gone.push(e.obj);
        for (const [uid, o] of this.outsidePods) if (!keep.has(uid)) gone.push(o.obj);
        break;
      case 'node':
        for (const [name, obj] of this.nodeSummaries.names()) if (!keep.has(name)) gone.push(obj);
        break;
      case 'owner':
        for (const [uid, e] of this.graph.owners)
          if (!keep.has(uid) && (want === null || e.gvk === want)) gone.push(e.obj);
        break;
      case 'workload':
        for (const [uid, e] of this.graph.workloads)
          if (!keep.has(uid) && (want === null || e.gvk === want)) gone.push(e.obj);
        break;
      case 'dra':
        for (const k of DRA_KINDS)
          if (gvk === undefined || gvk.kind === k)
            for (const o of this.dra.objects(k)) if (!keep.has(o.metadata.uid)) gone.push(o);
        break;
      case 'topology':
        for (const o of this.topologies.values()) if (!keep.has(o.metadata.uid)) gone.push(o);
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
        stored = this.graph.pods.get(object.metadata.uid)?.obj ?? this.outsidePods.get(object.metadata.uid)?.obj;
        break;
      case 'node':
        stored = this.nodeSummaries.object(object.metadata.name);
        break;
      case 'owner':
        stored = this.graph.owners.get(object.metadata.uid)?.obj;
        break;
      case 'workload':
        stored = this.graph.workloads.get(object.metadata.uid)?.obj;
        break;
      case 'dra':
        stored = isDraKind(object.kind) ? this.dra.held(object.kind, object) : undefined;
        break;
      case 'topology':
        stored = this.topologies.get(object.metadata.name);
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
    const prev = this.graph.pods.get(uid);
    const summary = summarisePod(obj, this.gpuResources, this.now());
    this.addGpuFacts(uid, obj, summary);
    if (summary.recentRestart) {
      const ends = recentRestartEnds(summary)!;
      this.recentRestarts.set(uid, ends);
      if (ends < this.restartsExpireFrom) this.restartsExpireFrom = ends;
    } else this.recentRestarts.delete(uid);
    const controller = controllerUidOf(obj);
    const node = summary.node;
    const active = !isTerminalPhase(obj);

    this.graph.movePod(uid, prev ? prev.controller : null, controller);
    const prevNode = prev ? prev.node : null;
    if (prevNode !== node || !prev) this.nodeSummaries.movePod(uid, prevNode, node);
    if (prev) this.pendingGpus -= this.pendingOf(prev);

    const before = prev?.workloads ?? [];
    // What the trees hold of it until the next flush, taken before its state changes in place.
    const held = prev ? podBefore(prev) : null;
    const state: PodState = {
      obj,
      controller,
      workloads: before,
      active,
      attributed: prev ? carriedAttributions(prev.obj, prev.attributed, obj, this.plans.current) : null,
    };
    const entry = prev ? nextRecord(prev, summary, state) : newPodRecord(summary, state);
    if (entry !== prev) this.graph.pods.set(uid, entry);
    if (entry !== prev && this.unheldPods.has(uid)) this.unheldList = null;
    this.pendingGpus += this.pendingOf(entry);
    this.syncPodWorkload(entry, prev?.controller === null);
    this.resolvePod(entry);
    if (this.orphanCandidates.has(uid)) this.orphans = null;
    if (held && sameList(before, entry.workloads)) {
      this.trees.podModified(uid, held, entry.workloads);
    } else {
      // New, or moved between workloads: every workload it was or is in is rebuilt.
      for (const w of before) this.trees.rebuild(w);
      for (const w of entry.workloads) this.trees.rebuild(w);
    }

    if (
      !held ||
      prevNode !== node ||
      held.summary.gpus !== entry.gpus ||
      held.active !== active ||
      held.summary.gpuResources !== entry.gpuResources ||
      held.summary.draClaims !== entry.draClaims
    ) {
      this.nodeSummaries.touch(prevNode);
      this.nodeSummaries.touch(node);
    }
    // Objects controlled by this pod (rare, but LWS does it) resolve through it.
    if ((!prev || prev.controller !== controller) && this.graph.controlsLinks(uid)) this.invalidateBelow(uid);
  }

  /** A pod's GPUs by resource name and its DRA claims' (which count as its GPUs too; a group counts a shared claim once). */
  private addGpuFacts(
    uid: string,
    obj: KubeObject,
    into: Pick<PodSummary, 'gpus' | 'gpuResources' | 'gpuSlices' | 'draClaims'>,
  ): void {
    const byName = podGpuResources(obj.spec, this.gpuKinds);
    const claims = this.dra.podClaims(uid, obj);
    if (claims.length) {
      const dra = draGpuResources(claims);
      addGpuResources(byName, dra);
      into.gpus += resourceTotal(dra);
      const byClaim = claimGpusByClaim(claims);
      if (Object.keys(byClaim).length) into.draClaims = byClaim;
    }
    if (Object.keys(byName).length) {
      into.gpuResources = byName;
      const slices = gpuSlicesOf(byName, this.gpuResources);
      if (slices) into.gpuSlices = slices;
    }
  }

  /** A pod outside `-n`'s namespaces: counted on its node, nothing else. */
  private upsertOutsidePod(full: KubeObject): void {
    const uid = full.metadata.uid;
    const prev = this.outsidePods.get(uid);
    const facts: Pick<PodSummary, 'gpus' | 'gpuResources' | 'gpuSlices' | 'draClaims'> = {
      gpus: podGpuRequest(full.spec, this.gpuResources),
    };
    this.addGpuFacts(uid, full, facts);
    const nodeName = full.spec?.['nodeName'];
    const node = typeof nodeName === 'string' && nodeName !== '' ? nodeName : null;
    const load: NodePodLoad = {
      gpus: facts.gpus,
      active: !isTerminalPhase(full),
      workload: null,
      ...(facts.gpuResources ? { resources: facts.gpuResources } : {}),
      ...(facts.draClaims ? { claims: facts.draClaims } : {}),
    };
    const next: OutsidePod = { obj: slimPod(full), node, load };
    this.outsidePods.set(uid, next);
    const prevNode = prev ? prev.node : null;
    if (!prev || prevNode !== node) this.nodeSummaries.movePod(uid, prevNode, node);
    if (prev) this.pendingGpus -= outsidePending(prev);
    this.pendingGpus += outsidePending(next);
    if (!prev || prevNode !== node || !deepEqual(prev.load, load)) {
      this.nodeSummaries.touch(prevNode);
      this.nodeSummaries.touch(node);
    }
  }

  private deleteOutsidePod(uid: string): void {
    const o = this.outsidePods.get(uid);
    if (!o) return;
    this.outsidePods.delete(uid);
    this.dra.podClaims(uid, null);
    this.pendingGpus -= outsidePending(o);
    if (o.node) {
      this.nodeSummaries.movePod(uid, o.node, null);
      this.nodeSummaries.touch(o.node);
    }
  }

  private deletePod(uid: string): void {
    const e = this.graph.pods.get(uid);
    if (!e) return this.deleteOutsidePod(uid);
    this.recentRestarts.delete(uid);
    this.dra.podClaims(uid, null);
    this.graph.pods.delete(uid);
    this.graph.movePod(uid, e.controller, null);
    const node = e.node;
    if (node) {
      this.nodeSummaries.movePod(uid, node, null);
      this.nodeSummaries.touch(node);
    }
    this.pendingGpus -= this.pendingOf(e);
    for (const w of e.workloads) {
      this.graph.workloads.get(w)?.pods.delete(uid);
      this.trees.rebuild(w);
    }
    if (e.controller === null && this.graph.workloads.has(uid)) this.deleteLink(uid, true);
    if (this.orphanCandidates.delete(uid)) this.orphans = null;
    if (this.unheldPods.delete(uid)) this.unheldList = null;
    if (this.graph.controlsLinks(uid)) this.invalidateBelow(uid);
  }

  private pendingOf(e: PodEntry): number {
    return e.active && e.node === null ? e.gpus : 0;
  }

  /**
   * With a Pod definition, a pod nobody controls is also a workload (same uid,
   * same object); adopted or without that definition, it is not. `mayBeOne`:
   * it may be one now (the only case that looks it up for a controlled pod).
   */
  private syncPodWorkload(e: PodEntry, mayBeOne: boolean): void {
    if (e.controller === null && this.podPlan !== null) this.upsertWorkload(e.obj, POD_GVK);
    else if (mayBeOne && this.graph.workloads.has(e.uid)) this.deleteLink(e.uid, true);
  }

  /** Re-reads which workloads the pod's controller chain reaches; moves it between workloads if that changed. */
  private resolvePod(e: PodEntry): void {
    // A bare Pod workload holds itself: its chain starts above it and never reaches its uid.
    const next = e.controller
      ? this.graph.chainWorkloads(e.controller)
      : this.graph.workloads.has(e.uid)
        ? [e.uid]
        : NO_WORKLOADS;
    if (next.length === 0 && e.controller !== null) {
      if (!this.orphanCandidates.has(e.uid)) {
        this.orphanCandidates.add(e.uid);
        this.orphans = null;
      }
    } else if (this.orphanCandidates.size > 0 && this.orphanCandidates.delete(e.uid)) this.orphans = null;
    if (sameList(next, e.workloads)) {
      for (const w of next) this.graph.workloads.get(w)?.pods.add(e.uid);
      this.syncHeld(e);
      return;
    }
    for (const w of e.workloads) {
      if (next.includes(w)) continue;
      this.graph.workloads.get(w)?.pods.delete(e.uid);
      this.trees.rebuild(w);
    }
    for (const w of next) {
      this.graph.workloads.get(w)?.pods.add(e.uid);
      this.trees.rebuild(w);
    }
    e.workloads = next;
    this.syncHeld(e);
    this.nodeSummaries.touch(e.node);
  }

  /** Keeps `unheldPods` in step with the pod's workloads (and its summary in the list). */
  private syncHeld(e: PodEntry): void {
    const unheld = this.topWorkload(e) === null;
    if (unheld !== this.unheldPods.has(e.uid)) {
      if (unheld) this.unheldPods.add(e.uid);
      else this.unheldPods.delete(e.uid);
      this.unheldList = null;
    }
  }

  // ---------------------------------------------------------------- DRA

  /** A claim or template re-reads the pods naming it; a slice or class every node's capacity. */
  private applyDra(type: StoreEventType, obj: KubeObject, gvk?: Gvk): void {
    const kind = gvk?.kind ?? obj.kind;
    if (!isDraKind(kind)) {
      this.reportMalformed(`skipped resource.k8s.io object${this.describeObject(obj)}: unknown kind ${String(kind)}`);
      return;
    }
    const change = this.dra.apply(kind, type === 'DELETED', obj);
    if (change.capacity) this.nodeSummaries.touchAll();
    if (kind === 'ResourceClaimTemplate')
      this.trees.draTemplateChanged(`${obj.metadata.namespace ?? ''}/${obj.metadata.name}`);
    for (const uid of change.pods) {
      const e = this.graph.pods.get(uid);
      if (e) this.upsertPod(e.obj);
      const o = this.outsidePods.get(uid);
      if (o) this.upsertOutsidePod(o.obj);
    }
  }

  /** GPU capacity per node from ResourceSlices (memoised until the next slice or class event). */
  draCapacity(): DraCapacity {
    return this.dra.capacity();
  }

  /**
   * Each Kueue Topology's node labels, most general first (spec.levels[].nodeLabel),
   * by Topology name.
   */
  kueueTopologyLevels(): string[][] {
    return (this.topologyLevels ??= [...this.topologies.values()]
      .sort((a, b) => naturalCompare(a.metadata.name, b.metadata.name))
      .map((t) => {
        const levels = Array.isArray(t.spec?.['levels']) ? (t.spec['levels'] as unknown[]) : [];
        return levels.flatMap((l) => {
          const label = (l as { nodeLabel?: unknown } | null)?.nodeLabel;
          return typeof label === 'string' && label !== '' ? [label] : [];
        });
      }));
  }

  // ---------------------------------------------------------------- owners and workloads

  private upsertOwner(obj: KubeObject, gvk?: Gvk): void {
    const uid = obj.metadata.uid;
    const prev = this.graph.owners.get(uid);
    const controller = controllerUidOf(obj);
    const key = gvk ? gvkKey(gvk) : (gvkOfObject(obj) ?? prev?.gvk ?? '');
    this.graph.owners.set(uid, { uid, obj, gvk: key, controller });
    if (!prev || prev.controller !== controller) this.relink(uid, prev?.controller ?? null, controller, !prev);
  }

  private upsertWorkload(obj: KubeObject, gvk?: Gvk): void {
    const uid = obj.metadata.uid;
    const prev = this.graph.workloads.get(uid);
    const controller = controllerUidOf(obj);
    const key = gvk ? gvkKey(gvk) : (gvkOfObject(obj) ?? prev?.gvk ?? '');
    if (prev && prev.gvk !== key) removeFrom(this.workloadsByGvk, prev.gvk, uid);
    addTo(this.workloadsByGvk, key, uid);
    const plan = this.plans.planFor(key);
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
    this.graph.workloads.set(uid, entry);
    if (refresh) this.trees.refresh(uid);
    else this.trees.rebuild(uid);
    // A new workload changes the chains below it even if its controller did not.
    if (!prev || prev.controller !== controller) this.relink(uid, prev?.controller ?? null, controller, true);
  }

  private deleteLink(uid: string, isWorkload: boolean): void {
    if (isWorkload) {
      const e = this.graph.workloads.get(uid);
      if (!e) return;
      this.graph.workloads.delete(uid);
      removeFrom(this.workloadsByGvk, e.gvk, uid);
      this.trees.rebuild(uid);
      if (!this.graph.owners.has(uid)) this.graph.moveLink(uid, e.controller, null);
    } else {
      const e = this.graph.owners.get(uid);
      if (!e) return;
      this.graph.owners.delete(uid);
      if (!this.graph.workloads.has(uid)) this.graph.moveLink(uid, e.controller, null);
    }
    this.invalidateBelow(uid);
  }

  private relink(uid: string, before: string | null, after: string | null, invalidate: boolean): void {
    if (this.graph.moveLink(uid, before, after) || invalidate) this.invalidateBelow(uid);
  }

  /** Chains through `uid` changed: the pods below are resolved again, the workloads below rebuilt. */
  private invalidateBelow(uid: string): void {
    // An owner came or went: an orphan candidate's chain may now end elsewhere.
    if (this.orphanCandidates.size > 0) this.orphans = null;
    const pods = this.graph.invalidateBelow(uid, (w) => this.trees.rebuild(w));
    for (const p of pods) {
      const e = this.graph.pods.get(p);
      if (e) this.resolvePod(e);
    }
  }

  // ---------------------------------------------------------------- flush

  /** Recompute only what the applied events touched since the last flush; returns what changed. */
  flush(): FlushResult {
    this.expireRestarts();
    let { changed, removed } = this.trees.flush();
    if (this.reevaluateBroken()) {
      const again = this.trees.flush();
      changed = [...new Set([...changed, ...again.changed])];
      removed = [...removed, ...again.removed];
    }
    const nodesChanged = this.nodeSummaries.flush((name) => this.nodeLoads(name));
    const totals = totalsOf(this.nodes(), this.podCount(), this.pendingGpus);
    if (!this.totalsCache || !deepEqual(this.totalsCache, totals)) this.totalsCache = totals;
    return { changedWorkloads: changed, removedWorkloads: removed, nodesChanged };
  }

  /** Pods whose last restart stopped being recent are summarised again (their workloads may stop being Degraded). */
  private expireRestarts(): void {
    if (!this.recentRestarts.size) return;
    const now = this.now();
    // Under churn thousands of pods restarted recently: they are looked through only when one expires.
    if (this.restartsExpireFrom > now) return;
    for (const [uid, ends] of this.recentRestarts) {
      if (ends > now) continue;
      const e = this.graph.pods.get(uid);
      if (e) this.upsertPod(e.obj);
      else this.recentRestarts.delete(uid);
    }
    this.restartsExpireFrom = Infinity;
    for (const ends of this.recentRestarts.values()) if (ends < this.restartsExpireFrom) this.restartsExpireFrom = ends;
  }

  /** When the next pod's restart stops being recent (ms), or null: the engine flushes again then. */
  nextRestartExpiry(): number | null {
    // A lower bound at worst (a pod that set it may have gone): a flush then finds nothing expired and sets it exactly.
    return this.recentRestarts.size > 0 && this.restartsExpireFrom !== Infinity ? this.restartsExpireFrom : null;
  }

  // A definition broken during this flush (over the jq budget, expr.ts): its
  // workloads are evaluated once more, failing at once, so every one shows why.
  private readonly reevaluated = new WeakSet<DefinitionPlan>();
  private reevaluateBroken(): boolean {
    let any = false;
    for (const plan of this.plans.current) {
      if (!plan.health.broken || this.reevaluated.has(plan)) continue;
      this.reevaluated.add(plan);
      for (const uid of this.workloadsByGvk.get(gvkKey(plan.definition.rootGvk)) ?? []) {
        this.graph.workloads.get(uid)!.facts = null;
        this.trees.definitionChanged(uid);
        any = true;
      }
    }
    return any;
  }

  /** Definitions broken by an evaluation over the jq budget: name → the failure. */
  brokenDefinitions(): Map<string, ExprError> {
    const out = new Map<string, ExprError>();
    for (const plan of this.plans.current) if (plan.health.broken) out.set(plan.definition.name, plan.health.broken);
    return out;
  }

  /** The outermost defined workload a pod belongs to (LWS rather than its StatefulSet). */
  private topWorkload(p: PodEntry): WorkloadEntry | null {
    for (let i = p.workloads.length - 1; i >= 0; i--) {
      const w = this.graph.workloads.get(p.workloads[i]);
      if (w && w.plan) return w;
    }
    return null;
  }

  private *nodeLoads(name: string): Generator<NodePodLoad> {
    for (const uid of this.nodeSummaries.podsOn(name)) {
      const p = this.graph.pods.get(uid);
      if (!p) {
        const o = this.outsidePods.get(uid);
        if (o) yield o.load;
        continue;
      }
      const w = this.topWorkload(p);
      yield {
        gpus: p.gpus,
        active: p.active,
        workload: w ? workloadName(w) : null,
        resources: p.gpuResources,
        claims: p.draClaims,
      };
    }
  }

  // ---------------------------------------------------------------- reads

  /** Trees as of the last flush, by kind, namespace, name. */
  workloads(): WorkloadTree[] {
    return this.trees.workloads();
  }

  /** The tree of one workload as of the last flush. */
  workload(uid: string): WorkloadTree | undefined {
    return this.trees.get(uid);
  }

  nodes(): NodeSummary[] {
    return this.nodeSummaries.nodes();
  }

  /** Totals as of the last flush (same object while they do not change). */
  totals(): ClusterTotals {
    if (!this.totalsCache) this.totalsCache = totalsOf(this.nodes(), this.podCount(), this.pendingGpus);
    return this.totalsCache;
  }

  /**
   * Pods no workload shows because an owner on their controller chain is not
   * visible (absent, or its kind forbidden or not served), by namespace and
   * name. Only chains through kinds the definitions use count (a DaemonSet's
   * pods are no one's workload, not orphans), and none while such a kind is
   * still in its first list (owners may be on their way; during the initial
   * sync most pods briefly reach no workload, so nothing is worked out then).
   */
  orphanPods(): OrphanPod[] {
    if (this.orphans) return this.orphans;
    if (this.graph.anyListing(this.plans.chainKinds)) return [];
    const out: OrphanPod[] = [];
    for (const uid of this.orphanCandidates) {
      const p = this.graph.pods.get(uid);
      if (!p || p.workloads.length > 0) continue;
      const ref = this.graph.missingOwner(p);
      if (!ref) continue;
      const kindKey = refKindKey(ref);
      if (!this.plans.chainKinds.has(kindKey)) continue;
      out.push({ ...p, owner: { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name } });
    }
    out.sort((a, b) => naturalCompare(a.namespace, b.namespace) || naturalCompare(a.name, b.name));
    this.orphans = out;
    return out;
  }

  /** Pods held, outside the view too (the cluster's figures count them). */
  private podCount(): number {
    return this.graph.pods.size + this.outsidePods.size;
  }

  /** The trimmed object held of pod `uid` in the view (outside it only a slimmed copy is held). */
  podObject(uid: string): KubeObject | undefined {
    return this.graph.pods.get(uid)?.obj;
  }

  /** Every pod object held, outside the view too (the GPU scraper finds its exporters among them). */
  *podObjects(): Generator<KubeObject> {
    for (const e of this.graph.pods.values()) yield e.obj;
    for (const o of this.outsidePods.values()) yield o.obj;
  }

  /** The workload objects held of a kind, any version (the definitions' pre-flight evaluates over them). */
  *workloadObjects(gvk: Pick<Gvk, 'group' | 'kind'>): Generator<KubeObject> {
    for (const e of this.graph.workloads.values()) {
      const held = gvkOf(e.obj.apiVersion ?? '', e.obj.kind ?? '');
      if (held.group === gvk.group && held.kind === gvk.kind) yield e.obj;
    }
  }

  /**
   * Pods no defined workload holds (a DaemonSet's, orphans, bare pods
   * without the Pod definition), by namespace and name; the same array while
   * none of them changed.
   */
  podsWithoutWorkload(): PodSummary[] {
    if (!this.unheldList) {
      const out: PodSummary[] = [];
      for (const uid of this.unheldPods) {
        const p = this.graph.pods.get(uid);
        if (p) out.push(p);
      }
      this.unheldList = out.sort((a, b) => naturalCompare(a.namespace, b.namespace) || naturalCompare(a.name, b.name));
    }
    return this.unheldList;
  }

  /** The trees of workloads no other defined workload controls (all of them unless nested trees are built). */
  private topLevelTrees(): WorkloadTree[] {
    const all = this.workloads();
    if (!this.buildNested) return all;
    return all.filter((t) => {
      const e = this.graph.workloads.get(t.uid);
      return !e || !this.graph.isNested(e);
    });
  }

  /** Pods bound to a node, with the outermost defined workload each belongs to (model/pods-on-node.ts). */
  getNodePods(nodeName: string): NodePodEntry[] {
    return nodePodEntries(nodeName, this.topLevelTrees(), this.podsWithoutWorkload(), this.podsByNode);
  }

  /**
   * Definition problems (expressions that do not compile...), per-object
   * evaluation problems of every workload (which workload, component, field,
   * expression, error), and malformed objects skipped.
   */
  problems(): string[] {
    if (!this.problemList || this.problemsErrorsVersion !== this.trees.errorsVersion) {
      const list = [...this.plans.problems, ...this.plans.warnings()];
      for (const [name, err] of this.brokenDefinitions())
        list.push(describeFailure(`definition ${name}`, err.expr, err.message));
      for (const t of this.workloads()) list.push(...t.errors);
      list.push(...this.malformed);
      this.problemList = list;
      this.problemsErrorsVersion = this.trees.errorsVersion;
    }
    return this.problemList;
  }
}
