// The protobuf decoders give exactly what trim.ts gives for the same object
// read as JSON: for pods and nodes of the simulated cluster encoded from the
// official field numbers (demo/server/protobuf-encode.ts), for a hand-checked
// byte fixture, with unknown fields skipped and truncated input rejected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore } from '../../demo/object-store.js';
import { startSimulation } from '../../demo/sim/index.js';
import {
  encodeEnvelopedObject,
  encodeList,
  encodeObject,
  encodeWatchFrame,
} from '../../demo/server/protobuf-encode.js';
import { decoderFor } from '../../src/kube/protobuf/core-v1.js';
import type { Json } from '../../src/kube/protobuf/fields.js';
import {
  decodeList,
  decodeWatchEvent,
  objectNameInProtobuf,
  peekListContinue,
  readEnvelope,
  WatchFrameSplitter,
} from '../../src/kube/protobuf/envelope.js';
import { ProtobufError, WireReader } from '../../src/kube/protobuf/wire.js';
import { Trimmer, withTypeMeta } from '../../src/kube/trim.js';
import { realisticPod } from './pod-fixture.js';

const decodePod = decoderFor('v1', 'Pod')!;
const decodeNode = decoderFor('v1', 'Node')!;
const decodeEvent = decoderFor('v1', 'Event')!;

function viaJson(kind: 'pod' | 'node', obj: unknown): unknown {
  return new Trimmer().for(kind)(withTypeMeta(JSON.parse(JSON.stringify(obj)), 'v1', kind === 'pod' ? 'Pod' : 'Node'));
}

function viaProtobuf(kind: 'pod' | 'node', obj: Json): unknown {
  const Kind = kind === 'pod' ? 'Pod' : 'Node';
  const bytes = encodeObject(Kind, obj);
  const decoded = (kind === 'pod' ? decodePod : decodeNode)(new WireReader(bytes));
  return new Trimmer().for(kind)(withTypeMeta(decoded, 'v1', Kind));
}

/** Every field trim.ts keeps of a pod, set (JSON as kube-apiserver writes it). */
function fullPod(): Json {
  const pod = realisticPod(7) as Json & { metadata: Json; spec: Json; status: Json };
  pod.metadata.generation = 3;
  pod.metadata.deletionTimestamp = '2026-12-01T11:00:00Z';
  pod.spec.overhead = { cpu: '250m', memory: '120Mi' };
  pod.spec.resources = { limits: { cpu: '64' }, requests: { cpu: '33' } };
  pod.spec.nodeSelector = { 'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3' };
  pod.spec.tolerations = [
    { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'dedicated', operator: 'Equal', value: 'training', effect: 'NoSchedule', tolerationSeconds: 0 },
  ];
  pod.spec.resourceClaims = [
    { name: 'gpus', resourceClaimTemplateName: 'gpu-template' },
    { name: 'shared', resourceClaimName: 'shared-claim' },
  ];
  const containers = pod.spec.containers as Json[];
  containers[0].resources = {
    limits: { 'nvidia.com/gpu': '8', memory: '512Gi' },
    requests: { cpu: '31500m', memory: '512Gi', 'nvidia.com/gpu': '8' },
    claims: [{ name: 'gpus' }, { name: 'shared', request: 'one' }],
  };
  (pod.spec.initContainers as Json[])[0].restartPolicy = 'Always';
  pod.status.phase = 'Running';
  pod.status.reason = 'Evicted';
  pod.status.message = 'The node was low on resource: memory. ' + 'm'.repeat(400);
  pod.status.nominatedNodeName = 'gpu-node-009';
  pod.status.resourceClaimStatuses = [{ name: 'gpus', resourceClaimName: 'pod-gpus-x1' }];
  pod.status.conditions = [
    {
      type: 'Ready',
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [main]',
      lastProbeTime: null,
      lastTransitionTime: '2026-12-01T10:05:00Z',
    },
    { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: null },
  ];
  pod.status.containerStatuses = [
    {
      name: 'main',
      ready: false,
      started: false,
      restartCount: 4,
      image: 'nvcr.io/nvidia/pytorch:24.05-py3',
      imageID: '',
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } },
      lastState: {
        terminated: {
          exitCode: -1,
          signal: 9,
          reason: 'OOMKilled',
          message: 'x'.repeat(300),
          startedAt: '2026-12-01T10:01:00Z',
          finishedAt: '2026-12-01T10:04:59Z',
          containerID: 'containerd://abc',
        },
      },
    },
    {
      name: 'sidecar',
      ready: true,
      started: true,
      restartCount: 0,
      image: 'busybox',
      imageID: '',
      state: { running: { startedAt: '2026-12-01T10:00:09Z' } },
      lastState: {},
    },
    { name: 'never', ready: false, restartCount: 0, image: 'x', imageID: '', state: { waiting: {} }, lastState: {} },
  ];
  return pod;
}

