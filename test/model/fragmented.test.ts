// Fragmented pod specs: containersPath, containerPath and resourcesPath of one
// component describe one pod together; its GPU request combines them, each
// container counted once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fragmentedGpuRequest } from '../../src/model/gpu.js';
import { workloadTree } from './workload-tree.js';
import type { FragmentedPodSpecDefinition, Gvk } from '../../src/definitions/types.js';
import { definition, object, pod } from './fixtures.js';

const gpus = (n: number, field: 'requests' | 'limits' = 'limits') => ({ [field]: { 'nvidia.com/gpu': n } });
const container = (name: string | undefined, n: number) => ({
  ...(name ? { name } : {}),
  image: 'x',
  resources: gpus(n),
});

test('fragments: the listed containers plus the main container', () => {
  assert.equal(
    fragmentedGpuRequest({ containers: [container('a', 1), container('b', 2)], container: container('main', 4) }),
    7,
  );
  assert.equal(fragmentedGpuRequest({ containers: null, container: container('main', 4) }), 4);
  assert.equal(fragmentedGpuRequest({ containers: [container('a', 1)] }), 1);
  // A single container where a list is expected is a list of one.
  assert.equal(fragmentedGpuRequest({ containers: container('a', 3) }), 3);
  assert.equal(fragmentedGpuRequest({}), 0);
});

test('fragments: the main container named in the list is that container, not a second one', () => {
  const listed = [container('kserve-container', 2), container('sidecar', 0)];
  assert.equal(fragmentedGpuRequest({ containers: listed, container: container('kserve-container', 2) }), 2);
  // The main container's own spec is the one counted.
  assert.equal(fragmentedGpuRequest({ containers: listed, container: container('kserve-container', 3) }), 3);
  // Unnamed: nothing says they are the same, so both count.
  assert.equal(fragmentedGpuRequest({ containers: [container(undefined, 2)], container: container(undefined, 1) }), 3);
});

test("fragments: resourcesPath is the main container's resources block, never a second request", () => {
  // With containerPath: the block replaces the container's value for the resources it names.
  assert.equal(fragmentedGpuRequest({ container: container('main', 1), resources: gpus(4) }), 4);
  assert.equal(fragmentedGpuRequest({ container: container('main', 2), resources: { requests: { cpu: '4' } } }), 2);
  // The block's own request beats its limit; an explicit 0 turns the container's GPUs off.
  assert.equal(
    fragmentedGpuRequest({
      container: container('main', 2),
      resources: { requests: { 'nvidia.com/gpu': 1 }, limits: { 'nvidia.com/gpu': 8 } },
    }),
    1,
  );
  assert.equal(fragmentedGpuRequest({ container: container('main', 2), resources: gpus(0) }), 0);
  // Without containerPath the main container is the first listed one; the others add up.
  assert.equal(
    fragmentedGpuRequest({ containers: [container('main', 1), container('helper', 1)], resources: gpus(2) }),
    3,
  );
  // Without any container the block stands for the main container alone.
  assert.equal(fragmentedGpuRequest({ resources: gpus(2, 'requests') }), 2);
  assert.equal(fragmentedGpuRequest({ resources: null }), 0);
  // Every listed GPU resource is combined on its own.
  assert.equal(
    fragmentedGpuRequest(
      {
        container: { name: 'main', resources: { limits: { 'amd.com/gpu': 2, 'nvidia.com/gpu': 1 } } },
        resources: gpus(4),
      },
      ['nvidia.com/gpu', 'amd.com/gpu'],
    ),
    6,
  );
});

// A KServe-like InferenceService: the predictor's extra containers (containersPath)
// beside the model server container (containerPath), as upstream's definition says.
const ISVC: Gvk = { group: 'serving.kserve.io', version: 'v1beta1', kind: 'InferenceService' };
function isvcDefinition(fragments: FragmentedPodSpecDefinition) {
  return definition('isvc', ISVC, { name: 'inferenceservice' }, [
    {
      name: 'predictor',
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      ownerRef: 'inferenceservice',
      specDefinition: { fragmentedPodSpecDefinition: fragments },
      scaleDefinition: { minReplicasPath: '.spec.predictor.minReplicas' },
      podSelector: { componentTypeSelector: { keyPath: '.metadata.labels["component"]', value: 'predictor' } },
    },
  ]);
}
const UPSTREAM_FRAGMENTS: FragmentedPodSpecDefinition = {
  containersPath: '.spec.predictor.containers',
  containerPath: '.spec.predictor | ( (.[]?  | select(type =="object" and .storageUri )))',
};

function isvc(predictor: Record<string, unknown>) {
  return object('serving.kserve.io/v1beta1', 'InferenceService', 'llama', { namespace: 'ml', spec: { predictor } });
}

