// The reflector applies each list page as soon as it is parsed (so the model
// works while the server still sends), and a list that restarts (expired
// continue token) or a relist still ends with exactly the server's objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reflector, type WatchEventType } from '../../src/kube/reflector.js';
import { KubeApiError, type KubeTransport } from '../../src/kube/client.js';
import { Trimmer } from '../../src/kube/trim.js';

import type { KubeObject } from '../../src/model/types.js';
import { FakeApi } from './fake-api.js';

const trimOwner = new Trimmer().for('owner');

interface Seen {
  type: WatchEventType;
  name: string;
  uid: string;
}

function names(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `t${String(i).padStart(4, '0')}`);
}

/** One list (no watch) of the fake API's objects through `transport`, every event recorded in `events`. */
async function listOnce(api: FakeApi, transport: KubeTransport, events: Seen[]): Promise<Reflector> {
  const r = new Reflector(
    { transport, path: api.path, apiVersion: 'v1', kind: 'Thing', watch: false, trim: trimOwner },
    { onEvent: (type, o: KubeObject) => events.push({ type, name: o.metadata.name, uid: o.metadata.uid }) },
  );
  r.start();
  assert.equal(await r.firstSync, null);
  await r.stop();
  return r;
}

test('list pages are applied as they arrive: page 1 is in the handler before page 3 is asked for', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  for (const n of names(1203)) api.put(n);
  const inner = api.transport();
  const eventsWhenOpened: Array<{ page: string; events: number }> = [];
  const events: Seen[] = [];
  const transport: KubeTransport = {
    label: inner.label,
    open: (path, options) => {
      eventsWhenOpened.push({ page: /continue=(\d+)/.exec(path)?.[1] ?? '0', events: events.length });
      return inner.open(path, options);
    },
  };
  const r = await listOnce(api, transport, events);
  assert.deepEqual(
    eventsWhenOpened.map((e) => e.page),
    ['0', '500', '1000'],
  );
  assert.ok(
    eventsWhenOpened[2].events >= 500,
    `page 1's 500 objects were applied before page 3 was requested (had ${eventsWhenOpened[2].events})`,
  );
  assert.equal(events.length, 1203);
  assert.ok(
    events.every((e) => e.type === 'ADDED'),
    'a first list only adds',
  );
  assert.equal(r.count, 1203);
});

test('an expired continue token restarts the list; objects from the abandoned pages that vanished are deleted at its end', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  for (const n of names(1203)) api.put(n);
  const inner = api.transport();
  let expired = false;
  const events: Seen[] = [];
  let eventsAtRestart = -1;
  const transport: KubeTransport = {
    label: inner.label,
    open: async (path, options) => {
      if (!expired && /continue=500/.test(path)) {
        expired = true;
        // Between pages the world changed and the token expired.
        api.silently(() => {
          api.remove('t0007');
          api.put('t0008', { spec: { changed: true } });
          api.recreate('t0009');
          api.remove('t0900');
        });
        await new Promise((r) => setTimeout(r, 20));
        eventsAtRestart = events.length;
        throw new KubeApiError('continue token expired', 410, 'Expired');
      }
      return inner.open(path, options);
    },
  };
  const r = await listOnce(api, transport, events);
  assert.equal(eventsAtRestart, 500, 'the first page had been applied when the token expired');
  const after = events.slice(500).filter((e) => e.type !== 'ADDED' || e.name < 't0500');
  assert.deepEqual(
    after.map((e) => `${e.type} ${e.name}`).sort(),
    ['ADDED t0009', 'DELETED t0007', 'DELETED t0009', 'MODIFIED t0008'],
    'the restarted list re-emits only what changed in the pages already applied',
  );
  const del9 = events.findIndex((e) => e.type === 'DELETED' && e.name === 't0009');
  const add9 = events.findIndex((e, i) => i >= 500 && e.type === 'ADDED' && e.name === 't0009');
  assert.ok(del9 < add9, 'a replaced object (same name, new uid): its tombstone comes before the new one');
  assert.equal(
    events.filter((e) => e.name === 't0900').length,
    0,
    'an object gone before its page was listed never appears',
  );
  assert.equal(r.count, api.objects.size);
  assert.deepEqual(
    new Set(r.snapshotVersions().keys()),
    new Set([...api.objects.values()].map((o) => o.metadata.uid)),
    'the reflector holds exactly the server objects',
  );
});
