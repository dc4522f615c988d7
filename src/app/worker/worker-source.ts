// The UI thread's side of the engine worker: a ModelSource over the mirror
// of the worker's snapshots. Nothing here parses, trims or flushes: each
// message is a delta applied to the mirror (wire.ts). See README.md.
import { Worker } from 'node:worker_threads';
import type { ModelSnapshot, NodePodEntry, PodScope } from '../../model/types.js';
import type { ModelSource, ObjectAccess } from '../../model/source.js';
import { nodePodEntries, PodsByNodeIndex } from '../../model/pods-on-node.js';
import { openAccess, resolveCluster, type OpenOptions } from '../connect.js';
import { Backoff, type BackoffOptions } from '../../kube/backoff.js';
import { ProblemLog } from '../../kube/snapshot.js';
import type { Delta } from './delta.js';
import type { EngineInfo, HoldKind, PodProbe, UiMessage, WorkerMessage, WorkerStart } from './protocol.js';
import { SnapshotMirror } from './wire.js';
import type { EngineChannel, EngineHost } from './engine-host.js';
import type { RowServer, RowWindow, RowWindowRequest } from '../../ui/state/served-rows.js';
import { engineResourceLimits } from './young-generation.js';

export interface WorkerSourceTuning {
  /** Back-off between restarts after a crash (default 0.5 s doubling to 30 s). */
  restartBackoff?: BackoffOptions;
  /** How long stop() waits for the worker to stop its engine before terminating it (default 5 s). */
  stopTimeoutMs?: number;
  /** Called for each delta applied (measurements). */
  onDelta?: (delta: Delta, decodeMs: number) => void;
  /** Serve the engine in this host's worker, shared with others (a fleet's), not in a worker of its own. */
  engineHost?: EngineHost;
}

export interface EngineHeap {
  usedBytes: number;
  totalBytes: number;
}

const WORKER_URL = new URL('./engine-worker.js', import.meta.url);

/** OpenOptions as workerData: a Prometheus URL crosses as its text (URL objects are not cloneable). */
function startData(options: OpenOptions, podScope: PodScope): WorkerStart {
  const { signal: _signal, ...rest } = options;
  const p = options.prometheus;
  return {
    options: { ...rest, prometheus: p?.kind === 'url' ? { ...p, url: p.url.href as unknown as URL } : p },
    podScope,
  };
}

/**
 * Opens the explorer's model source with the engine in a worker thread: the
 * demo (with `--demo`) and the incident views' access stay on this thread,
 * the engine's ingestion does not. Resolves once the worker's engine is open
 * and its first snapshot mirrored; rejects as the in-thread opener would.
 */
export async function openWorkerModelSource(
  options: OpenOptions,
  tuning: WorkerSourceTuning = {},
): Promise<WorkerSource> {
  const cluster = await resolveCluster(options);
  let reads: Awaited<ReturnType<typeof openAccess>> | undefined;
  try {
    reads = await openAccess(cluster);
    const source = new WorkerSource(
      { ...options, demo: false, kubeconfig: cluster.kubeconfig, context: cluster.context, engineThread: 'inline' },
      reads,
      cluster.stopDemo,
      tuning,
    );
    await source.start();
    return source;
  } catch (err) {
    reads?.close();
    await cluster.stopDemo?.();
    throw err;
  }
}

type Pending = { resolve: () => void; reject: (err: Error) => void };

/**
 * The engine worker's side on the UI thread: a ModelSource that also serves
 * rows, with the hooks tests and the benchmark use (the current worker, its
 * heap, a probed pod).
 */
export class WorkerSource implements ModelSource, RowServer {
  readonly access: ObjectAccess;
  /** A worker of its own, or the channel to a shared one (WorkerSourceTuning.engineHost). */
  private worker: EngineChannel | null = null;
  private readonly mirror = new SnapshotMirror();
  private published!: ModelSnapshot;
  private version = 0;
  private info!: EngineInfo;
  private readonly listeners = new Set<(s: ModelSnapshot) => void>();
  private readonly holds = new Map<number, HoldKind>();
  private nextId = 0;
  private readonly refreshes = new Map<number, Pending>();
  private readonly heaps = new Map<number, { resolve: (heap: EngineHeap) => void; reject: (err: Error) => void }>();
  /** Crashes, told on every snapshot from then on (repeats counted). */
  private readonly crashes = new ProblemLog();
  private crashed = false;
  private readonly backoff: Backoff;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopping: Promise<void> | null = null;
  private synced: Promise<void>;
  private settleSynced!: (error?: Error) => void;
  private nodePodsMemo: { snapshot: ModelSnapshot; node: string; out: NodePodEntry[] } | null = null;
  /** The mirrored trees' pods by node (nodePodEntries). */
  private readonly podsByNode = new PodsByNodeIndex();
  /** Whose pods the worker sends; every pod until the views say (tests and measurements read them all). */
  private podScope: PodScope = 'all';
  private rowsRequest: RowWindowRequest | null = null;
  private window: RowWindow | undefined;
  private probe: PodProbe | undefined;

