// The cluster engine: access → discovery → one reflector per kind → the
// model's ClusterStore, with watch events coalesced into batches, and the
// ModelSource the UI reads. This file is lifecycle and wiring; the parts are
// kinds.ts (what to watch), kind-watchers.ts (discovery and reflectors),
// flush-scheduler.ts (when to flush) and snapshot.ts (what the UI gets).
//
// Startup order matters: the cluster's Karta definitions are listed first so
// that types defined only in the cluster (a TFJob Karta, say) are watched from
// the start. Later Karta changes are hot-reloaded (precedence cluster > file >
// builtin, decided by the definitions module) and may start new reflectors.
import { type Definition, type Gvk, gvkKey, gvkOf } from '../definitions/types.js';
import type { ModelSource, ObjectAccess } from '../model/source.js';
import type {
  AccessScope,
  ClusterConnection,
  ConnectionInfo,
  GpuMetrics,
  KubeObject,
  ModelSnapshot,
  NodePodEntry,
  OrphanPod,
  WorkloadTree,
  PodNode,
  IdleRule,
  ResourceInfo,
} from '../model/types.js';
import { ClusterStore } from '../model/cluster-store.js';
import { POD_GVK } from '../model/ownership-graph.js';
import { preflightDefinitions } from '../model/preflight.js';
import { ExprCompiler } from '../model/expr.js';
import { SchedulingIndex } from '../model/scheduling/index.js';
import { MultiKueueIndex } from '../model/fleet/multikueue.js';
import { nodesFromPods } from '../model/nodes-from-pods.js';
import { QueuePositions } from './queue-positions.js';
import { DcgmScraper } from './dcgm-scrape.js';
import { DEFAULT_IDLE_RULE, indexReadings } from '../model/utilisation.js';
import { Discovery, serverVersion } from './discovery.js';
import { Backoff } from './backoff.js';
import type { WatchEventType } from './reflector.js';
import { describeFailure } from './client.js';
import { matchesSelector, parseLabelSelector, type Requirement } from './selector.js';
import { DEFINITION_GVKS, wantedKinds } from './kinds.js';
import { unreadableNamespaceText } from '../model/namespace-access.js';
import { KindWatchers, type EnsureResult, type Watched } from './kind-watchers.js';
import { FlushScheduler, heldWatch } from './flush-scheduler.js';
import {
  ProblemLog,
  ProblemTimes,
  assembleSnapshot,
  TopologyKeysMemo,
  namespaceNotice,
  summariseConnection,
  type PendingConnection,
} from './snapshot.js';
import type { DefinitionSetLike, EngineOptions, ModelStoreLike } from './engine-types.js';
import { createAccess } from './access.js';

export type { DefinitionSetLike, EngineOptions, ModelStoreLike } from './engine-types.js';

export async function startEngine(options: EngineOptions): Promise<ClusterEngine> {
  const engine = new ClusterEngine(options);
  await engine.start();
  return engine;
}

export class ClusterEngine implements ModelSource {
  /** On-demand reads over the engine's transport. */
  readonly access: ObjectAccess;
  private readonly discovery: Discovery;
  private readonly store: ModelStoreLike;
  /** Kueue / KAI / Volcano / Workload API objects (few: one per job), beside the store. */
  private readonly schedulingIndex: SchedulingIndex;
  private readonly positions: QueuePositions;
  /** The index's version when the last snapshot was built. */
  private schedulingVersion = -1;
  private readonly topologyKeysMemo = new TopologyKeysMemo();
  /** Kueue Workloads and MultiKueue's objects: where jobs were dispatched, copies from a manager. */
  private readonly multiKueue = new MultiKueueIndex();
  private multiKueueVersion = -1;
  private readonly watchers: KindWatchers;
  private readonly scheduler: FlushScheduler;
  private readonly listeners = new Set<(s: ModelSnapshot) => void>();
  private readonly kartas = new Map<string, unknown>();
  /** Parsed `labelSelector`, applied to workloads here too (intermediate kinds are listed whole). */
  private readonly selector: Requirement[] | null;
  /** Workloads the label selector rules out (they still link owner chains). */
  private readonly unselected = new Set<string>();
  /** Bumped when `unselected` changes (memo of visibleWorkloads). */
  private selectionVersion = 0;
  private visibleMemo: { from: WorkloadTree[]; version: number; out: WorkloadTree[] } | null = null;
  private readonly problems = new ProblemLog();
  private readonly problemTimes = new ProblemTimes();
  private defs: DefinitionSetLike;
  private serverVersionText: string | null = null;
  private snapshot: ModelSnapshot;
  private version = 0;
  private stopped = false;
  private kartaSynced = false;
  /** Every wanted kind has been started and listed once (the connection is not live before). */
  private bootstrapped = false;
  /** Bumped by every hot reload: a pre-flight overtaken by a newer one is dropped. */
  private reloads = 0;
  private syncing: Promise<void> | undefined;
  private readonly pauses = new Set<() => void>();
  private kindsStarted = false;
  /** Discovery's failure while it is retried (before or besides the reflectors'). */
  private pending: PendingConnection | null = null;
  private connection: ClusterConnection | null = null;
  private readonly dcgm: DcgmScraper;
  /** The last scrape, joined by pod and node (absent before the first). */
  private gpuMetrics: GpuMetrics | undefined;
  /** Where the user may read when some `-n` namespace may not be (probeReadableNamespaces); null: not asked. */
  private readableNamespaces: string[] | null = null;
  /** The definitions' expressions, compiled for this engine's store and its pre-flight (what one learns serves the other). */
  private readonly exprs = new ExprCompiler();

