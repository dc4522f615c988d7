// A fleet of clusters as one model source: one engine per context, each a
// ModelSource of its own (opened by open.ts; for the explorer all of them in
// one shared worker thread, worker/engine-host.ts; for `wlx get` on the
// caller's thread), and this thread merging their snapshots
// (src/model/fleet/merge.ts). One bad cluster never holds the others: each
// member opens, connects and publishes on its own time; one that has not
// answered within the connect timeout is shown as unreachable (its engine
// keeps retrying), and `whenSynced` does not wait for it.
import type {
  ConnectionCause,
  ConnectionInfo,
  FleetMember,
  ModelSnapshot,
  NodePodEntry,
  PodScope,
  ResourceInfo,
} from '../model/types.js';
import type { ModelSource } from '../model/source.js';
import type { Definition } from '../definitions/types.js';
import type { ClusterSummary } from '../model/fleet/types.js';
import { FleetMerger } from '../model/fleet/merge.js';
import { summariseCluster } from '../model/fleet/summary.js';
import { fleetKey } from '../model/fleet/link.js';
import { openModelSource } from './open.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, type OpenOptions } from './connect.js';
import { SharedEngineHost } from './worker/engine-host.js';

/** Shared engine workers a fleet's engines are spread over (never more than there are clusters). */
export const DEFAULT_ENGINE_WORKERS = 1;
/** Snapshots of several members arriving together are merged once. */
const MERGE_DELAY_MS = 30;

export interface FleetOpenOptions extends OpenOptions {
  /** The contexts, in the order given (duplicates dropped). */
  contexts: string[];
  /**
   * With engineThread 'worker': the engines in shared workers (default),
   * or false: a worker per cluster (the benchmark's comparison).
   */
  sharedWorker?: boolean;
  /** How many shared workers the engines are spread over, in turn (default DEFAULT_ENGINE_WORKERS). */
  engineWorkers?: number;
}

/**
 * The fleet as the explorer and `wlx get` read it: a ModelSource whose
 * whenSynced resolves when every member has synced, failed, or not answered
 * within the connect timeout, and whose refreshQueuePositions and
 * scrapeGpuMetrics leave out a member that does not answer in time.
 */
export interface FleetSource extends ModelSource {
  /** A member's own source (its cluster's views: a workload's tree, a node, a narrowed explorer); undefined until it opens. */
  member(context: string): ModelSource | undefined;
  contexts(): readonly string[];
}

class Member {
  source: ModelSource | null = null;
  /** Why it could not be opened, or has not answered in time. */
  error: ConnectionCause | null = null;
  clusterName: string | null = null;
  server: string | null = null;
  /** The kubeconfig user of its context (null: the kubeconfig entry could not be read). */
  user: string | null = null;
  unsubscribe: (() => void) | null = null;
  timedOut = false;
  /** Its summary line and what it was computed from (recomputed only when one of them changes). */
  line: {
    snapshot: ModelSnapshot | null;
    error: ConnectionCause | null;
    version: string | null;
    summary: ClusterSummary;
  } | null = null;
  settled!: Promise<void>;
  /** Closes its engine's connections while it is still opening (stop). */
  readonly abort = new AbortController();
  constructor(readonly context: string) {}
}

function describeOpenError(err: unknown): ConnectionCause {
  const text = err instanceof Error ? err.message : String(err);
  // The context's kubeconfig entry: its message names the file, the context and the field.
  if (err instanceof Error && err.name === 'KubeconfigError') return { kind: 'kubeconfig', text };
  if (/401|unauthori[sz]ed|credentials|exec plugin|token/i.test(text)) return { kind: 'unauthorized', text };
  if (/403|forbidden/i.test(text)) return { kind: 'forbidden', text };
  return { kind: 'unreachable', text };
}

/** The header's User: of a fleet: the one user when all the contexts read name the same, else per cluster. */
export function fleetUser(users: readonly (string | null)[]): string {
  const known = new Set(users.filter((u): u is string => !!u));
  if (known.size === 1) return [...known][0];
  return known.size ? 'per cluster (Enter on :clusters)' : 'unknown (kubeconfig not read)';
}

/** Resolves with true when `p` settles within `ms`, false otherwise (the timer never holds the process). */
function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    t.unref();
    p.then(
      () => {
        clearTimeout(t);
        resolve(true);
      },
      () => {
        clearTimeout(t);
        resolve(true);
      },
    );
  });
}

