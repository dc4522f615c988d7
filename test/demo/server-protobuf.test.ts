// The simulated server's protobuf answers, read over real HTTP by wlx's own
// decoder (src/kube/protobuf), hold what its JSON answers hold after the same
// Trimmer: pod, node and event lists over several pages (same pages, same
// continue tokens), and a watch's ADDED/MODIFIED/DELETED/BOOKMARK events and
// its too-old-resourceVersion ERROR. CRDs answer JSON (406 when only protobuf
// is accepted), and `protobuf: false` answers JSON to every Accept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { ObjectStore } from '../../demo/object-store.js';
import { startSimulation } from '../../demo/sim/index.js';
import { startDemoCluster, type DemoCluster } from '../../demo/index.js';
import { decoderFor } from '../../src/kube/protobuf/core-v1.js';
import type { Json } from '../../src/kube/protobuf/fields.js';
import { decodeList, decodeWatchEvent, WatchFrameSplitter } from '../../src/kube/protobuf/envelope.js';
import { Trimmer, withTypeMeta } from '../../src/kube/trim.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const PROTOBUF_FIRST = `${PROTOBUF}, application/json`;

interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

function get(url: string, accept: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** The default scenario after a few simulated minutes, stopped so both reads see the same objects. */
async function settledStore(): Promise<ObjectStore> {
  const store = new ObjectStore();
  const sim = startSimulation(store, { scenario: 'default', seed: 11, speed: 60 });
  await new Promise((r) => setTimeout(r, 1500));
  sim.stop();
  return store;
}

/** What a client keeps of an object: the pod and node trims; events are kept as read. */
type Keep = (obj: unknown) => unknown;
function keeper(kind: 'Pod' | 'Node' | 'Event'): Keep {
  if (kind === 'Event') return (o) => o;
  const trim = new Trimmer().for(kind === 'Pod' ? 'pod' : 'node');
  return (o) => trim(withTypeMeta(o, 'v1', kind));
}

/** The fields of an Event the decoder reads (what views and kubectl describe show). */
const EVENT_FIELDS = [
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'series',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
];
const META_FIELDS = ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'labels', 'annotations'];
function pick(o: Json, keys: string[]): Json {
  const out: Json = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
function eventAsDecoded(e: Json): Json {
  return { metadata: pick(e.metadata as Json, META_FIELDS), ...pick(e, EVENT_FIELDS) };
}

interface Paged {
  items: unknown[];
  pages: Array<{ resourceVersion?: string; continue?: string; count: number }>;
}

async function listJson(c: DemoCluster, path: string, limit: number, keep: Keep): Promise<Paged> {
  const out: Paged = { items: [], pages: [] };
  let cont = '';
  do {
    const a = await get(`${c.server}${path}?limit=${limit}${cont ? `&continue=${cont}` : ''}`, 'application/json');
    assert.equal(a.status, 200);
    assert.equal(a.contentType, 'application/json');
    const page = JSON.parse(a.body.toString('utf8')) as { metadata: { resourceVersion?: string; continue?: string } };
    const items = (page as unknown as { items: unknown[] }).items;
    out.items.push(...items.map(keep));
    out.pages.push({
      resourceVersion: page.metadata.resourceVersion,
      continue: page.metadata.continue,
      count: items.length,
    });
    cont = page.metadata.continue ?? '';
  } while (cont);
  return out;
}

async function listProtobuf(c: DemoCluster, path: string, limit: number, kind: string, keep: Keep): Promise<Paged> {
  const out: Paged = { items: [], pages: [] };
  const decode = decoderFor('v1', kind)!;
  let cont = '';
  do {
    const a = await get(`${c.server}${path}?limit=${limit}${cont ? `&continue=${cont}` : ''}`, PROTOBUF_FIRST);
    assert.equal(a.status, 200);
    assert.equal(a.contentType, PROTOBUF);
    let count = 0;
    const list = decodeList(a.body, decode, (o) => {
      out.items.push(keep(o));
      count++;
    });
    assert.equal(list.kind, `${kind}List`);
    out.pages.push({ resourceVersion: list.metadata.resourceVersion, continue: list.metadata.continue, count });
    cont = list.metadata.continue ?? '';
  } while (cont);
  return out;
}

test('pod, node and event lists in protobuf, page by page, hold what the JSON lists hold', async (t) => {
  const store = await settledStore();
  const c = await startDemoCluster({ simulate: false, store });
  t.after(() => c.stop());
  const cases = [
    { path: '/api/v1/pods', kind: 'Pod', limit: 25 },
    { path: '/api/v1/nodes', kind: 'Node', limit: 4 },
    { path: '/api/v1/events', kind: 'Event', limit: 10 },
  ] as const;
  for (const { path, kind, limit } of cases) {
    const json = await listJson(c, path, limit, kind === 'Event' ? (o) => eventAsDecoded(o as Json) : keeper(kind));
    const proto = await listProtobuf(c, path, limit, kind, keeper(kind));
    assert.ok(json.pages.length >= 3, `${kind}: ${json.pages.length} pages`);
    // Paging is the same: each page's count and resourceVersion, a continue token on all but the last.
    assert.deepEqual(
      proto.pages.map((p) => [p.count, p.resourceVersion, p.continue !== undefined]),
      json.pages.map((p) => [p.count, p.resourceVersion, p.continue !== undefined]),
      kind,
    );
    assert.equal(proto.items.length, json.items.length);
    for (let i = 0; i < json.items.length; i++) assert.deepStrictEqual(proto.items[i], json.items[i], `${kind} #${i}`);
  }
  // One object (GET): the envelope around a Pod.
  const pod = store.list('/v1/pods')[0];
  const one = await get(`${c.server}/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, PROTOBUF);
  assert.equal(one.contentType, PROTOBUF);
  const { readEnvelope } = await import('../../src/kube/protobuf/envelope.js');
  const env = readEnvelope(one.body);
  assert.deepEqual([env.apiVersion, env.kind], ['v1', 'Pod']);
});

interface FrameWatch {
  status: number;
  contentType: string;
  events: Array<{ type: string; kind: string; object: Json }>;
  waitFor(n: number): Promise<void>;
  closed: Promise<void>;
  close(): void;
}

function watchProtobuf(url: string, accept = PROTOBUF_FIRST): Promise<FrameWatch> {
  const decode = decoderFor('v1', 'Pod')!;
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: accept } }, (res) => {
      const events: FrameWatch['events'] = [];
      const splitter = new WatchFrameSplitter(1 << 24, 256, () => assert.fail('no frame is over the bound'));
      let wake = () => undefined as void;
      res.on('data', (chunk: Buffer) => {
        for (const f of splitter.push(chunk)) {
          const e = decodeWatchEvent(f, decode);
          events.push({ type: e.type, kind: e.kind, object: e.object });
        }
        wake();
      });
      const closed = new Promise<void>((r) => res.on('close', () => r()));
      resolve({
        status: res.statusCode ?? 0,
        contentType: res.headers['content-type'] ?? '',
        events,
        closed,
        waitFor: (n) =>
          new Promise((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`${events.length} of ${n} events`)), 5000);
            wake = () => {
              if (events.length >= n) {
                clearTimeout(timer);
                done();
              }
            };
            wake();
          }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function jsonWatchLines(url: string): Promise<{ lines: Json[]; close(): void; waitFor(n: number): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'application/json' } }, (res) => {
      const lines: Json[] = [];
      let buf = '';
      let wake = () => undefined as void;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          lines.push(JSON.parse(buf.slice(0, i)) as Json);
          buf = buf.slice(i + 1);
        }
        wake();
      });
      resolve({
        lines,
        close: () => req.destroy(),
        waitFor: (n) =>
          new Promise((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`${lines.length} of ${n} lines`)), 5000);
            wake = () => {
              if (lines.length >= n) {
                clearTimeout(timer);
                done();
              }
            };
            wake();
          }),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

test('a protobuf pod watch: ADDED, initial-events-end BOOKMARK, MODIFIED, DELETED as in JSON; ERROR 410 as a Status', async (t) => {
  const store = await settledStore();
  const c = await startDemoCluster({ simulate: false, store, bookmarkIntervalMs: 600_000 });
  t.after(() => c.stop());
  const ns = 'training';
  const initial = store.list('/v1/pods').filter((p) => p.metadata.namespace === ns);
  assert.ok(initial.length >= 2);
  const path = `/api/v1/namespaces/${ns}/pods?watch=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`;
  const proto = await watchProtobuf(`${c.server}${path}`);
  t.after(() => proto.close());
  const json = await jsonWatchLines(`${c.server}${path}`);
  t.after(() => json.close());
  assert.equal(proto.status, 200);
  assert.equal(proto.contentType, `${PROTOBUF};stream=watch`);
  await proto.waitFor(initial.length + 1);
  await json.waitFor(initial.length + 1);

  const [a, b] = initial;
  store.put('/v1/pods', { ...a, metadata: { ...a.metadata, labels: { ...a.metadata.labels, touched: 'yes' } } });
  store.delete('/v1/pods', ns, b.metadata.name);
  const total = initial.length + 3;
  await proto.waitFor(total);
  await json.waitFor(total);

  const types = proto.events.map((e) => e.type);
  assert.deepEqual(types, [...initial.map(() => 'ADDED'), 'BOOKMARK', 'MODIFIED', 'DELETED']);
  const bookmark = proto.events[initial.length];
  const bookmarkMeta = bookmark.object.metadata as { resourceVersion?: string; annotations?: Record<string, string> };
  assert.equal(bookmark.kind, 'Pod');
  assert.deepEqual(bookmarkMeta.annotations, { 'k8s.io/initial-events-end': 'true' });
  assert.equal(
    bookmarkMeta.resourceVersion,
    ((json.lines[initial.length].object as Json).metadata as Json).resourceVersion,
  );
  // Object events: after the pod trim, what the JSON watch sent.
  const trimP = keeper('Pod');
  const trimJ = keeper('Pod');
  for (let i = 0; i < total; i++) {
    if (i === initial.length) continue;
    assert.equal(proto.events[i].type, json.lines[i].type);
    assert.deepStrictEqual(trimP(proto.events[i].object), trimJ(json.lines[i].object), `event ${i}`);
  }

  // A watch from a resourceVersion the server no longer has: an ERROR event holding a 410 Status.
  c.faults.set({ expireNextWatches: 1 });
  const old = await watchProtobuf(`${c.server}/api/v1/pods?watch=1&resourceVersion=1`);
  await old.closed;
  assert.equal(old.events.length, 1);
  assert.equal(old.events[0].type, 'ERROR');
  assert.equal(old.events[0].kind, 'Status');
  assert.equal(old.events[0].object.code, 410);
  assert.equal(old.events[0].object.reason, 'Expired');
  assert.match(String(old.events[0].object.message), /too old resource version/);
});

test('CRDs answer JSON to a protobuf-first Accept and 406 to protobuf only; protobuf off answers JSON to all', async (t) => {
  const store = await settledStore();
  const on = await startDemoCluster({ simulate: false, store });
  t.after(() => on.stop());
  const off = await startDemoCluster({ simulate: false, store, protobuf: false });
  t.after(() => off.stop());
  const jobsets = '/apis/jobset.x-k8s.io/v1alpha2/jobsets?limit=2';
  const first = await get(`${on.server}${jobsets}`, PROTOBUF_FIRST);
  assert.equal(first.status, 200);
  assert.equal(first.contentType, 'application/json');
  assert.equal((JSON.parse(first.body.toString('utf8')) as { kind: string }).kind, 'JobSetList');
  const only = await get(`${on.server}${jobsets}`, PROTOBUF);
  assert.equal(only.status, 406);
  assert.match(only.body.toString('utf8'), /only the following media types are accepted: application\/json"/);
  // Pods: protobuf-only is served when on, 406 when off; protobuf-first gets JSON when off.
  assert.equal((await get(`${on.server}/api/v1/pods?limit=1`, PROTOBUF)).contentType, PROTOBUF);
  assert.equal((await get(`${off.server}/api/v1/pods?limit=1`, PROTOBUF)).status, 406);
  const offFirst = await get(`${off.server}/api/v1/pods?limit=1`, PROTOBUF_FIRST);
  assert.equal(offFirst.contentType, 'application/json');
  const offWatch = await get(`${off.server}/api/v1/pods?watch=1&timeoutSeconds=1`, PROTOBUF_FIRST);
  assert.equal(offWatch.contentType, 'application/json');
  assert.match(offWatch.body.toString('utf8'), /^\{"type":"ADDED"/);
  // Tables are unchanged with protobuf on (kubectl get).
  const table = await get(`${on.server}/api/v1/pods?limit=1`, 'application/json;as=Table;v=v1;g=meta.k8s.io');
  assert.equal((JSON.parse(table.body.toString('utf8')) as { kind: string }).kind, 'Table');
  // The request log names what was asked.
  assert.ok(on.requests().some((r) => r.path === jobsets && r.accept === PROTOBUF_FIRST));
});
