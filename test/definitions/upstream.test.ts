// Every upstream definition (both formats) loads and validates unchanged; the
// broken upstream mpijob.yaml is rejected with its file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadDefinitionFile, loadDefinitionPath, type Definition } from '../../src/definitions/index.js';
import { upstreamCatalog } from './helpers.js';

const present = existsSync(upstreamCatalog);
const skip = present ? false : `upstream catalog not found at ${upstreamCatalog}; skipping the compatibility fixtures`;
if (!present) process.stdout.write(`# ${skip}\n`);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return yamlFiles(full);
      return /\.ya?ml$/.test(name) ? [full] : [];
    });
}

const BROKEN = 'run-ai-karta/docs/examples/mpijob.yaml';

test('every upstream definition file loads and validates, except mpijob.yaml', { skip }, () => {
  const files = yamlFiles(upstreamCatalog);
  assert.ok(files.length >= 24, `expected the 24 upstream files, found ${files.length}`);
  for (const file of files) {
    const rel = path.relative(upstreamCatalog, file);
    if (rel === BROKEN) continue;
    const result = loadDefinitionFile(file);
    const errors = result.problems.filter((p) => p.severity === 'error');
    assert.deepEqual(errors, [], `${rel} has errors`);
    assert.equal(result.definitions.length, 1, `${rel} holds one definition`);
    const d = result.definitions[0];
    assert.ok(d.name, `${rel} has a name`);
    assert.ok(d.rootGvk.kind && d.rootGvk.version, `${rel} has a root kind`);
    assert.equal(d.format, rel.startsWith('run-ai-karta/') ? 'ResourceInterface' : 'Karta', `${rel} format`);
    // Warnings are only the missing metadata.name of two older examples.
    for (const w of result.problems) assert.match(w.message, /metadata\.name is missing/, `${rel}: ${w.message}`);
  }
});

test('mpijob.yaml (invalid YAML upstream) is rejected with its file and line, not a crash', { skip }, () => {
  const file = path.join(upstreamCatalog, BROKEN);
  const result = loadDefinitionFile(file);
  assert.equal(result.definitions.length, 0);
  assert.equal(result.problems.length, 1);
  const [problem] = result.problems;
  assert.equal(problem.file, file);
  assert.equal(problem.severity, 'error');
  // Line 25 is `status: "False"          running:` — the first missing line break.
  assert.equal(problem.line, 25);
  assert.match(problem.message, /^invalid YAML: bad indentation/);
});

test('the whole upstream directory loads with exactly one error', { skip }, () => {
  const result = loadDefinitionPath(upstreamCatalog);
  assert.equal(result.problems.filter((p) => p.severity === 'error').length, 1);
  assert.equal(result.definitions.length, result.files.length - 1);
});

function load(rel: string): Definition {
  const result = loadDefinitionFile(path.join(upstreamCatalog, rel));
  assert.equal(result.definitions.length, 1, rel);
  return result.definitions[0];
}

test('upstream definitions normalise their distinctive fields', { skip }, () => {
  const lws = load('dsx-ai-factory-workload-map/docs/catalog/leaderworkerset-x-k8s-io-leaderworkerset-v1.yaml');
  assert.deepEqual(lws.components.map((c) => `${c.name}<${c.ownerRef ?? ''}`), ['leaderworkerset<', 'group<leaderworkerset', 'leader<group', 'worker<group']);
  assert.deepEqual(lws.components[1].podSelector?.replicaSelector, { keyPath: '.metadata.labels["leaderworkerset.sigs.k8s.io/group-index"]' });
  assert.deepEqual(lws.gangs[0].members[0].groupByKeyPaths, [
    '.metadata.labels["leaderworkerset.sigs.k8s.io/name"]',
    '.metadata.labels["leaderworkerset.sigs.k8s.io/group-index"] // "0"',
  ]);

  const milvus = load('dsx-ai-factory-workload-map/docs/catalog/milvus-io-milvus-v1beta1.yaml');
  const proxy = milvus.components.find((c) => c.name === 'pulsar-proxy');
  assert.deepEqual(proxy?.podSelector?.componentTypeSelector, { matchLabels: { app: 'pulsar', component: 'proxy' } });
  // conditionsDefinition without messageFieldName gets the default.
  assert.equal(milvus.root.statusDefinition?.conditionsDefinition?.messageFieldName, 'message');
  assert.equal(milvus.root.statusDefinition?.conditionsDefinition?.reasonFieldName, undefined);

  const sandbox = load('dsx-ai-factory-workload-map/docs/catalog/agents-x-k8s-io-sandbox-v1beta1.yaml');
  assert.deepEqual(sandbox.suspendDefinition?.suspendActions, [{ path: '.spec.operatingMode', value: '"Suspended"' }]);
  assert.deepEqual(Object.keys(sandbox.root.statusDefinition!.statusMappings), ['initializing', 'running', 'suspended', 'suspending', 'resuming']);
  assert.equal(sandbox.components.find((c) => c.name === 'companion')?.specDefinition, undefined);

  const dynamo = load('run-ai-karta/docs/examples/dynamo.yaml');
  assert.equal(dynamo.format, 'ResourceInterface');
  assert.equal(dynamo.components[1].specDefinition?.fragmentedPodSpecDefinition?.containerPath, '.spec.services | .[] | .extraPodSpec.mainContainer');
  assert.equal(dynamo.components[1].instanceIdPath, '.spec.services | to_entries[] | .key');
  assert.equal(dynamo.additionalChildKinds.length, 6);

  const jobset = load('run-ai-karta/docs/examples/jobset.yaml');
  assert.equal(jobset.name, 'jobset-x-k8s-io-jobset-v1alpha2');
});
