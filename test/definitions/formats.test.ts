// Both upstream formats normalise into the one model; every field is carried.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadDefinitionText, normaliseDefinitionObject, type Definition } from '../../src/definitions/index.js';
import { KARTA, RESOURCE_INTERFACE } from './helpers.js';

function only(text: string, name = 'x.yaml'): Definition {
  const result = loadDefinitionText(text, name, 'file');
  assert.deepEqual(result.problems.filter((p) => p.severity === 'error'), []);
  assert.equal(result.definitions.length, 1);
  return result.definitions[0];
}

test('a Karta and an equivalent ResourceInterface normalise to the same model', () => {
  const karta = only(KARTA, 'karta.yaml');
  const ri = only(RESOURCE_INTERFACE, 'ri.yaml');
  assert.equal(karta.format, 'Karta');
  assert.equal(ri.format, 'ResourceInterface');
  const strip = (d: Definition) => ({ ...d, format: undefined, source: undefined });
  assert.deepEqual(strip(ri), strip(karta));
});

test('the normalised model has the fields as written, defaults filled in', () => {
  const d = only(KARTA);
  assert.equal(d.name, 'example-com-trainjob-v1');
  assert.deepEqual(d.rootGvk, { group: 'example.com', version: 'v1', kind: 'TrainJob' });
  assert.deepEqual(d.source, { kind: 'file', location: 'x.yaml', line: 2 });
  assert.deepEqual(
    d.components.map((c) => [c.name, c.ownerRef, c.isRoot]),
    [
      ['trainjob', undefined, true],
      ['group', 'trainjob', false],
      ['worker', 'group', false],
    ],
  );
  assert.equal(d.root, d.components[0]);
  assert.deepEqual(d.root.statusDefinition, {
    conditionsDefinition: { path: '.status.conditions', typeFieldName: 'type', statusFieldName: 'status', messageFieldName: 'message' },
    phaseDefinition: { path: '.status.phase' },
    statusMappings: {
      running: [{ byConditions: [{ type: 'Running', status: 'True' }] }, { byPhase: 'Active' }],
      failed: [{ byExpression: { expression: '(.status.failed // 0) > 0', expectedResult: 'true' } }],
    },
  });
  const group = d.components[1];
  assert.equal(group.instanceIdPath, '.spec.groups[].name');
  assert.deepEqual(group.scaleDefinition, { replicasPath: '.spec.groups[].replicas' });
  assert.deepEqual(group.podSelector, { componentInstanceSelector: { idPath: '.metadata.labels["example.com/group"]' } });
  const worker = d.components[2];
  assert.deepEqual(worker.kind, { group: '', version: 'v1', kind: 'Pod' });
  assert.deepEqual(worker.specDefinition, { podTemplateSpecPath: '.spec.groups[].template' });
  assert.deepEqual(worker.podSelector, { componentTypeSelector: { keyPath: '.metadata.labels["example.com/role"]', value: 'worker' } });
  assert.deepEqual(d.gangs, [
    {
      name: 'job',
      members: [{ componentName: 'worker', groupByKeyPaths: ['.metadata.labels["example.com/job"]'], filters: ['(.spec.containers | length) > 0'] }],
    },
  ]);
  assert.deepEqual(d.additionalChildKinds, []);
  assert.equal(d.suspendDefinition, undefined);
});