  constructor(private readonly options: EngineOptions) {
    this.discovery = new Discovery(options.transport);
    this.access = createAccess(options.transport);
    this.defs = options.definitions;
    this.selector = options.labelSelector ? parseLabelSelector(options.labelSelector) : null;
    const view = options.namespaces?.length
      ? options.namespaces
      : options.namespace !== null
        ? [options.namespace]
        : [];
    const storeOptions = {
      definitions: this.defs.definitions,
      exprs: this.exprs,
      gpuResources: options.gpuResources,
      buildNested: options.includeNested === true,
      // Pods are read cluster-wide (kind-watchers.ts): those outside `-n` count on their nodes only.
      ...(view.length ? { viewNamespaces: view } : {}),
    };
    this.store = options.createStore ? options.createStore(storeOptions) : new ClusterStore(storeOptions);
    this.scheduler = new FlushScheduler(options.flushIntervalMs ?? 80, () => this.flushWork(), options.flushHold);
    this.schedulingIndex = new SchedulingIndex(options.gpuResources);
    this.positions = new QueuePositions(
      options.transport,
      this.schedulingIndex,
      () => this.scheduler.markDirty(),
      (message) => this.addProblem(message),
    );
    const idle: IdleRule = { ...DEFAULT_IDLE_RULE, windowMs: options.idleAfterMs ?? DEFAULT_IDLE_RULE.windowMs };
    this.dcgm = new DcgmScraper(
      options.transport,
      () => this.store.podObjects?.() ?? [],
      (state) => {
        if (state.scrapedAt === null) return;
        this.gpuMetrics = {
          readings: indexReadings(state.readings),
          notice: state.notice,
          scrapedAt: state.scrapedAt,
          idle,
        };
        this.scheduler.markDirty();
      },
      {
        selector: options.dcgmSelector,
        prometheus: options.prometheus,
        idle,
        ...(options.gpuScrapeIntervalMs !== undefined ? { intervalMs: options.gpuScrapeIntervalMs } : {}),
      },
    );
    this.watchers = new KindWatchers(options, this.discovery, {
      onEvent: (w, type, object) => this.onEvent(w, type, object),
      previousPod: (uid) => this.store.podObject?.(uid),
      // Once every kind has listed, a held engine's watches open at its release (its churn waits at the
      // server, as a lone engine's pods' churn waits during their list), not event by event meanwhile.
      beforeWatch: (listStartedAt, signal) =>
        this.kindsStarted && this.watchers.allListed()
          ? heldWatch(this.options.flushHold, listStartedAt, signal)
          : Promise.resolve(),
      onState: (_w, state) => this.scheduler.markDirty(state === 'live'),
      onProblem: (w, message) => {
        // A forbidden kind is reported from its state (see snapshot.ts).
        if (w.reflector.state !== 'forbidden') this.problems.add(message);
        this.scheduler.markDirty();
      },
      onRoleChange: (role, tombstones) => {
        if (role === 'definition') return;
        for (const tomb of tombstones)
          if (role === 'scheduling') {
            this.schedulingIndex.apply('DELETED', tomb);
            this.multiKueue.apply('DELETED', tomb);
          } else this.store.apply(role, 'DELETED', tomb);
        this.scheduler.markDirty();
      },
      onKindsChanged: () => this.scheduler.markDirty(),
    });
    this.snapshot = this.buildSnapshot([]);
  }

