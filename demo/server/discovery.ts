// API discovery documents: the aggregated form (apidiscovery.k8s.io/v2, one
// request each for /api and /apis, what kubectl prefers) and the legacy form
// (/api, /apis, /api/v1, /apis/<g>, /apis/<g>/<v>, what client-node's
// KubernetesObjectApi reads). Kinds the forbid fault hides stay listed, as
// RBAC does not hide kinds from discovery.
import { SERVED_KINDS, servedGroups } from '../kinds.js';
import type { ServedKind } from '../kind-types.js';

export const AGGREGATED_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** True when an Accept header asks for the v2 aggregated discovery list. */
export function wantsAggregated(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((mt) => {
    const params = mt.split(';').map((p) => p.trim());
    return (
      params.includes('g=apidiscovery.k8s.io') && params.includes('v=v2') && params.includes('as=APIGroupDiscoveryList')
    );
  });
}

function kindsOf(group: string, version: string): ServedKind[] {
  return SERVED_KINDS.filter((k) => k.group === group && k.version === version);
}

function aggregatedResource(k: ServedKind): Record<string, unknown> {
  const r: Record<string, unknown> = {
    resource: k.plural,
    responseKind: { group: k.group, version: k.version, kind: k.kind },
    scope: k.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: k.singular,
    verbs: k.verbs,
  };
  if (k.shortNames.length) r.shortNames = k.shortNames;
  if (k.categories.length) r.categories = k.categories;
  if (k.subresources.length) {
    r.subresources = k.subresources.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group ?? k.group, version: s.version ?? k.version, kind: s.kind },
      verbs: s.verbs,
    }));
  }
  return r;
}

function aggregatedGroup(group: string, versions: string[]): Record<string, unknown> {
  return {
    metadata: { name: group, creationTimestamp: null },
    versions: versions.map((v) => ({
      version: v,
      resources: kindsOf(group, v).map(aggregatedResource),
      freshness: 'Current',
    })),
  };
}

/** `/api` (core only) or `/apis` (every named group) as an APIGroupDiscoveryList. */
export function aggregatedDiscovery(core: boolean): Record<string, unknown> {
  const groups = servedGroups().filter((g) => (g.group === '') === core);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: groups.map((g) => aggregatedGroup(g.group, g.versions)),
  };
}

export function legacyApiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function legacyGroup(group: string, versions: string[]): Record<string, unknown> {
  const vs = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: vs, preferredVersion: vs[0] };
}

export function legacyGroupList(): Record<string, unknown> {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: servedGroups()
      .filter((g) => g.group !== '')
      .map((g) => legacyGroup(g.group, g.versions)),
  };
}

/** `/apis/<group>`, or undefined when the group is not served. */
export function legacyGroupDocument(group: string): Record<string, unknown> | undefined {
  const g = servedGroups().find((x) => x.group === group && group !== '');
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...legacyGroup(g.group, g.versions) } : undefined;
}

/** `/api/v1` or `/apis/<group>/<version>`, or undefined when not served. */
export function legacyResourceList(group: string, version: string): Record<string, unknown> | undefined {
  const kinds = kindsOf(group, version);
  if (!kinds.length) return undefined;
  const resources: Array<Record<string, unknown>> = [];
  for (const k of kinds) {
    const r: Record<string, unknown> = {
      name: k.plural,
      singularName: k.singular,
      namespaced: k.namespaced,
      kind: k.kind,
      verbs: k.verbs,
    };
    if (k.shortNames.length) r.shortNames = k.shortNames;
    if (k.categories.length) r.categories = k.categories;
    resources.push(r);
    for (const s of k.subresources) {
      const sub: Record<string, unknown> = {
        name: `${k.plural}/${s.name}`,
        singularName: '',
        namespaced: k.namespaced,
        kind: s.kind,
        verbs: s.verbs,
      };
      if (s.group) sub.group = s.group;
      if (s.version) sub.version = s.version;
      resources.push(sub);
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}
