// The demo API server's API machinery over real HTTP, as client-go programs
// (k9s, metadata informers) and kubectl meet it: RBAC for the two users and
// the self reviews, Table and PartialObjectMetadata negotiation in v1 and
// v1beta1, CRDs, OpenAPI v2/v3, health checks, and the read-only rule, plus a
// k9s-style request sequence replayed with every answer checked.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { PODS, pod } from './server-fixtures.js';
import { openWatch, startFixture, type Fixture } from './server-watch-helpers.js';
import { evalJsonPath } from '../../demo/server/crds.js';
import { negotiate } from '../../demo/server/negotiation.js';
import { RESTRICTED_PATH_PREFIX } from '../../demo/server/rbac.js';

const TABLE_V1BETA1 = 'application/json;as=Table;v=v1beta1;g=meta.k8s.io';
const META_LIST = (v: string) =>
  `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=${v},application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=${v},application/json`;
const META_OBJECT = (v: string) =>
  `application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=${v},application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=${v},application/json`;

type Json = Record<string, unknown>;

async function fixture(t: TestContext, options: Parameters<typeof startFixture>[0] = {}): Promise<Fixture> {
  const f = await startFixture(options);
  f.store.put(PODS, pod('finetune-0', 'training', 'running'));
  t.after(() => f.cluster.stop());
  return f;
}

interface Answer {
  status: number;
  body: Json;
  type: string;
  headers: Headers;
}

async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const r = await fetch(url, {
    method: init.method ?? 'GET',
    headers: init.headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await r.text();
  let body: Json = {};
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = { text };
  }
  return { status: r.status, body, type: r.headers.get('content-type') ?? '', headers: r.headers };
}

function ssar(attrs: Json): Json {
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: attrs },
  };
}

const SSAR_PATH = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

test('RBAC: the restricted user reads namespace training only; cluster-wide lists get the real 403', async (t) => {
  const f = await fixture(t);
  const as = (p: string) => f.url(`${RESTRICTED_PATH_PREFIX}${p}`);
  const all = await call(as('/api/v1/pods'));
  assert.equal(all.status, 403);
  assert.deepEqual(all.body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'pods is forbidden: User "researcher" cannot list resource "pods" in API group "" at the cluster scope',
    reason: 'Forbidden',
    details: { kind: 'pods' },
    code: 403,
  });
  const nodes = await call(as('/api/v1/nodes/gpu-node-1'));
  assert.equal(nodes.status, 403);
  assert.equal(
    nodes.body.message,
    'nodes "gpu-node-1" is forbidden: User "researcher" cannot get resource "nodes" in API group "" at the cluster scope',
  );
  const otherNs = await call(as('/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets?watch=1'));
  assert.equal(otherNs.status, 403);
  assert.match(
    String(otherNs.body.message),
    /cannot watch resource "jobsets" in API group "jobset.x-k8s.io" in the namespace "team-a"/,
  );
  const crds = await call(as('/apis/apiextensions.k8s.io/v1/customresourcedefinitions'));
  assert.equal(crds.status, 403);

  const mine = await call(as('/api/v1/namespaces/training/pods'));
  assert.equal(mine.status, 200);
  assert.deepEqual(
    (mine.body.items as Json[]).map((p) => (p.metadata as Json).name),
    ['finetune-0'],
  );
  // Authorised (pods/log is granted); the fixture's container has not started, so the log itself is a 400.
  const log = await call(as('/api/v1/namespaces/training/pods/finetune-0/log'));
  assert.notEqual(log.status, 403, JSON.stringify(log.body));
  // Discovery, version and health stay open to every authenticated user, as system:discovery grants.
  for (const p of ['/api', '/apis', '/version', '/readyz', '/openapi/v3'])
    assert.equal((await call(as(p))).status, 200, p);
  // The admin (the default context) sees everything.
  assert.equal((await call(f.url('/api/v1/pods'))).status, 200);
  const records = f.cluster.requests();
  assert.equal(records.find((r) => r.path === `${RESTRICTED_PATH_PREFIX}/api/v1/pods`)?.user, 'researcher');
  assert.equal(records.find((r) => r.path === '/api/v1/pods')?.user, 'kubernetes-admin');
});