class Fleet implements FleetSource {
  private readonly members: Member[];
  private readonly merger = new FleetMerger();
  private readonly listeners = new Set<(s: ModelSnapshot) => void>();
  private snapshot: ModelSnapshot;
  private mergeTimer: NodeJS.Timeout | null = null;
  private podScope: PodScope = 'all';
  /** The scope last sent to the members (by value). */
  private sentScope: string | null = null;
  /** Queue-position and GPU-metric holds the views keep: each member's own release, members opened later too. */
  private readonly holds = new Set<{
    take: (s: ModelSource) => (() => void) | undefined;
    releases: ((() => void) | undefined)[];
  }>();
  private stopped = false;
  private readonly connectTimeoutMs: number;
  /** The shared workers the engines run in (engineThread 'worker'), member i in host i mod their number. */
  private readonly hosts: SharedEngineHost[];

  constructor(
    private readonly options: FleetOpenOptions,
    private readonly stopDemo?: () => Promise<void>,
  ) {
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.members = [...new Set(options.contexts)].map((c) => new Member(c));
    const shared = options.engineThread === 'worker' && options.sharedWorker !== false;
    const workers = Math.min(this.members.length, Math.max(1, options.engineWorkers ?? DEFAULT_ENGINE_WORKERS));
    this.hosts = shared ? Array.from({ length: workers }, () => new SharedEngineHost()) : [];
    this.snapshot = this.merge();
  }

  /** Starts opening every member at once (resolves without waiting for any: each joins when it opens). */
  async open(): Promise<void> {
    const { loadKubeconfig } = await import('../kube/kubeconfig.js');
    await Promise.all(
      this.members.map(async (m, i) => {
        try {
          const loaded = loadKubeconfig({ kubeconfig: this.options.kubeconfig, context: m.context });
          m.clusterName = loaded.cluster;
          m.server = loaded.server;
          m.user = loaded.user;
        } catch (err) {
          m.error = describeOpenError(err);
          m.settled = Promise.resolve();
          return;
        }
        const opening = openModelSource(
          {
            ...this.options,
            context: m.context,
            contexts: undefined,
            allContexts: false,
            demo: false,
            fleet: false,
            signal: m.abort.signal,
          },
          this.hosts.length ? this.hosts[i % this.hosts.length] : undefined,
        );
        m.settled = this.settle(m, opening);
      }),
    );
  }

  /** The member's life until it has synced, failed, or not answered in time (what `whenSynced` waits for). */
  private async settle(m: Member, opening: Promise<ModelSource>): Promise<void> {
    const failed = (err: unknown) => {
      m.error = describeOpenError(err);
      this.schedule();
    };
    // Opening itself may wait on an exec plugin or a dead server: past the timeout it joins when it opens.
    if (!(await within(opening, this.connectTimeoutMs))) {
      this.timeOut(m);
      opening.then((s) => this.attach(m, s), failed);
      return;
    }
    let source: ModelSource;
    try {
      source = await opening;
    } catch (err) {
      failed(err);
      return;
    }
    this.attach(m, source);
    // Waits for the first sync of a member that answers; gives up on one that has not answered at all in time.
    const answered = new Promise<void>((resolve) => {
      const check = (s: ModelSnapshot) => {
        if (s.connection.state === 'syncing' || s.connection.state === 'live' || s.connection.synced > 0) {
          unsubscribe();
          resolve();
        }
      };
      const unsubscribe = source.subscribe(check);
      check(source.getSnapshot());
    });
    if (!(await within(answered, this.connectTimeoutMs))) {
      this.timeOut(m);
      return;
    }
    // A failed first sync has settled too (its snapshot says why); in the explorer nobody awaits this.
    await source.whenSynced().catch(() => undefined);
  }

  private timeOut(m: Member): void {
    if (m.timedOut || this.stopped) return;
    m.timedOut = true;
    const s = m.source?.getSnapshot();
    if (s && (s.connection.state === 'live' || s.connection.state === 'syncing')) return;
    m.error = s?.connection.cause ?? {
      kind: 'unreachable',
      text: `no answer within ${Math.round(this.connectTimeoutMs / 1000)} s`,
    };
    this.schedule();
  }

