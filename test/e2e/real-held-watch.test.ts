// A watch opened seconds after its list, against the real kube-apiserver: what
// a fleet's synced engine does while it waits for the others' first lists
// (heldWatch, src/kube/flush-scheduler.ts). The server's watch cache must
// replay, from the list's resourceVersion, what changed in between: a node
// created, a node deleted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { HttpKubeTransport } from '../../src/kube/client.js';
import { Reflector, type WatchEventType } from '../../src/kube/reflector.js';
import { Trimmer } from '../../src/kube/trim.js';
import { cleanupsAfter, realServerSkipReason, useRealServer, waitUntil, type RealServer } from './real-apiserver.js';

const skip = realServerSkipReason();

function node(name: string) {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'wlx.test/held-watch': 'yes' } } };
}

describe('a watch opened after a wait, on the real kube-apiserver', { skip }, () => {
  let real: RealServer;
  const cleanup = cleanupsAfter(after);
  before(async () => {
    real = await useRealServer(cleanup);
  });

  test('replays from the list resourceVersion what changed while it waited', { timeout: 60_000 }, async () => {
    const names = ['held-watch-a', 'held-watch-b'];
    for (const n of names) await real.admin.must('DELETE', `/api/v1/nodes/${n}`, undefined, undefined, [404]);
    cleanup(async () => {
      for (const n of names) await real.admin.request('DELETE', `/api/v1/nodes/${n}`);
    });
    await real.admin.must('POST', '/api/v1/nodes', node('held-watch-a'));
    const kc = new KubeConfig();
    kc.loadFromFile(real.kubeconfig);
    const transport = new HttpKubeTransport(kc, real.server, kc.getCurrentContext());
    const events: string[] = [];
    let release!: () => void;
    let waiting = false;
    const reflector = new Reflector(
      {
        transport,
        path: '/api/v1/nodes',
        apiVersion: 'v1',
        kind: 'Node',
        labelSelector: 'wlx.test/held-watch=yes',
        trim: new Trimmer().for('node'),
        beforeWatch: () => {
          waiting = true;
          return new Promise<void>((resolve) => (release = resolve));
        },
      },
      { onEvent: (type: WatchEventType, o) => events.push(`${type} ${o.metadata.name}`) },
    );
    cleanup(() => reflector.stop());
    reflector.start();
    assert.equal(await reflector.firstSync, null);
    await waitUntil('the reflector waiting before its watch', () => waiting);
    assert.deepEqual(events, ['ADDED held-watch-a'], 'listed');
    await real.admin.must('POST', '/api/v1/nodes', node('held-watch-b'));
    await real.admin.must('DELETE', '/api/v1/nodes/held-watch-a');
    // Opened now, as a fleet's synced engine opens its watch at its release.
    release();
    await waitUntil('the changes made while it waited', () => events.length === 3, 20_000);
    assert.deepEqual(events, ['ADDED held-watch-a', 'ADDED held-watch-b', 'DELETED held-watch-a']);
    assert.equal(reflector.lists, 1, 'replayed by the watch, not relisted');
  });
});
