import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/model/types.js';
import {
  claimDevices,
  claimSpecRequests,
  deviceClassMatcher,
  draCapacity,
  draGpuResources,
  isGpuDeviceClass,
  podClaimRefs,
  podDraClaims,
  sliceFacts,
  type DraLookup,
} from '../../src/model/dra.js';

const meta = (name: string, namespace?: string) => ({ name, uid: `uid-${name}`, ...(namespace ? { namespace } : {}) });

/** resource.k8s.io/v1: the request's class and count under `exactly`. */
function claimV1(name: string, count: number, allocated: string[] | null, reservedFor: string[] = []): KubeObject {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: meta(name, 'ml'),
    spec: {
      devices: {
        requests: [
          { name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count } },
        ],
      },
    },
    status: allocated
      ? {
          allocation: {
            devices: {
              results: allocated.map((device) => ({
                request: 'gpus',
                driver: 'gpu.nvidia.com',
                pool: 'node-a',
                device,
              })),
            },
          },
          reservedFor: reservedFor.map((p) => ({ resource: 'pods', name: p, uid: `uid-${p}` })),
        }
      : {},
  };
}

/** resource.k8s.io/v1beta1: class and count on the request itself. */
function claimV1beta1(name: string, count: number, allocated: string[] | null): KubeObject {
  return {
    apiVersion: 'resource.k8s.io/v1beta1',
    kind: 'ResourceClaim',
    metadata: meta(name, 'ml'),
    spec: { devices: { requests: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count }] } },
    status: allocated
      ? {
          allocation: {
            devices: {
              results: allocated.map((device) => ({
                request: 'gpu',
                driver: 'gpu.nvidia.com',
                pool: 'node-b',
                device,
              })),
            },
          },
        }
      : {},
  };
}

function pod(
  name: string,
  claims: { name: string; claim?: string; template?: string }[],
  generated: Record<string, string> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(name, 'ml'),
    spec: {
      containers: [{ name: 'main', resources: { claims: claims.map((c) => ({ name: c.name })) } }],
      resourceClaims: claims.map((c) =>
        c.claim
          ? { name: c.name, resourceClaimName: c.claim }
          : { name: c.name, resourceClaimTemplateName: c.template },
      ),
    },
    status: {
      resourceClaimStatuses: Object.entries(generated).map(([n, claim]) => ({ name: n, resourceClaimName: claim })),
    },
  };
}

function lookupOf(objects: KubeObject[]): DraLookup {
  return (kind, namespace, name) =>
    objects.find((o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name);
}

test('requests of v1, v1beta1 and firstAvailable claims', () => {
  assert.deepEqual(claimSpecRequests(claimV1('c', 2, null).spec), [
    { name: 'gpus', deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 2 },
  ]);
  assert.deepEqual(claimSpecRequests(claimV1beta1('c', 4, null).spec), [
    { name: 'gpu', deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 4 },
  ]);
  assert.deepEqual(
    claimSpecRequests({
      devices: {
        requests: [
          {
            name: 'accel',
            firstAvailable: [
              { name: 'big', deviceClassName: 'gpu.nvidia.com', count: 1 },
              { name: 'small', deviceClassName: 'mig.nvidia.com', count: 2 },
            ],
          },
          { name: 'all', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'All' } },
          { name: '' },
        ],
      },
    }),
    [
      { name: 'accel/big', deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 1 },
      { name: 'all', deviceClassName: 'gpu.nvidia.com', allocationMode: 'All', count: 1 },
    ],
  );
  assert.deepEqual(claimSpecRequests(undefined), []);
});

test('allocated devices name their class through the request, firstAvailable sub-requests included', () => {
  const claim: KubeObject = {
    metadata: meta('c', 'ml'),
    spec: {
      devices: {
        requests: [
          {
            name: 'accel',
            firstAvailable: [
              { name: 'big', deviceClassName: 'gpu.nvidia.com' },
              { name: 'small', deviceClassName: 'mig.nvidia.com' },
            ],
          },
        ],
      },
    },
    status: {
      allocation: {
        devices: {
          results: [
            { request: 'accel/small', driver: 'gpu.nvidia.com', pool: 'n', device: 'gpu-0-mig-9', shareID: 'abc' },
          ],
        },
      },
    },
  };
  assert.deepEqual(claimDevices(claim), [
    {
      request: 'accel/small',
      driver: 'gpu.nvidia.com',
      pool: 'n',
      device: 'gpu-0-mig-9',
      shareId: 'abc',
      deviceClassName: 'mig.nvidia.com',
    },
  ]);
  assert.equal(claimDevices(claimV1('c', 1, null)), null, 'not allocated');
});

