// The reflector holds at most a bounded amount of any response: a watch line
// or a list page over its bound is reported (kind, namespace/name) and
// skipped; invalid UTF-8 is reported with the objects it was in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reflector, type ReflectorOptions } from '../../src/kube/reflector.js';
import { Trimmer } from '../../src/kube/trim.js';
import type { KubeObject } from '../../src/model/types.js';
import { FakeApi } from './fake-api.js';
import { until } from './helpers.js';

function reflect(api: FakeApi, extra: Partial<ReflectorOptions> = {}) {
  const held = new Map<string, KubeObject>();
  const problems: string[] = [];
  const r = new Reflector(
    {
      transport: api.transport(),
      path: api.path,
      apiVersion: 'v1',
      kind: 'Thing',
      label: 'things',
      trim: new Trimmer().for('workload'),
      ...extra,
    },
    {
      onEvent: (type, o) => (type === 'DELETED' ? held.delete(o.metadata.name) : held.set(o.metadata.name, o)),
      onProblem: (m) => problems.push(m),
    },
  );
  r.start();
  return { r, held, problems };
}

test('a watch line over the bound is reported with its object and skipped; the stream goes on', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  const huge = JSON.stringify({
    type: 'ADDED',
    object: {
      metadata: { name: 'huge', namespace: 'ns', uid: 'u-huge', resourceVersion: '5000' },
      blob: 'x'.repeat(300_000),
    },
  });
  api.injectLines = [huge];
  const { r, held, problems } = reflect(api, { maxLineBytes: 64 * 1024 });
  t.after(() => r.stop());
  assert.equal(await r.firstSync, null);
  api.put('b');
  await until(() => held.has('b'), 'the event after the long line');
  assert.ok(!held.has('huge'));
  assert.deepEqual(
    problems.filter((p) => /over the limit/.test(p)),
    ['things: watch event for Thing ns/huge of 0.3 MiB over the limit of 0.1 MiB skipped'],
  );
});

test('a list page over the bound is fetched an object per page; only the object over it is skipped', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  api.put('big', { blob: 'x'.repeat(200_000) });
  api.put('c');
  api.put('d');
  const { r, held, problems } = reflect(api, { maxPageBytes: 64 * 1024, watch: false });
  t.after(() => r.stop());
  assert.equal(await r.firstSync, null);
  assert.deepEqual([...held.keys()].sort(), ['a', 'c', 'd']);
  assert.deepEqual(problems, ['things: Thing ns/big of over 0.1 MiB (the limit) skipped']);
  assert.ok(
    api.requests.some((u) => /limit=1\b/.test(u)),
    'refetched with limit=1',
  );
});

test('list pages: an ASCII page and a page with valid UTF-8 both read as their text, nothing reported', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('plain', { note: 'ascii only' });
  const { r, held, problems } = reflect(api, { watch: false });
  t.after(() => r.stop());
  assert.equal(await r.firstSync, null);
  assert.equal((held.get('plain') as unknown as { note: string }).note, 'ascii only');

  const api2 = await new FakeApi().start();
  t.after(() => api2.stop());
  api2.put('accents', { note: 'café → GPU 🚀' });
  const second = reflect(api2, { watch: false });
  t.after(() => second.r.stop());
  assert.equal(await second.r.firstSync, null);
  assert.equal((second.held.get('accents') as unknown as { note: string }).note, 'café → GPU 🚀');
  assert.deepEqual([...problems, ...second.problems], []);
});

test('invalid UTF-8 in a list and in a watch line is reported with the objects it was in', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a', { note: 'ok' });
  api.put('bad', { note: 'BADBYTES' });
  api.rawList = (body) => {
    const at = Buffer.from(body).indexOf('BADBYTES');
    const bytes = Buffer.from(body);
    if (at >= 0) bytes.fill(0xff, at, at + 3);
    return bytes;
  };
  const line = Buffer.from(
    JSON.stringify({
      type: 'ADDED',
      object: { metadata: { name: 'w', namespace: 'ns', uid: 'u-w', resourceVersion: '6000' }, note: 'BAD' },
    }),
  );
  line.fill(0xc3, line.indexOf('BAD'), line.indexOf('BAD') + 1); // a lead byte with no continuation
  api.injectLines = [line];
  const { r, held, problems } = reflect(api);
  t.after(() => r.stop());
  assert.equal(await r.firstSync, null);
  await until(() => held.has('w'), 'the watch event');
  assert.match((held.get('bad') as unknown as { note: string }).note, /^\uFFFD+BYTES$/);
  assert.deepEqual(
    problems.filter((p) => /UTF-8/.test(p)),
    [
      'things: invalid UTF-8 (shown as U+FFFD) in Thing ns/bad',
      'things: invalid UTF-8 (shown as U+FFFD) in Thing ns/w',
    ],
  );
});
