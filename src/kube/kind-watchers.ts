// One reflector per watched kind: discovery of the kinds the definitions
// want, their reflectors started once (one at a time: startup and hot
// reloads may overlap), and the state of each for the snapshot.
import { type Gvk, apiVersionOf, gvkKey } from '../definitions/types.js';
import type { AccessScope, ConnectionCause, KindState, KubeObject, ResourceInfo } from '../model/types.js';
import { collectionPath, type Discovery } from './discovery.js';
import { Reflector, type ReflectorState, type WatchEventType } from './reflector.js';
import { Trimmer, type TrimRole } from './trim.js';
import { kindLabel, type WantedKind } from './kinds.js';
import { forbiddenUser } from '../model/namespace-access.js';
import type { EngineOptions } from './engine-types.js';

/** Kinds read cluster-wide even under `-n`: the nodes' GPU requests and the exporters are everyone's. */
function isClusterAccounting(role: TrimRole): boolean {
  return role === 'pod' || role === 'dra';
}

/** Kinds watched only when served (queues and gangs, DRA, Kueue Topology): absent is silent, any served version will do. */
function isOptional(role: TrimRole): boolean {
  return role === 'scheduling' || role === 'dra' || role === 'topology';
}

export interface Watched {
  key: string;
  info: ResourceInfo;
  role: TrimRole;
  label: string;
  reflector: Reflector;
  /** The namespace this reflector lists (null: all, or a cluster-scoped kind). */
  namespace: string | null;
  /**
   * Settles after the first list, like the reflector's, but when a
   * cluster-wide list was forbidden and replaced by per-namespace ones, after
   * theirs (`wlx get` must not print before the fallback listed).
   */
  firstSync: Promise<Error | null>;
}

export interface KindWatcherHandlers {
  onEvent(w: Watched, type: WatchEventType, object: KubeObject): void;
  onState(w: Watched, state: ReflectorState): void;
  onProblem(w: Watched, message: string): void;
  /** A kind now watched in another role: its objects as deletions in the old one. */
  onRoleChange(role: TrimRole, tombstones: KubeObject[]): void;
  /** Kinds were started or found missing. */
  onKindsChanged(): void;
  /** What is held of pod `uid` (its trimmed object), whose parts a new version's trim tries first. */
  previousPod?(uid: string): KubeObject | undefined;
  /** Awaited between a kind's list and its watch (ReflectorOptions.beforeWatch). */
  beforeWatch?(listStartedAt: number, signal: AbortSignal): Promise<void>;
}

export interface EnsureResult {
  /** First-sync promises of the reflectors started. */
  started: Promise<Error | null>[];
  /** Discovery failed for some kinds (server unreachable): ask again. */
  retry: boolean;
  /** Why discovery failed, when it did. */
  cause?: ConnectionCause;
}

export class KindWatchers {
  private readonly watched = new Map<string, Watched>();
  /** Kinds wanted but not watchable (forbidden or not served at discovery). */
  private readonly unserved = new Map<string, KindState>();
  /** Wanted `group/version/Kind` → the key it is watched at (another version of the kind, see Discovery.resolve). */
  private readonly servedAt = new Map<string, string>();
  private ensureChain: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** This engine's trimmer: its sharing tables serve only the objects of this engine. */
  private readonly trimmer = new Trimmer();
  /** Kinds whose cluster-wide list was forbidden, now listed per namespace (gvk keys). */
  private readonly fellBack = new Set<string>();
  /** Kinds watched at another served version than their definition's: what to tell (the wanted gvk key →). */
  private readonly fallbacks = new Map<string, { text: string; since: string }>();

  constructor(
    private readonly options: Pick<
      EngineOptions,
      'transport' | 'namespace' | 'namespaces' | 'fallbackNamespaces' | 'labelSelector' | 'watch' | 'wire' | 'reflector'
    >,
    private readonly discovery: Discovery,
    private readonly handlers: KindWatcherHandlers,
  ) {}