const FULL_KARTA = `apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: full
spec:
  structureDefinition:
    rootComponent:
      name: root
      kind: {group: example.com, version: v1, kind: Thing}
      statusDefinition:
        conditionsDefinition:
          path: .status.conditions
          typeFieldName: kind
          statusFieldName: state
          messageFieldName: text
          reasonFieldName: why
        statusMappings:
          initializing: [{byPhase: Pending}]
          running: [{byPhase: Running}]
          completed: [{byPhase: Done}]
          failed: [{byConditions: [{type: Failed, status: "True", reason: Crash}]}]
          degraded: [{byConditions: [{type: Degraded}]}]
          suspended: [{byExpression: {expression: .spec.suspend, expectedResult: "true"}}]
          suspending: [{byPhase: Suspending, byExpression: {expression: .spec.suspend, expectedResult: "true"}}]
          resuming: [{}]
      suspendDefinition:
        suspendActions: [{path: .spec.suspend, value: "true"}]
        resumeActions: [{path: .spec.suspend, value: "false"}, {path: .spec.mode, value: '"Running"'}]
    childComponents:
      - name: services
        ownerRef: root
        specDefinition:
          fragmentedPodSpecDefinition:
            schedulerNamePath: .a
            labelsPath: .b
            annotationsPath: .c
            resourcesPath: .d
            resourceClaimsPath: .e
            podAffinityPath: .f
            nodeAffinityPath: .g
            containersPath: .h
            containerPath: .i
            priorityClassNamePath: .j
            imagePath: .k
        scaleDefinition:
          replicasPath: .spec.services[].replicas
          minReplicasPath: .spec.services[].min
          maxReplicasPath: .spec.services[].max
        instanceIdPath: .spec.services | to_entries[] | .key
        podSelector:
          componentInstanceSelector: {idPath: '.metadata.labels["svc"]'}
          replicaSelector: {keyPath: '.metadata.labels["replica"]'}
      - name: sidecar
        ownerRef: services
        specDefinition:
          podSpecPath: .spec.sidecar.spec
          metadataPath: .spec.sidecar.metadata
        podSelector:
          componentTypeSelector:
            keyPath: .metadata.labels.role
            value: sidecar
            matchLabels: {app: thing}
    additionalChildKinds:
      - {group: "", version: v1, kind: Service}
      - {group: apps, version: v1, kind: Deployment}
  optimizationInstructions:
    gangScheduling:
      podGroup:
        name: all
        topology: {topologyName: t, requiredTopologyLevel: rack, preferredTopologyLevel: host}
        subGroups:
          - componentName: services
            topology: {topologyName: t, requiredTopologyLevel: host, preferredTopologyLevel: host}
          - componentName: sidecar
`;

test('every Karta field is read: all statuses, suspend, fragmented spec, selectors, podGroup gangs', () => {
  const d = only(FULL_KARTA);
  const status = d.root.statusDefinition!;
  assert.deepEqual(status.conditionsDefinition, {
    path: '.status.conditions',
    typeFieldName: 'kind',
    statusFieldName: 'state',
    messageFieldName: 'text',
    reasonFieldName: 'why',
  });
  assert.deepEqual(Object.keys(status.statusMappings), [
    'initializing',
    'running',
    'completed',
    'failed',
    'degraded',
    'suspended',
    'suspending',
    'resuming',
  ]);
  assert.deepEqual(status.statusMappings.failed, [{ byConditions: [{ type: 'Failed', status: 'True', reason: 'Crash' }] }]);
  assert.deepEqual(status.statusMappings.degraded, [{ byConditions: [{ type: 'Degraded' }] }]);
  assert.deepEqual(status.statusMappings.suspending, [{ byPhase: 'Suspending', byExpression: { expression: '.spec.suspend', expectedResult: 'true' } }]);
  assert.deepEqual(status.statusMappings.resuming, [{}]);
  assert.deepEqual(d.suspendDefinition, {
    suspendActions: [{ path: '.spec.suspend', value: 'true' }],
    resumeActions: [
      { path: '.spec.suspend', value: 'false' },
      { path: '.spec.mode', value: '"Running"' },
    ],
  });
  assert.deepEqual(d.root.suspendDefinition, d.suspendDefinition);
  const services = d.components[1];
  assert.deepEqual(Object.values(services.specDefinition!.fragmentedPodSpecDefinition!), ['.a', '.b', '.c', '.d', '.e', '.f', '.g', '.h', '.i', '.j', '.k']);
  assert.deepEqual(services.scaleDefinition, {
    replicasPath: '.spec.services[].replicas',
    minReplicasPath: '.spec.services[].min',
    maxReplicasPath: '.spec.services[].max',
  });
  assert.deepEqual(services.podSelector, {
    componentInstanceSelector: { idPath: '.metadata.labels["svc"]' },
    replicaSelector: { keyPath: '.metadata.labels["replica"]' },
  });
  const sidecar = d.components[2];
  assert.deepEqual(sidecar.specDefinition, { podSpecPath: '.spec.sidecar.spec', metadataPath: '.spec.sidecar.metadata' });
  assert.deepEqual(sidecar.podSelector?.componentTypeSelector, { keyPath: '.metadata.labels.role', value: 'sidecar', matchLabels: { app: 'thing' } });
  assert.deepEqual(d.additionalChildKinds, [
    { group: '', version: 'v1', kind: 'Service' },
    { group: 'apps', version: 'v1', kind: 'Deployment' },
  ]);
  assert.deepEqual(d.gangs, [
    {
      name: 'all',
      topology: { topologyName: 't', requiredTopologyLevel: 'rack', preferredTopologyLevel: 'host' },
      members: [
        {
          componentName: 'services',
          groupByKeyPaths: [],
          filters: [],
          topology: { topologyName: 't', requiredTopologyLevel: 'host', preferredTopologyLevel: 'host' },
        },
        { componentName: 'sidecar', groupByKeyPaths: [], filters: [] },
      ],
    },
  ]);
});

