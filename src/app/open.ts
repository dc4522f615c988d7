// The live model source the explorer and `wlx get` read: the engine in this
// thread, or in the engine worker (worker/).
import type { ModelSource } from '../model/source.js';
import { openEngine, resolveCluster, type OpenOptions } from './connect.js';
import type { EngineHost } from './worker/engine-host.js';

/**
 * Opens the live model: the cluster (the demo's with `--demo`), then the
 * engine over HTTP through client-node's auth, exactly as for a real cluster;
 * in a worker thread with `engineThread: 'worker'` (`engineHost`'s, shared
 * with other clusters' engines, when given).
 */
export async function openModelSource(options: OpenOptions, engineHost?: EngineHost): Promise<ModelSource> {
  if (options.engineThread === 'worker') {
    const { openWorkerModelSource } = await import('./worker/worker-source.js');
    return openWorkerModelSource(options, engineHost ? { engineHost } : {});
  }
  const cluster = await resolveCluster(options);
  try {
    return await openEngine(options, cluster);
  } catch (err) {
    await cluster.stopDemo?.();
    throw err;
  }
}