  /** Starts reflectors for the kinds `wanted()` names that are not watched yet. */
  ensure(wanted: () => WantedKind[]): Promise<EnsureResult> {
    const next = this.ensureChain.then(() => this.ensureNow(wanted()));
    this.ensureChain = next.catch(() => undefined);
    return next;
  }

  private async ensureNow(all: WantedKind[]): Promise<EnsureResult> {
    // A kind watched in another role (an owner that a new cluster Karta now
    // defines as a workload, or the reverse): take its objects out of the
    // store and watch it again in its new role.
    const watchedKey = (w: WantedKind) => this.servedAt.get(gvkKey(w.gvk)) ?? gvkKey(w.gvk);
    const isWatched = (k: string) => this.watched.has(k) || this.fellBack.has(k) || this.watched.has(`${k}@`);
    for (const w of all) {
      const current = this.watched.get(watchedKey(w));
      if (!current || current.role === w.role || current.role === 'definition') continue;
      this.watched.delete(current.key);
      await current.reflector.stop();
      this.handlers.onRoleChange(current.role, current.reflector.tombstones());
    }
    const wanted = all.filter((w) => !isWatched(watchedKey(w)));
    if (!wanted.length) return { started: [], retry: false };
    const result = await this.discovery.resolve(wanted.map((w) => w.gvk));
    if (this.stopped) return { started: [], retry: false };
    const syncs: Promise<Error | null>[] = [];
    let retry = false;
    let cause: ConnectionCause | undefined;
    for (const w of wanted) {
      const key = gvkKey(w.gvk);
      const info = result.found.get(key);
      if (info) {
        this.unserved.delete(key);
        const served = gvkKey(info.gvk);
        if (served !== key) this.servedAt.set(key, served);
        // Another wanted version of the kind is watched at this one already.
        if (isWatched(served)) continue;
        const watched = this.watchScopes(info, w.role, w.intermediate);
        syncs.push(...watched.map((x) => x.firstSync));
        // Told only when no definition names the served version itself (queue kinds: either version is theirs).
        // A fact, not a problem: the kind is watched all the same.
        const fallback = result.versionFallbacks.get(key);
        if (fallback && !isOptional(w.role) && !all.some((x) => gvkKey(x.gvk) === served))
          this.fallbacks.set(key, { text: fallback, since: new Date().toISOString() });
        continue;
      }
      const miss = result.missing.get(key);
      if (!miss) continue;
      if (miss.state === 'error') {
        if (this.options.watch === false) syncs.push(Promise.resolve(new Error(miss.message)));
        else retry = true;
        cause ??= miss.cause;
      }
      // Only report kinds a definition (or a pod/node view) really depends on; optional ones only when forbidden.
      const optional = w.role === 'owner' || isOptional(w.role);
      if (!optional || miss.state === 'forbidden') {
        this.unserved.set(key, {
          gvk: w.gvk,
          resource: w.gvk.kind.toLowerCase(),
          state: miss.state,
          since: new Date().toISOString(),
          message: miss.message,
          count: 0,
          cause: miss.cause,
        });
      }
    }
    this.handlers.onKindsChanged();
    return { started: syncs, retry, cause };
  }

  /**
   * The namespaces a namespaced kind is listed in: `-n` given several times,
   * else one (or all). Pods and DRA claims are listed cluster-wide whatever
   * `-n` says: `-n` narrows the workloads shown, while node accounting and the
   * dcgm-exporters need every pod (a 403 falls back to the `-n` namespaces).
   */
  private scopes(info: ResourceInfo, role: TrimRole): (string | null)[] {
    if (!info.namespaced || isClusterAccounting(role)) return [null];
    const many = this.options.namespaces;
    if (many && many.length > 1) return [...many];
    return [this.options.namespace];
  }

  private watchScopes(info: ResourceInfo, role: TrimRole, intermediate: boolean): Watched[] {
    return this.scopes(info, role).map((ns) => this.watch(info, role, intermediate, ns));
  }