test('podGroup subGroups must name components too', () => {
  const text = FULL_KARTA.replace('- componentName: sidecar', '- componentName: nope');
  const result = loadDefinitionText(text, 'x.yaml', 'file');
  assert.equal(result.definitions.length, 0);
  const p = result.problems.find((q) => q.field === 'spec.optimizationInstructions.gangScheduling.podGroup.subGroups[1].componentName');
  assert.ok(p && /"nope" is not a component/.test(p.message), JSON.stringify(result.problems));
});

test('a suspend action value must be JSON', () => {
  const text = FULL_KARTA.replace(`value: '"Running"'`, 'value: Running');
  const result = loadDefinitionText(text, 'x.yaml', 'file');
  assert.equal(result.definitions.length, 0);
  assert.ok(result.problems.some((p) => p.field === 'spec.structureDefinition.rootComponent.suspendDefinition.resumeActions[1].value' && /JSON-encoded/.test(p.message)));
});

test('a plain object (a cluster Karta) normalises without line information', () => {
  const obj = {
    apiVersion: 'run.ai/v1alpha1',
    kind: 'Karta',
    metadata: { name: 'pods', uid: 'u1', resourceVersion: '7' },
    spec: {
      structureDefinition: {
        rootComponent: { name: 'pod', kind: { group: '', version: 'v1', kind: 'Pod' }, statusDefinition: { statusMappings: { running: [{ byPhase: 'Running' }] }, phaseDefinition: { path: '.status.phase' } } },
        childComponents: [{ name: 'c', ownerRef: 'nobody' }],
      },
    },
  };
  const source = { kind: 'cluster' as const, location: 'kartas.run.ai/pods' };
  const bad = normaliseDefinitionObject(obj, source);
  assert.equal(bad.definition, undefined);
  assert.deepEqual(bad.problems, [
    {
      file: 'kartas.run.ai/pods',
      field: 'spec.structureDefinition.childComponents[0].ownerRef',
      message: 'ownerRef "nobody" names no component (known: pod, c)',
      severity: 'error',
    },
  ]);
  obj.spec.structureDefinition.childComponents[0].ownerRef = 'pod';
  const good = normaliseDefinitionObject(obj, source);
  assert.equal(good.definition?.name, 'pods');
  assert.deepEqual(good.definition?.source, source);
});

test('documents of other kinds are skipped with a warning; unsupported versions are errors', () => {
  const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\napiVersion: run.ai/v1beta9\nkind: Karta\nmetadata: {name: y}\n`;
  const result = loadDefinitionText(text, 'mixed.yaml', 'file');
  assert.equal(result.definitions.length, 0);
  assert.deepEqual(
    result.problems.map((p) => [p.line, p.severity, p.field, p.message]),
    [
      [1, 'warning', undefined, 'not a Workload Map definition (v1 ConfigMap); skipped'],
      [5, 'error', 'apiVersion', 'unsupported apiVersion "run.ai/v1beta9" for Karta'],
    ],
  );
});
