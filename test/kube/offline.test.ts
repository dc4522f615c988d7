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
