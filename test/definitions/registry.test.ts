// Sources and precedence: cluster > user files > built-in per root GVK, with
// collisions reported; directories, multi-document files, $WLX_DEFINITIONS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  builtinDefinitionsDir,
  definitionPathsFromEnv,
  guessPlural,
  loadDefinitionPath,
  loadDefinitions,
  loadDefinitionText,
} from '../../src/definitions/index.js';
import { KARTA, RESOURCE_INTERFACE, edit, lineContaining, repoRoot } from './helpers.js';

let dir: string;

/** A minimal valid Karta for `group/version/Kind` named `name`. */
function karta(name: string, group: string, kind: string, child = 'worker'): string {
  return `apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: ${name}
spec:
  structureDefinition:
    rootComponent:
      name: root
      kind: {group: "${group}", version: v1, kind: ${kind}}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          running: [{byPhase: Running}]
    childComponents:
      - name: ${child}
        ownerRef: root
        specDefinition: {podTemplateSpecPath: .spec.template}
`;
}

function write(rel: string, text: string): string {
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wlx-defs-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('a multi-document file: one bad document is reported, the others load', () => {
  const bad = edit(KARTA, 'ownerRef: group', 'ownerRef: nobody');
  const text = `${karta('first', 'a.example', 'A')}---\n${bad}---\n${karta('third', 'c.example', 'C')}`;
  const result = loadDefinitionText(text, 'multi.yaml', 'file');
  assert.deepEqual(result.definitions.map((d) => d.name), ['first', 'third']);
  assert.equal(result.entries.length, 3);
  assert.deepEqual(result.entries.map((e) => e.valid), [true, false, true]);
  const errors = result.problems.filter((p) => p.severity === 'error');
  assert.equal(errors.length, 1);
  assert.equal(errors[0].field, 'spec.structureDefinition.childComponents[1].ownerRef');
  assert.equal(errors[0].line, lineContaining(text, 'ownerRef: nobody'));
  // The third document's source line is counted in the whole file.
  assert.equal(result.definitions[1].source.line, lineContaining(text, 'apiVersion: run.ai/v1alpha1', 3));
});

test('a multi-document file: a YAML syntax error in one document keeps the others', () => {
  const broken = 'apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata:\n  name: [unclosed\n';
  const text = `${karta('first', 'a.example', 'A')}---\n${broken}---\n${karta('third', 'c.example', 'C')}`;
  const result = loadDefinitionText(text, 'multi.yaml', 'file');
  assert.deepEqual(result.definitions.map((d) => d.name), ['first', 'third']);
  const errors = result.problems.filter((p) => p.severity === 'error');
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /^invalid YAML: /);
  const brokenStart = lineContaining(text, 'name: [unclosed');
  assert.ok(errors[0].line! >= brokenStart && errors[0].line! <= brokenStart + 2, `line ${errors[0].line} near ${brokenStart}`);
});

test('JSON files load, with lines', () => {
  const obj = {
    apiVersion: 'run.ai/v1alpha1',
    kind: 'Karta',
    metadata: { name: 'json-one' },
    spec: { structureDefinition: { rootComponent: { name: 'r', kind: { group: 'x.io', version: 'v1', kind: 'X' }, statusDefinition: { statusMappings: {} } }, childComponents: [{ name: 'c', ownerRef: 'zz' }] } },
  };
  const text = JSON.stringify(obj, null, 2);
  const file = write('json/one.json', text);
  const result = loadDefinitionPath(file);
  const problem = result.problems.find((p) => p.field === 'spec.structureDefinition.childComponents[0].ownerRef');
  assert.ok(problem);
  assert.equal(problem.line, lineContaining(text, '"ownerRef": "zz"'));
  writeFileSync(file, text.replace('"zz"', '"r"'));
  assert.deepEqual(loadDefinitionPath(file).definitions.map((d) => d.name), ['json-one']);
});

test('directories load recursively (*.yaml, *.yml, *.json), sorted, other files ignored', () => {
  write('tree/b.yaml', karta('b-def', 'b.example', 'B'));
  write('tree/sub/a.yml', karta('a-def', 'a.example', 'A'));
  write('tree/sub/deeper/c.json', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }));
  write('tree/notes.txt', 'not yaml: [');
  write('tree/.hidden/x.yaml', 'not: [valid');
  const result = loadDefinitionPath(path.join(dir, 'tree'));
  assert.deepEqual(result.definitions.map((d) => d.name), ['b-def', 'a-def']);
  assert.deepEqual(result.files.map((f) => path.relative(dir, f)), ['tree/b.yaml', 'tree/sub/a.yml', 'tree/sub/deeper/c.json']);
  assert.deepEqual(result.problems.map((p) => [path.relative(dir, p.file), p.severity]), [['tree/sub/deeper/c.json', 'warning']]);
});

