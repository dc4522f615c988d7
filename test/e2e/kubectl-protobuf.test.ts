// kubectl against the simulated server with protobuf on: the commands whose
// requests ask for protobuf first (found in the server's request log) print
// what they print with protobuf off, over the same objects; `kubectl get -o
// json` asks for JSON only.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore } from '../../demo/object-store.js';
import type { DemoCluster } from '../../demo/index.js';
import { FixtureLogs, populate } from '../demo/server-fixtures.js';
import { kubectl, kubectlDemoCluster } from './kubectl-helpers.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** A cluster over `store` with a kubeconfig and discovery cache of its own. */
async function clusterWith(
  t: TestContext,
  store: ObjectStore,
  protobuf: boolean,
): Promise<{ c: DemoCluster; env: NodeJS.ProcessEnv }> {
  return kubectlDemoCluster(t, { simulate: false, store, logs: new FixtureLogs(store), protobuf });
}

/** The reads of core/v1 pods, nodes and events a command made, with its Accept header. */
function coreReads(c: DemoCluster, since: number): Array<{ path: string; accept: string }> {
  return c
    .requests()
    .slice(since)
    .filter((r) => r.method === 'GET' && /^\/api\/v1\/(namespaces\/[^/]+\/)?(pods|nodes|events)\b/.test(r.path))
    .map((r) => ({ path: r.path, accept: r.accept ?? '' }));
}

/**
 * describe's output with each relative age (`3m1s`, `45s`, `2d3h`, `<unknown>`) replaced by one word, and the
 * padding after it and after the Age header collapsed: the column is as wide as its longest age, which moves
 * when an age crosses a width (`59s` → `1m`) between the two outputs.
 */
function withoutAges(text: string): string {
  return text.replace(/(\b\d+[smhdy](\d+[smhd])?\b|<unknown>|<invalid>) */g, 'AGE ').replace(/\bAge +/g, 'Age ');
}

test('kubectl describe pod and node read protobuf and print what they print over JSON', async (t) => {
  // Both servers serve the same objects (one store), so their output can be compared whole.
  const store = new ObjectStore();
  populate(store);
  const on = await clusterWith(t, store, true);
  const off = await clusterWith(t, store, false);
  const commands = [
    ['describe', 'pod', 'trainer-0', '-n', 'team-a'],
    ['describe', 'pod', 'trainer-1', '-n', 'team-a'],
    ['describe', 'node', 'gpu-node-1'],
    ['describe', 'pods', '-n', 'default', '-l', 'app=batch'],
  ];
  for (const args of commands) {
    const before = on.c.requests().length;
    const withProtobuf = await kubectl(on.env, args);
    const reads = coreReads(on.c, before);
    const withJson = await kubectl(off.env, args);
    assert.equal(withProtobuf.code, 0, `${args.join(' ')}: ${withProtobuf.stderr}`);
    assert.equal(withJson.code, 0, `${args.join(' ')}: ${withJson.stderr}`);
    // kubectl describe finds the object in JSON (its resource builder), then
    // reads it again and its events with its typed clients: protobuf first.
    process.stdout.write(`# kubectl ${args.join(' ')}: ${reads.map((r) => `${r.path} [${r.accept}]`).join('; ')}\n`);
    const protobufReads = reads.filter((r) => r.accept.startsWith(PROTOBUF));
    const listing = `${args.join(' ')}: ${JSON.stringify(reads)}`;
    assert.ok(
      protobufReads.some((r) => !r.path.includes('/events')),
      `object read in protobuf: ${listing}`,
    );
    assert.ok(
      protobufReads.some((r) => r.path.includes('/events')),
      `events read in protobuf: ${listing}`,
    );
    // The two commands run a moment apart: an age may have crossed a second ("3m" then "3m1s").
    assert.equal(withoutAges(withProtobuf.stdout), withoutAges(withJson.stdout), args.join(' '));
    assert.match(withProtobuf.stdout, /Events:/);
  }
  // What describe shows from the protobuf answers: a container's state and an event.
  const trainer = await kubectl(on.env, ['describe', 'pod', 'trainer-1', '-n', 'team-a']);
  assert.match(trainer.stdout, /CrashLoopBackOff/);
  const node = await kubectl(on.env, ['describe', 'node', 'gpu-node-1']);
  assert.match(node.stdout, /nvidia\.com\/gpu:\s+8/);
});

test('kubectl get -o json asks for JSON only', async (t) => {
  const store = new ObjectStore();
  populate(store);
  const on = await clusterWith(t, store, true);
  const before = on.c.requests().length;
  const r = await kubectl(on.env, ['get', 'pods', '-n', 'team-a', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const reads = coreReads(on.c, before);
  assert.ok(reads.length >= 1);
  for (const read of reads) assert.ok(!read.accept.includes(PROTOBUF), `${read.path} asked for ${read.accept}`);
  assert.equal((JSON.parse(r.stdout) as { items: unknown[] }).items.length, 3);
});
