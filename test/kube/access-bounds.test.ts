// The access layer keeps a bounded amount of what the incident views read:
// a log line with no end is cut (and says so), an events read keeps the newest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { HttpKubeTransport } from '../../src/kube/client.js';
import { LogLineSplitter, createAccess, newestEvents } from '../../src/kube/access.js';
import type { KubeObject } from '../../src/model/types.js';

function event(i: number): KubeObject {
  const t = new Date(Date.UTC(2026, 11, 1, 0, 0, i)).toISOString();
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `e${i}`, namespace: 'ns', uid: `e${i}` },
    involvedObject: { kind: 'Pod', name: 'p', uid: 'pod-uid' },
    lastTimestamp: t,
    message: `event ${i}`,
  };
}

test('log lines are cut at the bound, across chunks, and say how much was not kept', () => {
  const lines: string[] = [];
  const split = new LogLineSplitter(10, (l) => lines.push(l));
  split.write('short\nabcdefgh');
  split.write('ijklmnop\n');
  split.write('x'.repeat(1000));
  split.write('y'.repeat(1000));
  split.close();
  assert.deepEqual(lines, [
    'short',
    'abcdefghij… (6 more characters not kept)',
    'xxxxxxxxxx… (1990 more characters not kept)',
  ]);
});

test('an events read keeps the newest, in the order they came', () => {
  const events = [5, 1, 9, 3, 7].map(event);
  assert.deepEqual(
    newestEvents(events, 3).map((e) => e.metadata.name),
    ['e5', 'e9', 'e7'],
  );
  assert.equal(newestEvents(events, 10), events);
});

test('over HTTP: a 4 MB log line with no newline and 3,000 events stay within the bounds', async (t) => {
  const events = Array.from({ length: 3000 }, (_, i) => event(i));
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/api/v1/namespaces/ns/pods/p/log')) {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first\n');
      for (let i = 0; i < 64; i++) res.write('z'.repeat(64 * 1024));
      res.end();
      return;
    }
    if (req.url?.startsWith('/api/v1/namespaces/ns/events')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'EventList', apiVersion: 'v1', metadata: {}, items: events }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'secret-token' }],
    contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
    currentContext: 'c',
  });
  const access = createAccess(new HttpKubeTransport(kc, url, 'c'), { maxEvents: 100, maxLogLineChars: 1000 });
  const lines: string[] = [];
  await access.streamLogs('ns', 'p', {}, (l) => lines.push(l));
  assert.equal(lines.length, 2);
  assert.equal(lines[0], 'first');
  assert.equal(lines[1], `${'z'.repeat(1000)}… (${64 * 64 * 1024 - 1000} more characters not kept)`);
  const kept = await access.listEvents('ns', { uids: ['pod-uid'] });
  assert.equal(kept.length, 100);
  assert.equal(kept[0].metadata.name, 'e2900');
  assert.equal(kept[99].metadata.name, 'e2999');
});
