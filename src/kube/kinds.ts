// Which kinds the engine watches, and in which role, for a set of definitions.
import { type Definition, type Gvk, gvkKey } from '../definitions/types.js';
import type { ResourceInfo } from '../model/types.js';
import type { TrimRole } from './trim.js';
import { OWNER_GVKS, POD_GVK } from '../model/ownership-graph.js';
import { SCHEDULING_GVKS } from '../model/scheduling/index.js';
import { MULTIKUEUE_GVKS } from '../model/fleet/multikueue.js';
import { DRA_KINDS } from '../model/dra-objects.js';

export const KARTA_GVK: Gvk = { group: 'run.ai', version: 'v1alpha1', kind: 'Karta' };
/** The older name of the same format (src/definitions/normalise.ts reads both). */
export const RESOURCE_INTERFACE_GVK: Gvk = {
  group: 'optimization.nvidia.com',
  version: 'v1alpha1',
  kind: 'ResourceInterface',
};
/** Kinds whose objects are cluster definitions, watched before any other kind. */
export const DEFINITION_GVKS: Gvk[] = [KARTA_GVK, RESOURCE_INTERFACE_GVK];
export const NODE_GVK: Gvk = { group: '', version: 'v1', kind: 'Node' };
/** DRA's kinds, wanted at v1: discovery falls back to v1beta2 or v1beta1, whichever the server serves. */
export const DRA_GVKS: Gvk[] = DRA_KINDS.map((kind) => ({ group: 'resource.k8s.io', version: 'v1', kind }));
/** Kueue's Topology (cluster-scoped): v1beta2, else v1beta1 or v1alpha1, whichever is served. */
export const KUEUE_TOPOLOGY_GVK: Gvk = { group: 'kueue.x-k8s.io', version: 'v1beta2', kind: 'Topology' };

export interface WantedKind {
  gvk: Gvk;
  role: TrimRole;
  /**
   * The kind can sit between another workload and its pods (Jobs under
   * JobSets): listed whole even with a label selector, or the owner chains
   * through it would break.
   */
  intermediate: boolean;
}

/**
 * The kinds `definitions` need: their roots as workloads, every child kind as
 * an owner, pods and nodes; then, when served, queues and gangs, DRA's kinds
 * and Kueue Topologies.
 */
export function wantedKinds(definitions: Definition[]): WantedKind[] {
  const out = new Map<string, WantedKind>();
  const owners: Gvk[] = [...OWNER_GVKS];
  for (const d of definitions) {
    owners.push(...d.additionalChildKinds);
    for (const c of d.components) if (!c.isRoot && c.kind) owners.push(c.kind);
  }
  const intermediate = new Set(owners.map(gvkKey));
  for (const d of definitions) {
    // A Pod definition's workloads are the pods nobody controls: the pod watch feeds them (one watch).
    if (d.rootGvk.group === '' && d.rootGvk.kind === 'Pod') continue;
    out.set(gvkKey(d.rootGvk), { gvk: d.rootGvk, role: 'workload', intermediate: intermediate.has(gvkKey(d.rootGvk)) });
  }
  for (const g of owners) {
    const k = gvkKey(g);
    if (!out.has(k) && g.kind !== 'Pod') out.set(k, { gvk: g, role: 'owner', intermediate: true });
  }
  out.set(gvkKey(POD_GVK), { gvk: POD_GVK, role: 'pod', intermediate: false });
  out.set(gvkKey(NODE_GVK), { gvk: NODE_GVK, role: 'node', intermediate: false });
  // Queues and gangs: watched when served (a definition of the same kind takes precedence).
  for (const g of [...SCHEDULING_GVKS, ...MULTIKUEUE_GVKS])
    if (!out.has(gvkKey(g))) out.set(gvkKey(g), { gvk: g, role: 'scheduling', intermediate: true });
  for (const g of DRA_GVKS) if (!out.has(gvkKey(g))) out.set(gvkKey(g), { gvk: g, role: 'dra', intermediate: true });
  if (!out.has(gvkKey(KUEUE_TOPOLOGY_GVK)))
    out.set(gvkKey(KUEUE_TOPOLOGY_GVK), { gvk: KUEUE_TOPOLOGY_GVK, role: 'topology', intermediate: true });
  return [...out.values()];
}

/** `jobsets.jobset.x-k8s.io`, `pods`: how a kind is named in states and problems. */
export function kindLabel(info: ResourceInfo): string {
  return info.gvk.group ? `${info.resource}.${info.gvk.group}` : info.resource;
}
