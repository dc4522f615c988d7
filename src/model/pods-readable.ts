// Whether a cluster's pods could be read at all: without them a node's requested,
// free, pods and workloads are unknown (null, `?`), never 0.
import type { AccessScope, ModelSnapshot, NodeSummary } from './types.js';

/** A cluster whose pods cannot be read at all: forbidden cluster-wide, and no namespace read instead. */
export function podsUnreadable(access: AccessScope | undefined): boolean {
  return !!access && access.forbidden.includes('pods') && !access.podsIn?.length;
}

/**
 * Whether what pods request of a node is unknown: its cluster's pods are unreadable. In a fleet each
 * node by its own cluster's access (the merged one loses which cluster forbade what).
 */
export function nodeRequestsUnknown(
  snapshot: Pick<ModelSnapshot, 'access' | 'fleet'>,
): (node: Pick<NodeSummary, 'cluster'>) => boolean {
  const members = snapshot.fleet && snapshot.fleet.members.length > 1 ? snapshot.fleet.members : null;
  if (!members) {
    const blind = podsUnreadable(snapshot.access);
    return () => blind;
  }
  const blind = new Set(members.filter((m) => podsUnreadable(m.snapshot?.access)).map((m) => m.context));
  return (node) => node.cluster !== undefined && blind.has(node.cluster);
}
