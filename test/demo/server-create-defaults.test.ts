// Creates as kube-apiserver answers them: a pod POSTed without a status gets
// one (Pending) that the simulation's scheduler can work on, and a body over the
// server's limit is refused with 413 RequestEntityTooLarge, not a 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoCluster } from '../../demo/index.js';

interface PodLike {
  status?: { phase?: string; conditions?: Array<{ type: string; status: string; reason?: string }> };
}

test('demo: a pod created without a status is Pending and gets scheduled or marked unschedulable', async (t) => {
  const cluster = await startDemoCluster({ allowWrites: true, speed: 20 });
  t.after(() => cluster.stop());
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'bare', namespace: 'default' },
    spec: {
      containers: [{ name: 'c', image: 'busybox', resources: { requests: { 'nvidia.com/gpu': '100' } } }],
    },
  };
  const created = await fetch(`${cluster.server}/api/v1/namespaces/default/pods`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(pod),
  });
  assert.equal(created.status, 201, await created.clone().text());
  assert.equal(((await created.json()) as PodLike).status?.phase, 'Pending');
  // 100 GPUs fit nowhere: the scheduler must say so instead of throwing on the missing status.
  const deadline = Date.now() + 20_000;
  let scheduled: { type: string; status: string; reason?: string } | undefined;
  while (!scheduled && Date.now() < deadline) {
    const got = (await (await fetch(`${cluster.server}/api/v1/namespaces/default/pods/bare`)).json()) as PodLike;
    scheduled = got.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (!scheduled) await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(scheduled && { status: scheduled.status, reason: scheduled.reason }, {
    status: 'False',
    reason: 'Unschedulable',
  });
});

test('demo: a request body over the limit is answered 413 RequestEntityTooLarge', async (t) => {
  const cluster = await startDemoCluster({ allowWrites: true, simulate: false });
  t.after(() => cluster.stop());
  const big = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'big', namespace: 'default', annotations: { blob: 'x'.repeat(5 * 1024 * 1024) } },
  };
  const res = await fetch(`${cluster.server}/api/v1/namespaces/default/pods`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(big),
  });
  assert.equal(res.status, 413);
  const status = (await res.json()) as { kind: string; reason: string; code: number; message: string };
  assert.equal(status.kind, 'Status');
  assert.equal(status.reason, 'RequestEntityTooLarge');
  assert.match(status.message, /^Request entity too large: limit is \d+$/);
});
