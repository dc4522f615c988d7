// Pure pieces of the demo API server: selectors, kubectl's printed words,
// list paging and resourceVersion semantics over the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore } from '../../demo/object-store.js';
import { findKind } from '../../demo/kinds.js';
import { parseFieldSelector, parseLabelSelector, SelectorError } from '../../demo/server/selectors.js';
import { humanDuration, podPrintFacts, tableRow, toTable } from '../../demo/server/tables.js';
import { listObjects, ListSnapshots, objectsAt, type ListResult } from '../../demo/server/lists.js';
import type { StatusObject } from '../../demo/server/status.js';
import { aggregatedDiscovery, legacyResourceList, wantsAggregated } from '../../demo/server/discovery.js';
import { NODES, PODS, node, pod, populate } from './server-fixtures.js';

const podsKind = findKind('', 'v1', 'pods')!;
const nodesKind = findKind('', 'v1', 'nodes')!;

test('label selectors: =, ==, !=, in, notin, exists, !key', () => {
  const l = { app: 'trainer', role: 'worker', 'example.com/tier': 'gpu' };
  const t = (s: string) => parseLabelSelector(s)!(l);
  assert.equal(t('app=trainer'), true);
  assert.equal(t('app==trainer,role=worker'), true);
  assert.equal(t('app=infer'), false);
  assert.equal(t('app!=infer'), true);
  assert.equal(t('missing!=x'), true, '!= matches objects without the key');
  assert.equal(t('role in (launcher, worker)'), true);
  assert.equal(t('role in (launcher)'), false);
  assert.equal(t('role notin (launcher)'), true);
  assert.equal(t('missing notin (a)'), true);
  assert.equal(t('example.com/tier'), true);
  assert.equal(t('!example.com/tier'), false);
  assert.equal(t('!missing,app in (trainer),role'), true);
  assert.equal(parseLabelSelector(''), undefined);
  assert.throws(() => parseLabelSelector('app=(x'), SelectorError);
  assert.throws(() => parseLabelSelector('a,,b'), SelectorError);
});

test('field selectors: supported fields per kind, = and !=, unsupported → error', () => {
  const p = pod('a', 'ns1', 'running', { node: 'n1' });
  const f = (s: string) => parseFieldSelector(s, podsKind.fieldSelectors)!(p);
  assert.equal(f('spec.nodeName=n1'), true);
  assert.equal(f('spec.nodeName=n2'), false);
  assert.equal(f('spec.nodeName=n1,status.phase!=Succeeded,status.phase!=Failed'), true);
  assert.equal(f('status.phase!=Running'), false);
  assert.equal(f('metadata.name==a,metadata.namespace=ns1'), true);
  assert.throws(
    () => parseFieldSelector('spec.bogus=1', podsKind.fieldSelectors),
    /field label not supported: spec.bogus/,
  );
  const unsched = node('n', { unschedulable: true });
  assert.equal(
    parseFieldSelector('spec.unschedulable=true', nodesKind.fieldSelectors)!(
      unsched as unknown as Record<string, unknown>,
    ),
    true,
  );
});

test("pod status words match kubectl's printer", () => {
  const now = Date.now();
  const word = (state: Parameters<typeof pod>[2]) => podPrintFacts(pod('p', 'ns', state), now).status;
  assert.equal(word('running'), 'Running');
  assert.equal(word('pending'), 'Pending');
  assert.equal(word('creating'), 'ContainerCreating');
  assert.equal(word('crashloop'), 'CrashLoopBackOff');
  assert.equal(word('completed'), 'Completed');
  assert.equal(word('oomkilled'), 'OOMKilled');
  assert.equal(word('init'), 'Init:0/1');
  const crash = podPrintFacts(pod('p', 'ns', 'crashloop'), now);
  assert.match(crash.restarts, /^3 \(2m\d*s? ago\)$/);
  const terminating = pod('p', 'ns', 'running');
  terminating.metadata.deletionTimestamp = new Date(now).toISOString();
  assert.equal(podPrintFacts(terminating, now).status, 'Terminating');
  assert.equal(podPrintFacts(pod('p', 'ns', 'running', { containers: ['a', 'b'] }), now).ready, '2/2');
});

test('humanDuration follows apimachinery', () => {
  assert.equal(humanDuration(5_000), '5s');
  assert.equal(humanDuration(119_000), '119s');
  assert.equal(humanDuration(125_000), '2m5s');
  assert.equal(humanDuration(15 * 60_000), '15m');
  assert.equal(humanDuration(4 * 3600_000 + 60_000), '4h1m');
  assert.equal(humanDuration(30 * 3600_000), '30h');
  assert.equal(humanDuration(3 * 86400_000), '3d');
  assert.equal(humanDuration(-5000), '<invalid>');
});

test('node and pod table rows carry wide columns and metadata', () => {
  const n = node('gpu-a', { gpu: true, unschedulable: true });
  n.metadata.creationTimestamp = new Date().toISOString();
  const row = tableRow(nodesKind, n, 'Metadata');
  assert.deepEqual(row.cells.slice(0, 3), ['gpu-a', 'Ready,SchedulingDisabled', 'gpu']);
  assert.equal(row.cells[5], '10.0.0.5');
  assert.deepEqual((row.object as { kind: string }).kind, 'PartialObjectMetadata');
  const t = toTable(podsKind, [pod('x', 'ns', 'pending')], 'None', { resourceVersion: '1' });
  assert.deepEqual(
    t.columnDefinitions!.filter((c) => c.priority === 0).map((c) => c.name),
    ['Name', 'Ready', 'Status', 'Restarts', 'Age'],
  );
  assert.deepEqual(
    t.columnDefinitions!.filter((c) => c.priority === 1).map((c) => c.name),
    ['IP', 'Node', 'Nominated Node', 'Readiness Gates'],
  );
  assert.equal(t.rows[0].cells.length, t.columnDefinitions!.length);
  assert.equal(t.rows[0].object, null);
});