test('self reviews: access and rules answered from RBAC for each user; allowed in read-only mode', async (t) => {
  const f = await fixture(t);
  const review = async (prefix: string, attrs: Json) => {
    const r = await call(f.url(`${prefix}${SSAR_PATH}`), { method: 'POST', body: ssar(attrs) });
    assert.equal(r.status, 201);
    assert.equal(r.body.kind, 'SelfSubjectAccessReview');
    assert.deepEqual((r.body.spec as Json).resourceAttributes, attrs);
    return r.body.status as { allowed: boolean; reason?: string };
  };
  const adminAll = await review('', { verb: 'list', resource: 'pods' });
  assert.equal(adminAll.allowed, true);
  assert.match(adminAll.reason!, /ClusterRoleBinding "cluster-admin"/);
  const p = RESTRICTED_PATH_PREFIX;
  assert.equal((await review(p, { verb: 'list', resource: 'pods' })).allowed, false);
  assert.equal((await review(p, { verb: 'list', resource: 'pods', namespace: 'training' })).allowed, true);
  assert.equal(
    (await review(p, { verb: 'get', resource: 'pods', subresource: 'log', namespace: 'training' })).allowed,
    true,
  );
  assert.equal((await review(p, { verb: 'delete', resource: 'pods', namespace: 'training' })).allowed, false);
  assert.equal((await review(p, { verb: 'list', resource: 'nodes' })).allowed, false);
  assert.equal(
    (await review(p, { verb: 'watch', group: 'kueue.x-k8s.io', resource: 'workloads', namespace: 'training' })).allowed,
    true,
  );
  const nonResource = await call(f.url(`${p}${SSAR_PATH}`), {
    method: 'POST',
    body: { spec: { nonResourceAttributes: { path: '/version', verb: 'get' } } },
  });
  assert.equal((nonResource.body.status as Json).allowed, true);
  const invalid = await call(f.url(SSAR_PATH), { method: 'POST', body: { spec: {} } });
  assert.equal(invalid.status, 422);
  assert.equal(invalid.body.reason, 'Invalid');

  const rules = await call(f.url(`${p}/apis/authorization.k8s.io/v1/selfsubjectrulesreviews`), {
    method: 'POST',
    body: { spec: { namespace: 'training' } },
  });
  assert.equal(rules.status, 201);
  const status = rules.body.status as { resourceRules: Json[]; nonResourceRules: Json[]; incomplete: boolean };
  assert.equal(status.incomplete, false);
  assert.ok(status.resourceRules.some((r) => (r.resources as string[]).includes('pods/log')));
  assert.ok(status.nonResourceRules.some((r) => (r.nonResourceURLs as string[]).includes('/version')));
  const elsewhere = await call(f.url(`${p}/apis/authorization.k8s.io/v1/selfsubjectrulesreviews`), {
    method: 'POST',
    body: { spec: { namespace: 'team-a' } },
  });
  const elsewhereRules = (elsewhere.body.status as { resourceRules: Json[] }).resourceRules;
  assert.deepEqual(
    elsewhereRules.flatMap((r) => r.resources as string[]),
    ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
  );
  // A GET of a review is not a thing.
  assert.equal((await call(f.url(SSAR_PATH))).status, 405);
  const posts = f.cluster.requests().filter((r) => r.method === 'POST');
  assert.ok(posts.length >= 10 && posts.every((r) => r.path.includes('/apis/authorization.k8s.io/v1/self')));
});

test('read-only mode refuses every other write, CRDs and reviews-lookalikes included', async (t) => {
  const f = await fixture(t);
  const writes: Array<[string, string]> = [
    ['POST', '/api/v1/namespaces/team-a/pods'],
    ['PUT', '/api/v1/namespaces/team-a/pods/trainer-0'],
    ['PATCH', '/api/v1/namespaces/team-a/pods/trainer-0'],
    ['DELETE', '/api/v1/namespaces/team-a/pods/trainer-0'],
    ['DELETE', '/api/v1/namespaces/team-a/pods'],
    ['POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'],
    ['DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/jobsets.jobset.x-k8s.io'],
    ['POST', '/openapi/v3'],
    ['POST', '/readyz'],
    ['POST', `${RESTRICTED_PATH_PREFIX}/api/v1/namespaces/training/pods`],
  ];
  for (const [method, path] of writes) {
    const r = await call(f.url(path), { method, body: { metadata: { name: 'x' } } });
    // The restricted user is refused by RBAC first, as the real apiserver authorises before anything else.
    const expected = path.startsWith(RESTRICTED_PATH_PREFIX) ? 403 : 405;
    assert.equal(r.status, expected, `${method} ${path}`);
  }
  assert.ok(f.store.get(PODS, 'team-a', 'trainer-0'));
});

