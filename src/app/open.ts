// The live model source the explorer and `wlx get` read: the engine in this
// thread, or in the engine worker (worker/).
import type { ModelSource } from '../model/types.js';
import type { Definition } from '../definitions/types.js';
import type { ResourceInfo } from '../kube/discovery.js';
import { openEngine, resolveCluster, type OpenOptions } from './connect.js';

/** A running model source plus what it took to open it. */
export interface OpenedModelSource extends ModelSource {
  /** Resolves when every kind has been listed once and the trees are built. */
  whenSynced(): Promise<void>;
  /** The definitions in effect (built-in, files, and the cluster's Kartas once listed). */
  definitions(): Definition[];
  /** Discovery facts of the watched kinds (plural, short names such as `lws`). */
  resources(): ResourceInfo[];
  /** The kubeconfig file in use when one was named (`--kubeconfig`, the demo's); undefined: kubectl's defaults. */
  kubeconfigPath(): string | undefined;
  /** Asks Kueue's visibility API for queue positions once (`wlx get`). */
  refreshQueuePositions(): Promise<void>;
  /** Scrapes the dcgm-exporters (or queries Prometheus) once and flushes (`wlx get`). */
  scrapeGpuMetrics(): Promise<void>;
  /** Stops watches and the background demo (if any). Idempotent. */
  stop(): Promise<void>;
}

/**
 * Opens the live model: the cluster (the demo's with `--demo`), then the
 * engine over HTTP through client-node's auth, exactly as for a real cluster;
 * in a worker thread with `engineThread: 'worker'`.
 */
export async function openModelSource(options: OpenOptions): Promise<OpenedModelSource> {
  if (options.engineThread === 'worker') {
    const { openWorkerModelSource } = await import('./worker/worker-source.js');
    return openWorkerModelSource(options);
  }
  const { createAccess } = await import('../kube/access.js');
  const cluster = await resolveCluster(options);
  try {
    const { engine, transport } = await openEngine(options, cluster);
    let stopped = false;
    return {
      getSnapshot: () => engine.getSnapshot(),
      subscribe: (l) => engine.subscribe(l),
      getNodePods: (n) => engine.getNodePods(n),
      getConnectionInfo: () => engine.getConnectionInfo(),
      access: createAccess(transport),
      holdQueuePositions: () => engine.holdQueuePositions(),
      holdGpuMetrics: () => engine.holdGpuMetrics(),
      scrapeGpuMetrics: () => engine.scrapeGpuMetrics(),
      refreshQueuePositions: () => engine.refreshQueuePositions(),
      whenSynced: () => engine.whenSynced(),
      definitions: () => engine.definitions(),
      resources: () => engine.resources(),
      kubeconfigPath: () => cluster.kubeconfig,
      async stop() {
        if (stopped) return;
        stopped = true;
        await engine.stop();
        transport.close();
        await cluster.stopDemo?.();
      },
    };
  } catch (err) {
    await cluster.stopDemo?.();
    throw err;
  }
}
