// `wlx definitions` as a user runs it: a real process, real files, exit codes
// and output lines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const wlx = path.join(repoRoot, 'bin/wlx.js');
const upstreamCatalog = path.resolve(repoRoot, '../shared/upstream-catalog');

let dir: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [wlx, ...args], {
      cwd: dir,
      env: { ...process.env, WLX_DEFINITIONS: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const GOOD = `apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: example-io-widget-v1
spec:
  structureDefinition:
    rootComponent:
      name: widget
      kind: {group: example.io, version: v1, kind: Widget}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          running: [{byPhase: Running}]
          failed: [{byPhase: Failed}]
    childComponents:
      - name: worker
        ownerRef: widget
        specDefinition:
          podTemplateSpecPath: .spec.template
        scaleDefinition:
          replicasPath: .spec.replicas // 1
        podSelector:
          componentTypeSelector:
            keyPath: .metadata.labels["example.io/role"]
            value: worker
`;

const BAD = GOOD.replace('ownerRef: widget', 'ownerRef: gadget').replace(
  'name: example-io-widget-v1',
  'name: bad-widget',
);

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wlx-defs-cli-'));
  writeFileSync(path.join(dir, 'good.yaml'), GOOD);
  writeFileSync(path.join(dir, 'bad.yaml'), BAD);
  mkdirSync(path.join(dir, 'set'));
  writeFileSync(path.join(dir, 'set', 'one.yaml'), GOOD);
  writeFileSync(
    path.join(dir, 'set', 'two.yml'),
    `${BAD}---\n${GOOD.replace(/Widget/g, 'Gizmo').replace('example-io-widget-v1', 'example-io-gizmo-v1')}`,
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('validate: all valid -> exit 0 and a summary line', async () => {
  const r = await run(['definitions', 'validate', 'good.yaml']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.equal(r.stdout, '1 valid, 0 invalid definition in 1 file (0 errors, 0 warnings)\n');
});

test('validate: an invalid definition -> exit 1 and file:line: field: message', async () => {
  const r = await run(['definitions', 'validate', 'good.yaml', 'bad.yaml']);
  assert.equal(r.code, 1);
  const lines = r.stdout.trimEnd().split('\n');
  const line = BAD.split('\n').findIndex((l) => l.includes('ownerRef: gadget')) + 1;
  assert.ok(
    lines.includes(
      `bad.yaml:${line}: spec.structureDefinition.childComponents[0].ownerRef: ownerRef "gadget" names no component (known: widget, worker)`,
    ),
    r.stdout,
  );
  assert.ok(
    lines.some((l) =>
      /^bad\.yaml:1: warning: definition "bad-widget" for example\.io\/v1\/Widget overrides "example-io-widget-v1"/.test(
        l,
      ),
    ) === false,
  );
  assert.equal(lines.at(-1), '1 valid, 1 invalid definitions in 2 files (1 error, 0 warnings)');
});

test('validate: a directory, recursively, with a multi-document file', async () => {
  const r = await run(['definitions', 'validate', 'set']);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^set\/two\.yml:\d+: spec\.structureDefinition\.childComponents\[0\]\.ownerRef: /m);
  assert.match(r.stdout, /2 valid, 1 invalid definitions in 2 files/);
});

test('validate: an unreadable path -> exit 2, the rest still checked', async () => {
  const r = await run(['definitions', 'validate', 'missing.yaml', 'good.yaml']);
  assert.equal(r.code, 2);
  assert.match(r.stdout, /^missing\.yaml: cannot read: no such file or directory$/m);
  assert.match(r.stdout, /1 valid, 0 invalid definition in 1 file \(1 error, 0 warnings, 1 unreadable path\)/);
});

test('validate: invalid YAML is reported with its line', async () => {
  writeFileSync(
    path.join(dir, 'broken.yaml'),
    'apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata:\n  name: x\n  bad: [\n',
  );
  const r = await run(['definitions', 'validate', 'broken.yaml']);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^broken\.yaml:\d+: invalid YAML: /m);
});

test('validate: usage errors exit 2', async () => {
  const none = await run(['definitions', 'validate']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /validate needs at least one FILE or DIR/);
  const unknown = await run(['definitions', 'frobnicate']);
  assert.equal(unknown.code, 2);
  const flag = await run(['definitions', '--bogus']);
  assert.equal(flag.code, 2);
});

test(
  'validate: the upstream catalog — every file valid but mpijob.yaml',
  { skip: existsSync(upstreamCatalog) ? false : `no upstream catalog at ${upstreamCatalog}` },
  async () => {
    const r = await run(['definitions', 'validate', upstreamCatalog]);
    assert.equal(r.code, 1);
    const errors = r.stdout.split('\n').filter((l) => l && !l.includes(': warning: ') && !/^\d+ valid/.test(l));
    assert.deepEqual(errors, [
      `${path.join(upstreamCatalog, 'run-ai-karta/docs/examples/mpijob.yaml')}:25: invalid YAML: bad indentation of a mapping entry`,
    ]);
    assert.match(r.stdout, /^23 valid, 1 invalid definitions in 24 files/m);
  },
);

test('list: the built-in catalog plus --definitions, as a table', async () => {
  const r = await run(['definitions', '--definitions', 'good.yaml']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0], /^NAME\s+KIND\s+SOURCE\s+COMPONENTS$/);
  assert.ok(
    lines.some((l) => /^example-io-widget-v1\s+example\.io\/v1\/Widget\s+file:good\.yaml\s+widget,worker$/.test(l)),
    r.stdout,
  );
  assert.ok(
    lines.some((l) => /\sbuiltin\s/.test(l)),
    'built-in definitions are listed',
  );
  const same = await run(['definitions', 'list'], { WLX_DEFINITIONS: path.join(dir, 'good.yaml') });
  assert.ok(same.stdout.includes('example-io-widget-v1'));
});

test('list --no-builtin --all shows invalid documents; problems go to stderr', async () => {
  const r = await run(['definitions', 'list', '--no-builtin', '--all', '--definitions', 'set']);
  assert.equal(r.code, 0);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 4);
  assert.match(lines[0], /STATE$/);
  assert.ok(
    lines.some((l) => /^bad-widget\s.*\sinvalid$/.test(l)),
    r.stdout,
  );
  assert.match(r.stderr, /^wlx: set\/two\.yml:\d+: spec\.structureDefinition\.childComponents\[0\]\.ownerRef: /m);
});