test('Tables in v1 and v1beta1 as asked, lists and watches', async (t) => {
  const f = await fixture(t);
  const beta = await call(f.url('/api/v1/namespaces/team-a/pods'), { headers: { Accept: TABLE_V1BETA1 } });
  assert.equal(beta.status, 200);
  assert.equal(beta.body.apiVersion, 'meta.k8s.io/v1beta1');
  assert.match(beta.type, /as=Table;v=v1beta1;g=meta\.k8s\.io/);
  const row = (beta.body.rows as Array<{ object: Json }>)[0];
  assert.equal(row.object.apiVersion, 'meta.k8s.io/v1beta1');
  // The first acceptable media type wins: v1 before v1beta1 in kubectl's own order.
  const kubectlOrder = `application/json;as=Table;v=v1;g=meta.k8s.io,${TABLE_V1BETA1},application/json`;
  const v1 = await call(f.url('/api/v1/nodes'), { headers: { Accept: kubectlOrder } });
  assert.equal(v1.body.apiVersion, 'meta.k8s.io/v1');

  const w = await openWatch(f.url('/api/v1/namespaces/team-a/pods?watch=1'), { Accept: TABLE_V1BETA1 });
  t.after(() => w.close());
  assert.match(String(w.headers['content-type']), /as=Table;v=v1beta1/);
  const first = await w.waitFor((e) => e.type === 'ADDED');
  assert.equal(first.object.apiVersion, 'meta.k8s.io/v1beta1');
  assert.ok(Array.isArray(first.object.columnDefinitions));
  const second = await w.waitFor((e) => e !== first && e.type === 'ADDED');
  assert.equal(second.object.columnDefinitions, undefined, 'only the first event carries the columns');
});

test('PartialObjectMetadata: lists and watches as metadata-only clients ask; 406 for the wrong shape', async (t) => {
  const f = await fixture(t);
  for (const v of ['v1', 'v1beta1']) {
    const list = await call(f.url('/api/v1/namespaces/team-a/pods?limit=2'), { headers: { Accept: META_LIST(v) } });
    assert.equal(list.status, 200);
    assert.equal(list.body.kind, 'PartialObjectMetadataList');
    assert.equal(list.body.apiVersion, `meta.k8s.io/${v}`);
    assert.match(list.type, new RegExp(`as=PartialObjectMetadataList;v=${v};g=meta\\.k8s\\.io`));
    assert.ok((list.body.metadata as Json).continue, 'paging is kept');
    const items = list.body.items as Json[];
    assert.equal(items.length, 2);
    for (const i of items) {
      assert.deepEqual(Object.keys(i).sort(), ['apiVersion', 'kind', 'metadata']);
      assert.equal(i.kind, 'PartialObjectMetadata');
    }
  }
  const one = await call(f.url('/api/v1/namespaces/team-a/pods/trainer-0'), { headers: { Accept: META_OBJECT('v1') } });
  assert.equal(one.body.kind, 'PartialObjectMetadata');
  assert.equal((one.body.metadata as Json).name, 'trainer-0');
  const wrongList = await call(f.url('/api/v1/pods'), { headers: { Accept: META_OBJECT('v1').split(',')[1] } });
  assert.equal(wrongList.status, 406);
  assert.equal(wrongList.body.reason, 'NotAcceptable');
  const wrongObject = await call(f.url('/api/v1/namespaces/team-a/pods/trainer-0'), {
    headers: { Accept: META_LIST('v1').split(',')[1] },
  });
  assert.equal(wrongObject.status, 406);
  const protobufOnly = await call(f.url('/apis/batch/v1/jobs'), {
    headers: { Accept: 'application/vnd.kubernetes.protobuf' },
  });
  assert.equal(protobufOnly.status, 406);

  const w = await openWatch(f.url('/api/v1/namespaces/team-a/pods?watch=1'), { Accept: META_OBJECT('v1') });
  t.after(() => w.close());
  const added = await w.waitFor((e) => e.type === 'ADDED');
  assert.equal(added.object.kind, 'PartialObjectMetadata');
  assert.equal(added.object.spec, undefined);
  f.store.put(PODS, pod('late-0', 'team-a', 'pending'));
  const late = await w.waitFor((e) => e.object.metadata?.name === 'late-0');
  assert.deepEqual(Object.keys(late.object).sort(), ['apiVersion', 'kind', 'metadata']);
});

