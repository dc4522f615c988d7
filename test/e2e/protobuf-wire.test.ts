// The engine with `wire: 'protobuf'`: pods and nodes are listed and watched in
// protobuf (their requests ask for it first; other kinds stay JSON), and the
// engine ends up holding and showing exactly what a JSON engine does, also
// against a server that answers JSON (protobuf off) and through changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore } from '../../demo/object-store.js';
import { startDemoCluster, type DemoCluster } from '../../demo/index.js';
import { startEngine, type ClusterEngine } from '../../src/kube/engine.js';
import { Reflector } from '../../src/kube/reflector.js';
import { Trimmer } from '../../src/kube/trim.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import { KEYS, putPod } from '../kube/fixtures.js';
import { populate } from '../demo/server-fixtures.js';
import { transportFor } from '../kube/helpers.js';
import { converge } from './inventory.js';

const PROTOBUF_FIRST = 'application/vnd.kubernetes.protobuf, application/json';

async function engineOn(
  t: { after(fn: () => unknown): void },
  cluster: DemoCluster,
  wire: 'json' | 'protobuf',
): Promise<{ engine: ClusterEngine; transport: ReturnType<typeof transportFor> }> {
  const transport = transportFor(cluster);
  t.after(() => transport.close());
  const engine = await startEngine({
    transport,
    connection: { context: 'wlx-demo', cluster: 'wlx-demo', user: 'wlx-demo', server: cluster.server, namespace: null },
    namespace: null,
    definitions: loadDefinitions({ envPaths: '' }),
    wire,
    reflector: { pageSize: 3, backoff: { initialMs: 50, maxMs: 500, factor: 2, jitter: 0.5 } },
  });
  t.after(() => engine.stop());
  await engine.whenSynced();
  return { engine, transport };
}

/** What the trees show, without the snapshot's version and time stamps. */
function shown(engine: ClusterEngine): string {
  const s = engine.getSnapshot();
  return JSON.stringify({ workloads: s.workloads, totals: s.totals });
}

test('an engine reading protobuf holds and shows what a JSON engine does, through changes; JSON servers too', async (t) => {
  const store = new ObjectStore();
  populate(store);
  const on = await startDemoCluster({ simulate: false, store });
  t.after(() => on.stop());
  const off = await startDemoCluster({ simulate: false, store, protobuf: false });
  t.after(() => off.stop());
  const protobuf = await engineOn(t, on, 'protobuf');
  const fallback = await engineOn(t, off, 'protobuf');
  const json = await engineOn(t, on, 'json');

  // Changes over the watches: a pod added, one relabelled, one deleted.
  putPod(store, 'team-a', 'late-0', null, { app: 'late' }, { node: 'gpu-node-1', gpus: 1 });
  const trainer = store.get(KEYS.pods, 'team-a', 'trainer-0')!;
  store.put(KEYS.pods, {
    ...trainer,
    metadata: { ...trainer.metadata, labels: { ...trainer.metadata.labels, n: '1' } },
  });
  store.delete(KEYS.pods, 'default', 'done-0');
  for (const e of [protobuf, fallback, json])
    assert.deepEqual(await converge(e.transport, e.engine, 10_000), [], 'holds what the server holds');
  await new Promise((r) => setTimeout(r, 300)); // one flush
  assert.equal(shown(protobuf.engine), shown(json.engine));
  assert.equal(shown(fallback.engine), shown(json.engine));
  assert.ok(shown(json.engine).includes('late-0') && !shown(json.engine).includes('done-0'));
  assert.deepEqual(protobuf.engine.getSnapshot().problems, []);

  // Who asked for what: pods and nodes lists (paged) and watches in protobuf first, nothing else.
  const asked = (c: DemoCluster) => c.requests().filter((r) => r.accept === PROTOBUF_FIRST);
  const paths = asked(on).map((r) => r.path);
  for (const p of ['/api/v1/pods?limit=3', '/api/v1/pods?limit=3&continue=', '/api/v1/pods?watch=1'])
    assert.ok(
      paths.some((x) => x.startsWith(p)),
      `${p} asked in protobuf`,
    );
  assert.ok(paths.some((x) => x.startsWith('/api/v1/nodes?')));
  assert.deepEqual(
    paths.filter((x) => !/^\/api\/v1\/(pods|nodes)\?/.test(x)),
    [],
    'only pods and nodes asked in protobuf',
  );
  assert.ok(
    asked(off).some((r) => r.path.startsWith('/api/v1/pods?watch=1')),
    'the JSON server was asked too',
  );
});

test('protobuf list pages and watch frames keep their size bounds: an object over the bound is named and skipped', async (t) => {
  const store = new ObjectStore();
  populate(store);
  const c = await startDemoCluster({ simulate: false, store });
  t.after(() => c.stop());
  const transport = transportFor(c);
  t.after(() => transport.close());
  // A pod with a huge annotation: over the bound as a page and as a frame.
  const big = putPod(store, 'team-a', 'huge-0', null, { app: 'huge' }, { node: null });
  store.put(KEYS.pods, { ...big, metadata: { ...big.metadata, annotations: { blob: 'x'.repeat(200_000) } } });
  const problems: string[] = [];
  const held = new Set<string>();
  const reflector = new Reflector(
    {
      transport,
      path: '/api/v1/namespaces/team-a/pods',
      apiVersion: 'v1',
      kind: 'Pod',
      label: 'pods',
      trim: new Trimmer().for('pod'),
      wire: 'protobuf',
      pageSize: 2,
      maxPageBytes: 100_000,
      maxLineBytes: 100_000,
    },
    {
      onEvent: (type, o) => (type === 'DELETED' ? held.delete(o.metadata.name) : held.add(o.metadata.name)),
      onProblem: (m) => problems.push(m),
    },
  );
  t.after(() => reflector.stop());
  reflector.start();
  assert.equal(await reflector.firstSync, null);
  assert.deepEqual([...held].sort(), ['trainer-0', 'trainer-1', 'trainer-2']);
  assert.ok(
    problems.some((p) => /Pod team-a\/huge-0 of over 0\.\d MiB \(the limit\) skipped/.test(p)),
    problems.join('\n'),
  );
  // Over the watch: the frame is passed over, named, and the next event still arrives.
  store.put(KEYS.pods, { ...big, metadata: { ...big.metadata, annotations: { blob: 'y'.repeat(200_000) } } });
  putPod(store, 'team-a', 'after-0', null, { app: 'after' }, { node: null });
  const until = Date.now() + 5000;
  while (!held.has('after-0') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  assert.ok(held.has('after-0'), 'the watch went on after the oversized frame');
  assert.ok(
    problems.some((p) => /watch event for Pod team-a\/huge-0 of 0\.\d MiB over the limit/.test(p)),
    problems.join('\n'),
  );
});
