import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CatchUpWindow, coalesceWatchLines, scanWatchLine } from '../../src/kube/catch-up.js';
import { LineArena } from '../../src/kube/line-arena.js';
import { Reflector, type WatchEventType } from '../../src/kube/reflector.js';
import { Trimmer } from '../../src/kube/trim.js';
import type { KubeObject } from '../../src/model/types.js';
import { FakeApi } from './fake-api.js';
import { until } from './helpers.js';

type Type = 'ADDED' | 'MODIFIED' | 'DELETED';
const line = (type: Type, name: string, uid: string, rv: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type,
    object: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'ns', uid, resourceVersion: String(rv) },
      ...extra,
    },
  });
const bookmark = (rv: number) =>
  JSON.stringify({
    type: 'BOOKMARK',
    object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: String(rv) } },
  });
const error = JSON.stringify({
  type: 'ERROR',
  object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Expired', code: 410 },
});

test('scanWatchLine: type, uid and name from the event object metadata, not from nested objects', () => {
  assert.deepEqual(scanWatchLine(line('MODIFIED', 'a', 'u1', 5)), { type: 'MODIFIED', uid: 'u1', name: 'a' });
  // metadata after a spec that holds a template's metadata and owner uids; the type after the object
  const nested = JSON.stringify({
    object: {
      spec: { template: { metadata: { name: 'tpl', uid: 'wrong' } }, ownerReferences: [{ uid: 'owner' }] },
      metadata: { ownerReferences: [{ uid: 'owner', name: 'o' }], labels: { uid: 'x' }, name: 'b', uid: 'u2' },
    },
    type: 'ADDED',
  });
  assert.deepEqual(scanWatchLine(nested), { type: 'ADDED', uid: 'u2', name: 'b' });
  // spaces between tokens, as another server may write them
  assert.deepEqual(
    scanWatchLine('{ "type" : "DELETED" , "object" : { "metadata" : { "uid" : "u3", "name" : "c" } } }'),
    {
      type: 'DELETED',
      uid: 'u3',
      name: 'c',
    },
  );
  // only an owner's uid: no object uid
  assert.equal(
    scanWatchLine('{"type":"ADDED","object":{"metadata":{"name":"d","ownerReferences":[{"uid":"o"}]}}}'),
    undefined,
  );
  // an escape in the uid is left to JSON.parse
  assert.equal(scanWatchLine('{"type":"ADDED","object":{"metadata":{"name":"e","uid":"u\\u0031"}}}'), undefined);
  assert.equal(scanWatchLine('{"type":"MODIFIED","object":{"kind": <<not json>>'), undefined);
  assert.equal(scanWatchLine(bookmark(7)), undefined);
});

test('coalesceWatchLines: the last event of each object, at its own place', () => {
  const a1 = line('ADDED', 'a', 'ua', 1);
  const b1 = line('MODIFIED', 'b', 'ub', 2);
  const a2 = line('MODIFIED', 'a', 'ua', 3);
  const b2 = line('DELETED', 'b', 'ub', 4);
  const a3 = line('MODIFIED', 'a', 'ua', 5);
  assert.deepEqual(coalesceWatchLines([a1, b1, a2, b2, a3]), { lines: [b2, a3], superseded: 3 });
});

test('coalesceWatchLines: delete and create again under the same name keeps both objects last events in order', () => {
  const old1 = line('MODIFIED', 'a', 'u-old', 1);
  const oldDel = line('DELETED', 'a', 'u-old', 2);
  const new1 = line('ADDED', 'a', 'u-new', 3);
  const new2 = line('MODIFIED', 'a', 'u-new', 4);
  assert.deepEqual(coalesceWatchLines([old1, oldDel, new1, new2]).lines, [oldDel, new2]);
});

test('coalesceWatchLines: bookmarks stay in place; lines from the first ERROR on are untouched', () => {
  const a1 = line('MODIFIED', 'a', 'ua', 1);
  const a2 = line('MODIFIED', 'a', 'ua', 3);
  const a3 = line('MODIFIED', 'a', 'ua', 5);
  assert.deepEqual(coalesceWatchLines([a1, bookmark(2), a2]).lines, [bookmark(2), a2]);
  // a1 may not give way to a3 across the ERROR: the stream stops there
  assert.deepEqual(coalesceWatchLines([a1, a2, error, a3]).lines, [a2, error, a3]);
});

