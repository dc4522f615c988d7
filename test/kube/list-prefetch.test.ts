// The paged list asks for page n+1 before parsing page n (peekContinue), so
// the server prepares the next page while the client parses and trims.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reflector, type WatchEventType } from '../../src/kube/reflector.js';
import { peekContinue } from '../../src/kube/response-bounds.js';
import type { KubeTransport } from '../../src/kube/client.js';
import { Trimmer } from '../../src/kube/trim.js';

import type { KubeObject } from '../../src/model/types.js';
import { FakeApi } from './fake-api.js';

const trimOwner = new Trimmer().for('owner');

test('peekContinue reads the token from the metadata before the items only', () => {
  assert.equal(
    peekContinue(
      '{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"eyJ2IjoxfQ"},"items":[]}',
    ),
    'eyJ2IjoxfQ',
  );
  assert.equal(peekContinue('{"metadata":{"continue" : "abc"},"items":[{"metadata":{"name":"x"}}]}'), 'abc');
  assert.equal(
    peekContinue('{"metadata":{"resourceVersion":"7"},"items":[{"continue":"not-this"}]}'),
    '',
    'an item field is not the token',
  );
  assert.equal(
    peekContinue('{"items":[{"continue":"nope"}],"metadata":{"continue":"late"}}'),
    '',
    'metadata after items: no early token',
  );
  assert.equal(
    peekContinue('{"metadata":{"continue":"a\\"b"},"items":[]}'),
    '',
    'an escaped token is left to the parser',
  );
  assert.equal(peekContinue('{"metadata":{"continue":""},"items":[]}'), '');
});

test('the next page is requested before the current one is trimmed; every object arrives once', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  for (let i = 0; i < 1203; i++) api.put(`t${String(i).padStart(4, '0')}`);
  const inner = api.transport();
  const opened: string[] = [];
  const transport: KubeTransport = {
    label: inner.label,
    open: (path, options) => {
      opened.push(path);
      return inner.open(path, options);
    },
  };
  const openedAtFirstTrim: number[] = [];
  const events: { type: WatchEventType; name: string }[] = [];
  const r = new Reflector(
    {
      transport,
      path: api.path,
      apiVersion: 'v1',
      kind: 'Thing',
      watch: false,
      trim: (o) => {
        if (!openedAtFirstTrim.length) openedAtFirstTrim.push(opened.length);
        return trimOwner(o);
      },
    },
    { onEvent: (type, o: KubeObject) => events.push({ type, name: o.metadata.name }) },
  );
  r.start();
  assert.equal(await r.firstSync, null);
  await r.stop();
  assert.equal(openedAtFirstTrim[0], 2, 'page 2 was asked for before page 1 was trimmed');
  assert.deepEqual(
    opened.map((p) => /continue=(\d+)/.exec(p)?.[1] ?? '0'),
    ['0', '500', '1000'],
    'each page once, in order',
  );
  assert.equal(events.length, 1203);
  assert.equal(new Set(events.map((e) => e.name)).size, 1203);
});