  private attach(m: Member, source: ModelSource): void {
    if (this.stopped) {
      void source.stop();
      return;
    }
    m.source = source;
    this.sentScope = null;
    this.sendPodScope();
    for (const h of this.holds) h.releases.push(h.take(source));
    m.unsubscribe = source.subscribe((s) => {
      // An answer clears a timeout's verdict; the engine's own state speaks from then on.
      if (m.error && (s.connection.state === 'live' || s.connection.state === 'syncing')) m.error = null;
      // Past the timeout, what the cluster itself says (refused, 401, …) replaces "no answer".
      else if (m.timedOut && s.connection.cause) m.error = s.connection.cause;
      this.schedule();
    });
    this.schedule();
  }

  private schedule(): void {
    if (this.mergeTimer || this.stopped) return;
    this.mergeTimer = setTimeout(() => {
      this.mergeTimer = null;
      this.snapshot = this.merge();
      // A link may have appeared: the copies of the jobs in view join the scope.
      if (this.podScope !== 'all') this.sendPodScope();
      for (const l of this.listeners) l(this.snapshot);
    }, MERGE_DELAY_MS);
  }

  private fleetMembers(): FleetMember[] {
    return this.members.map((m) => {
      const snapshot = m.source?.getSnapshot() ?? null;
      const version = m.source?.getConnectionInfo().serverVersion ?? null;
      // A member that did not change keeps its line (a merge follows every other member's flush).
      let l = m.line;
      if (!l || l.snapshot !== snapshot || l.error !== m.error || l.version !== version)
        l = m.line = {
          snapshot,
          error: m.error,
          version,
          summary: summariseCluster(
            { context: m.context, server: m.server, version, error: m.error },
            snapshot,
            this.options.gpuResources.length ? this.options.gpuResources : undefined,
          ),
        };
      return { context: m.context, clusterName: m.clusterName, user: m.user, snapshot, summary: l.summary };
    });
  }

  private merge(): ModelSnapshot {
    return this.merger.merge(this.fleetMembers());
  }

  // ---- ModelSource ---------------------------------------------------------

  getSnapshot(): ModelSnapshot {
    return this.snapshot;
  }

