// Kueue's visibility API (visibility.kueue.x-k8s.io v1beta2 and v1beta1, an
// aggregated API in real clusters): GET .../clusterqueues/NAME/pendingworkloads
// and .../namespaces/NS/localqueues/NAME/pendingworkloads answer a
// PendingWorkloadsSummary, in queue order, with each workload's position in
// its ClusterQueue and LocalQueue (0-based), honouring `offset` and `limit`
// (default 1000). The order is the one the simulated Kueue admits by
// (demo/sim/controllers/kueue.ts), so positions and admissions agree.
import type { ServedKind } from '../kind-types.js';
import { pendingInClusterQueue, type LocalQueueObject } from '../sim/controllers/kueue.js';
import { R } from '../sim/types.js';
import type { ObjectStore } from '../object-store.js';
import { badRequest, methodNotAllowed, notFound, type StatusObject } from './status.js';

const DEFAULT_LIMIT = 1000;

export interface VisibilityRequest {
  kind: ServedKind;
  namespace?: string;
  name?: string;
  subresource?: string;
}

function count(params: URLSearchParams, key: string, fallback: number): number | StatusObject {
  const raw = params.get(key);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    return badRequest(`${key}: Invalid value: "${raw}": must be a non-negative integer`);
  return n;
}

/** The answer to a GET on the visibility API: a PendingWorkloadsSummary or a Status. */
export function pendingWorkloads(
  store: ObjectStore,
  req: VisibilityRequest,
  params: URLSearchParams,
): Record<string, unknown> | StatusObject {
  const { kind, namespace, name, subresource } = req;
  if (name === undefined || subresource !== 'pendingworkloads') return methodNotAllowed();
  const offset = count(params, 'offset', 0);
  if (typeof offset !== 'number') return offset;
  const limit = count(params, 'limit', DEFAULT_LIMIT);
  if (typeof limit !== 'number') return limit;
  // Kueue's own NotFound names the singular resource.
  const missing = notFound(kind.singular, kind.group, name);
  let entries;
  if (kind.plural === 'clusterqueues') {
    entries = pendingInClusterQueue(store, name);
  } else {
    const lq = store.get(R.localqueues, namespace, name) as LocalQueueObject | undefined;
    entries = lq
      ? pendingInClusterQueue(store, lq.spec.clusterQueue)?.filter(
          (e) => e.workload.metadata.namespace === namespace && e.localQueue === name,
        )
      : undefined;
  }
  if (!entries) return missing;
  return {
    kind: 'PendingWorkloadsSummary',
    apiVersion: `${kind.group}/${kind.version}`,
    metadata: { creationTimestamp: null },
    items: entries.slice(offset, offset + limit).map((e) => ({
      metadata: {
        name: e.workload.metadata.name,
        namespace: e.workload.metadata.namespace,
        creationTimestamp: e.workload.metadata.creationTimestamp,
        ...(e.workload.metadata.ownerReferences ? { ownerReferences: e.workload.metadata.ownerReferences } : {}),
      },
      priority: e.workload.spec.priority ?? 0,
      localQueueName: e.localQueue,
      positionInClusterQueue: e.positionInClusterQueue,
      positionInLocalQueue: e.positionInLocalQueue,
    })),
  };
}
