// One reflector per watched kind: discovery of the kinds the definitions
// want, their reflectors started once (one at a time: startup and hot
// reloads may overlap), and the state of each for the snapshot.
import type { Gvk } from '../definitions/types.js';
import { apiVersionOf, gvkKey } from '../definitions/types.js';
import type { ConnectionCause, KindState, KubeObject } from '../model/types.js';
import { collectionPath, type Discovery, type ResourceInfo } from './discovery.js';
import { Reflector, type ReflectorState, type WatchEventType } from './reflector.js';
import { Trimmer, type TrimRole } from './trim.js';
import { kindLabel, type WantedKind } from './kinds.js';
import type { EngineOptions } from './engine-types.js';

export interface Watched {
  key: string;
  info: ResourceInfo;
  role: TrimRole;
  label: string;
  reflector: Reflector;
}

export interface KindWatcherHandlers {
  onEvent(w: Watched, type: WatchEventType, object: KubeObject): void;
  onState(w: Watched, state: ReflectorState): void;
  onProblem(w: Watched, message: string): void;
  /** A kind now watched in another role: its objects as deletions in the old one. */
  onRoleChange(role: TrimRole, tombstones: KubeObject[]): void;
  /** Kinds were started or found missing. */
  onKindsChanged(): void;
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

  constructor(
    private readonly options: Pick<EngineOptions, 'transport' | 'namespace' | 'labelSelector' | 'watch' | 'reflector'>,
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
    for (const w of all) {
      const current = this.watched.get(watchedKey(w));
      if (!current || current.role === w.role || current.role === 'definition') continue;
      this.watched.delete(current.key);
      await current.reflector.stop();
      this.handlers.onRoleChange(current.role, current.reflector.tombstones());
    }
    const wanted = all.filter((w) => !this.watched.has(watchedKey(w)));
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
        if (this.watched.has(served)) continue;
        const watched = this.watch(info, w.role, w.intermediate);
        syncs.push(watched.reflector.firstSync);
        // Warn only when no definition names the served version itself.
        const fallback = result.versionFallbacks.get(key);
        if (fallback && !all.some((x) => gvkKey(x.gvk) === served)) this.handlers.onProblem(watched, fallback);
        continue;
      }
      const miss = result.missing.get(key);
      if (!miss) continue;
      if (miss.state === 'error') {
        if (this.options.watch === false) syncs.push(Promise.resolve(new Error(miss.message)));
        else retry = true;
        cause ??= miss.cause;
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
          cause: miss.cause,
        });
      }
    }
    this.handlers.onKindsChanged();
    return { started: syncs, retry, cause };
  }

  /** Starts the reflector of one kind (see WantedKind.intermediate: the selector is then applied by the engine). */
  watch(info: ResourceInfo, role: TrimRole, intermediate = false): Watched {
    const key = gvkKey(info.gvk);
    const label = kindLabel(info);
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
        trim: this.trimmer.for(role, (message) => this.handlers.onProblem(w, message)),
        watch: this.options.watch !== false,
      },
      {
        onEvent: (type, object) => this.handlers.onEvent(w, type, object),
        onState: (state) => this.handlers.onState(w, state),
        onProblem: (message) => this.handlers.onProblem(w, message),
      },
    );
    // The handlers above run only once the reflector has started, after this.
    const w: Watched = { key, info, role, label, reflector };
    this.watched.set(key, w);
    reflector.start();
    return w;
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