  subscribe(listener: (s: ModelSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getNodePods(nodeName: string): NodePodEntry[] {
    // Views of one node read its member (their frames carry the cluster); this is the first node of that name.
    for (const m of this.members)
      if (m.source?.getSnapshot().nodes.some((n) => n.name === nodeName)) return m.source.getNodePods(nodeName);
    return [];
  }

  getConnectionInfo(): ConnectionInfo {
    const contexts = this.members.map((m) => m.context);
    const versions = new Set(
      this.members.flatMap((m) => {
        const v = m.source?.getConnectionInfo().serverVersion;
        return v ? [v] : [];
      }),
    );
    return {
      context: contexts.join(','),
      cluster: `${contexts.length} clusters (:clusters)`,
      user: fleetUser(this.members.map((m) => m.user)),
      server: '',
      // One version when every cluster that answered said the same.
      serverVersion: versions.size === 1 ? [...versions][0] : null,
      namespace: this.options.namespace,
    };
  }

  holdQueuePositions(): () => void {
    return this.hold((s) => s.holdQueuePositions());
  }

  holdGpuMetrics(): () => void {
    return this.hold((s) => s.holdGpuMetrics());
  }

  private hold(take: (s: ModelSource) => (() => void) | undefined): () => void {
    const h = { take, releases: this.members.map((m) => (m.source ? take(m.source) : undefined)) };
    this.holds.add(h);
    return () => {
      if (!this.holds.delete(h)) return;
      for (const r of h.releases) r?.();
    };
  }

  setPodScope(scope: PodScope): void {
    this.podScope = scope;
    this.sendPodScope();
  }

  /**
   * Every member gets the whole list (uids are unique: a member sends the pods
   * of those it holds), with the copies the listed MultiKueue jobs run as
   * (a manager's job is drawn with its copy's pods).
   */
  private sendPodScope(): void {
    const scope = this.podScope;
    let sent: PodScope = scope;
    if (scope !== 'all') {
      const remote = this.snapshot.fleet?.links.remote;
      const uids = new Set(scope.workloads);
      if (remote?.size)
        for (const m of this.members)
          for (const uid of scope.workloads) {
            const copy = remote.get(fleetKey(m.context, uid))?.uid;
            if (copy) uids.add(copy);
          }
      sent = { workloads: [...uids].sort() };
    }
    const key = sent === 'all' ? 'all' : sent.workloads.join('\u0000');
    if (key === this.sentScope) return;
    this.sentScope = key;
    for (const m of this.members) m.source?.setPodScope(sent);
  }

  /** Every member synced, failed, or silent past the connect timeout; then the merged snapshot is current. */
  async whenSynced(): Promise<void> {
    await Promise.all(this.members.map((m) => m.settled));
    if (this.mergeTimer) clearTimeout(this.mergeTimer);
    this.mergeTimer = null;
    this.snapshot = this.merge();
  }

  /** The kubeconfig the fleet reads (the simulated fleet's with --demo --fleet); undefined: the default one. */
  kubeconfigPath(): string | undefined {
    return this.options.kubeconfig;
  }

  /** The first member's (the same files everywhere; each cluster's Kartas on top of them). */
  definitions(): Definition[] {
    return this.members.find((m) => m.source)?.source?.definitions() ?? [];
  }

  resources(): ResourceInfo[] {
    return this.members.flatMap((m) => m.source?.resources() ?? []);
  }

  private async each(run: (s: ModelSource) => Promise<void>): Promise<void> {
    await Promise.all(
      this.members
        .filter((m) => m.source && !m.error)
        .map((m) =>
          within(
            run(m.source!).catch(() => undefined),
            this.connectTimeoutMs,
          ),
        ),
    );
    this.snapshot = this.merge();
  }

  refreshQueuePositions(): Promise<void> {
    return this.each((s) => s.refreshQueuePositions());
  }

  scrapeGpuMetrics(): Promise<void> {
    return this.each((s) => s.scrapeGpuMetrics());
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.mergeTimer) clearTimeout(this.mergeTimer);
    await Promise.all(
      this.members.map(async (m) => {
        m.unsubscribe?.();
        m.abort.abort();
        await m.source?.stop().catch(() => undefined);
      }),
    );
    await Promise.all(this.hosts.map((h) => h.close()));
    await this.stopDemo?.();
  }

  // ---- FleetSource ---------------------------------------------------------

  member(context: string): ModelSource | undefined {
    return this.members.find((m) => m.context === context)?.source ?? undefined;
  }

  contexts(): readonly string[] {
    return this.members.map((m) => m.context);
  }
}

/**
 * Opens every context at once. Resolves when each member has opened or
 * failed to open (a member whose opening does not end within the connect
 * timeout is shown unreachable and joins when it does).
 */
export async function openFleetSource(options: FleetOpenOptions, stopDemo?: () => Promise<void>): Promise<FleetSource> {
  const fleet = new Fleet(options, stopDemo);
  await fleet.open();
  return fleet;
}

/** The contexts a fleet's options name: those given, every context of the kubeconfig, or the simulated fleet's. */
export async function fleetContexts(
  options: OpenOptions,
): Promise<{ kubeconfig?: string; contexts: string[]; stopDemo?: () => Promise<void> }> {
  const { loadKubeconfig } = await import('../kube/kubeconfig.js');
  const all = (kubeconfig?: string) => loadKubeconfig({ kubeconfig }).contexts;
  if (options.demo && options.fleet) {
    const { startDemoInBackground } = await import('../../demo/index.js');
    const demo = await startDemoInBackground({ fleet: true });
    try {
      return { kubeconfig: demo.kubeconfigPath, contexts: all(demo.kubeconfigPath), stopDemo: () => demo.stop() };
    } catch (err) {
      await demo.stop();
      throw err;
    }
  }
  if (options.allContexts) return { kubeconfig: options.kubeconfig, contexts: all(options.kubeconfig) };
  return { kubeconfig: options.kubeconfig, contexts: options.contexts ?? (options.context ? [options.context] : []) };
}

/** Opens the fleet the options name (see fleetContexts); a kubeconfig without contexts is an error. */
export async function openFleet(options: OpenOptions): Promise<FleetSource> {
  const { kubeconfig, contexts, stopDemo } = await fleetContexts(options);
  if (!contexts.length) {
    await stopDemo?.();
    throw new Error('the kubeconfig has no contexts');
  }
  try {
    return await openFleetSource({ ...options, kubeconfig, contexts }, stopDemo);
  } catch (err) {
    await stopDemo?.();
    throw err;
  }
}