test('discovery: aggregated for /api and /apis, legacy lists subresources', () => {
  assert.equal(
    wantsAggregated('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json'),
    true,
  );
  assert.equal(wantsAggregated('application/json'), false);
  const core = aggregatedDiscovery(true) as {
    items: Array<{
      metadata: { name: string };
      versions: Array<{ resources: Array<{ resource: string; shortNames?: string[] }> }>;
    }>;
  };
  assert.deepEqual(
    core.items.map((i) => i.metadata.name),
    [''],
  );
  const pods = core.items[0].versions[0].resources.find((r) => r.resource === 'pods')!;
  assert.deepEqual(pods.shortNames, ['po']);
  const apis = aggregatedDiscovery(false) as { items: Array<{ metadata: { name: string } }> };
  assert.ok(apis.items.some((i) => i.metadata.name === 'jobset.x-k8s.io'));
  assert.ok(!apis.items.some((i) => i.metadata.name === ''));
  const legacy = legacyResourceList('', 'v1') as { resources: Array<{ name: string }> };
  assert.ok(legacy.resources.some((r) => r.name === 'pods/log'));
  assert.equal(legacyResourceList('nope.io', 'v1'), undefined);
});

function asList(r: ListResult | StatusObject): ListResult {
  assert.ok(!('code' in r), `expected a list, got ${JSON.stringify(r)}`);
  return r;
}

test('paging: one resourceVersion across pages, a consistent snapshot, 410 for a bad token', () => {
  const store = new ObjectStore();
  populate(store);
  const snaps = new ListSnapshots();
  const first = asList(listObjects(store, snaps, podsKind, { limit: 3 }));
  assert.equal(first.items.length, 3);
  assert.equal(first.remainingItemCount, 5);
  assert.ok(first.continueToken);
  // A change between pages does not show up in the remaining pages.
  store.put(PODS, pod('zzz-new', 'team-a', 'running'));
  const names = first.items.map((o) => o.metadata.name);
  let token: string | undefined = first.continueToken;
  while (token) {
    const page = asList(listObjects(store, snaps, podsKind, { limit: 3, continueToken: token }));
    assert.equal(page.resourceVersion, first.resourceVersion);
    names.push(...page.items.map((o) => o.metadata.name));
    token = page.continueToken;
  }
  assert.equal(snaps.size, 0, 'the snapshot is released after the last page');
  assert.equal(names.length, 8);
  assert.ok(!names.includes('zzz-new'));
  assert.equal(new Set(names).size, 8, 'no object twice');
  const bad = listObjects(store, snaps, podsKind, { continueToken: 'not-a-token' }) as StatusObject;
  assert.equal(bad.code, 410);
  const gone = listObjects(store, snaps, podsKind, { continueToken: first.continueToken }) as StatusObject;
  assert.equal(gone.code, 410, 'a released snapshot cannot be continued');
});

test('resourceVersion semantics: 0, NotOlderThan, Exact from history, too old, too large', () => {
  const store = new ObjectStore(5);
  const snaps = new ListSnapshots();
  store.put(NODES, node('a'));
  const rvAfterA = store.currentRv;
  store.put(NODES, node('b'));
  store.put(NODES, node('a', { unschedulable: true }));
  const now = asList(listObjects(store, snaps, nodesKind, { resourceVersion: '0' }));
  assert.equal(now.items.length, 2);
  const exact = asList(
    listObjects(store, snaps, nodesKind, { resourceVersion: String(rvAfterA), resourceVersionMatch: 'Exact' }),
  );
  assert.equal(exact.resourceVersion, String(rvAfterA));
  assert.deepEqual(
    exact.items.map((o) => o.metadata.name),
    ['a'],
  );
  assert.equal((exact.items[0].spec as { unschedulable?: boolean }).unschedulable, undefined, 'the old state of a');
  assert.deepEqual(objectsAt(store, nodesKind, store.currentRv)!.length, 2);
  const notOlder = asList(
    listObjects(store, snaps, nodesKind, { resourceVersion: String(rvAfterA), resourceVersionMatch: 'NotOlderThan' }),
  );
  assert.equal(notOlder.resourceVersion, String(store.currentRv));
  for (let i = 0; i < 10; i++) store.put(NODES, node(`n${i}`));
  const old = listObjects(store, snaps, nodesKind, {
    resourceVersion: String(rvAfterA),
    resourceVersionMatch: 'Exact',
  }) as StatusObject;
  assert.equal(old.code, 410);
  const large = listObjects(store, snaps, nodesKind, { resourceVersion: String(store.currentRv + 10) }) as StatusObject;
  assert.equal(large.code, 504);
});

test('event history: a count limit alone expires old events; a time window keeps recent ones past it', () => {
  const counted = new ObjectStore(5);
  const windowed = new ObjectStore(5, undefined, 60_000);
  const firstRv = { counted: 0, windowed: 0 };
  for (let i = 0; i < 50; i++) {
    counted.put(NODES, node(`n${i}`));
    windowed.put(NODES, node(`n${i}`));
    if (i === 0) {
      firstRv.counted = counted.currentRv;
      firstRv.windowed = windowed.currentRv;
    }
  }
  // A watch may resume from any rv above oldestResumableRv.
  assert.ok(counted.oldestResumableRv >= firstRv.counted, 'only the last 5 events are resumable');
  assert.equal(counted.currentRv - counted.oldestResumableRv, 5);
  assert.equal(windowed.oldestResumableRv, firstRv.windowed - 1, 'all 50 events (within 60 s) are resumable');
});
