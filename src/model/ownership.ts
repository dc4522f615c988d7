// Controller ownerReference chains: a pod belongs to a workload when following
// controller references (pod → Job → JobSet, pod → ReplicaSet → Deployment →
// ...) reaches the workload's uid within MAX_OWNER_HOPS, as upstream's CLI does.
import type { KubeObject } from './types.js';

export const MAX_OWNER_HOPS = 6;

/** The uid of the object's controller (ownerReference with controller: true), or null. */
export function controllerUidOf(obj: KubeObject): string | null {
  const refs = obj.metadata.ownerReferences;
  if (!Array.isArray(refs)) return null;
  for (const r of refs) {
    if (r && r.controller === true && typeof r.uid === 'string' && r.uid !== '') return r.uid;
  }
  return null;
}

/**
 * Uids met walking up from `startUid` (the pod's controller, hop 1) through
 * `next` (an object's controller uid, or undefined when the object is not
 * known), at most MAX_OWNER_HOPS of them, stopping at a cycle.
 */
export function walkControllerChain(
  startUid: string | null,
  next: (uid: string) => string | null | undefined,
): string[] {
  const chain: string[] = [];
  let cur = startUid;
  while (cur !== null && chain.length < MAX_OWNER_HOPS && !chain.includes(cur)) {
    chain.push(cur);
    const up = next(cur);
    if (up === undefined) break;
    cur = up;
  }
  return chain;
}