test('negotiate: order, wildcards, q=0, unknown transforms', () => {
  assert.deepEqual(negotiate(undefined), { as: 'json' });
  assert.deepEqual(negotiate('*/*'), { as: 'json' });
  assert.deepEqual(negotiate('application/json;as=Foo;g=meta.k8s.io;v=v1,application/json'), { as: 'json' });
  assert.deepEqual(negotiate('application/json;as=Table;g=meta.k8s.io;v=v2,' + TABLE_V1BETA1), {
    as: 'Table',
    version: 'v1beta1',
  });
  assert.equal(negotiate('application/json;q=0,text/html'), undefined);
  assert.equal(negotiate('application/yaml'), undefined);
});

test('CRDs: list, get, watch, Table; the printer columns of kubectl get come from them', async (t) => {
  const f = await fixture(t);
  const base = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  const list = await call(f.url(base));
  const names = (list.body.items as Json[]).map((c) => (c.metadata as Json).name);
  assert.deepEqual(names, [
    'admissionchecks.kueue.x-k8s.io',
    'clusterqueues.kueue.x-k8s.io',
    'jobsets.jobset.x-k8s.io',
    'kartas.run.ai',
    'leaderworkersets.leaderworkerset.x-k8s.io',
    'localqueues.kueue.x-k8s.io',
    'multikueueclusters.kueue.x-k8s.io',
    'multikueueconfigs.kueue.x-k8s.io',
    'podgroups.scheduling.run.ai',
    'pytorchjobs.kubeflow.org',
    'queues.scheduling.run.ai',
    'rayclusters.ray.io',
    'resourceflavors.kueue.x-k8s.io',
    'tfjobs.kubeflow.org',
    'topologies.kueue.x-k8s.io',
    'workloads.kueue.x-k8s.io',
  ]);
  const js = await call(f.url(`${base}/jobsets.jobset.x-k8s.io`));
  const spec = js.body.spec as {
    group: string;
    scope: string;
    names: Json;
    versions: Array<{
      name: string;
      additionalPrinterColumns: Array<{ name: string; jsonPath: string }>;
      schema: Json;
    }>;
  };
  assert.equal(spec.group, 'jobset.x-k8s.io');
  assert.equal(spec.scope, 'Namespaced');
  assert.equal(spec.names.kind, 'JobSet');
  assert.deepEqual(
    spec.versions[0].additionalPrinterColumns.map((c) => c.name),
    ['TerminalState', 'Restarts', 'Completed', 'Suspended', 'Age'],
  );
  const lws = await call(f.url(`${base}/leaderworkersets.leaderworkerset.x-k8s.io`));
  assert.deepEqual((lws.body.spec as { names: Json }).names.shortNames, ['lws']);
  const table = await call(f.url(base), { headers: { Accept: TABLE_V1BETA1 } });
  assert.deepEqual(
    (table.body.columnDefinitions as Json[]).map((c) => c.name),
    ['Name', 'Created At'],
  );
  const jobsets = await call(f.url('/apis/jobset.x-k8s.io/v1alpha2/jobsets'), { headers: { Accept: TABLE_V1BETA1 } });
  assert.deepEqual(
    (jobsets.body.columnDefinitions as Json[]).map((c) => c.name),
    ['Name', ...spec.versions[0].additionalPrinterColumns.map((c) => c.name)],
  );
  const w = await openWatch(f.url(`${base}?watch=1`));
  t.after(() => w.close());
  await w.waitFor((e) => e.type === 'ADDED' && e.object.metadata?.name === 'tfjobs.kubeflow.org');
});

