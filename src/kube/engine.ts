// The cluster engine: access → discovery → one reflector per kind → the
// model's ClusterStore, with watch events coalesced into batches, and the
// ModelSource the UI reads.
//
// Startup order matters: the cluster's Karta definitions are listed first so
// that types defined only in the cluster (a TFJob Karta, say) are watched from
// the start. Later Karta changes are hot-reloaded (precedence cluster > file >
// builtin, decided by the definitions module) and may start new reflectors.
import type { Definition, DefinitionProblem, Gvk } from '../definitions/types.js';
import { gvkKey } from '../definitions/types.js';
import type {
  ConnectionInfo,
  DefinitionInfo,
  KindState,
  KubeObject,
  ModelSnapshot,
  ModelSource,
  NodePodEntry,
  NodeSummary,
  WorkloadTree,
  ClusterTotals,
} from '../model/types.js';
import { ClusterStore } from '../model/store.js';
import type { KubeTransport } from './client.js';
import { Discovery, apiVersionOf, collectionPath, serverVersion, type ResourceInfo } from './discovery.js';
import { Backoff, Reflector, type ReflectorOptions, type WatchEventType } from './reflector.js';
import { trimFor, type TrimRole } from './trim.js';
import { matchesSelector, parseLabelSelector, type Requirement } from './selector.js';

/** What the engine needs of a definition set (src/definitions' DefinitionSet). */
export interface DefinitionSetLike {
  definitions: Definition[];
  problems: DefinitionProblem[];
  withCluster(objects: unknown[]): DefinitionSetLike;
}

export type StoreKind = 'pod' | 'node' | 'owner' | 'workload';

/** The part of ClusterStore the engine drives. */
export interface ModelStoreLike {
  setDefinitions(definitions: Definition[]): void;
  apply(kind: StoreKind, type: WatchEventType, object: KubeObject): void;
  flush(): { changedWorkloads: string[]; removedWorkloads: string[]; nodesChanged: boolean };
  workloads(): WorkloadTree[];
  nodes(): NodeSummary[];
  totals(): ClusterTotals;
  getNodePods(nodeName: string): NodePodEntry[];
  problems(): string[];
}

export const KARTA_GVK: Gvk = { group: 'run.ai', version: 'v1alpha1', kind: 'Karta' };
export const POD_GVK: Gvk = { group: '', version: 'v1', kind: 'Pod' };
export const NODE_GVK: Gvk = { group: '', version: 'v1', kind: 'Node' };
/** Controllers between workloads and pods that most workload types use; watched as metadata. */
export const OWNER_GVKS: Gvk[] = [
  { group: 'batch', version: 'v1', kind: 'Job' },
  { group: 'apps', version: 'v1', kind: 'ReplicaSet' },
  { group: 'apps', version: 'v1', kind: 'StatefulSet' },
];

export interface EngineOptions {
  transport: KubeTransport;
  connection: Omit<ConnectionInfo, 'serverVersion'>;
  /** Namespace scope; null = all namespaces. */
  namespace: string | null;
  /** Built-in + file definitions; cluster Kartas are added by the engine. */
  definitions: DefinitionSetLike;
  gpuResources?: string[];
  /** Applied to the lists/watches of workload roots only (`wlx get -l`). */
  labelSelector?: string;
  /** false: list every kind once, no watches (`wlx get`). */
  watch?: boolean;
  /** Minimum time between two flushes. */
  flushIntervalMs?: number;
  /** Reflector tuning (tests shorten timeouts and back-off). */
  reflector?: Partial<
    Pick<
      ReflectorOptions,
      | 'pageSize'
      | 'watchTimeoutSeconds'
      | 'stallMarginMs'
      | 'backoff'
      | 'forbiddenRetryMs'
      | 'listIdleTimeoutMs'
      | 'headersTimeoutMs'
    >
  >;
  /**
   * Also list workloads whose controller is another workload (a JobSet's
   * Jobs, a LeaderWorkerSet's StatefulSets). Default false: they are parts of
   * their parent's tree, not workloads of their own.
   */
  includeNested?: boolean;
  /** Store factory (tests); defaults to the model's ClusterStore. */
  createStore?: (definitions: Definition[], gpuResources: string[] | undefined) => ModelStoreLike;
}

