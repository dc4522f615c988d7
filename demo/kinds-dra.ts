// The Dynamic Resource Allocation kinds (resource.k8s.io) the simulated API
// server can serve, with the discovery facts kube-apiserver publishes for
// them. Built-in kinds (no CRD). Which version is served follows the server's
// minor version, as in real clusters: v1beta1 from 1.32 (when the group is
// enabled), v1beta2 beside it from 1.33, v1 (preferred) from 1.34.
import type { ServedKind } from './kind-types.js';
import { resourceKey } from './object-store.js';

export const DRA_GROUP = 'resource.k8s.io';
export type DraVersion = 'v1' | 'v1beta2' | 'v1beta1';

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS_VERBS = ['get', 'patch', 'update'];

function draKind(
  version: DraVersion,
  plural: string,
  kind: string,
  namespaced: boolean,
  extra: Partial<ServedKind> = {},
): ServedKind {
  return {
    group: DRA_GROUP,
    version,
    plural,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    shortNames: [],
    categories: [],
    verbs: ALL_VERBS,
    subresources: [],
    fieldSelectors: [],
    ...extra,
  };
}

/** The four DRA kinds at one version. */
export function draKinds(version: DraVersion): ServedKind[] {
  return [
    draKind(version, 'deviceclasses', 'DeviceClass', false),
    draKind(version, 'resourceclaims', 'ResourceClaim', true, {
      subresources: [{ name: 'status', kind: 'ResourceClaim', verbs: STATUS_VERBS }],
    }),
    draKind(version, 'resourceclaimtemplates', 'ResourceClaimTemplate', true),
    // kube-apiserver's field selectors for slices (resourceslice strategy).
    draKind(version, 'resourceslices', 'ResourceSlice', false, { fieldSelectors: ['spec.nodeName', 'spec.driver'] }),
  ];
}

/** The versions a kube-apiserver of this minor version serves, preferred first. */
export function draVersionsFor(minor: number): DraVersion[] {
  if (minor >= 34) return ['v1', 'v1beta2', 'v1beta1'];
  if (minor === 33) return ['v1beta2', 'v1beta1'];
  if (minor === 32) return ['v1beta1'];
  return [];
}

/** Store keys of the DRA kinds at one version (as demo/sim/types.ts's `R`). */
export function draResourceKeys(version: DraVersion): {
  deviceClasses: string;
  resourceClaims: string;
  resourceClaimTemplates: string;
  resourceSlices: string;
} {
  return {
    deviceClasses: resourceKey(DRA_GROUP, version, 'deviceclasses'),
    resourceClaims: resourceKey(DRA_GROUP, version, 'resourceclaims'),
    resourceClaimTemplates: resourceKey(DRA_GROUP, version, 'resourceclaimtemplates'),
    resourceSlices: resourceKey(DRA_GROUP, version, 'resourceslices'),
  };
}