test('coalesceWatchLines: malformed, uid-less and invalid-UTF-8 lines are never left out', () => {
  const malformed = '{"type":"MODIFIED","object":{"kind": <<not json>>';
  const noUid = '{"type":"MODIFIED","object":{"metadata":{"name":"a"}}}';
  const bad = line('MODIFIED', 'a', 'ua', 1, { status: { message: 'bad \uFFFD byte' } });
  const a2 = line('MODIFIED', 'a', 'ua', 2);
  // a superseding line with an escape in its uid is read by the fallback parse
  const escaped = '{"type":"MODIFIED","object":{"metadata":{"name":"b","uid":"u\\u0062"}}}';
  const b1 = line('MODIFIED', 'b', 'ub', 3);
  const out = coalesceWatchLines([malformed, noUid, bad, a2, b1, escaped]);
  assert.deepEqual(out.lines, [malformed, noUid, bad, a2, escaped]);
  assert.equal(out.superseded, 1);
});

test('CatchUpWindow: a few lines per turn are handled at once; a backlog is held, coalesced and handled when the stream goes quiet', async () => {
  const handled: string[][] = [];
  const window = new CatchUpWindow((lines) => handled.push([...lines]), {
    enterLines: 3,
    quietMs: 20,
    maxHoldMs: 5_000,
    maxLines: 1_000,
    maxBytes: 2 ** 20,
  });
  const a = (rv: number) => line('MODIFIED', 'a', 'ua', rv);
  window.push([a(1), a(2)]);
  assert.deepEqual(handled, [[a(1), a(2)]], 'under the threshold: handled as they came');
  await new Promise((r) => setImmediate(r));
  window.push([a(3), a(4)]);
  window.push([a(5), a(6)]); // 4 lines in this turn: behind
  assert.equal(handled.length, 2, 'the first chunk of the turn was handled, the second is held');
  window.push([a(7)]);
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(handled.at(-1), [a(7)], 'held lines coalesced to the last version');
  assert.equal(window.superseded, 2);
  window.stop();
});

test('CatchUpWindow: the size bound hands the window over at once; stop() drops what is held', () => {
  const handled: string[][] = [];
  const window = new CatchUpWindow((lines) => handled.push([...lines]), {
    enterLines: 0,
    quietMs: 1_000,
    maxHoldMs: 5_000,
    maxLines: 3,
    maxBytes: 2 ** 20,
  });
  window.push([line('ADDED', 'a', 'ua', 1), line('ADDED', 'b', 'ub', 2)]);
  assert.equal(handled.length, 0);
  window.push([line('ADDED', 'c', 'uc', 3)]);
  assert.equal(handled.length, 1);
  window.push([line('ADDED', 'd', 'ud', 4)]);
  window.stop();
  window.release();
  assert.equal(handled.length, 1, 'nothing held after stop()');
});

test('CatchUpWindow: held lines come back exactly as they went in (UTF-8, latin1, U+FFFD), one at a time', () => {
  const lines = [
    line('MODIFIED', 'a', 'ua', 1, { status: { message: 'Grüße ✓ 🚀' } }),
    line('MODIFIED', 'b', 'ub', 2, { status: { message: 'caf\u00e9 \u00ff' } }),
    line('MODIFIED', 'c', 'uc', 3, { status: { message: 'bad \uFFFD byte' } }),
    '{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"4"}}}',
  ];
  const handed: string[] = [];
  let iterable: Iterable<string> | undefined;
  const window = new CatchUpWindow(
    (got) => {
      iterable = got;
      for (const l of got) handed.push(l);
    },
    { enterLines: 0, quietMs: 1_000, maxHoldMs: 5_000, maxLines: 100, maxBytes: 2 ** 20 },
  );
  window.push(lines);
  window.release();
  assert.deepEqual(handed, lines);
  assert.ok(!Array.isArray(iterable), 'a held window is handed over lazily, not as an array of strings');
});

test('CatchUpWindow: the byte bound hands the window over at once; stop() while handing over stops there', () => {
  const handled: string[] = [];
  let stopAfterFirst = false;
  const window = new CatchUpWindow(
    (got) => {
      for (const l of got) {
        handled.push(l);
        if (stopAfterFirst) window.stop();
      }
    },
    { enterLines: 0, quietMs: 1_000, maxHoldMs: 5_000, maxLines: 1_000, maxBytes: 300 },
  );
  const big = (name: string, rv: number) => line('ADDED', name, `u${name}`, rv, { pad: 'x'.repeat(120) });
  window.push([big('a', 1)]);
  assert.equal(handled.length, 0, 'under the byte bound: held');
  window.push([big('b', 2), big('c', 3)]);
  assert.equal(handled.length, 3, 'over the byte bound: handed over');
  stopAfterFirst = true;
  window.push([big('d', 4), big('e', 5), big('f', 6)]);
  assert.deepEqual(
    handled.slice(3).map((l) => JSON.parse(l).object.metadata.name),
    ['d'],
    'nothing handed over after stop()',
  );
});