function fullNode(): Json {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'gpu-node-001',
      uid: 'node-uid-1',
      resourceVersion: '42',
      creationTimestamp: '2026-11-30T00:00:00Z',
      labels: { 'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3', 'kubernetes.io/hostname': 'gpu-node-001' },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: {
      podCIDR: '10.244.0.0/24',
      providerID: 'aws:///us-east-1a/i-0123',
      unschedulable: true,
      taints: [
        { key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2026-12-01T09:00:00Z' },
      ],
    },
    status: {
      capacity: { cpu: '192', memory: '2097152000Ki', 'nvidia.com/gpu': '8', pods: '110' },
      allocatable: { cpu: '191450m', memory: '2085520384Ki', 'nvidia.com/gpu': '8', pods: '110' },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          lastHeartbeatTime: '2026-12-01T10:00:00Z',
          lastTransitionTime: '2026-11-30T00:01:00Z',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
        },
      ],
      addresses: [
        { type: 'InternalIP', address: '10.0.0.4' },
        { type: 'Hostname', address: 'gpu-node-001' },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: 'm',
        systemUUID: 's',
        bootID: 'b',
        kernelVersion: '6.8.0-1015-aws',
        osImage: 'Ubuntu 22.04.5 LTS',
        containerRuntimeVersion: 'containerd://1.7.22',
        kubeletVersion: 'v1.32.0',
        kubeProxyVersion: 'v1.32.0',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images: [{ names: ['nvcr.io/nvidia/pytorch:24.05-py3'], sizeBytes: 20_000_000_000 }],
    },
  };
}

test('every field trim.ts keeps of a pod decodes to what the JSON path keeps', () => {
  const pod = fullPod();
  const expected = viaJson('pod', pod) as Json & { spec: Json; status: Json; metadata: Json };
  assert.deepStrictEqual(viaProtobuf('pod', pod), expected);
  // The fixture does set what it claims to (the comparison above is not of empty objects).
  for (const k of ['overhead', 'resources', 'nodeSelector', 'tolerations', 'resourceClaims', 'initContainers'])
    assert.ok(expected.spec[k], `spec.${k}`);
  for (const k of ['reason', 'message', 'nominatedNodeName', 'resourceClaimStatuses', 'startTime', 'hostIP', 'podIP'])
    assert.ok(expected.status[k], `status.${k}`);
  for (const k of ['generation', 'deletionTimestamp', 'labels', 'annotations', 'ownerReferences'])
    assert.ok(expected.metadata[k], `metadata.${k}`);
  const statuses = expected.status.containerStatuses as Json[];
  assert.deepEqual((statuses[0].lastState as Json).terminated, {
    exitCode: -1,
    signal: 9,
    reason: 'OOMKilled',
    message: `${'x'.repeat(256)}... (44 more characters)`,
    startedAt: '2026-12-01T10:01:00Z',
    finishedAt: '2026-12-01T10:04:59Z',
  });
  assert.equal((expected.status.conditions as Json[])[1].lastTransitionTime, null);
  assert.equal((expected.spec.tolerations as Json[])[2].tolerationSeconds, 0);
});

