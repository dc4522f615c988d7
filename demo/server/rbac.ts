// The simulated cluster's users and their RBAC, evaluated as kube-apiserver's
// RBAC authorizer does (verbs, API groups, resources with subresources,
// resource names, non-resource URLs, "*" wildcards; cluster bindings apply in
// every namespace, role bindings in theirs), and the authorization.k8s.io/v1
// self reviews answered from it.
//
// Two users: an admin bound to cluster-admin (the default context), and a
// namespace-scoped researcher who may only read workloads in `training`.
// Over plain http kubectl sends no credentials, so the server tells them
// apart by where they connect: the restricted user's kubeconfig points at
// `http://127.0.0.1:PORT/restricted` (see demo/server/README.md).
import { statusFailure, type StatusObject } from './status.js';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

interface Binding {
  /** How RBAC names the grant in an allowed review's reason. */
  describe: string;
  /** A RoleBinding's namespace; cluster bindings have none. */
  namespace?: string;
  rules: PolicyRule[];
}

export interface DemoUser {
  name: string;
  groups: string[];
  bindings: Binding[];
}

/** The restricted user's namespace. */
export const RESTRICTED_NAMESPACE = 'training';
/** The path prefix the restricted user is served under. */
export const RESTRICTED_PATH_PREFIX = '/restricted';

const READ = ['get', 'list', 'watch'];

/** system:basic-user, system:discovery and system:public-info-viewer, bound to every authenticated user. */
const BASIC_BINDINGS: Binding[] = [
  {
    describe:
      'ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"',
    rules: [
      {
        verbs: ['create'],
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
      },
    ],
  },
  {
    describe: 'ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"',
    rules: [
      {
        verbs: ['get'],
        nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/openapi', '/openapi/*', '/version', '/version/'],
      },
    ],
  },
  {
    describe:
      'ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:authenticated"',
    rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }],
  },
];

export const ADMIN_USER: DemoUser = {
  name: 'kubernetes-admin',
  groups: ['system:masters', 'system:authenticated'],
  bindings: [
    {
      describe: 'ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"',
      rules: [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ],
    },
  ],
};

export const RESTRICTED_USER: DemoUser = {
  name: 'researcher',
  groups: ['system:authenticated'],
  bindings: [
    {
      describe: `RoleBinding "researcher/${RESTRICTED_NAMESPACE}" of Role "workload-reader" to User "researcher"`,
      namespace: RESTRICTED_NAMESPACE,
      rules: [
        { verbs: READ, apiGroups: [''], resources: ['pods', 'pods/log', 'events'] },
        { verbs: READ, apiGroups: ['events.k8s.io'], resources: ['events'] },
        { verbs: READ, apiGroups: ['batch'], resources: ['jobs'] },
        { verbs: READ, apiGroups: ['apps'], resources: ['statefulsets'] },
        { verbs: READ, apiGroups: ['jobset.x-k8s.io'], resources: ['jobsets'] },
        { verbs: READ, apiGroups: ['kubeflow.org'], resources: ['pytorchjobs', 'tfjobs'] },
        { verbs: READ, apiGroups: ['leaderworkerset.x-k8s.io'], resources: ['leaderworkersets'] },
        { verbs: READ, apiGroups: ['ray.io'], resources: ['rayclusters'] },
        { verbs: READ, apiGroups: ['kueue.x-k8s.io'], resources: ['workloads', 'localqueues'] },
        // The namespace's DRA claims beside its pods (ResourceSlices and DeviceClasses are cluster-scoped: not granted).
        { verbs: READ, apiGroups: ['resource.k8s.io'], resources: ['resourceclaims', 'resourceclaimtemplates'] },
        { verbs: ['get'], apiGroups: ['visibility.kueue.x-k8s.io'], resources: ['localqueues/pendingworkloads'] },
      ],
    },
    ...BASIC_BINDINGS,
  ],
};

/** What a request asks, as the authorizer sees it. */
export type AccessAttributes =
  | {
      verb: string;
      group: string;
      resource: string;
      subresource?: string;
      namespace?: string;
      name?: string;
    }
  | { verb: string; path: string };

function has(list: string[] | undefined, value: string): boolean {
  return !!list && (list.includes('*') || list.includes(value));
}

function resourceMatches(rule: PolicyRule, resource: string, subresource: string | undefined): boolean {
  if (!rule.resources) return false;
  const full = subresource ? `${resource}/${subresource}` : resource;
  return rule.resources.some((r) => r === '*' || r === full || (subresource !== undefined && r === `*/${subresource}`));
}

function pathMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some(
    (u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))),
  );
}

function ruleAllows(rule: PolicyRule, a: AccessAttributes): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if ('path' in a) return pathMatches(rule, a.path);
  return (
    has(rule.apiGroups, a.group) &&
    resourceMatches(rule, a.resource, a.subresource) &&
    (!rule.resourceNames?.length || (a.name !== undefined && rule.resourceNames.includes(a.name)))
  );
}