  /**
   * Starts the reflector of one kind in one namespace (see
   * WantedKind.intermediate: the selector is then applied by the engine).
   * A cluster-wide list answered 403 is replaced by one per fallback
   * namespace (the context's, or `-n`'s): a namespace-scoped user sees
   * their namespaces instead of a forbidden cluster.
   */
  watch(info: ResourceInfo, role: TrimRole, intermediate = false, namespace?: string | null): Watched {
    const ns = namespace === undefined ? (info.namespaced ? this.scopes(info, role)[0] : null) : namespace;
    const base = gvkKey(info.gvk);
    const perNamespace = ns !== null && (this.scopes(info, role).length > 1 || ns !== this.options.namespace);
    const key = perNamespace ? `${base}@${ns}` : base;
    const label = perNamespace ? `${kindLabel(info)} (${ns})` : kindLabel(info);
    let fallback: Watched[] | null = null;
    const reflector: Reflector = new Reflector(
      {
        ...this.options.reflector,
        transport: this.options.transport,
        path: collectionPath(info, ns),
        apiVersion: apiVersionOf(info.gvk),
        kind: info.gvk.kind,
        label,
        labelSelector: role === 'workload' && !intermediate ? this.options.labelSelector : undefined,
        trim: this.trimmer.for(
          role,
          (message) => this.handlers.onProblem(w, message),
          this.handlers.previousPod ? (uid) => this.handlers.previousPod?.(uid) : undefined,
        ),
        watch: this.options.watch !== false,
        wire: this.options.wire,
        ...(this.handlers.beforeWatch
          ? { beforeWatch: (at: number, signal: AbortSignal) => this.handlers.beforeWatch!(at, signal) }
          : {}),
      },
      {
        onEvent: (type, object) => this.handlers.onEvent(w, type, object),
        onState: (state) => {
          if (state === 'forbidden' && !fallback) fallback = this.fallBack(w, intermediate);
          if (fallback) return;
          this.handlers.onState(w, state);
        },
        onProblem: (message) => {
          if (!fallback) this.handlers.onProblem(w, message);
        },
      },
    );
    // The handlers above run only once the reflector has started, after this.
    const w: Watched = {
      key,
      info,
      role,
      label,
      reflector,
      namespace: ns,
      firstSync: reflector.firstSync.then((err) =>
        fallback ? Promise.all(fallback.map((f) => f.firstSync)).then((errs) => errs.find((e) => e) ?? null) : err,
      ),
    };
    this.watched.set(key, w);
    reflector.start();
    return w;
  }

  /** A cluster-wide list of a namespaced kind was forbidden: list it in the fallback namespaces instead. */
  private fallBack(w: Watched, intermediate: boolean): Watched[] | null {
    const namespaces = (this.options.fallbackNamespaces ?? []).filter((n) => n !== '');
    if (!w.info.namespaced || w.namespace !== null || !namespaces.length || this.stopped) return null;
    this.watched.delete(w.key);
    this.fellBack.add(w.key);
    void w.reflector.stop();
    this.handlers.onRoleChange(w.role, w.reflector.tombstones());
    const out = namespaces.map((ns) => {
      const key = `${w.key}@${ns}`;
      const existing = this.watched.get(key);
      return existing ?? this.watch(w.info, w.role, intermediate, ns);
    });
    this.handlers.onKindsChanged();
    return out;
  }

  /** Every kind watched has listed once, or cannot be (forbidden, not served). */
  allListed(): boolean {
    for (const w of this.watched.values()) {
      const state = w.reflector.state;
      if (w.reflector.lists === 0 && state !== 'forbidden' && state !== 'not-served') return false;
    }
    return true;
  }