test('every field trim.ts keeps of a node decodes to what the JSON path keeps', () => {
  const node = fullNode();
  const expected = viaJson('node', node) as Json & { spec: Json; status: Json };
  assert.deepStrictEqual(viaProtobuf('node', node), expected);
  assert.equal(expected.spec.unschedulable, true);
  assert.equal((expected.spec.taints as Json[])[1].timeAdded, '2026-12-01T09:00:00Z');
  assert.equal((expected.status.nodeInfo as Json).kubeletVersion, 'v1.32.0');
  assert.equal((expected.status.allocatable as Json).cpu, '191450m');
});

test('the simulated cluster: every pod and node reads the same through protobuf as through JSON', async () => {
  // The default scenario after a few simulated minutes (pending, crashing,
  // completed and DRA pods) and the scale scenario's settled pods.
  let pods = 0;
  let nodes = 0;
  for (const scenario of ['default', 'scale'] as const) {
    const store = new ObjectStore();
    const sim = startSimulation(store, { scenario, seed: 11, speed: 60, nodes: 30, workloads: 12, podsPerWorkload: 6 });
    if (scenario === 'default') await new Promise((r) => setTimeout(r, 1500));
    for (const p of store.list('/v1/pods')) {
      assert.deepStrictEqual(viaProtobuf('pod', p), viaJson('pod', p), p.metadata.name);
      pods++;
    }
    for (const n of store.list('/v1/nodes')) {
      assert.deepStrictEqual(viaProtobuf('node', n), viaJson('node', n), n.metadata.name);
      nodes++;
    }
    sim.stop();
  }
  assert.ok(pods > 100 && nodes > 20, `${pods} pods, ${nodes} nodes`);
});

test('events decode to the fields views and kubectl describe read', () => {
  const event: Json = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: 'p.17f',
      namespace: 'training',
      uid: 'e-1',
      resourceVersion: '9',
      creationTimestamp: '2026-12-01T10:00:00Z',
    },
    involvedObject: {
      kind: 'Pod',
      namespace: 'training',
      name: 'p',
      uid: 'u-p',
      apiVersion: 'v1',
      resourceVersion: '8',
      fieldPath: 'spec.containers{main}',
    },
    reason: 'FailedScheduling',
    message: '0/14 nodes are available: 14 Insufficient nvidia.com/gpu.',
    source: { component: 'default-scheduler' },
    firstTimestamp: '2026-12-01T10:00:00Z',
    lastTimestamp: '2026-12-01T10:05:00Z',
    count: 6,
    type: 'Warning',
    eventTime: '2026-12-01T10:00:00.123456Z',
    series: { count: 2, lastObservedTime: '2026-12-01T10:05:00.000001Z' },
    action: 'Scheduling',
    reportingComponent: 'default-scheduler',
    reportingInstance: 'default-scheduler-node-1',
  };
  const decoded = decodeEvent(new WireReader(encodeObject('Event', event)));
  const { apiVersion: _a, kind: _k, ...rest } = event;
  assert.deepStrictEqual(decoded, rest);
  // An event without eventTime (kubelet's): JSON has null, and so does the decoder.
  const old = decodeEvent(new WireReader(encodeObject('Event', { ...event, eventTime: null, series: undefined })));
  assert.equal(old.eventTime, null);
});

// A Pod written byte by byte from generated.proto (checked by hand), with
// fields wlx does not read, unknown field numbers of every wire type, and
// empty non-pointer strings as gogo-protobuf writes them.
const HAND_POD = Buffer.from(
  [
    '0a 26', //                                1 metadata (ObjectMeta), 38 bytes
    '0a 01 70', //                               1 name "p"
    '1a 02 6e 73', //                            3 namespace "ns"
    '2a 01 75', //                               5 uid "u"
    '32 02 31 30', //                            6 resourceVersion "10"
    '42 06 08 80 e2 cf aa 06', //                8 creationTimestamp {1 seconds: 1700000000}
    '5a 06 0a 01 61 12 01 62', //                11 labels entry {1 key "a", 2 value "b"}
    '7a 03 66 69 6e', //                         15 (not read by wlx) "fin"
    'a0 06 07', //                               100 (unknown number) varint 7
    '12 25', //                                2 spec (PodSpec), 37 bytes
    '12 11', //                                  2 containers, 17 bytes
    '0a 01 63', //                                 1 name "c"
    '42 0c 0a 0a 0a 03 63 70 75 12 03 0a 01 31', // 8 resources {1 limits entry {key "cpu", value Quantity {1 "1"}}}
    '52 00', //                                  10 nodeName "" (omitempty in JSON: left out)
    '99 06 01 02 03 04 05 06 07 08', //          99 (unknown) fixed64
    '95 06 01 02 03 04', //                      98 (unknown) fixed32
    '1a 1a', //                                3 status (PodStatus), 26 bytes
    '0a 07 52 75 6e 6e 69 6e 67', //             1 phase "Running"
    '22 00', //                                  4 reason "" (omitempty: left out)
    '12 0d', //                                  2 conditions, 13 bytes
    '0a 05 52 65 61 64 79', //                     1 type "Ready"
    '12 00', //                                    2 status "" (not omitempty: kept)
    '1a 00', //                                    3 lastProbeTime, zero (not read)
    '22 00', //                                    4 lastTransitionTime, zero: null
  ]
    .join(' ')
    .replace(/\s+/g, ''),
  'hex',
);

