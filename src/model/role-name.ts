// What a role is called wherever it is shown: the explorer's tree, the
// startup timeline, describe, `wlx get`. One rule, so a JobSet's replicated
// job reads `worker` everywhere. Plain text: callers sanitise it for a terminal.
import type { RoleTree } from './types.js';

/** The name of the group of a workload's pods that no role claims. */
export const UNATTRIBUTED = '(unattributed)';

/** Component, then instance / replica when present. */
export function roleName(r: Pick<RoleTree, 'component' | 'instance' | 'replica'>): string {
  if (r.replica !== null && r.instance !== null) return `${r.component}[${r.instance}] #${r.replica}`;
  if (r.replica !== null) return `${r.component} #${r.replica}`;
  // Named instances (a JobSet's replicatedJob `worker`) are what users call the
  // role; numbered ones read better with their component (`group[0]`).
  if (r.instance !== null) return /^\d+$/.test(r.instance) ? `${r.component}[${r.instance}]` : r.instance;
  return r.component;
}