test('pod claim references: by name, and generated from a template (name in the pod status)', () => {
  assert.deepEqual(
    podClaimRefs(
      pod(
        'p',
        [
          { name: 'a', claim: 'shared' },
          { name: 'b', template: 'tpl' },
          { name: 'c', template: 'tpl' },
        ],
        { b: 'p-b-x7k2p' },
      ),
    ),
    [
      { podClaim: 'a', claimName: 'shared', template: null },
      { podClaim: 'b', claimName: 'p-b-x7k2p', template: 'tpl' },
      { podClaim: 'c', claimName: null, template: 'tpl' },
    ],
  );
});

test('v1: a claim shared by two pods counts once for their group; each pod shows it', () => {
  const shared = claimV1('shared-gpus', 2, ['gpu-0', 'gpu-1'], ['p1', 'p2']);
  const lookup = lookupOf([shared]);
  const c1 = podDraClaims(pod('p1', [{ name: 'g', claim: 'shared-gpus' }]), lookup);
  const c2 = podDraClaims(pod('p2', [{ name: 'g', claim: 'shared-gpus' }]), lookup);
  assert.equal(c1[0].state, 'allocated');
  assert.deepEqual(c1[0].resources, { 'dra:gpu.nvidia.com': 2 });
  assert.deepEqual(
    c1[0].devices.map((d) => `${d.driver}/${d.pool}/${d.device}`),
    ['gpu.nvidia.com/node-a/gpu-0', 'gpu.nvidia.com/node-a/gpu-1'],
  );
  assert.deepEqual(draGpuResources([...c1, ...c2]), { 'dra:gpu.nvidia.com': 2 });
});

test('v1: a pending claim counts by its request; a claim not created yet by its template, else nothing', () => {
  const template: KubeObject = {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaimTemplate',
    metadata: meta('tpl', 'ml'),
    spec: {
      spec: { devices: { requests: [{ name: 'g', exactly: { deviceClassName: 'gpu.nvidia.com', count: 3 } }] } },
    },
  };
  const lookup = lookupOf([claimV1('waiting', 4, null), template]);
  const [pending] = podDraClaims(pod('p', [{ name: 'g', claim: 'waiting' }]), lookup);
  assert.equal(pending.state, 'pending');
  assert.deepEqual(pending.resources, { 'dra:gpu.nvidia.com': 4 });
  assert.deepEqual(pending.devices, []);
  const [fromTemplate] = podDraClaims(pod('q', [{ name: 'g', template: 'tpl' }]), lookup);
  assert.equal(fromTemplate.state, 'missing');
  assert.deepEqual(fromTemplate.resources, { 'dra:gpu.nvidia.com': 3 });
  const [unknown] = podDraClaims(pod('r', [{ name: 'g', claim: 'not-there' }]), lookup);
  assert.equal(unknown.state, 'missing');
  assert.equal(unknown.claim, 'ml/not-there');
  assert.deepEqual(unknown.resources, {});
});

test('v1beta1: shared and pending claims the same way', () => {
  const lookup = lookupOf([claimV1beta1('b-shared', 1, ['gpu-3']), claimV1beta1('b-pending', 2, null)]);
  const p1 = podDraClaims(pod('p1', [{ name: 'x', claim: 'b-shared' }]), lookup);
  const p2 = podDraClaims(
    pod('p2', [
      { name: 'x', claim: 'b-shared' },
      { name: 'y', claim: 'b-pending' },
    ]),
    lookup,
  );
  assert.deepEqual(p1[0].resources, { 'dra:gpu.nvidia.com': 1 });
  assert.equal(p2[1].state, 'pending');
  assert.deepEqual(draGpuResources([...p1, ...p2]), { 'dra:gpu.nvidia.com': 3 }, '1 shared once + 2 requested');
});