export interface ClusterEngine extends ModelSource {
  /** Resolves when every kind has been listed once (or found forbidden / not served) and the trees are built. */
  whenSynced(): Promise<void>;
  stop(): Promise<void>;
  /** The current effective definitions (after cluster Kartas). */
  definitions(): Definition[];
  /** uid → resourceVersion of every object held, per kind label (for consistency checks). */
  inventory(): Map<string, Map<string, string>>;
  /** What discovery said about each watched kind (plural, short names...). */
  resources(): ResourceInfo[];
}

interface Watched {
  key: string;
  info: ResourceInfo;
  role: TrimRole;
  reflector: Reflector;
}

const MAX_ENGINE_PROBLEMS = 50;
/**
 * During the initial sync, a flush asked for only because a kind finished its
 * list is skipped while more objects than this from lists still in progress
 * wait unflushed (see markDirty).
 */
const SYNC_DEFER_OBJECTS = 5_000;

/** uid → controller uid (a Map, or a view of one). */
export interface ControllerLookup {
  get(uid: string): string | undefined;
  readonly size: number;
}

/**
 * Workloads whose controller chain does not reach another workload in the
 * list. `controllers` maps object uid → controller uid for workloads, owners
 * and pods: a LeaderWorkerSet's worker StatefulSets are controlled by the
 * group's leader POD, which belongs to the LeaderWorkerSet. `ownerPending(uid)`
 * (during the initial sync): the controller of object `uid` is of a kind not
 * listed yet, so the chain cannot be followed and the workload counts as nested.
 */
export function topLevelWorkloads(
  workloads: WorkloadTree[],
  controllers: ControllerLookup,
  ownerPending?: (uid: string) => boolean,
): WorkloadTree[] {
  return computeTopLevel(workloads, controllers, '', ownerPending).out;
}

/** One topLevelWorkloads result and what it was computed from (see topLevelWorkloadsMemoised). */
export interface TopLevelMemo {
  readonly from: WorkloadTree[];
  /** Caller's key for the inputs other than `from`: controllers version, kinds still syncing. */
  readonly key: string;
  /** Per index of `from`: 1 when that workload is top-level. */
  readonly keep: Uint8Array;
  readonly out: WorkloadTree[];
}

function isTopLevel(
  uid: string,
  uids: Set<string>,
  controllers: ControllerLookup,
  ownerPending?: (uid: string) => boolean,
): boolean {
  let cur = uid;
  let c = controllers.get(cur);
  for (let hop = 0; c && hop < 6; hop++) {
    if (uids.has(c)) return false;
    // The owner's kind is still in its first list: the ownerReference alone
    // says this is part of something, so it must not flash up as top-level.
    if (ownerPending?.(cur)) return false;
    cur = c;
    c = controllers.get(c);
  }
  return true;
}

function computeTopLevel(
  workloads: WorkloadTree[],
  controllers: ControllerLookup,
  key: string,
  ownerPending?: (uid: string) => boolean,
): TopLevelMemo {
  const keep = new Uint8Array(workloads.length);
  if (!controllers.size) return { from: workloads, key, keep: keep.fill(1), out: workloads };
  const uids = new Set(workloads.map((w) => w.uid));
  const out: WorkloadTree[] = [];
  workloads.forEach((w, i) => {
    if (!isTopLevel(w.uid, uids, controllers, ownerPending)) return;
    keep[i] = 1;
    out.push(w);
  });
  return { from: workloads, key, keep, out: out.length === workloads.length ? workloads : out };
}

/**
 * topLevelWorkloads, reusing the previous result: a workload's membership
 * depends only on the set of workload uids, the controller map and the kinds
 * still syncing, so while `key` (which the caller bumps when the latter two
 * change) is the same and `workloads` holds the same uids in the same order
 * (a snapshot where only trees changed, e.g. pod status churn), the previous
 * per-index verdicts hold and no owner chain is walked again. The result's
 * `out` is the previous array when it would hold the same trees.
 */