  constructor(
    private readonly options: OpenOptions,
    private readonly reads: { access: ObjectAccess; close(): void },
    private readonly stopDemo: (() => Promise<void>) | undefined,
    private readonly tuning: WorkerSourceTuning,
  ) {
    this.access = reads.access;
    this.backoff = new Backoff(tuning.restartBackoff ?? { initialMs: 500, maxMs: 30_000, factor: 2, jitter: 0.2 });
    this.synced = new Promise((resolve, reject) => {
      this.settleSynced = (error) => (error ? reject(error) : resolve());
    });
    this.synced.catch(() => undefined);
  }

  /** Starts the first worker; resolves on its first snapshot, rejects on its fatal error or exit. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => this.spawn({ resolve, reject }));
  }

  // ---- ModelSource -------------------------------------------------------

  getSnapshot(): ModelSnapshot {
    return this.published;
  }

  subscribe(listener: (snapshot: ModelSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getNodePods(nodeName: string): NodePodEntry[] {
    const snapshot = this.published;
    const memo = this.nodePodsMemo;
    if (memo && memo.snapshot === snapshot && memo.node === nodeName) return memo.out;
    const out = nodePodEntries(nodeName, snapshot.workloads, snapshot.podsWithoutWorkload ?? [], this.podsByNode);
    this.nodePodsMemo = { snapshot, node: nodeName, out };
    return out;
  }

  getConnectionInfo() {
    return this.info.connection;
  }

  kubeconfigPath() {
    return this.options.kubeconfig;
  }

  definitions() {
    return this.info.definitions;
  }

  resources() {
    return this.info.resources;
  }

  holdQueuePositions(): () => void {
    return this.hold('queuePositions');
  }

  holdGpuMetrics(): () => void {
    return this.hold('gpuMetrics');
  }

  setPodScope(scope: PodScope): void {
    this.podScope = scope;
    this.send({ type: 'scope', scope });
  }

  serveRows(request: RowWindowRequest | null): void {
    this.rowsRequest = request;
    if (!request) this.window = undefined;
    this.send({ type: 'rows', request });
  }

  rowWindow(): RowWindow | undefined {
    return this.window;
  }

  /**
   * Report a pod's restart count in the engine's model with each snapshot
   * (null: stop), whatever the pod scope: the benchmark's catch-up marker.
   */
  probePod(pod: { namespace: string; name: string } | null): void {
    if (!pod) this.probe = undefined;
    this.send({ type: 'probe', pod });
  }

  /** The last probe answered (with the snapshot published with it). */
  lastProbe(): PodProbe | undefined {
    return this.probe;
  }

  refreshQueuePositions(): Promise<void> {
    return this.refresh('queuePositions');
  }

  scrapeGpuMetrics(): Promise<void> {
    return this.refresh('gpuMetrics');
  }

  whenSynced(): Promise<void> {
    return this.synced;
  }

  /** The worker thread now running the engine, or its channel in a shared one (tests end it to crash it). */
  currentWorker(): EngineChannel | null {
    return this.worker;
  }

