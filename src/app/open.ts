// The live model source the explorer and `wlx get` read: the engine in this
// thread, or in the engine worker (worker/).
import type { ModelSource } from '../model/source.js';
import { openEngine, resolveCluster, type OpenOptions } from './connect.js';

/**
 * Opens the live model: the cluster (the demo's with `--demo`), then the
 * engine over HTTP through client-node's auth, exactly as for a real cluster;
 * in a worker thread with `engineThread: 'worker'`.
 */
export async function openModelSource(options: OpenOptions): Promise<ModelSource> {
  if (options.engineThread === 'worker') {
    const { openWorkerModelSource } = await import('./worker/worker-source.js');
    return openWorkerModelSource(options);
  }
  const cluster = await resolveCluster(options);
  try {
    return await openEngine(options, cluster);
  } catch (err) {
    await cluster.stopDemo?.();
    throw err;
  }
}