test('a hand-checked byte fixture: skipped fields, zero values, empty times', () => {
  const decoded = decodePod(new WireReader(HAND_POD));
  assert.deepStrictEqual(decoded, {
    metadata: {
      name: 'p',
      namespace: 'ns',
      uid: 'u',
      resourceVersion: '10',
      creationTimestamp: '2023-11-14T22:13:20Z',
      labels: { a: 'b' },
    },
    spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: '', lastTransitionTime: null }] },
  });
  // The demo's encoder writes the same bytes for what it can express (it writes no unknown fields).
  const own = encodeObject('Pod', {
    metadata: decoded.metadata,
    spec: decoded.spec,
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: '', lastTransitionTime: null }] },
  });
  assert.equal(
    own.toString('hex'),
    '0a1e0a01701a026e732a01753202313042060880e2cfaa065a060a0161120162' +
      '1213' +
      '1211' +
      '0a0163' +
      '420c0a0a0a0363707512030a0131' +
      '1a16' +
      '0a0752756e6e696e67' +
      '120b' +
      '0a05526561647912002200',
  );
});

test('truncated or malformed input is rejected with the message and the byte offset', () => {
  const pod = fullPod();
  const list = encodeList('v1', 'Pod', { resourceVersion: '5', continue: 'abc' }, [pod, pod]);
  // Every cut inside the envelope's declared raw bytes is an error naming where, never a shorter list.
  const rawEnd = list.length - 4;
  for (let cut = 4; cut < rawEnd; cut += 7) {
    assert.throws(
      () => decodeList(list.subarray(0, cut), decodePod, () => undefined),
      (err: unknown) =>
        err instanceof ProtobufError &&
        /^(runtime\.\w+|meta\/v1 \w+|core\/v1 \w+|PodList): .*( at byte \d+| in \d+ bytes)$/.test(err.message),
      `cut at ${cut}`,
    );
  }
  assert.throws(() => readEnvelope(Buffer.from('{"kind":"PodList"}')), /no "k8s\\0" prefix/);
  // A field with a wire type that is not the one of its number.
  assert.throws(
    () => decodePod(new WireReader(Buffer.from('0801', 'hex'))),
    /meta\/v1 ObjectMeta: field 1 has wire type 0, expected length-delimited at byte 1/,
  );
  // Wire types 3 and 4 (groups) are not used by Kubernetes.
  assert.throws(() => decodePod(new WireReader(Buffer.from('9b06', 'hex'))), /unsupported wire type 3/);
  // A varint that never ends.
  assert.throws(
    () => new WireReader(Buffer.from('ffffffffffffffffffffff', 'hex')).varint('x'),
    /varint longer than 10 bytes/,
  );
});

test('lists: ListMeta, the continue token before the items, items handed over one by one', () => {
  const a = realisticPod(1);
  const b = realisticPod(2);
  const page = encodeList('v1', 'Pod', { resourceVersion: '77', continue: 'next-page', remainingItemCount: 3 }, [a, b]);
  assert.equal(peekListContinue(page), 'next-page');
  const names: string[] = [];
  const list = decodeList(page, decodePod, (o) => names.push((o.metadata as Json).name as string));
  assert.deepEqual(list.metadata, { resourceVersion: '77', continue: 'next-page', remainingItemCount: 3 });
  assert.equal(list.kind, 'PodList');
  assert.deepEqual(names, [(a.metadata as Json).name, (b.metadata as Json).name]);
  assert.equal(peekListContinue(encodeList('v1', 'Pod', { resourceVersion: '77' }, [a])), '');
});

