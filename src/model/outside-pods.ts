// Pods outside `-n`'s namespaces (ClusterStoreOptions.viewNamespaces): the
// store counts them on their nodes and keeps a slim copy, nothing else.
import type { KubeObject } from './types.js';
import type { NodePodLoad } from './nodes.js';

/** A pod outside `-n`'s namespaces (ClusterStoreOptions.viewNamespaces). */
export interface OutsidePod {
  obj: KubeObject;
  node: string | null;
  load: NodePodLoad;
}

export function outsidePending(o: OutsidePod): number {
  return o.load.active && o.node === null ? o.load.gpus : 0;
}

/**
 * What is kept of a pod outside the view: what its GPUs and DRA claims are
 * read from again (a claim changes) and what the exporter search reads
 * (labels, phase, node, ports); its statuses, conditions and annotations go.
 */
export function slimPod(pod: KubeObject): KubeObject {
  const m = pod.metadata;
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const pick = (from: Record<string, unknown>, keys: string[]) => {
    const out: Record<string, unknown> = {};
    for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
    return out;
  };
  return {
    ...(pod.apiVersion !== undefined ? { apiVersion: pod.apiVersion } : {}),
    ...(pod.kind !== undefined ? { kind: pod.kind } : {}),
    metadata: pick(m, [
      'name',
      'namespace',
      'uid',
      'resourceVersion',
      'labels',
      'deletionTimestamp',
    ]) as KubeObject['metadata'],
    spec: pick(spec, ['nodeName', 'containers', 'initContainers', 'overhead', 'resources', 'resourceClaims']),
    status: pick(status, ['phase', 'resourceClaimStatuses']),
  };
}
