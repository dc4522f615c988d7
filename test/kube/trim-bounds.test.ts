// What wlx keeps of an object is bounded whatever the server sends: each bound
// cuts, reports the kind and namespace/name, and never throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_LIST, Trimmer } from '../../src/kube/trim.js';
import { MAX_DEPTH, MAX_WHOLE_STRING, trimWhole } from '../../src/kube/trim-bounds.js';
import { realisticPod } from './pod-fixture.js';

function collect(): { reports: string[]; report: (m: string) => void } {
  const reports: string[] = [];
  return { reports, report: (m) => reports.push(m) };
}

function tfjob(extra: Record<string, unknown> = {}, annotations: Record<string, string> = {}): Record<string, unknown> {
  return {
    apiVersion: 'kubeflow.org/v1',
    kind: 'TFJob',
    metadata: { name: 'resnet', namespace: 'research', uid: 'u1', annotations },
    spec: { tfReplicaSpecs: { Worker: { replicas: 2 } } },
    ...extra,
  };
}

test('a 5 MB annotation on a workload root is cut to the bound and reported', () => {
  const { reports, report } = collect();
  const kept = trimWhole(tfjob({}, { blob: 'x'.repeat(5 * 1024 * 1024), small: 'kept' }), report);
  const blob = kept.metadata.annotations!.blob;
  assert.ok(blob.length < MAX_WHOLE_STRING + 100, `kept ${blob.length} characters`);
  assert.equal(kept.metadata.annotations!.small, 'kept');
  assert.deepEqual((kept.spec as { tfReplicaSpecs: unknown }).tfReplicaSpecs, { Worker: { replicas: 2 } });
  assert.equal(reports.length, 1);
  assert.match(reports[0], /^TFJob research\/resnet: 1 strings longer than 65,536 characters cut/);
});

test('nesting deeper than the bound is dropped without overflowing the stack', () => {
  const { reports, report } = collect();
  let deep: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < 200_000; i++) deep = { d: deep };
  const kept = trimWhole(tfjob({ spec: deep }), report);
  let depth = 1; // the object itself
  for (let v: unknown = kept.spec; v && typeof v === 'object'; v = (v as { d: unknown }).d) depth++;
  assert.ok(depth <= MAX_DEPTH, `kept ${depth} levels`);
  assert.doesNotThrow(() => JSON.stringify(kept));
  assert.match(reports[0], /^TFJob research\/resnet: 1 values nested deeper than 64 levels dropped/);
});

test('numbers JSON cannot carry (1e999 parses as Infinity) become null and are reported', () => {
  const { reports, report } = collect();
  const raw = JSON.parse(
    '{"kind":"TFJob","metadata":{"name":"n","namespace":"ns"},"spec":{"a":1e999,"b":-1e999,"c":5}}',
  );
  const kept = trimWhole(raw, report);
  assert.deepEqual(kept.spec, { a: null, b: null, c: 5 });
  assert.match(reports[0], /^TFJob ns\/n: 2 numbers out of range dropped/);
});

test('a pod with 10,000 containers keeps the first ones, within a bounded size, and is reported', () => {
  const { reports, report } = collect();
  const raw = realisticPod(1) as { spec: { containers: unknown[] }; status: { containerStatuses: unknown[] } };
  const container = raw.spec.containers[0];
  const status = raw.status.containerStatuses[0];
  raw.spec.containers = Array.from({ length: 10_000 }, (_, i) => ({ ...(container as object), name: `c${i}` }));
  raw.status.containerStatuses = Array.from({ length: 10_000 }, (_, i) => ({ ...(status as object), name: `c${i}` }));
  const pod = new Trimmer().for('pod', report)(raw);
  assert.equal((pod.spec as { containers: unknown[] }).containers.length, MAX_LIST);
  assert.equal((pod.status as { containerStatuses: unknown[] }).containerStatuses.length, MAX_LIST);
  assert.ok(JSON.stringify(pod).length < 200_000, `kept ${JSON.stringify(pod).length} bytes`);
  assert.equal(reports.length, 1);
  assert.match(
    reports[0],
    /^Pod training\/\S+: 9744 containers beyond 256 dropped; 9744 containerStatuses beyond 256 dropped/,
  );
});

test('label values longer than Kubernetes allows are dropped and reported; pods within bounds report nothing', () => {
  const { reports, report } = collect();
  const trim = new Trimmer().for('owner', report);
  const kept = trim({
    kind: 'Job',
    metadata: { name: 'j', namespace: 'ns', uid: 'u', labels: { ok: 'v', huge: 'y'.repeat(100_000) } },
  });
  assert.deepEqual(kept.metadata.labels, { ok: 'v' });
  assert.match(reports[0], /^Job ns\/j: label huge of 100,000 characters dropped/);
  new Trimmer().for('pod', report)(realisticPod(2));
  assert.equal(reports.length, 1);
});

test('two trimmers share nothing: each engine has its own interning tables', () => {
  const a = new Trimmer();
  const b = new Trimmer();
  const value = () => [{ key: 'nvidia.com/gpu', operator: 'Exists' }];
  assert.equal(a.share(value()), a.share(value()), 'one trimmer shares equal values');
  assert.notEqual(a.share(value()), b.share(value()), 'another trimmer has its own');
  const podA = a.for('pod')(realisticPod(1));
  const podB = b.for('pod')(realisticPod(1));
  assert.notEqual(podA.spec!.containers, podB.spec!.containers);
  assert.equal(a.for('pod')(realisticPod(1)).spec!.containers, podA.spec!.containers);
});