test('a missing path is an unreadable-path problem, not an exception', () => {
  const missing = path.join(dir, 'nope.yaml');
  const result = loadDefinitionPath(missing);
  assert.deepEqual(result.unreadablePaths, [missing]);
  assert.match(result.problems[0].message, /no such file/);
});

test('precedence per root GVK: cluster > file > builtin, collisions warned naming both', () => {
  const builtinDir = path.join(dir, 'prec-builtin');
  write('prec-builtin/a.yaml', karta('builtin-a', 'a.example', 'A') + '---\n' + karta('builtin-b', 'b.example', 'B'));
  const userFile = write('prec-user/a.yaml', karta('user-a', 'a.example', 'A'));
  const set = loadDefinitions({ builtinDir, userPaths: [userFile], envPaths: '' });
  assert.deepEqual(set.definitions.map((d) => [d.name, d.source.kind]), [
    ['builtin-b', 'builtin'],
    ['user-a', 'file'],
  ]);
  const collision = set.problems.find((p) => p.severity === 'warning' && /overrides/.test(p.message));
  assert.ok(collision);
  assert.equal(collision.file, userFile);
  assert.match(collision.message, /"user-a" for a\.example\/v1\/A overrides "builtin-a" from builtin .*prec-builtin\/a\.yaml:1/);
  assert.equal(set.all.length, 3);
  const shadowed = set.entries.find((e) => e.name === 'builtin-a');
  assert.equal(shadowed?.shadowedBy?.location, userFile);

  const clusterKarta = {
    apiVersion: 'run.ai/v1alpha1',
    kind: 'Karta',
    metadata: { name: 'cluster-a' },
    spec: { structureDefinition: { rootComponent: { name: 'r', kind: { group: 'a.example', version: 'v1', kind: 'A' }, statusDefinition: { statusMappings: {} } } } },
  };
  const withCluster = set.withCluster([clusterKarta]);
  assert.equal(withCluster.byGvk({ group: 'a.example', version: 'v1', kind: 'A' })?.name, 'cluster-a');
  assert.equal(withCluster.byGvk({ group: 'a.example', version: 'v1', kind: 'A' })?.source.location, 'kartas.run.ai/cluster-a');
  assert.ok(withCluster.problems.some((p) => /"cluster-a" for a\.example\/v1\/A overrides "user-a" from file /.test(p.message)));
  // Both shadowed entries point at the definition finally in effect.
  assert.deepEqual(
    withCluster.entries.filter((e) => e.shadowedBy).map((e) => [e.name, e.shadowedBy!.location]),
    [
      ['builtin-a', 'kartas.run.ai/cluster-a'],
      ['user-a', 'kartas.run.ai/cluster-a'],
    ],
  );
  // Hot reload: cluster objects replaced, not accumulated; the original set is unchanged.
  const reloaded = withCluster.withCluster([]);
  assert.equal(reloaded.byGvk({ group: 'a.example', version: 'v1', kind: 'A' })?.name, 'user-a');
  assert.equal(set.byGvk({ group: 'a.example', version: 'v1', kind: 'A' })?.name, 'user-a');
});

test('an invalid cluster Karta does not displace a valid definition', () => {
  const builtinDir = path.join(dir, 'inv-builtin');
  write('inv-builtin/a.yaml', karta('builtin-a', 'a.example', 'A'));
  const set = loadDefinitions({ builtinDir, envPaths: '' }).withCluster([
    { apiVersion: 'run.ai/v1alpha1', kind: 'Karta', metadata: { name: 'broken' }, spec: { structureDefinition: { rootComponent: { name: 'r', kind: { group: 'a.example', version: 'v1', kind: 'A' } } } } },
  ]);
  assert.equal(set.byGvk({ group: 'a.example', version: 'v1', kind: 'A' })?.name, 'builtin-a');
  const broken = set.entries.find((e) => e.name === 'broken');
  assert.equal(broken?.valid, false);
  assert.ok(set.problems.some((p) => p.file === 'kartas.run.ai/broken' && p.field === 'spec.structureDefinition.rootComponent.statusDefinition'));
});