export function topLevelWorkloadsMemoised(
  workloads: WorkloadTree[],
  controllers: ControllerLookup,
  key: string,
  ownerPending: ((uid: string) => boolean) | undefined,
  memo: TopLevelMemo | null,
): TopLevelMemo {
  if (!memo || memo.key !== key || memo.from.length !== workloads.length) {
    return computeTopLevel(workloads, controllers, key, ownerPending);
  }
  if (memo.from === workloads) return memo;
  const prev = memo.from;
  for (let i = 0; i < workloads.length; i++) {
    if (workloads[i] !== prev[i] && workloads[i].uid !== prev[i].uid) {
      return computeTopLevel(workloads, controllers, key, ownerPending);
    }
  }
  if (memo.out === prev) return { from: workloads, key, keep: memo.keep, out: workloads };
  const out: WorkloadTree[] = [];
  let same = true;
  for (let i = 0; i < workloads.length; i++) {
    if (!memo.keep[i]) continue;
    if (workloads[i] !== memo.out[out.length]) same = false;
    out.push(workloads[i]);
  }
  return { from: workloads, key, keep: memo.keep, out: same ? memo.out : out };
}

/** `group/Kind` of an ownerReference's apiVersion + kind, one string per distinct pair. */
const ownerKindKeys = new Map<string, Map<string, string>>();
function ownerKindKey(apiVersion: string, kind: string): string {
  let byKind = ownerKindKeys.get(apiVersion);
  if (!byKind) ownerKindKeys.set(apiVersion, (byKind = new Map()));
  let key = byKind.get(kind);
  if (key === undefined) {
    // The version is left out: the owner may be watched at another one.
    const slash = apiVersion.indexOf('/');
    key = `${slash < 0 ? '' : apiVersion.slice(0, slash)}/${kind}`;
    byKind.set(kind, key);
  }
  return key;
}

type ControllerRef = NonNullable<KubeObject['metadata']['ownerReferences']>[number];

/** The uid → controller uid view of a uid → ownerReference map. */
function controllerUids(refs: Map<string, ControllerRef>): ControllerLookup {
  return {
    get: (uid) => refs.get(uid)?.uid,
    get size() {
      return refs.size;
    },
  };
}

function kindLabel(info: ResourceInfo): string {
  return info.gvk.group ? `${info.resource}.${info.gvk.group}` : info.resource;
}

export async function startEngine(options: EngineOptions): Promise<ClusterEngine> {
  const engine = new Engine(options);
  await engine.start();
  return engine;
}

