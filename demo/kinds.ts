// The kinds the simulated API server serves, with the discovery facts real
// clusters publish for them (plural, shortNames, categories, verbs, scope,
// subresources) and the field selectors the real apiserver accepts. Both the
// server (discovery, routing) and the simulation (store keys) read this list.
import { resourceKey } from './store.js';

export interface ServedKind {
  group: string; // '' for core
  version: string;
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Subresources beyond the object itself, e.g. `status`, `log`. */
  subresources: Array<{ name: string; kind: string; group?: string; version?: string; verbs: string[] }>;
  /** Field selector keys besides metadata.name / metadata.namespace. */
  fieldSelectors: string[];
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS_VERBS = ['get', 'patch', 'update'];

function kind(
  k: Omit<ServedKind, 'listKind' | 'verbs' | 'subresources' | 'fieldSelectors' | 'categories' | 'shortNames'> &
    Partial<ServedKind>,
): ServedKind {
  return {
    listKind: `${k.kind}List`,
    verbs: ALL_VERBS,
    subresources: [{ name: 'status', kind: k.kind, verbs: STATUS_VERBS }],
    fieldSelectors: [],
    categories: [],
    shortNames: [],
    ...k,
  };
}

export const SERVED_KINDS: readonly ServedKind[] = [
  kind({
    group: '',
    version: 'v1',
    plural: 'pods',
    singular: 'pod',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: [
      { name: 'status', kind: 'Pod', verbs: STATUS_VERBS },
      { name: 'log', kind: 'Pod', verbs: ['get'] },
    ],
    fieldSelectors: [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ],
  }),
  kind({
    group: '',
    version: 'v1',
    plural: 'nodes',
    singular: 'node',
    kind: 'Node',
    namespaced: false,
    shortNames: ['no'],
    fieldSelectors: ['spec.unschedulable'],
  }),
  kind({
    group: '',
    version: 'v1',
    plural: 'events',
    singular: 'event',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
    subresources: [],
    fieldSelectors: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ],
  }),
  kind({
    group: '',
    version: 'v1',
    plural: 'namespaces',
    singular: 'namespace',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    fieldSelectors: ['status.phase'],
  }),
  kind({
    group: 'batch',
    version: 'v1',
    plural: 'jobs',
    singular: 'job',
    kind: 'Job',
    namespaced: true,
    categories: ['all'],
    fieldSelectors: ['status.successful'],
  }),
  kind({
    group: 'apps',
    version: 'v1',
    plural: 'statefulsets',
    singular: 'statefulset',
    kind: 'StatefulSet',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    subresources: [
      { name: 'status', kind: 'StatefulSet', verbs: STATUS_VERBS },
      { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: STATUS_VERBS },
    ],
  }),
  kind({
    group: 'jobset.x-k8s.io',
    version: 'v1alpha2',
    plural: 'jobsets',
    singular: 'jobset',
    kind: 'JobSet',
    namespaced: true,
  }),
  kind({
    group: 'kubeflow.org',
    version: 'v1',
    plural: 'pytorchjobs',
    singular: 'pytorchjob',
    kind: 'PyTorchJob',
    namespaced: true,
  }),
  kind({ group: 'kubeflow.org', version: 'v1', plural: 'tfjobs', singular: 'tfjob', kind: 'TFJob', namespaced: true }),
  kind({
    group: 'leaderworkerset.x-k8s.io',
    version: 'v1',
    plural: 'leaderworkersets',
    singular: 'leaderworkerset',
    kind: 'LeaderWorkerSet',
    namespaced: true,
    shortNames: ['lws'],
    subresources: [
      { name: 'status', kind: 'LeaderWorkerSet', verbs: STATUS_VERBS },
      { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: STATUS_VERBS },
    ],
  }),
  kind({
    group: 'ray.io',
    version: 'v1',
    plural: 'rayclusters',
    singular: 'raycluster',
    kind: 'RayCluster',
    namespaced: true,
    categories: ['all'],
  }),
  kind({
    group: 'run.ai',
    version: 'v1alpha1',
    plural: 'kartas',
    singular: 'karta',
    kind: 'Karta',
    namespaced: false,
    shortNames: ['krt'],
  }),
];

export function apiVersionOf(k: ServedKind): string {
  return k.group ? `${k.group}/${k.version}` : k.version;
}

export function storeKeyOf(k: ServedKind): string {
  return resourceKey(k.group, k.version, k.plural);
}

/** `plural` for core kinds, `plural.group` otherwise: how RBAC messages and the forbid fault name a kind. */
export function qualifiedResource(k: ServedKind): string {
  return k.group ? `${k.plural}.${k.group}` : k.plural;
}

export function findKind(group: string, version: string, plural: string): ServedKind | undefined {
  return SERVED_KINDS.find((k) => k.group === group && k.version === version && k.plural === plural);
}

/** Groups in discovery order (core first, then as listed), with their versions. */
export function servedGroups(): Array<{ group: string; versions: string[] }> {
  const out: Array<{ group: string; versions: string[] }> = [];
  for (const k of SERVED_KINDS) {
    let g = out.find((x) => x.group === k.group);
    if (!g) {
      g = { group: k.group, versions: [] };
      out.push(g);
    }
    if (!g.versions.includes(k.version)) g.versions.push(k.version);
  }
  return out;
}