test('printer-column JSONPath: fields, filters, the last element', () => {
  const o = {
    status: {
      conditions: [
        { type: 'Created', status: 'True' },
        { type: 'Running', status: 'False' },
      ],
    },
  };
  assert.equal(evalJsonPath(o, '.status.conditions[?(@.type=="Running")].status'), 'False');
  assert.equal(evalJsonPath(o, '.status.conditions[-1:].type'), 'Running');
  assert.equal(evalJsonPath(o, '.status.conditions[0].type'), 'Created');
  assert.equal(evalJsonPath(o, '.status.missing.deeper'), undefined);
  assert.throws(() => evalJsonPath(o, '.status..x'), /unsupported JSONPath/);
});

test('OpenAPI: v3 root and per-group documents with immutable hashes, v2 as JSON', async (t) => {
  const f = await fixture(t);
  const root = await call(f.url('/openapi/v3'));
  const paths = root.body.paths as Record<string, { serverRelativeURL: string }>;
  for (const gv of ['api/v1', 'apis/batch/v1', 'apis/jobset.x-k8s.io/v1alpha2', 'apis/apiextensions.k8s.io/v1'])
    assert.ok(paths[gv], gv);
  const jsUrl = paths['apis/jobset.x-k8s.io/v1alpha2'].serverRelativeURL;
  const doc = await call(f.url(jsUrl));
  assert.equal(doc.status, 200);
  assert.match(doc.headers.get('cache-control') ?? '', /immutable/);
  const schemas = (doc.body.components as { schemas: Record<string, Json> }).schemas;
  const jobset = schemas['io.x-k8s.jobset.v1alpha2.JobSet'];
  assert.deepEqual(jobset['x-kubernetes-group-version-kind'], [
    { group: 'jobset.x-k8s.io', version: 'v1alpha2', kind: 'JobSet' },
  ]);
  assert.ok(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'], 'referenced definitions are included');
  const stale = await call(f.url('/openapi/v3/api/v1?hash=0000'));
  assert.equal(stale.status, 301);
  assert.equal(stale.headers.get('location'), paths['api/v1'].serverRelativeURL);
  const v2 = await call(f.url('/openapi/v2'), { headers: { Accept: 'application/json' } });
  assert.equal(v2.body.swagger, '2.0');
  const definitions = v2.body.definitions as Record<string, Json>;
  for (const name of [
    'io.k8s.api.core.v1.Pod',
    'io.k8s.api.batch.v1.Job',
    'io.x-k8s.jobset.v1alpha2.JobSet',
    'ai.run.v1alpha1.Karta',
  ])
    assert.ok(definitions[name], name);
  // Every $ref of both documents resolves.
  const refs = JSON.stringify(v2.body).match(/"\$ref":"#\/definitions\/[^"]+"/g) ?? [];
  for (const r of refs) assert.ok(definitions[r.slice(22, -1)], r);
  const protobuf = await call(f.url('/openapi/v2'), {
    headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
  });
  assert.equal(protobuf.status, 406);
});

test('livez, readyz, healthz: ok, ?verbose, single checks, exclude', async (t) => {
  const f = await fixture(t, { token: 'tok' });
  for (const endpoint of ['livez', 'readyz', 'healthz']) {
    const r = await fetch(f.url(`/${endpoint}`));
    assert.equal(r.status, 200, 'health needs no token');
    assert.equal(await r.text(), 'ok');
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    const verbose = await (await fetch(f.url(`/${endpoint}?verbose&exclude=etcd`))).text();
    assert.match(verbose, /^\[\+\]ping ok$/m);
    assert.match(verbose, /^\[\+\]etcd excluded: ok$/m);
    assert.ok(verbose.endsWith(`${endpoint} check passed\n`), verbose);
  }
  assert.match(await (await fetch(f.url('/readyz?verbose'))).text(), /^\[\+\]informer-sync ok$/m);
  assert.equal((await fetch(f.url('/livez/ping'))).status, 200);
  assert.equal((await fetch(f.url('/livez/nonsense'))).status, 404);
});

test("token mode: each user has its own token; a token on the other user's path is refused", async (t) => {
  const f = await fixture(t, { token: 'admin-tok' });
  const restrictedToken = f.cluster.api.restrictedToken!;
  assert.ok(restrictedToken && restrictedToken !== 'admin-tok');
  assert.ok(f.cluster.kubeconfig().includes(restrictedToken));
  const bearer = (tok: string) => ({ Authorization: `Bearer ${tok}` });
  const training = `${RESTRICTED_PATH_PREFIX}/api/v1/namespaces/training/pods`;
  assert.equal((await call(f.url(training), { headers: bearer(restrictedToken) })).status, 200);
  assert.equal((await call(f.url(training), { headers: bearer('admin-tok') })).status, 401);
  assert.equal((await call(f.url('/api/v1/pods'), { headers: bearer(restrictedToken) })).status, 401);
  assert.equal((await call(f.url('/api/v1/pods'), { headers: bearer('admin-tok') })).status, 200);
});

test('a recorded k9s session replayed: version, discovery, SSAR, CRD list, v1beta1 Table watch', async (t) => {
  const f = await fixture(t);
  // What k9s 0.27 (client-go) sends when it opens the pod view, in order, with each answer's check.
  const steps: Array<{ method: string; path: string; accept?: string; body?: unknown; check: (a: Answer) => void }> = [
    { method: 'GET', path: '/version?timeout=32s', check: (a) => assert.equal(a.body.minor, '32') },
    {
      method: 'GET',
      path: '/api?timeout=32s',
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
      check: (a) => assert.equal(a.body.kind, 'APIGroupDiscoveryList'),
    },
    {
      method: 'GET',
      path: '/apis?timeout=32s',
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
      check: (a) => {
        const groups = (a.body.items as Array<{ metadata: { name: string } }>).map((g) => g.metadata.name);
        assert.ok(groups.includes('authorization.k8s.io') && groups.includes('apiextensions.k8s.io'), String(groups));
      },
    },
    {
      method: 'POST',
      path: `${SSAR_PATH}?timeout=32s`,
      body: ssar({ verb: 'list', resource: 'pods', namespace: '' }),
      check: (a) => {
        assert.equal(a.status, 201);
        assert.equal((a.body.status as Json).allowed, true);
      },
    },
    {
      method: 'POST',
      path: `${SSAR_PATH}?timeout=32s`,
      body: ssar({ verb: 'watch', resource: 'pods', namespace: '' }),
      check: (a) => assert.equal((a.body.status as Json).allowed, true),
    },
    {
      method: 'GET',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?limit=500',
      accept: 'application/json',
      check: (a) => {
        assert.equal(a.body.kind, 'CustomResourceDefinitionList');
        assert.equal((a.body.items as Json[]).length, 16);
      },
    },
    {
      method: 'GET',
      path: '/api/v1/pods?limit=500',
      accept: `${TABLE_V1BETA1},application/json`,
      check: (a) => {
        assert.equal(a.body.apiVersion, 'meta.k8s.io/v1beta1');
        assert.ok((a.body.rows as Json[]).length >= 8);
      },
    },
  ];
  for (const s of steps) {
    const a = await call(f.url(s.path), {
      method: s.method,
      headers: s.accept ? { Accept: s.accept } : {},
      body: s.body,
    });
    assert.ok(a.status < 300, `${s.method} ${s.path}: ${a.status} ${JSON.stringify(a.body)}`);
    s.check(a);
  }
  const list = await call(f.url('/api/v1/pods'), { headers: { Accept: TABLE_V1BETA1 } });
  const rv = String((list.body.metadata as Json).resourceVersion);
  const w = await openWatch(f.url(`/api/v1/pods?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true`), {
    Accept: `${TABLE_V1BETA1},application/json`,
  });
  t.after(() => w.close());
  f.store.put(PODS, pod('k9s-0', 'team-a', 'running'));
  const e = await w.waitFor((ev) => ev.type === 'ADDED');
  assert.equal(e.object.kind, 'Table');
  assert.equal(e.object.apiVersion, 'meta.k8s.io/v1beta1');
  const rows = e.object.rows as Array<{ cells: unknown[] }>;
  assert.equal(rows[0].cells[0], 'k9s-0');
});