test('within one source kind the later path wins; --definitions beats $WLX_DEFINITIONS', () => {
  const envFile = write('order/env.yaml', karta('from-env', 'a.example', 'A'));
  const envOther = write('order/env-other.yaml', karta('env-other', 'o.example', 'O'));
  const flagFile = write('order/flag.yaml', karta('from-flag', 'a.example', 'A'));
  const set = loadDefinitions({ includeBuiltin: false, envPaths: `${envFile}::${envOther}`, userPaths: [flagFile] });
  assert.deepEqual(set.definitions.map((d) => d.name), ['env-other', 'from-flag']);
  const onlyEnv = loadDefinitions({ includeBuiltin: false, envPaths: `${envFile}:${envOther}` });
  assert.deepEqual(onlyEnv.definitions.map((d) => d.name), ['env-other', 'from-env']);
});

test('$WLX_DEFINITIONS is read from the environment when not given', () => {
  const file = write('envvar/x.yaml', karta('from-env-var', 'e.example', 'E'));
  const saved = process.env.WLX_DEFINITIONS;
  process.env.WLX_DEFINITIONS = `${path.join(dir, 'missing-dir')}:${file}`;
  try {
    const set = loadDefinitions({ includeBuiltin: false });
    assert.deepEqual(set.definitions.map((d) => d.name), ['from-env-var']);
    assert.deepEqual(set.unreadablePaths, [path.join(dir, 'missing-dir')]);
  } finally {
    if (saved === undefined) delete process.env.WLX_DEFINITIONS;
    else process.env.WLX_DEFINITIONS = saved;
  }
  assert.deepEqual(definitionPathsFromEnv('a::b:'), ['a', 'b']);
  assert.deepEqual(definitionPathsFromEnv(undefined), []);
});

test('byKind accepts kind, plural, qualified plural, name and group/version/Kind, case-insensitively', () => {
  const file = write('bykind/defs.yaml', karta('jobset-x-k8s-io-jobset-v1', 'jobset.x-k8s.io', 'JobSet') + '---\n' + karta('policies', 'p.example', 'Policy'));
  const set = loadDefinitions({ includeBuiltin: false, envPaths: '', userPaths: [file] });
  for (const q of ['jobset', 'JobSet', 'JOBSETS', 'jobsets.jobset.x-k8s.io', 'jobset.jobset.x-k8s.io', 'jobsets.v1.jobset.x-k8s.io', 'jobset.x-k8s.io/v1/JobSet', 'jobset-x-k8s-io-jobset-v1']) {
    assert.equal(set.byKind(q)?.name, 'jobset-x-k8s-io-jobset-v1', q);
  }
  assert.equal(set.byKind('policies')?.rootGvk.kind, 'Policy');
  assert.equal(set.byKind('jobsets.other.io'), undefined);
  assert.equal(set.byKind(''), undefined);
  assert.equal(set.forObject('jobset.x-k8s.io/v1', 'JobSet')?.name, 'jobset-x-k8s-io-jobset-v1');
  assert.equal(set.forObject('jobset.x-k8s.io/v2', 'JobSet'), undefined);
  assert.deepEqual(['Pod', 'Policy', 'Ingress', 'Mesh', 'Key'].map(guessPlural), ['pods', 'policies', 'ingresses', 'meshes', 'keys']);
});

test('the built-in catalog is found relative to the package', () => {
  assert.equal(path.resolve(builtinDefinitionsDir()), path.join(repoRoot, 'definitions'));
});

test('a definition in the older format and one in the current format collide on the same kind', () => {
  const a = write('formats/karta.yaml', KARTA);
  const b = write('formats/ri.yaml', RESOURCE_INTERFACE);
  const set = loadDefinitions({ includeBuiltin: false, envPaths: '', userPaths: [a, b] });
  assert.equal(set.definitions.length, 1);
  assert.equal(set.definitions[0].format, 'ResourceInterface');
  assert.equal(set.problems.filter((p) => /overrides/.test(p.message)).length, 1);
});

test('an unreadable file is reported', { skip: process.getuid?.() === 0 ? 'running as root: permissions do not apply' : false }, () => {
  const file = write('perm/x.yaml', karta('x', 'x.example', 'X'));
  chmodSync(file, 0o000);
  try {
    const result = loadDefinitionPath(file);
    assert.deepEqual(result.unreadablePaths, [file]);
    assert.match(result.problems[0].message, /permission denied/);
  } finally {
    chmodSync(file, 0o644);
  }
});
