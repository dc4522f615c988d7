// What kube-apiserver does to an object a client writes, before storing it:
// the defaults and admission plugins a read shows afterwards. Objects the
// simulation writes itself do not pass here (its controllers build them as
// stored; demo/sim/pods.ts).
import type { StoredObject } from '../object-store.js';
import type { ServedKind } from '../kind-types.js';

/** TaintNodesByCondition's taint on every new node; the node lifecycle controller lifts it once Ready. */
export const NOT_READY_TAINT = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

/** A map with its keys in Go's order: kube-apiserver encodes every map (labels, annotations) sorted by key. */
function sortedMap(map: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!map) return map;
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Labels and annotations as the server reads them back (every write). */
export function canonicalMetadata(obj: StoredObject): StoredObject {
  const { labels, annotations } = obj.metadata;
  if (!labels && !annotations) return obj;
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      ...(labels ? { labels: sortedMap(labels) } : {}),
      ...(annotations ? { annotations: sortedMap(annotations) } : {}),
    },
  };
}

/** The admission plugins' part of a create: a new pod is Pending, a new node is tainted not-ready. */
export function admitCreate(kind: ServedKind, obj: StoredObject): StoredObject {
  if (kind.group !== '') return obj;
  // The simulation's controllers expect every pod to have a status.
  if (kind.kind === 'Pod' && !obj.status) return { ...obj, status: { phase: 'Pending' } };
  if (kind.kind === 'Node') {
    const spec = (obj.spec ?? {}) as { taints?: Array<{ key: string; effect: string }> };
    const taints = spec.taints ?? [];
    if (taints.some((t) => t.key === NOT_READY_TAINT.key && t.effect === NOT_READY_TAINT.effect)) return obj;
    return { ...obj, spec: { ...spec, taints: [...taints, { ...NOT_READY_TAINT }] } };
  }
  return obj;
}
