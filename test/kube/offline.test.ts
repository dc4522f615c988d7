import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDump, buildOfflineModel } from '../../src/kube/offline.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import { parseLabelSelector } from '../../src/kube/selector.js';

test('dumps: multi-document YAML, kubectl Lists, JSON arrays; junk is reported, not fatal', () => {
  const yaml = [
    'apiVersion: v1',
    'kind: List',
    'items:',
    '- apiVersion: v1',
    '  kind: Pod',
    '  metadata: {name: a, namespace: ns, uid: u1}',
    '- apiVersion: v1',
    '  kind: Node',
    '  metadata: {name: n1, uid: n1}',
    '---',
    'apiVersion: batch/v1',
    'kind: Job',
    'metadata: {name: j, namespace: ns, uid: u2}',
    '---',
    'just a string',
    '---',
    '',
  ].join('\n');
  const d = parseDump(yaml, 'dump.yaml');
  assert.deepEqual(
    d.objects.map((o) => o.kind),
    ['Pod', 'Node', 'Job'],
  );
  assert.equal(d.problems.length, 1);
  assert.match(d.problems[0], /^dump\.yaml#3: not an object/);
  const json = parseDump(
    JSON.stringify({
      kind: 'PodList',
      apiVersion: 'v1',
      items: [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b', uid: 'u3' } }],
    }),
    'x.json',
  );
  assert.deepEqual(
    json.objects.map((o) => (o.metadata as { name: string }).name),
    ['b'],
  );
  assert.throws(() => parseDump('{ not: [valid', 'bad.yaml'), /bad\.yaml: not YAML or JSON/);
});

test("offline model: the dump's Kartas define types (cluster source), -l filters roots only", () => {
  const objects = parseDump(
    JSON.stringify([
      {
        apiVersion: 'run.ai/v1alpha1',
        kind: 'Karta',
        metadata: { name: 'widgets', uid: 'k1' },
        spec: {
          structureDefinition: {
            rootComponent: {
              name: 'widget',
              kind: { group: 'example.com', version: 'v1', kind: 'Widget' },
              statusDefinition: {
                phaseDefinition: { path: '.status.phase' },
                statusMappings: { running: [{ byPhase: 'Up' }] },
              },
            },
          },
        },
      },
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1', namespace: 'ns', uid: 'w1', labels: { team: 'a' } },
      },
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w2', namespace: 'ns', uid: 'w2', labels: { team: 'b' } },
      },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'p1',
          namespace: 'ns',
          uid: 'p1',
          ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w1', uid: 'w1', controller: true }],
        },
        spec: { nodeName: 'n1', containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': '2' } } }] },
        status: { phase: 'Running' },
      },
    ]),
    'dump.json',
  ).objects;
  const model = buildOfflineModel(objects, loadDefinitions({ envPaths: '' }), {
    labelSelector: parseLabelSelector('team=a'),
  });
  const workloads = model.store.workloads();
  assert.deepEqual(
    workloads.map((x) => x.name),
    ['w1'],
  );
  assert.equal(workloads[0].definitionSource, 'cluster');
  assert.equal(workloads[0].gpus.requested, 2);
  assert.equal(model.store.totals().pods, 1);
});

test('dumps: unquoted YAML timestamps read as the same instants as quoted ones (the age is kept)', () => {
  const dump = (ts: (s: string) => string) =>
    [
      'apiVersion: batch/v1',
      'kind: Job',
      `metadata: {name: j, namespace: ns, uid: j1, creationTimestamp: ${ts('2019-03-01T08:00:00Z')}}`,
      'spec: {parallelism: 1}',
      `status: {startTime: ${ts('2019-03-01T08:00:01Z')}}`,
      '---',
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: j-abcde',
      '  namespace: ns',
      '  uid: p1',
      `  creationTimestamp: ${ts('2019-03-01T08:00:02Z')}`,
      '  labels: {day: 2019-03-01}',
      '  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: j, uid: j1, controller: true}]',
      'spec: {containers: [{name: c}]}',
      'status:',
      '  phase: Running',
      `  startTime: ${ts('2019-03-01 08:00:03 +1')}`,
    ].join('\n');
  const plain = parseDump(
    dump((s) => s),
    'plain.yaml',
  );
  const quoted = parseDump(
    dump((s) => `"${s.includes(' ') ? '2019-03-01T07:00:03.000Z' : s}"`),
    'quoted.yaml',
  );
  assert.deepEqual(plain, quoted);
  const pod = plain.objects[1] as { metadata: { labels: Record<string, string> } };
  assert.equal(pod.metadata.labels.day, '2019-03-01');
  const w = buildOfflineModel(plain.objects, loadDefinitions({ includeBuiltin: true, envPaths: '' })).store.workloads();
  assert.equal(w[0].createdAt, '2019-03-01T08:00:00Z');
  assert.equal(w[0].roles[0].pods[0].createdAt, '2019-03-01T08:00:02Z');
});