  /** The engine worker's heap, after a full GC when asked and exposed (the benchmark's per-thread figures). */
  engineHeap(gc: boolean): Promise<EngineHeap> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.heaps.set(id, { resolve, reject });
      this.send({ type: 'heap', id, gc });
    });
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.restartTimer) clearTimeout(this.restartTimer);
      const worker = this.worker;
      if (worker) {
        const ended = new Promise<void>((resolve) => {
          worker.once('exit', () => resolve());
          worker.on('message', (m: WorkerMessage) => m.type === 'stopped' && resolve());
        });
        this.send({ type: 'stop' });
        const timeout = new Promise<void>((resolve) => setTimeout(resolve, this.tuning.stopTimeoutMs ?? 5000).unref());
        await Promise.race([ended, timeout]);
        await worker.terminate().catch(() => undefined);
      }
      this.worker = null;
      for (const r of [...this.refreshes.values(), ...this.heaps.values()]) r.reject(new Error('the engine stopped'));
      this.refreshes.clear();
      this.heaps.clear();
      this.listeners.clear();
      this.reads.close();
      await this.stopDemo?.();
    })();
    return this.stopping;
  }

  // ---- the worker ----------------------------------------------------------

  private send(message: UiMessage): void {
    this.worker?.postMessage(message);
  }

  private hold(what: HoldKind): () => void {
    const id = ++this.nextId;
    this.holds.set(id, what);
    this.send({ type: 'hold', id, what });
    return () => {
      if (this.holds.delete(id)) this.send({ type: 'release', id });
    };
  }

  private refresh(what: HoldKind): Promise<void> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.refreshes.set(id, { resolve, reject });
      this.send({ type: 'refresh', id, what });
    });
  }

  /** A worker; `opening`: the first one, whose failure is the caller's (later ones are restarted). */
  private spawn(opening?: Pending): void {
    const data = startData(this.options, this.podScope);
    const host = this.tuning.engineHost;
    const worker: EngineChannel = host
      ? host.channel(data)
      : new Worker(WORKER_URL, { workerData: data, resourceLimits: engineResourceLimits() });
    this.worker = worker;
    this.mirror.reset();
    let error: string | null = null;
    let mirrored = false;
    worker.on('message', (message: WorkerMessage) => {
      if (this.worker !== worker) return;
      switch (message.type) {
        case 'opened':
          this.info = message.info;
          // Holds taken before a restart keep holding in the new engine, and the served view is served.
          for (const [id, what] of this.holds) this.send({ type: 'hold', id, what });
          if (this.rowsRequest) this.send({ type: 'rows', request: this.rowsRequest });
          break;
        case 'snapshot':
          if (message.info) this.info = message.info;
          // A window for a view since left is dropped (one for an earlier scroll of this view is still its rows).
          if (message.rows && this.rowsRequest) this.window = message.rows;
          if (message.probe) this.probe = message.probe;
          this.apply(message.delta);
          if (!mirrored) {
            mirrored = true;
            opening?.resolve();
          }
          break;
        case 'synced':
          if (!message.error) this.backoff.reset();
          this.settleSynced(message.error ? new Error(message.error) : undefined);
          break;
        case 'refreshed': {
          const pending = this.refreshes.get(message.id);
          this.refreshes.delete(message.id);
          if (message.error) pending?.reject(new Error(message.error));
          else pending?.resolve();
          break;
        }
        case 'fatal':
          error = message.message;
          break;
        case 'heap':
          this.heaps.get(message.id)?.resolve({ usedBytes: message.usedBytes, totalBytes: message.totalBytes });
          this.heaps.delete(message.id);
          break;
        case 'stopped':
          break;
      }
    });
    worker.on('error', (err: Error) => {
      error = err.message;
    });
    worker.on('exit', (code: number) => {
      if (this.worker !== worker || this.stopping) return;
      this.worker = null;
      const why = error ?? `the worker exited (code ${code})`;
      if (opening && !mirrored) {
        opening.reject(new Error(why));
        return;
      }
      this.crash(why);
    });
  }

  /** An exit nobody asked for: told in the snapshot, and a new worker after a back-off. */
  private crash(why: string): void {
    for (const r of [...this.refreshes.values(), ...this.heaps.values()]) r.reject(new Error(`engine crashed: ${why}`));
    this.refreshes.clear();
    this.heaps.clear();
    const delayMs = this.backoff.next();
    this.crashes.add(`engine crashed: ${why}, restarting`);
    this.crashed = true;
    this.publish(this.mirror.snapshot() ?? this.published);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.stopping) this.spawn();
    }, delayMs);
  }

  private apply(delta: Delta): void {
    const start = performance.now();
    const snapshot = this.mirror.apply(delta);
    this.tuning.onDelta?.(delta, performance.now() - start);
    this.publish(snapshot);
  }

  /** The mirror as the UI reads it: versions always increase (a new worker starts at 1), crashes first in problems. */
  private publish(mirrored: ModelSnapshot): void {
    this.version += 1;
    this.published = Object.freeze({
      ...mirrored,
      version: this.version,
      ...(this.crashed
        ? {
            problems: [...this.crashes.messages(), ...mirrored.problems],
            problemEntries: [
              ...this.crashes.entries().map((e) => ({ source: 'engine', ...e, level: 'problem' as const })),
              ...(mirrored.problemEntries ?? []),
            ],
          }
        : {}),
    });
    for (const l of this.listeners) l(this.published);
  }
}