test('claims of non-GPU classes are not GPUs', () => {
  const nic: KubeObject = {
    kind: 'ResourceClaim',
    metadata: meta('nic', 'ml'),
    spec: { devices: { requests: [{ name: 'n', exactly: { deviceClassName: 'rdma.example.com' } }] } },
    status: {
      allocation: { devices: { results: [{ request: 'n', driver: 'rdma.example.com', pool: 'p', device: 'mlx5_0' }] } },
    },
  };
  const [c] = podDraClaims(pod('p', [{ name: 'n', claim: 'nic' }]), lookupOf([nic]));
  assert.deepEqual(c.resources, {});
  assert.deepEqual(c.devices, []);
  assert.equal(isGpuDeviceClass('gpu.nvidia.com'), true);
  assert.equal(isGpuDeviceClass('mig.nvidia.com'), true);
  assert.equal(isGpuDeviceClass('gpu.amd.com'), true);
  assert.equal(isGpuDeviceClass('rdma.example.com'), false);
  assert.equal(isGpuDeviceClass('gpumemory.example.com'), false);
});

const gpuClass: KubeObject = {
  kind: 'DeviceClass',
  metadata: meta('gpu.nvidia.com'),
  spec: {
    selectors: [
      { cel: { expression: "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'" } },
    ],
  },
};
const migClass: KubeObject = {
  kind: 'DeviceClass',
  metadata: meta('mig.nvidia.com'),
  spec: {
    selectors: [
      {
        cel: {
          expression: 'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"]["type"] == "mig"',
        },
      },
    ],
  },
};

function slice(
  version: 'v1' | 'v1beta1',
  node: string | null,
  generation: number,
  devices: { name: string; type: string }[],
): KubeObject {
  return {
    apiVersion: `resource.k8s.io/${version}`,
    kind: 'ResourceSlice',
    metadata: meta(`${node ?? 'shared'}-gpu.nvidia.com-${generation}`),
    spec: {
      driver: 'gpu.nvidia.com',
      pool: { name: node ?? 'fabric', generation, resourceSliceCount: 1 },
      ...(node ? { nodeName: node } : { allNodes: true }),
      devices: devices.map((d) => {
        const body = {
          attributes: {
            type: { string: d.type },
            index: { int: 0 },
            'gpu.nvidia.com/productName': { string: 'NVIDIA H100 80GB HBM3' },
          },
          capacity: { memory: { value: '80Gi' } },
        };
        return version === 'v1beta1' ? { name: d.name, basic: body } : { name: d.name, ...body };
      }),
    },
  };
}

test('ResourceSlices (v1 and v1beta1): devices with qualified attributes and capacity', () => {
  for (const v of ['v1', 'v1beta1'] as const) {
    const f = sliceFacts(slice(v, 'node-a', 1, [{ name: 'gpu-0', type: 'gpu' }]));
    assert.equal(f.node, 'node-a');
    assert.deepEqual(f.devices[0].attributes, {
      'gpu.nvidia.com/type': 'gpu',
      'gpu.nvidia.com/index': 0,
      'gpu.nvidia.com/productName': 'NVIDIA H100 80GB HBM3',
    });
    assert.equal(f.devices[0].capacity.memory, 80 * 1024 ** 3);
  }
});

test('node capacity per device class; newest pool generation only; a class CEL cannot be read counts by driver', () => {
  const slices = [
    slice('v1', 'node-a', 1, [{ name: 'old-0', type: 'gpu' }]),
    slice('v1', 'node-a', 2, [
      { name: 'gpu-0', type: 'gpu' },
      { name: 'gpu-1', type: 'gpu' },
      { name: 'gpu-2-mig-1', type: 'mig' },
    ]),
    slice('v1beta1', 'node-b', 1, [{ name: 'gpu-0', type: 'gpu' }]),
    slice('v1', null, 1, [{ name: 'remote-0', type: 'gpu' }]),
  ];
  const cap = draCapacity(slices, [migClass, gpuClass]);
  assert.deepEqual(cap.byNode.get('node-a'), { 'dra:gpu.nvidia.com': 2, 'dra:mig.nvidia.com': 1 });
  assert.deepEqual(cap.byNode.get('node-b'), { 'dra:gpu.nvidia.com': 1 });
  assert.deepEqual(cap.shared, { 'dra:gpu.nvidia.com': 1 });
  const opaque: KubeObject = {
    kind: 'DeviceClass',
    metadata: meta('gpu.example.com'),
    spec: {
      selectors: [{ cel: { expression: "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) >= 0" } }],
    },
  };
  assert.equal(deviceClassMatcher(opaque), null);
  assert.deepEqual(draCapacity([slices[1]], [opaque]).byNode.get('node-a'), { 'dra:gpu.nvidia.com': 3 });
});