class Engine implements ClusterEngine {
  private readonly discovery: Discovery;
  private readonly store: ModelStoreLike;
  private readonly watched = new Map<string, Watched>();
  /** Kinds wanted but not watchable (forbidden or not served at discovery). */
  private readonly unserved = new Map<string, KindState>();
  private readonly listeners = new Set<(s: ModelSnapshot) => void>();
  private readonly kartas = new Map<string, unknown>();
  /** Parsed `labelSelector`, applied to workloads here too (see watch()). */
  private readonly selector: Requirement[] | null;
  /** Workloads the label selector rules out (they still link owner chains). */
  private readonly unselected = new Set<string>();
  /**
   * uid → the controller's ownerReference, for workloads, owners and pods that
   * have one: its uid links chains (see topLevelWorkloads), its kind tells
   * whether a chain leads into a kind still syncing. The reference object is
   * the one the trimmed object holds (shared by siblings): nothing is
   * allocated per object.
   */
  private readonly controllerRefs = new Map<string, ControllerRef>();
  private readonly controllers: ControllerLookup = controllerUids(this.controllerRefs);
  /** Bumped when `controllers` or `unselected` change (memo of visibleWorkloads). */
  private visibilityVersion = 0;
  private visibleMemo: { from: WorkloadTree[]; version: number; out: WorkloadTree[] } | null = null;
  /** The last topLevelWorkloads verdicts, reused while only trees change (pod churn). */
  private topLevelMemo: TopLevelMemo | null = null;
  /** Recent problems, newest last, each with how often it happened (repeats are merged). */
  private readonly engineProblems = new Map<string, number>();
  private defs: DefinitionSetLike;
  private serverVersionText: string | null = null;
  private snapshot: ModelSnapshot;
  private version = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private lastFlush = 0;
  /** True once every kind has listed (bootstrap done): flushes are then at most flushIntervalMs apart. */
  private synced = false;
  /** Objects applied from lists in progress since the last flush. */
  private unflushedListed = 0;
  /** Everything asked to be flushed since the last flush was progress of the initial sync (kinds done listing). */
  private onlySyncProgress = true;
  private dirty = false;
  private stopped = false;
  private kartaSynced = false;
  private syncing: Promise<void> | undefined;
  private readonly flushIntervalMs: number;
  private readonly pauses = new Set<() => void>();
  private kindsStarted = false;
  /** ensureKinds runs one at a time (startup and hot reloads may overlap). */
  private ensureChain: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: EngineOptions) {
    this.discovery = new Discovery(options.transport);
    this.defs = options.definitions;
    this.flushIntervalMs = options.flushIntervalMs ?? 80;
    this.selector = options.labelSelector ? parseLabelSelector(options.labelSelector) : null;
    const create =
      options.createStore ??
      ((d, g) =>
        new ClusterStore({
          definitions: d,
          gpuResources: g,
          buildNested: options.includeNested === true,
          ownerPending: () => this.ownerPendingTest().test,
        }));
    this.store = create(this.defs.definitions, options.gpuResources);
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

  resources(): ResourceInfo[] {
    return [...this.watched.values()].map((w) => w.info);
  }

  inventory(): Map<string, Map<string, string>> {
    const out = new Map<string, Map<string, string>>();
    for (const w of this.watched.values()) out.set(kindLabel(w.info), w.reflector.snapshotVersions());
    return out;
  }

  whenSynced(): Promise<void> {
    return this.syncing ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const wake of this.pauses) wake();
    this.pauses.clear();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await Promise.all([...this.watched.values()].map((w) => w.reflector.stop()));
    this.listeners.clear();
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
      this.addProblem((err as Error).message);
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
    let kartaInfo: ResourceInfo | undefined;
    for (;;) {
      const result = await this.discovery.resolve([KARTA_GVK]);
      kartaInfo = result.found.get(gvkKey(KARTA_GVK));
      const miss = result.missing.get(gvkKey(KARTA_GVK));
      if (!miss || miss.state !== 'error') break;
      if (this.options.watch === false) throw new Error(miss.message);
      await this.pause(backoff.next());
      if (this.stopped) return;
    }
    if (kartaInfo) {
      const kartaError = await this.watch(kartaInfo, 'definition').reflector.firstSync;
      if (kartaError && !this.stopped) throw kartaError;
    }
    this.kartaSynced = true;
    if (this.kartas.size) this.reloadDefinitions();
    const syncs: Promise<Error | null>[] = [];
    backoff.reset();
    this.kindsStarted = true;
    for (;;) {
      const { started, retry } = await this.ensureKinds();
      syncs.push(...started);
      if (!retry || this.stopped) break;
      await this.pause(backoff.next());
    }
    if (this.serverVersionText === null && !this.stopped) {
      this.serverVersionText = await serverVersion(this.options.transport).catch(() => null);
    }
    const errors = (await Promise.all(syncs)).filter((e): e is Error => e !== null);
    if (errors.length && !this.stopped) throw errors[0];
    this.synced = true;
    this.flushNow();
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

  /** The kinds the current definitions need. */
  private wantedKinds(): Array<{ gvk: Gvk; role: TrimRole; intermediate: boolean }> {
    const out = new Map<string, { gvk: Gvk; role: TrimRole; intermediate: boolean }>();
    const owners: Gvk[] = [...OWNER_GVKS];
    for (const d of this.defs.definitions) {
      owners.push(...d.additionalChildKinds);
      for (const c of d.components) if (!c.isRoot && c.kind) owners.push(c.kind);
    }
    const intermediate = new Set(owners.map(gvkKey));
    for (const d of this.defs.definitions) {
      out.set(gvkKey(d.rootGvk), {
        gvk: d.rootGvk,
        role: 'workload',
        intermediate: intermediate.has(gvkKey(d.rootGvk)),
      });
    }
    for (const g of owners) {
      const k = gvkKey(g);
      if (!out.has(k) && g.kind !== 'Pod') out.set(k, { gvk: g, role: 'owner', intermediate: true });
    }
    out.set(gvkKey(POD_GVK), { gvk: POD_GVK, role: 'pod', intermediate: false });
    out.set(gvkKey(NODE_GVK), { gvk: NODE_GVK, role: 'node', intermediate: false });
    return [...out.values()];
  }

  /** Starts reflectors for wanted kinds not yet watched; returns their first-sync promises. */
  /**
   * Starts reflectors for wanted kinds not yet watched. `started`: their
   * first-sync promises; `retry`: discovery failed for some (server
   * unreachable) and should be asked again.
   */
  private ensureKinds(): Promise<{ started: Promise<Error | null>[]; retry: boolean }> {
    const next = this.ensureChain.then(() => this.ensureKindsNow());
    this.ensureChain = next.catch(() => undefined);
    return next;
  }

  private async ensureKindsNow(): Promise<{ started: Promise<Error | null>[]; retry: boolean }> {
    const all = this.wantedKinds();
    // A kind watched in another role (an owner that a new cluster Karta now
    // defines as a workload, or the reverse): take its objects out of the
    // store and watch it again in its new role.
    for (const w of all) {
      const current = this.watched.get(gvkKey(w.gvk));
      if (!current || current.role === w.role || current.role === 'definition') continue;
      this.watched.delete(current.key);
      await current.reflector.stop();
      const storeKind = current.role;
      for (const tomb of current.reflector.tombstones()) this.store.apply(storeKind, 'DELETED', tomb);
    }
    const wanted = all.filter((w) => !this.watched.has(gvkKey(w.gvk)));
    if (!wanted.length) return { started: [], retry: false };
    const result = await this.discovery.resolve(wanted.map((w) => w.gvk));
    if (this.stopped) return { started: [], retry: false };
    const syncs: Promise<Error | null>[] = [];
    let retry = false;
    for (const w of wanted) {
      const key = gvkKey(w.gvk);
      const info = result.found.get(key);
      if (info) {
        this.unserved.delete(key);
        syncs.push(this.watch(info, w.role, w.intermediate).reflector.firstSync);
        continue;
      }
      const miss = result.missing.get(key);
      if (!miss) continue;
      if (miss.state === 'error') {
        if (this.options.watch === false) syncs.push(Promise.resolve(new Error(miss.message)));
        else retry = true;
      }
      // Only report kinds a definition (or a pod/node view) really depends on.
      const optional = w.role === 'owner';
      if (!optional || miss.state === 'forbidden') {
        this.unserved.set(key, {
          gvk: w.gvk,
          resource: w.gvk.kind.toLowerCase(),
          state: miss.state,
          since: new Date().toISOString(),
          message: miss.message,
          count: 0,
        });
      }
    }
    this.markDirty();
    return { started: syncs, retry };
  }

  /**
   * `intermediate`: the kind can sit between another workload and its pods
   * (Jobs under JobSets): it is listed whole even with a label selector, or
   * the owner chains through it would break; the selector is applied here.
   */
  private watch(info: ResourceInfo, role: TrimRole, intermediate = false): Watched {
    const key = gvkKey(info.gvk);
    const label = kindLabel(info);
    const storeKind: StoreKind | null = role === 'definition' ? null : role;
    const namespace = info.namespaced ? this.options.namespace : null;
    const reflector: Reflector = new Reflector(
      {
        ...this.options.reflector,
        transport: this.options.transport,
        path: collectionPath(info, namespace),
        apiVersion: apiVersionOf(info.gvk),
        kind: info.gvk.kind,
        label,
        labelSelector: role === 'workload' && !intermediate ? this.options.labelSelector : undefined,
        trim: trimFor(role),
        watch: this.options.watch !== false,
      },
      {
        onEvent: (type, object) => {
          if (this.stopped) return;
          if (storeKind) this.trackController(type, object);
          if (storeKind === 'workload') this.trackSelection(type, object);
          if (storeKind) {
            try {
              this.store.apply(storeKind, type, object);
            } catch (err) {
              this.addProblem(
                `${label} ${object.metadata.namespace ?? ''}/${object.metadata.name}: ${(err as Error).message}`,
              );
            }
          } else {
            this.onKarta(type, object);
          }
          // A kind's first list is applied page by page as it arrives, but
          // flushed when it is complete (its state leaves 'syncing', see
          // onState): a flush in the middle would build trees whose pods are
          // still arriving, only to build them again (at 100k pods each such
          // flush costs about as much as the final one).
          if (reflector.state === 'syncing') {
            this.dirty = true;
            this.unflushedListed += 1;
          } else this.markDirty();
        },
        onState: (state) => {
          // Leaving the first list settles which workloads are nested (see visibleWorkloads).
          this.visibilityVersion += 1;
          this.markDirty(state === 'live');
        },
        onProblem: (message) => {
          // A forbidden kind is reported from its state (see buildSnapshot).
          if (reflector.state !== 'forbidden') this.addProblem(message);
          this.markDirty();
        },
      },
    );
    const w: Watched = { key, info, role, reflector };
    this.watched.set(key, w);
    reflector.start();
    return w;
  }

  private trackController(type: WatchEventType, object: KubeObject): void {
    const uid = object.metadata.uid;
    const ctrl = type === 'DELETED' ? undefined : object.metadata.ownerReferences?.find((r) => r.controller);
    if (ctrl) {
      const prev = this.controllerRefs.get(uid);
      if (prev === ctrl) return;
      this.controllerRefs.set(uid, ctrl);
      if (prev?.uid !== ctrl.uid) this.visibilityVersion += 1;
    } else if (this.controllerRefs.delete(uid)) {
      this.visibilityVersion += 1;
    }
  }

  private trackSelection(type: WatchEventType, object: KubeObject): void {
    const uid = object.metadata.uid;
    if (this.selector) {
      const out = type !== 'DELETED' && !matchesSelector(this.selector, object.metadata.labels);
      if (out !== this.unselected.has(uid)) {
        if (out) this.unselected.add(uid);
        else this.unselected.delete(uid);
        this.visibilityVersion += 1;
      }
    }
  }

  private onKarta(type: WatchEventType, object: KubeObject): void {
    if (type === 'DELETED') this.kartas.delete(object.metadata.uid);
    else this.kartas.set(object.metadata.uid, object);
    // At startup the whole list is applied at once in start().
    if (this.kartaSynced) this.reloadDefinitions();
  }

  private reloadDefinitions(): void {
    try {
      this.defs = this.options.definitions.withCluster([...this.kartas.values()]);
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

  // ---- batching ----------------------------------------------------------

  private addProblem(message: string): void {
    // A flaky stream repeats the same problem: count it instead of flooding
    // out the others (re-inserted so it counts as recent).
    const count = (this.engineProblems.get(message) ?? 0) + 1;
    this.engineProblems.delete(message);
    this.engineProblems.set(message, count);
    if (this.engineProblems.size > MAX_ENGINE_PROBLEMS) {
      const oldest = this.engineProblems.keys().next().value;
      if (oldest !== undefined) this.engineProblems.delete(oldest);
    }
    this.markDirty();
  }

  /** `syncProgress`: only a kind finishing its list (see the sync rule below). */
  private markDirty(syncProgress = false): void {
    this.dirty = true;
    if (!syncProgress) this.onlySyncProgress = false;
    if (this.flushTimer || this.stopped) return;
    // Coalesce: at most one flush per interval; a burst arriving while idle is
    // still given a few ms to gather.
    const wait = Math.max(5, this.lastFlush + this.flushIntervalMs - Date.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      // During the initial sync, a kind done listing while others still list
      // (their pages applied, not flushed: see watch()) is not worth a flush
      // that would build the trees of everything they applied so far, only
      // to build them again at the end: past a few thousand such objects
      // that waits for the end of the sync. Anything else (a kind in
      // trouble, a problem, a watch event) is flushed as usual.
      if (!this.synced && this.onlySyncProgress && this.unflushedListed > SYNC_DEFER_OBJECTS) return;
      this.flushNow();
    }, wait);
  }

  private flushNow(): void {
    if (this.stopped) return;
    this.lastFlush = Date.now();
    this.flushWork();
  }

  private flushWork(): void {
    this.unflushedListed = 0;
    this.onlySyncProgress = true;
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    let changed: string[] = [];
    let structural = false;
    try {
      const result = this.store.flush();
      changed = result.changedWorkloads;
      structural = result.removedWorkloads.length > 0 || result.nodesChanged;
    } catch (err) {
      this.addProblem(`model: ${(err as Error).message}`);
    }
    if (!this.dirty && !changed.length && !structural) return;
    this.dirty = false;
    this.snapshot = this.buildSnapshot(changed);
    for (const l of this.listeners) {
      try {
        l(this.snapshot);
      } catch (err) {
        this.addProblem(`subscriber: ${(err as Error).message}`);
      }
    }
  }

  private kindStates(): KindState[] {
    const out: KindState[] = [];
    for (const w of this.watched.values()) {
      out.push({
        gvk: w.info.gvk,
        resource: kindLabel(w.info),
        state: w.reflector.state,
        since: w.reflector.since.toISOString(),
        message: w.reflector.message,
        count: w.reflector.count,
      });
    }
    out.push(...this.unserved.values());
    return out;
  }

  private definitionInfos(workloads: WorkloadTree[]): DefinitionInfo[] {
    const counts = new Map<string, number>();
    for (const w of workloads) counts.set(w.definition, (counts.get(w.definition) ?? 0) + 1);
    return this.defs.definitions.map((d) => {
      const problems = this.defs.problems.filter((p) => p.file === d.source.location);
      return {
        name: d.name,
        kind: `${d.rootGvk.group}/${d.rootGvk.version}/${d.rootGvk.kind}`,
        source: d.source.kind,
        location: d.source.location,
        valid: !problems.some((p) => p.severity === 'error'),
        workloads: counts.get(d.name) ?? 0,
        problems,
      };
    });
  }

  /**
   * While some watched kind is in its first list, a test for "the controller
   * of this object is of such a kind": Jobs arrive before their JobSets, an
   * LWS's worker StatefulSets before the leader pods that link them to it.
   * Undefined once every kind has listed (settled clusters are unaffected).
   */
  private ownerPendingTest(): { key: string; test?: (uid: string) => boolean } {
    const syncing = new Set<string>();
    for (const w of this.watched.values()) {
      if (w.reflector.state === 'syncing') syncing.add(`${w.info.gvk.group}/${w.info.gvk.kind}`);
    }
    if (!syncing.size) return { key: '' };
    return {
      key: [...syncing].sort().join(' '),
      test: (uid) => {
        const ref = this.controllerRefs.get(uid);
        return ref !== undefined && syncing.has(ownerKindKey(ref.apiVersion, ref.kind));
      },
    };
  }

  /** The store's workloads minus nested ones and those -l rules out; the same array while nothing changed. */
  private visibleWorkloads(): WorkloadTree[] {
    const all = this.store.workloads();
    const memo = this.visibleMemo;
    if (memo && memo.from === all && memo.version === this.visibilityVersion) return memo.out;
    let out = all;
    if (!this.options.includeNested) {
      const pending = this.ownerPendingTest();
      const key = `${this.visibilityVersion}|${pending.key}`;
      this.topLevelMemo = topLevelWorkloadsMemoised(all, this.controllers, key, pending.test, this.topLevelMemo);
      out = this.topLevelMemo.out;
    }
    if (this.unselected.size) out = out.filter((w) => !this.unselected.has(w.uid));
    this.visibleMemo = { from: all, version: this.visibilityVersion, out };
    return out;
  }

  private buildSnapshot(changed: string[]): ModelSnapshot {
    const workloads = this.visibleWorkloads();
    const problems = [
      ...this.defs.problems.map(
        (p) => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.field ? `${p.field}: ` : ''}${p.message}`,
      ),
      // Kinds that cannot be read are problems for as long as they last.
      ...this.kindStates()
        .filter((k) => k.state === 'forbidden' || k.state === 'error')
        .map((k) => `${k.resource}: ${k.state}${k.message ? `: ${k.message}` : ''}`),
      ...[...this.engineProblems].map(([m, n]) => (n > 1 ? `${m} (×${n})` : m)),
      ...this.store.problems(),
    ];
    this.version += 1;
    return Object.freeze({
      version: this.version,
      workloads,
      nodes: this.store.nodes(),
      totals: this.store.totals(),
      kinds: this.kindStates(),
      definitions: this.definitionInfos(workloads),
      problems,
      changedWorkloads: changed,
    });
  }
}
