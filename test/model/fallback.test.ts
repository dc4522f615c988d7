// Definitions whose expressions are outside the native jq subset run on
// jq-wasm; the store batches those evaluations (one jq run per expression per
// flush) instead of one slow call per pod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterStore } from '../../src/model/cluster-store.js';
import { workloadTree } from './workload-tree.js';
import { compile, wasmStats } from '../../src/jq/index.js';
import { definition, object, pod, gpuTemplate } from './fixtures.js';

const GVK = { group: 'x.io', version: 'v1', kind: 'Slow' };
// `as $x` bindings are outside the native subset.
const ROLE = '.metadata.labels as $l | $l.role';

function slowDefinition() {
  return definition(
    'slow',
    GVK,
    {
      name: 'slow',
      statusDefinition: {
        statusMappings: {
          running: [{ byExpression: { expression: '.status as $s | $s.ok', expectedResult: 'true' } }],
        },
      },
    },
    [
      {
        name: 'a',
        ownerRef: 'slow',
        specDefinition: { podTemplateSpecPath: '.spec.t' },
        scaleDefinition: { replicasPath: '.spec.n as $n | $n' },
        podSelector: { componentTypeSelector: { keyPath: ROLE, value: 'a' } },
      },
      { name: 'b', ownerRef: 'slow', podSelector: { componentTypeSelector: { keyPath: ROLE, value: 'b' } } },
    ],
  );
}

test('the expressions are really non-native', () => {
  assert.equal(compile(ROLE).native, false);
});

test('store: 300 pods placed by a jq-wasm key path with a handful of jq runs', () => {
  const store = new ClusterStore({ definitions: [slowDefinition()] });
  const w = object('x.io/v1', 'Slow', 'w', { spec: { n: 200, t: gpuTemplate(1) }, status: { ok: true } });
  store.apply('workload', 'ADDED', w);
  for (let i = 0; i < 300; i++)
    store.apply(
      'pod',
      'ADDED',
      pod(`p-${i}`, { owner: w, node: 'n', gpus: 1, labels: { role: i < 200 ? 'a' : i < 290 ? 'b' : 'c' } }),
    );
  const before = wasmStats.calls;
  const t0 = performance.now();
  store.flush();
  const ms = performance.now() - t0;
  const calls = wasmStats.calls - before;
  const t = store.workloads()[0];
  assert.deepEqual(t.status, ['Running']);
  assert.deepEqual(
    t.roles.map((r) => [r.component, r.replicas.desired, r.replicas.current]),
    [
      ['a', 200, 200],
      ['b', 1, 90],
    ],
  );
  assert.equal(t.unattributedPods.length, 10);
  assert.deepEqual(t.errors, []);
  // Two components share one key path: at most a few runs, not one per pod and component.
  assert.ok(calls <= 6, `${calls} jq-wasm calls`);
  process.stdout.write(`# fallback: 300 pods placed with ${calls} jq-wasm calls in ${ms.toFixed(0)} ms\n`);
});

test('workloadTree batches too; runtime errors of batched expressions are reported per pod', () => {
  const def = slowDefinition();
  def.components[2].podSelector = { componentTypeSelector: { keyPath: '.metadata.labels as $l | $l.role | tonumber' } };
  const w = object('x.io/v1', 'Slow', 'w', { spec: { n: 1, t: gpuTemplate(1) }, status: { ok: false } });
  const pods = [
    pod('x-1', { owner: w, node: 'n', labels: { role: 'a' } }),
    pod('x-2', { owner: w, node: 'n', labels: { role: 'zz' } }),
  ];
  const t = workloadTree({ definition: def, workload: w, pods, owners: [] });
  assert.deepEqual(t.status, ['Undefined']);
  assert.deepEqual(
    t.roles[0].pods.map((p) => p.name),
    ['x-1'],
  );
  assert.deepEqual(
    t.unattributedPods.map((p) => p.name),
    ['x-2'],
  );
  assert.equal(t.errors.length, 1);
  assert.match(
    t.errors[0],
    /component b: podSelector\.componentTypeSelector\.keyPath `\.metadata\.labels as \$l \| \$l\.role \| tonumber`: pod x-2: .*zz/,
  );
});