  /** What the user may read (see AccessScope; the kinds of an unreadable namespace are that namespace's notice). */
  access(): AccessScope {
    const namespaces = new Set<string>();
    for (const w of this.watched.values()) if (w.namespace !== null && w.info.namespaced) namespaces.add(w.namespace);
    const { namespaces: unreadable, user } = this.unreadable();
    const forbidden = new Set<string>();
    for (const w of this.watched.values())
      if (w.reflector.state === 'forbidden' && !(w.namespace !== null && unreadable.includes(w.namespace)))
        forbidden.add(kindLabel(w.info));
    for (const u of this.unserved.values()) if (u.state === 'forbidden') forbidden.add(u.resource);
    const singleNamespace = this.options.namespace !== null && !this.fellBack.size;
    // Pods read namespace by namespace (their cluster-wide list was forbidden): the nodes count those alone.
    const podsIn = [...this.watched.values()]
      .filter((w) => w.role === 'pod' && w.namespace !== null && w.reflector.state !== 'forbidden')
      .map((w) => w.namespace!);
    const podsFellBack = this.fellBack.has(gvkKey({ group: '', version: 'v1', kind: 'Pod' }));
    return {
      ...(podsFellBack ? { podsIn: podsIn.sort() } : {}),
      clusterWide: !this.fellBack.size && !singleNamespace && !forbidden.size && !unreadable.length,
      namespaces: this.fellBack.size || (this.options.namespaces?.length ?? 0) > 1 ? [...namespaces].sort() : [],
      forbidden: [...forbidden].sort(),
      ...(unreadable.length ? { unreadable: unreadable.sort() } : {}),
      ...(user ? { user } : {}),
    };
  }

  /** Kinds watched at another served version (`CronJob batch/v1 is not served; watching batch/v1beta1 instead`). */
  versionFallbacks(): { text: string; since: string }[] {
    return [...this.fallbacks.values()];
  }

  /**
   * The namespaces where every namespaced kind answered 403 (a `-n` the user
   * may not read), and the user the server's 403s name.
   */
  private unreadable(): { namespaces: string[]; user: string | null } {
    const byNamespace = new Map<string, boolean>();
    let user: string | null = null;
    for (const w of this.watched.values()) {
      const forbidden = w.reflector.state === 'forbidden';
      if (forbidden) user ??= forbiddenUser(w.reflector.message);
      if (w.namespace === null || !w.info.namespaced) continue;
      byNamespace.set(w.namespace, (byNamespace.get(w.namespace) ?? true) && forbidden);
    }
    return { namespaces: [...byNamespace].filter(([, all]) => all).map(([ns]) => ns), user };
  }

  /** Whether some kind of `namespace` was read (listed, not forbidden). */
  readsIn(namespace: string): boolean {
    for (const w of this.watched.values())
      if (w.namespace === namespace && w.info.namespaced && w.reflector.state === 'live') return true;
    return false;
  }

  /** Whether some kind is read per namespace because its cluster-wide list was forbidden. */
  fellBackToNamespaces(): boolean {
    return this.fellBack.size > 0;
  }

  /** Kinds still in their first list. */
  listing(): Gvk[] {
    const out: Gvk[] = [];
    for (const w of this.watched.values()) if (w.reflector.state === 'syncing') out.push(w.info.gvk);
    return out;
  }

  states(): KindState[] {
    const out: KindState[] = [];
    for (const w of this.watched.values()) {
      out.push({
        gvk: w.info.gvk,
        resource: w.label,
        ...(w.info.shortNames.length ? { shortNames: w.info.shortNames } : {}),
        state: w.reflector.state,
        since: w.reflector.since.toISOString(),
        message: w.reflector.message,
        count: w.reflector.count,
        cause: w.reflector.cause,
        retryAt: w.reflector.retryAt?.toISOString(),
      });
    }
    out.push(...this.unserved.values());
    return out;
  }

  resources(): ResourceInfo[] {
    return [...this.watched.values()].map((w) => w.info);
  }

  inventory(): Map<string, Map<string, string>> {
    const out = new Map<string, Map<string, string>>();
    for (const w of this.watched.values()) out.set(w.label, w.reflector.snapshotVersions());
    return out;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.watched.values()].map((w) => w.reflector.stop()));
  }
}