/** The binding that allows the request, or undefined (denied). */
export function authorise(user: DemoUser, a: AccessAttributes): Binding | undefined {
  return user.bindings.find(
    (b) =>
      (b.namespace === undefined || ('namespace' in a && a.namespace === b.namespace)) &&
      b.rules.some((r) => ruleAllows(r, a)),
  );
}

/** The 403 kube-apiserver answers, worded as its RBAC denial. */
export function forbiddenFor(user: DemoUser, a: AccessAttributes): StatusObject {
  if ('path' in a)
    return statusFailure(403, 'Forbidden', `forbidden: User "${user.name}" cannot ${a.verb} path "${a.path}"`, {});
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const subject = a.name ? `${qualified} "${a.name}"` : qualified;
  return statusFailure(
    403,
    'Forbidden',
    `${subject} is forbidden: User "${user.name}" cannot ${a.verb} resource "${resource}" in API group "${a.group}" ${where}`,
    { ...(a.name ? { name: a.name } : {}), ...(a.group ? { group: a.group } : {}), kind: a.resource },
  );
}

type Json = Record<string, unknown>;

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function review(kind: string, spec: Json, status: Json): Json {
  return {
    kind,
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec,
    status,
  };
}

/** POST selfsubjectaccessreviews: the review with its status, or a 4xx Status. */
export function selfSubjectAccessReview(user: DemoUser, body: Json): Json | StatusObject {
  const spec = (body.spec ?? {}) as Json;
  const ra = spec.resourceAttributes as Json | undefined;
  const nra = spec.nonResourceAttributes as Json | undefined;
  if (!ra === !nra) {
    const message = ra
      ? 'cannot be specified in combination with resourceAttributes'
      : 'exactly one of nonResourceAttributes or resourceAttributes must be specified';
    return statusFailure(
      422,
      'Invalid',
      `SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.${ra ? 'nonResourceAttributes' : 'resourceAttributes'}: Invalid value: "null": ${message}`,
      {
        group: 'authorization.k8s.io',
        kind: 'SelfSubjectAccessReview',
        causes: [{ reason: 'FieldValueInvalid', message }],
      },
    );
  }
  const attrs: AccessAttributes = ra
    ? {
        verb: str(ra.verb),
        group: str(ra.group),
        resource: str(ra.resource),
        subresource: str(ra.subresource) || undefined,
        namespace: str(ra.namespace) || undefined,
        name: str(ra.name) || undefined,
      }
    : { verb: str(nra!.verb), path: str(nra!.path) };
  const binding = authorise(user, attrs);
  return review('SelfSubjectAccessReview', spec, {
    allowed: !!binding,
    ...(binding ? { reason: `RBAC: allowed by ${binding.describe}` } : {}),
  });
}

/** POST selfsubjectrulesreviews: every rule the user has in the namespace. */
export function selfSubjectRulesReview(user: DemoUser, body: Json): Json {
  const spec = (body.spec ?? {}) as Json;
  const namespace = str(spec.namespace);
  const resourceRules: Json[] = [];
  const nonResourceRules: Json[] = [];
  for (const b of user.bindings) {
    if (b.namespace !== undefined && b.namespace !== namespace) continue;
    for (const r of b.rules) {
      if (r.nonResourceURLs) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
      else {
        const rule: Json = { verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources ?? [] };
        if (r.resourceNames?.length) rule.resourceNames = r.resourceNames;
        resourceRules.push(rule);
      }
    }
  }
  return review('SelfSubjectRulesReview', spec, { resourceRules, nonResourceRules, incomplete: false });
}