test('--from: an object at another version of a defined kind falls back to that definition, with one warning', () => {
  // As a 2019 dump has it: kubeflow.org/v1beta1, the v1beta1 operator's labels.
  const pytorchJob = (name: string, uid: string) => [
    'apiVersion: kubeflow.org/v1beta1',
    'kind: PyTorchJob',
    `metadata: {name: ${name}, namespace: kubeflow, uid: ${uid}, creationTimestamp: 2019-06-10T09:12:44Z}`,
    'spec:',
    '  pytorchReplicaSpecs:',
    '    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: gcr.io/kubeflow-ci/pytorch-dist-mnist_test:1.0}]}}}',
    '    Worker: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: gcr.io/kubeflow-ci/pytorch-dist-mnist_test:1.0}]}}}',
    'status:',
    '  conditions:',
    '  - {type: Created, status: "True", reason: PyTorchJobCreated, lastUpdateTime: 2019-06-10T09:12:44Z}',
    '  - {type: Running, status: "True", reason: PyTorchJobRunning, lastUpdateTime: 2019-06-10T09:13:10Z}',
    '---',
    'apiVersion: v1',
    'kind: Pod',
    `metadata: {name: ${name}-master-0, namespace: kubeflow, uid: ${uid}-m0, creationTimestamp: 2019-06-10T09:12:45Z,`,
    '  labels: {group-name: kubeflow.org, pytorch-job-name: ' +
      name +
      ', pytorch-replica-type: master, pytorch-replica-index: "0"},',
    `  ownerReferences: [{apiVersion: kubeflow.org/v1beta1, kind: PyTorchJob, name: ${name}, uid: ${uid}, controller: true}]}`,
    'spec: {nodeName: node-1, containers: [{name: pytorch}]}',
    'status: {phase: Running, conditions: [{type: Ready, status: "True"}]}',
    '---',
  ];
  const dump = [...pytorchJob('pytorch-dist-mnist', 'j1'), ...pytorchJob('pytorch-dist-mnist-2', 'j2')].join('\n');
  const model = buildOfflineModel(
    parseDump(dump, '2019.yaml').objects,
    loadDefinitions({ includeBuiltin: true, envPaths: '' }),
  );
  const workloads = model.store.workloads();
  assert.deepEqual(
    workloads.map((w) => `${w.apiVersion} ${w.kind}/${w.name} ${w.definition} ${w.status.join()}`),
    [
      'kubeflow.org/v1beta1 PyTorchJob/pytorch-dist-mnist kubeflow.org-pytorchjob-v1 Running',
      'kubeflow.org/v1beta1 PyTorchJob/pytorch-dist-mnist-2 kubeflow.org-pytorchjob-v1 Running',
    ],
  );
  assert.equal(workloads[0].createdAt, '2019-06-10T09:12:44Z');
  // Its pods are the workload's (the old operator's labels place them in no role: unattributed, not dropped).
  assert.deepEqual(
    workloads[0].unattributedPods.map((p) => p.name),
    ['pytorch-dist-mnist-master-0'],
  );
  const warnings = model.store.problems().filter((p) => p.includes('v1beta1'));
  assert.deepEqual(warnings, [
    'PyTorchJob kubeflow.org/v1beta1: no definition at this version; read with definition kubeflow.org-pytorchjob-v1 (kubeflow.org/v1)',
  ]);
});