  // ---- ModelSource -------------------------------------------------------

  getSnapshot(): ModelSnapshot {
    return this.snapshot;
  }

  subscribe(listener: (snapshot: ModelSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getNodePods(nodeName: string): NodePodEntry[] {
    return this.store.getNodePods(nodeName);
  }

  getConnectionInfo(): ConnectionInfo {
    return { ...this.options.connection, namespace: this.options.namespace, serverVersion: this.serverVersionText };
  }

  definitions(): Definition[] {
    return this.defs.definitions;
  }

  holdGpuMetrics(): () => void {
    // Exporters are found among the pods: before they are listed, none would be.
    let release: (() => void) | undefined;
    let released = false;
    void this.whenSynced().then(() => {
      if (!released && !this.stopped) release = this.dcgm.acquire();
    });
    return () => {
      released = true;
      release?.();
    };
  }

  async scrapeGpuMetrics(): Promise<void> {
    await this.dcgm.scrapeOnce();
    this.flushWork();
  }

  holdQueuePositions(): () => void {
    return this.positions.hold();
  }

  /** Asks the queue positions once (`wlx get`). */
  async refreshQueuePositions(): Promise<void> {
    await this.positions.refresh();
    this.flushWork();
  }

  resources(): ResourceInfo[] {
    return this.watchers.resources();
  }

  kubeconfigPath(): string | undefined {
    return this.options.kubeconfigPath;
  }

  /** Every pod is in every snapshot here: only the engine worker leaves some out. */
  setPodScope(): void {}

  /** uid → resourceVersion of every object held, per kind label (for consistency checks). */
  inventory(): Map<string, Map<string, string>> {
    return this.watchers.inventory();
  }

  whenSynced(): Promise<void> {
    return this.syncing ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const wake of this.pauses) wake();
    this.pauses.clear();
    this.scheduler.stop();
    if (this.restartTimer) clearTimeout(this.restartTimer.timer);
    this.positions.stop();
    this.dcgm.stop();
    await this.watchers.stop();
    this.listeners.clear();
    await this.options.onStop?.();
  }

  // ---- startup -----------------------------------------------------------

  async start(): Promise<void> {
    const watch = this.options.watch !== false;
    try {
      this.serverVersionText = await serverVersion(this.options.transport);
    } catch (err) {
      // In list-only mode an unreachable server is an error; live, discovery
      // and the reflectors keep retrying (the UI shows the state meanwhile).
      if (!watch) throw err;
      this.pending = { cause: describeFailure(err), since: new Date().toISOString() };
    }
    this.syncing = this.bootstrap();
    if (!watch) {
      await this.syncing;
      return;
    }
    // whenSynced() reports failures; keep an unhandled rejection from killing the process meanwhile.
    this.syncing.catch(() => undefined);
  }

  /** Karta definitions first (so their kinds are watched from the start), then every wanted kind. */
  private async bootstrap(): Promise<void> {
    const backoff = new Backoff({ initialMs: 500, maxMs: 30_000, factor: 2, jitter: 0.3 });
    let definitionInfos: ResourceInfo[] = [];
    for (;;) {
      const result = await this.discovery.resolve(DEFINITION_GVKS);
      definitionInfos = DEFINITION_GVKS.flatMap((g) => result.found.get(gvkKey(g)) ?? []);
      const miss = [...result.missing.values()].find((m) => m.state === 'error');
      if (!miss) break;
      if (this.options.watch === false) throw new Error(miss.message);
      await this.retryDiscovery(miss.cause, backoff.next());
      if (this.stopped) return;
    }
    this.settleDiscovery();
    // Kartas and the older ResourceInterfaces alike (the engine keeps both by uid).
    const firstSyncs = definitionInfos.map((info) => this.watchers.watch(info, 'definition').firstSync);
    const kartaError = (await Promise.all(firstSyncs)).find((e) => e !== null);
    if (kartaError && !this.stopped) throw kartaError;
    this.kartaSynced = true;
    if (this.kartas.size) this.reloadDefinitions();
    const syncs: Promise<Error | null>[] = [];
    backoff.reset();
    this.kindsStarted = true;
    for (;;) {
      const { started, retry, cause } = await this.ensureKinds();
      syncs.push(...started);
      if (!retry || this.stopped) break;
      await this.retryDiscovery(cause, backoff.next());
    }
    this.settleDiscovery();
    if (this.serverVersionText === null && !this.stopped) {
      this.serverVersionText = await serverVersion(this.options.transport).catch(() => null);
    }
    const errors = (await Promise.all(syncs)).filter((e): e is Error => e !== null);
    if (errors.length && !this.stopped) throw errors[0];
    await this.probeReadableNamespaces();
    this.bootstrapped = true;
    // The connection turns live with this flush, even when nothing else changed.
    this.scheduler.markDirty();
    this.scheduler.syncDone();
  }

  /** Discovery failed: shown (cause, next attempt) while the engine waits to ask again. */
  private async retryDiscovery(cause: PendingConnection['cause'] | undefined, delayMs: number): Promise<void> {
    const now = new Date();
    this.pending = {
      cause: cause ?? this.pending?.cause ?? { kind: 'unreachable', text: 'server unreachable' },
      since: this.pending?.since ?? now.toISOString(),
      retryAt: new Date(now.getTime() + delayMs).toISOString(),
    };
    this.scheduler.markDirty();
    await this.pause(delayMs);
  }

  private settleDiscovery(): void {
    if (!this.pending) return;
    this.pending = null;
    this.scheduler.markDirty();
  }

  /** Sleeps, ending early when the engine stops. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve();
      const timer = setTimeout(() => {
        this.pauses.delete(done);
        resolve();
      }, ms);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.pauses.add(done);
    });
  }

  /**
   * Some `-n` namespace answered 403 for every kind: which namespaces do
   * answer (`-n`'s others, the context's), so that the one notice can say
   * where the user may look instead. One GET of a pod at most per namespace.
   */
  private async probeReadableNamespaces(): Promise<void> {
    const unreadable = this.watchers.access().unreadable ?? [];
    if (!unreadable.length || this.stopped) return;
    const asked = this.options.namespaces?.length ? this.options.namespaces : [this.options.namespace];
    const candidates = [...new Set([...asked, this.options.contextNamespace])].filter(
      (ns): ns is string => !!ns && !unreadable.includes(ns),
    );
    const readable: string[] = [];
    for (const ns of candidates) {
      if (this.watchers.readsIn(ns)) readable.push(ns);
      else {
        const res = await this.options.transport
          .open(`/api/v1/namespaces/${encodeURIComponent(ns)}/pods?limit=1`)
          .catch(() => null);
        if (res) {
          res.destroy();
          readable.push(ns);
        }
      }
    }
    this.readableNamespaces = readable;
  }

  /** The watchers' access and, when some namespace may not be read, where one may. */
  private namespaceAccess(): AccessScope {
    const access = this.watchers.access();
    return access.unreadable ? { ...access, readable: this.readableNamespaces ?? [] } : access;
  }

  /** The one notice replacing a 403 per kind: unreadable namespaces, and the namespaces read instead of the cluster. */
  private accessNotice(access: AccessScope): string | null {
    const unreadable = access.unreadable ?? [];
    const notices: string[] = [];
    if (unreadable.length)
      notices.push(unreadableNamespaceText(unreadable, access.user ?? null, access.readable ?? []));
    const read = access.namespaces.filter((n) => !unreadable.includes(n));
    if (this.watchers.fellBackToNamespaces() && (read.length || !unreadable.length))
      notices.push(namespaceNotice({ ...access, namespaces: read }));
    return notices.length ? notices.join('; ') : null;
  }

  private ensureKinds(): Promise<EnsureResult> {
    return this.watchers.ensure(() => wantedKinds(this.defs.definitions));
  }

  // ---- events ------------------------------------------------------------

  private onEvent(w: Watched, type: WatchEventType, object: KubeObject): void {
    if (this.stopped) return;
    if (w.role === 'definition') {
      this.onKarta(type, object);
    } else if (w.role === 'scheduling') {
      this.schedulingIndex.apply(type, object);
      this.multiKueue.apply(type, object);
    } else {
      // A pod nobody controls is a workload of its own (the Pod definition's): -l selects it too.
      if (w.role === 'workload' || (w.role === 'pod' && this.selector && isBare(object)))
        this.trackSelection(type, object);
      try {
        this.store.apply(w.role, type, object);
      } catch (err) {
        this.addProblem(
          `${w.label} ${object.metadata.namespace ?? ''}/${object.metadata.name}: ${(err as Error).message}`,
        );
      }
    }
    // A kind's first list is applied page by page as it arrives, flushed when complete.
    if (w.reflector.state === 'syncing') this.scheduler.listed();
    else this.scheduler.markDirty();
  }

  private trackSelection(type: WatchEventType, object: KubeObject): void {
    if (!this.selector) return;
    const uid = object.metadata.uid;
    const out = type !== 'DELETED' && !matchesSelector(this.selector, object.metadata.labels);
    if (out !== this.unselected.has(uid)) {
      if (out) this.unselected.add(uid);
      else this.unselected.delete(uid);
      this.selectionVersion += 1;
    }
  }

  private onKarta(type: WatchEventType, object: KubeObject): void {
    if (type === 'DELETED') this.kartas.delete(object.metadata.uid);
    else this.kartas.set(object.metadata.uid, object);
    // At startup the whole list is applied at once in bootstrap().
    if (this.kartaSynced) void this.reloadAfterPreflight();
  }

  /**
   * A Karta changed: the new definitions' jq-wasm expressions run in a worker
   * over the objects held before the store gets them, so one over the jq
   * budget is found broken there while the explorer keeps drawing and reading keys.
   */
  private async reloadAfterPreflight(): Promise<void> {
    const reload = ++this.reloads;
    let next: DefinitionSetLike;
    try {
      next = this.options.definitions.withCluster([...this.kartas.values()]);
    } catch (err) {
      this.addProblem(`cluster definitions: ${(err as Error).message}`);
      return;
    }
    await preflightDefinitions(next.definitions, (gvk) => this.heldObjects(gvk), this.exprs).catch(() => undefined);
    if (this.stopped || reload !== this.reloads) return;
    this.reloadDefinitions(next);
    this.scheduler.markDirty();
  }

  private heldObjects(gvk: Gvk): KubeObject[] {
    if (gvkKey(gvk) === gvkKey(POD_GVK)) return [...(this.store.podObjects?.() ?? [])];
    return [...(this.store.workloadObjects?.(gvk) ?? [])];
  }

  private reloadDefinitions(next?: DefinitionSetLike): void {
    try {
      this.defs = next ?? this.options.definitions.withCluster([...this.kartas.values()]);
      this.store.setDefinitions(this.defs.definitions);
    } catch (err) {
      this.addProblem(`cluster definitions: ${(err as Error).message}`);
      return;
    }
    if (this.kindsStarted) {
      // New kinds from a hot-reloaded Karta: watch them too.
      void this.ensureKinds().catch((err: Error) => this.addProblem(err.message));
    }
  }

  private addProblem(message: string): void {
    this.problems.add(message);
    this.scheduler.markDirty();
  }

  // ---- flush -------------------------------------------------------------

  private flushWork(): void {
    let changed: string[] = [];
    let structural = false;
    try {
      this.store.setListingKinds(this.watchers.listing());
      const result = this.store.flush();
      changed = result.changedWorkloads;
      structural = result.removedWorkloads.length > 0 || result.nodesChanged;
    } catch (err) {
      this.addProblem(`model: ${(err as Error).message}`);
    }
    this.scheduleRestartExpiry();
    const schedulingChanged =
      this.schedulingIndex.version !== this.schedulingVersion || this.multiKueue.version !== this.multiKueueVersion;
    if (!this.scheduler.takeDirty() && !changed.length && !structural && !schedulingChanged) return;
    this.snapshot = this.buildSnapshot(changed);
    for (const l of this.listeners) {
      try {
        l(this.snapshot);
      } catch (err) {
        this.addProblem(`subscriber: ${(err as Error).message}`);
      }
    }
  }

  private restartTimer: { at: number; timer: NodeJS.Timeout } | null = null;

  /**
   * A pod's restart stops being recent with no event to say so: flush again
   * then, so its workload stops being Degraded on time.
   */
  private scheduleRestartExpiry(): void {
    const at = this.store.nextRestartExpiry?.() ?? null;
    if (this.restartTimer && (at === null || this.restartTimer.at !== at)) {
      clearTimeout(this.restartTimer.timer);
      this.restartTimer = null;
    }
    if (at === null || this.restartTimer || this.stopped || this.options.watch === false) return;
    const timer = setTimeout(
      () => {
        this.restartTimer = null;
        this.scheduler.markDirty();
      },
      Math.max(0, at - Date.now()) + 50,
    );
    timer.unref();
    this.restartTimer = { at, timer };
  }

  /** The store's workloads minus those -l rules out; the same array while nothing changed. */
  private visibleWorkloads(): WorkloadTree[] {
    const all = this.store.workloads();
    if (!this.unselected.size) return all;
    const memo = this.visibleMemo;
    if (memo && memo.from === all && memo.version === this.selectionVersion) return memo.out;
    const out = all.filter((w) => !this.unselected.has(w.uid));
    this.visibleMemo = { from: all, version: this.selectionVersion, out };
    return out;
  }

  private orphansMemo: { from: OrphanPod[]; defs: Definition[]; out: OrphanPod[] } | null = null;

  /**
   * The store's orphan pods minus, with -l, those whose owner is of a kind
   * listed with the selector: that owner is not missing, only not selected.
   */
  private visibleOrphans(): OrphanPod[] {
    const all = this.store.orphanPods();
    if (!this.selector || !all.length) return all;
    const defs = this.defs.definitions;
    if (this.orphansMemo?.from === all && this.orphansMemo.defs === defs) return this.orphansMemo.out;
    const selected = new Set(
      wantedKinds(defs)
        .filter((k) => k.role === 'workload' && !k.intermediate)
        .map((k) => `${k.gvk.group}/${k.gvk.kind}`),
    );
    const out = all.filter((p) => !selected.has(`${gvkOf(p.owner.apiVersion, p.owner.kind).group}/${p.owner.kind}`));
    this.orphansMemo = { from: all, defs, out };
    return out;
  }

  private podNodesMemo: { from: WorkloadTree[]; out: PodNode[] } | null = null;

  /** Nodes as the pods see them (node objects forbidden); the same array while the workloads are. */
  private podNodes(workloads: WorkloadTree[]): PodNode[] {
    if (this.podNodesMemo?.from === workloads) return this.podNodesMemo.out;
    const out = nodesFromPods(workloads, this.visibleOrphans());
    this.podNodesMemo = { from: workloads, out };
    return out;
  }

  private buildSnapshot(changed: string[]): ModelSnapshot {
    const workloads = this.visibleWorkloads();
    this.version += 1;
    const kinds = this.watchers.states();
    const previous = this.connection;
    // Held (its flushes waiting for the others of its worker): listed, not live.
    const starting = !this.bootstrapped || this.options.flushHold?.held === true;
    const connection = summariseConnection(kinds, this.pending, new Date().toISOString(), starting);
    // A state keeps the time it began (the summary of a failure computes its own).
    if (previous && previous.state === connection.state && connection.state !== 'retrying')
      connection.since = previous.since;
    this.connection = connection;
    this.schedulingVersion = this.schedulingIndex.version;
    this.multiKueueVersion = this.multiKueue.version;
    const access = this.namespaceAccess();
    return assembleSnapshot({
      accessNotice: this.accessNotice(access),
      podNodes: kinds.some((k) => k.gvk.kind === 'Node' && k.gvk.group === '' && k.state === 'forbidden')
        ? this.podNodes(workloads)
        : undefined,
      scheduling: this.schedulingIndex.view(workloads),
      access,
      version: this.version,
      workloads,
      store: this.store,
      kinds,
      connection,
      definitions: this.defs.definitions,
      definitionProblems: this.defs.problems,
      engineProblems: this.problems,
      changedWorkloads: changed,
      gpuMetrics: this.gpuMetrics,
      topologyKeys: this.options.topologyKeys,
      topologyKeysMemo: this.topologyKeysMemo,
      facts: this.watchers.versionFallbacks(),
      orphanPods: this.visibleOrphans(),
      problemTimes: this.problemTimes,
      multiKueue: this.multiKueue.view(),
    });
  }
}

/** A pod without a controller: the Pod definition's workload. */
function isBare(pod: KubeObject): boolean {
  return !pod.metadata.ownerReferences?.some((r) => r.controller === true);
}