test('a component with containersPath and containerPath: desired GPUs count both', () => {
  const w = isvc({
    minReplicas: 2,
    model: { modelFormat: { name: 'huggingface' }, storageUri: 'hf://meta-llama/Llama-3-8B', resources: gpus(2) },
    containers: [container('guard', 1), container('logger', 0)],
  });
  const pods = [0, 1].map((i) =>
    pod(`llama-predictor-${i}`, { owner: w, node: `node-${i}`, gpus: 3, labels: { component: 'predictor' } }),
  );
  const t = workloadTree({ definition: isvcDefinition(UPSTREAM_FRAGMENTS), workload: w, pods, owners: [] });
  assert.deepEqual(t.errors, []);
  const predictor = t.roles.find((r) => r.component === 'predictor')!;
  // (2 model + 1 guard) × 2 replicas; before, only the containers list counted (1 × 2).
  assert.deepEqual(predictor.gpus, { desired: 6, requested: 6, allocated: 6 });
  assert.deepEqual(t.gpus, { desired: 6, requested: 6, allocated: 6 });
  // Only the model container given (no extra containers): its GPUs alone.
  const modelOnly = workloadTree({
    definition: isvcDefinition(UPSTREAM_FRAGMENTS),
    workload: isvc({ minReplicas: 1, model: { storageUri: 's3://m', resources: gpus(2) } }),
    pods: [],
    owners: [],
  });
  assert.equal(modelOnly.gpus.desired, 2);
  assert.deepEqual(modelOnly.errors, []);
});

test("all three paths: the resources block is the main container's, not counted twice", () => {
  const fragments: FragmentedPodSpecDefinition = {
    ...UPSTREAM_FRAGMENTS,
    resourcesPath: '.spec.predictor.model.resources',
  };
  const w = isvc({
    minReplicas: 1,
    model: { storageUri: 's3://m', resources: gpus(2) },
    containers: [container('guard', 1)],
  });
  const t = workloadTree({ definition: isvcDefinition(fragments), workload: w, pods: [], owners: [] });
  assert.equal(t.gpus.desired, 3);
  assert.deepEqual(t.errors, []);
});

test('fragments per instance are matched by position; a path that fails does not hide the others', () => {
  const GVK: Gvk = { group: 'nvidia.com', version: 'v1alpha1', kind: 'Graph' };
  const def = definition('graph', GVK, { name: 'graph' }, [
    {
      name: 'service',
      kind: GVK,
      ownerRef: 'graph',
      instanceIdPath: '.spec.services | to_entries[] | .key',
      specDefinition: {
        fragmentedPodSpecDefinition: {
          resourcesPath: '.spec.services | to_entries[] | .value.resources',
          containerPath: '.spec.services | to_entries[] | .value.mainContainer',
        },
      },
      scaleDefinition: { replicasPath: '.spec.services | to_entries[] | .value.replicas' },
      podSelector: { componentInstanceSelector: { idPath: '.metadata.labels["service"]' } },
    },
  ]);
  const services = {
    frontend: { replicas: 1, mainContainer: { name: 'main', image: 'f' } },
    decode: {
      replicas: 2,
      resources: gpus(2, 'requests'),
      mainContainer: { name: 'main', image: 'd', resources: gpus(1) },
    },
    prefill: { replicas: 3, resources: null, mainContainer: { name: 'main', image: 'p', resources: gpus(1) } },
  };
  const w = object('nvidia.com/v1alpha1', 'Graph', 'g', { namespace: 'ml', spec: { services } });
  const t = workloadTree({ definition: def, workload: w, pods: [], owners: [] });
  assert.deepEqual(t.errors, []);
  assert.deepEqual(
    t.roles.map((r) => [r.instance, r.replicas.desired, r.gpus.desired]),
    [
      ['frontend', 1, 0],
      ['decode', 2, 4],
      ['prefill', 3, 3],
    ],
  );
  assert.equal(t.gpus.desired, 7);
  // A failing resourcesPath is reported; the containers' own requests still count.
  const broken = definition('graph', GVK, { name: 'graph' }, [
    {
      ...def.components[1],
      specDefinition: {
        fragmentedPodSpecDefinition: {
          resourcesPath: '.spec.services | to_entries[] | .value.resources | error("boom")',
          containerPath: '.spec.services | to_entries[] | .value.mainContainer',
        },
      },
    },
  ]);
  const b = workloadTree({ definition: broken, workload: w, pods: [], owners: [] });
  assert.equal(b.gpus.desired, 1 * 2 + 1 * 3);
  assert.equal(b.errors.length, 1);
  assert.match(b.errors[0], /resourcesPath/);
});
