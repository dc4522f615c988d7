// GPU readings as src/metrics/dcgm.ts makes them, for the rollup tests.
import type { GpuReading } from '../../src/model/types.js';

export const GiB = 1024 ** 3;

/**
 * A whole GPU keyed `node/id`, held by `pods` (`namespace/name`); 40 of 80 GiB
 * used when it reports, unknown when `utilisation` is null; watched since long
 * ago unless `coveredSince` says otherwise.
 */
export function gpuReading(
  key: string,
  utilisation: number | null,
  pods: string[],
  lowSince: number | null = null,
  coveredSince: number | null = Number.NEGATIVE_INFINITY,
): GpuReading {
  return {
    key,
    node: key.split('/')[0],
    uuid: key,
    index: null,
    model: null,
    migProfile: null,
    migInstance: null,
    utilisation,
    memoryUsedBytes: utilisation === null ? null : 40 * GiB,
    memoryTotalBytes: utilisation === null ? null : 80 * GiB,
    powerWatts: null,
    xid: null,
    pods: pods.map((p) => ({ namespace: p.split('/')[0], name: p.split('/')[1], container: null })),
    at: 0,
    lowSince,
    coveredSince,
  };
}