test('invalid UTF-8 becomes U+FFFD and is counted for the report', () => {
  const pod = realisticPod(1) as Json & { metadata: Json };
  const bytes = encodeObject('Pod', pod);
  // Replace the first byte of the namespace "training" with 0xff.
  const at = bytes.indexOf(Buffer.from('training'));
  bytes[at] = 0xff;
  const r = new WireReader(bytes);
  const decoded = decodePod(r);
  assert.equal((decoded.metadata as Json).namespace, '\uFFFDraining');
  assert.equal(r.invalidUtf8, 1);
  // A real U+FFFD in the text is not a problem.
  const fine = new WireReader(encodeObject('Pod', { ...pod, metadata: { ...pod.metadata, namespace: 'a\uFFFDb' } }));
  decodePod(fine);
  assert.equal(fine.invalidUtf8, 0);
});

test('watch frames: split across any chunking, events decoded, ERROR as a Status, oversize frames skipped by name', () => {
  const pod = realisticPod(3) as Json & { metadata: Json };
  const frames = Buffer.concat([
    encodeWatchFrame('ADDED', 'v1', 'Pod', pod),
    encodeWatchFrame('BOOKMARK', 'v1', 'Pod', { metadata: { resourceVersion: '99' } }),
    encodeWatchFrame('ERROR', 'v1', 'Status', {
      status: 'Failure',
      message: 'too old resource version: 1 (2)',
      reason: 'Expired',
      code: 410,
    }),
  ]);
  for (const chunk of [1, 3, 64, frames.length]) {
    const splitter = new WatchFrameSplitter(1 << 20, 1024, () => assert.fail('nothing is over the bound'));
    const got: Buffer[] = [];
    for (let i = 0; i < frames.length; i += chunk) got.push(...splitter.push(frames.subarray(i, i + chunk)));
    assert.equal(got.length, 3, `chunks of ${chunk}`);
    assert.equal(splitter.leftover, 0);
    const [added, bookmark, error] = got.map((f) => decodeWatchEvent(f, decodePod));
    assert.equal(added.type, 'ADDED');
    assert.equal(added.kind, 'Pod');
    assert.equal((added.object.metadata as Json).name, pod.metadata.name);
    assert.deepEqual(bookmark.object, { metadata: { resourceVersion: '99' } });
    assert.deepEqual(error.object, {
      status: 'Failure',
      message: 'too old resource version: 1 (2)',
      reason: 'Expired',
      code: 410,
    });
  }
  // A frame over the bound is skipped, named from its first bytes, and the next one still read.
  const big = { ...pod, metadata: { ...pod.metadata, annotations: { blob: 'z'.repeat(50_000) } } };
  const stream = Buffer.concat([
    encodeWatchFrame('MODIFIED', 'v1', 'Pod', big),
    encodeWatchFrame('ADDED', 'v1', 'Pod', pod),
  ]);
  const skipped: string[] = [];
  const splitter = new WatchFrameSplitter(20_000, 1024, (head, length) =>
    skipped.push(`${objectNameInProtobuf(head, true)} ${length > 50_000}`),
  );
  const got: Buffer[] = [];
  for (let i = 0; i < stream.length; i += 4096) got.push(...splitter.push(stream.subarray(i, i + 4096)));
  assert.deepEqual(skipped, [`training/${pod.metadata.name as string} true`]);
  assert.equal(got.length, 1);
  assert.equal(decodeWatchEvent(got[0], decodePod).type, 'ADDED');
  // An envelope's name too (a list item or a GET).
  assert.equal(
    objectNameInProtobuf(encodeEnvelopedObject('v1', 'Pod', pod).subarray(0, 200), false),
    `training/${pod.metadata.name as string}`,
  );
});