test('show: readable text, and -o json / -o yaml machine output', async () => {
  const text = await run(['definitions', 'show', 'widgets', '--no-builtin', '--definitions', 'good.yaml']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^Name:\s+example-io-widget-v1$/m);
  assert.match(text.stdout, /^  widget \(root\)  example\.io\/v1\/Widget$/m);
  assert.match(text.stdout, /└─ worker$/m);
  assert.match(text.stdout, /pods where:\s+\.metadata\.labels\["example\.io\/role"\] == "worker"/);
  assert.match(text.stdout, /Running\s+when phase == "Running"/);
  const json = await run(['definitions', 'show', 'example-io-widget-v1', '-o', 'json', '--definitions', 'good.yaml']);
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout) as {
    rootGvk: unknown;
    components: { name: string }[];
    source: { kind: string };
  };
  assert.deepEqual(parsed.rootGvk, { group: 'example.io', version: 'v1', kind: 'Widget' });
  assert.deepEqual(
    parsed.components.map((c) => c.name),
    ['widget', 'worker'],
  );
  assert.equal(parsed.source.kind, 'file');
  const yaml = await run(['definitions', 'show', 'Widget', '-o', 'yaml', '--definitions', 'good.yaml']);
  assert.match(yaml.stdout, /^name: example-io-widget-v1$/m);
  const missing = await run(['definitions', 'show', 'nothing-like-this']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no definition named or covering "nothing-like-this"/);
});

test('--help for the command', async () => {
  const r = await run(['definitions', '--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /wlx definitions validate FILE\|DIR\.\.\./);
});

test('show: an invalid definition prints its problems and exits 1', async () => {
  const r = await run(['definitions', 'show', 'bad-widget', '--no-builtin', '--definitions', 'bad.yaml']);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /definition "bad-widget" is invalid:\n  bad\.yaml:\d+: spec\.structureDefinition\.childComponents\[0\]\.ownerRef: /,
  );
});