test('LineArena: holds nothing until a line comes, grows past its first megabyte, returns every line, holds nothing between windows, and halves room no longer used', () => {
  const arena = new LineArena();
  assert.equal(arena.capacity, 0, 'no buffer before the first line');
  arena.add('first');
  const first = arena.capacity;
  assert.ok(first > 0);
  arena.clear();
  const lines = Array.from({ length: 3_000 }, (_, i) => `${i}:${'é'.repeat(500)}`);
  for (const l of lines) arena.add(l);
  assert.ok(arena.capacity > first, `grew from ${first} to ${arena.capacity}`);
  assert.equal(arena.lines, lines.length);
  assert.deepEqual(
    lines.map((_, i) => arena.line(i)),
    lines,
  );
  const grown = arena.capacity;
  arena.clear();
  assert.equal(arena.lines, 0);
  assert.equal(arena.capacity, 0, 'the buffer is given back when the window is handled');
  for (let i = 0; i < 15; i++) {
    arena.add('small');
    assert.equal(arena.capacity, grown, 'a window starts with the room recent windows needed');
    arena.clear();
  }
  arena.add('small');
  arena.clear();
  assert.ok(arena.nextRoom < grown, '16 small windows in a row halve the room');
  arena.add('small');
  assert.equal(arena.capacity, arena.nextRoom);
  assert.equal(arena.line(0), 'small');
  arena.clear();
  assert.equal(arena.size, 0);
});

/** The objects a reflector's events leave in a store keyed by uid, as the model keeps them. */
function storeOf(events: { type: WatchEventType; o: KubeObject }[]): Map<string, string> {
  const store = new Map<string, string>();
  for (const { type, o } of events) {
    if (type === 'DELETED') store.delete(o.metadata.uid);
    else store.set(o.metadata.uid, `${o.metadata.name}@${o.metadata.resourceVersion}`);
  }
  return store;
}

test('a reflector that is behind coalesces its watch backlog and ends exactly where handling every event does', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  for (let i = 0; i < 50; i++) api.put(`p${i}`);
  const run = (enterLines: number) => {
    const events: { type: WatchEventType; o: KubeObject }[] = [];
    const r = new Reflector(
      {
        transport: api.transport(),
        path: api.path,
        apiVersion: 'v1',
        kind: 'Thing',
        trim: new Trimmer().for('owner'),
        watchTimeoutSeconds: [30, 30],
        catchUp: { enterLines, quietMs: 20, maxHoldMs: 2_000, maxLines: 100_000, maxBytes: 2 ** 30 },
      },
      { onEvent: (type, o) => events.push({ type, o }) },
    );
    return { r: r.start(), events };
  };
  const coalescing = run(10);
  const everyEvent = run(Number.POSITIVE_INFINITY);
  t.after(() => Promise.all([coalescing.r.stop(), everyEvent.r.stop()]));
  await until(() => coalescing.r.watches > 0 && everyEvent.r.watches > 0, 'both watches open');
  await new Promise((r) => setTimeout(r, 50));
  // A burst written in one go: status changes, deletions, and names deleted and created again.
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 50; i++) api.put(`p${i}`, { status: { round } });
    api.remove(`p${round}`);
    api.recreate(`p${round + 20}`);
    api.put(`q${round}`);
  }
  api.put('last', { status: { done: true } });
  const rv = String(api.rv);
  await until(
    () => coalescing.r.resourceVersion === rv && everyEvent.r.resourceVersion === rv,
    'both reflectors at the last resourceVersion',
  );
  const expected = new Map(
    [...api.objects.values()].map((o) => [o.metadata.uid, `${o.metadata.name}@${o.metadata.resourceVersion}`]),
  );
  assert.deepEqual(storeOf(everyEvent.events), expected);
  assert.deepEqual(storeOf(coalescing.events), expected);
  assert.equal(everyEvent.r.coalesced, 0);
  assert.ok(coalescing.r.coalesced > 500, `coalesced ${coalescing.r.coalesced} of ${api.history.length} events`);
  assert.equal(coalescing.r.count, everyEvent.r.count);
});
