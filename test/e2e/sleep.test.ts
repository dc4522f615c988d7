// A laptop that sleeps and wakes, as an API server that stops answering: the
// demo server in a child process is SIGSTOPped for longer than the reflector's
// stall timeout, then SIGCONTed. Every watch must be found stale and
// re-established, the connection state must say so meanwhile and come back to
// live, and the engine must hold exactly what a fresh list returns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startEngine } from '../../src/kube/engine.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import type { ClusterConnection } from '../../src/model/types.js';
import { startDemoProcess } from './demo-process.js';
import { converge } from './inventory.js';
import { sleep } from './tmux.js';

// Watches time out after 2–3 s, so silence beyond 3 s + 1 s means a stalled stream; the server stays paused
// until the engine says so, at most PAUSE_MS.
const STALL_MS = 4_000;
const PAUSE_MS = 3 * STALL_MS;

test(
  'a paused server (SIGSTOP longer than the stall timeout): watches re-established, the model converges',
  { timeout: 120_000 },
  async (t) => {
    const demo = await startDemoProcess(['--speed', '30', '--seed', '5']);
    t.after(() => demo.stop());
    const transport = demo.transport();
    const engine = await startEngine({
      transport,
      connection: { context: 'wlx-demo', cluster: 'wlx-demo', user: 'wlx-demo', server: demo.server, namespace: null },
      namespace: null,
      definitions: loadDefinitions({ envPaths: '' }),
      flushIntervalMs: 20,
      reflector: {
        watchTimeoutSeconds: [2, 3],
        stallMarginMs: 1_000,
        headersTimeoutMs: 1_000,
        listIdleTimeoutMs: 2_000,
        backoff: { initialMs: 100, maxMs: 1_000, factor: 2, jitter: 0.3 },
      },
    });
    t.after(() => engine.stop());
    await engine.whenSynced();
    const seen: ClusterConnection[] = [];
    t.after(engine.subscribe((s) => seen.push(s.connection)));
    const watchesBefore = engine.getSnapshot().kinds.length;
    assert.equal(engine.getSnapshot().connection.state, 'live');

    demo.child.kill('SIGSTOP');
    // Paused until the engine says every watch stalled (one cluster-wide state), at most PAUSE_MS.
    const asleep = await new Promise<ClusterConnection>((resolve) => {
      const done = (c: ClusterConnection) => {
        clearTimeout(timer);
        stop();
        resolve(c);
      };
      const stop = engine.subscribe((s) => {
        if (s.connection.state === 'retrying' && s.connection.failing.length === 0) done(s.connection);
      });
      const timer = setTimeout(() => done(engine.getSnapshot().connection), PAUSE_MS);
    });
    demo.child.kill('SIGCONT');

    // While the server was silent: one cluster-wide state with its cause and next retry.
    assert.equal(asleep.state, 'retrying', JSON.stringify(asleep));
    assert.equal(asleep.cause?.kind, 'stalled');
    assert.equal(asleep.failing.length, 0, 'every kind failed, so the header names no list of kinds');
    assert.ok(asleep.retryAt, 'the next retry is known');

    const problems = await converge(transport, engine, 30_000);
    assert.deepEqual(problems, [], 'engine inventory equals a fresh list');
    const deadline = Date.now() + 10_000;
    while (engine.getSnapshot().connection.state !== 'live' && Date.now() < deadline) await sleep(100);
    assert.equal(engine.getSnapshot().connection.state, 'live', 'the connection recovered by itself');
    assert.equal(engine.getSnapshot().connection.cause, undefined);
    assert.equal(engine.getSnapshot().kinds.length, watchesBefore);
    assert.ok(seen.some((c) => c.state === 'retrying') && seen.at(-1)?.state === 'live');
  },
);
