// The built-in catalog's verdicts on the object states the real operators write (one fixture file per
// operator under test/fixtures/recorded-states/), compared with upstream Workload Map's verdict on each:
// offline, root objects only, as upstream's replay of its recordings does. Where upstream says something
// other than Undefined, wlx's headline status (its most severe) must say the same, unless the state is a
// deliberate deviation, which docs/status.md must list. Where upstream says Undefined, wlx may say more;
// the fixture pins what. Upstream's own catalog, where ../shared holds it, is run on every state too
// and must give the verdict the fixture states (as upstream's replay test requires of its recordings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import yaml from 'js-yaml';
import { loadDefinitionFile } from '../../src/definitions/index.js';
import type { Definition, StatusName } from '../../src/definitions/types.js';
import { ExprCompiler } from '../../src/model/expr.js';
import { planDefinition, STATUS_ORDER } from '../../src/model/plan.js';
import { evaluateStatus } from '../../src/model/status.js';
import type { KubeObject } from '../../src/model/types.js';
import { catalogDir, repoRoot } from './builtin-fixtures.js';
import { upstreamCatalog } from './helpers.js';

type Json = Record<string, unknown>;

interface State {
  name: string;
  upstream: StatusName;
  wlx?: StatusName;
  deviation?: string;
  catalog?: string;
  spec?: Json;
  metadata?: Json;
  status?: Json;
}

interface Workload {
  file: string;
  definition: string;
  upstreamCatalog?: string;
  upstream: string;
  object: KubeObject;
  states: State[];
}

const fixturesDir = join(repoRoot, 'test', 'fixtures', 'recorded-states');
const STATE_KEYS = new Set(['name', 'upstream', 'wlx', 'deviation', 'catalog', 'spec', 'metadata', 'status']);
const WORKLOAD_KEYS = new Set(['definition', 'upstreamCatalog', 'upstream', 'object', 'states']);

function isStatus(v: unknown): v is StatusName {
  return typeof v === 'string' && (STATUS_ORDER as readonly string[]).includes(v);
}

/** Every workload document of every fixture file, checked for shape (a typo fails loudly, never silently). */
function loadWorkloads(): Workload[] {
  const out: Workload[] = [];
  for (const file of readdirSync(fixturesDir).filter((f) => f.endsWith('.yaml')).sort()) {
    for (const doc of yaml.loadAll(readFileSync(join(fixturesDir, file), 'utf8'))) {
      const w = doc as Json;
      for (const k of Object.keys(w)) assert.ok(WORKLOAD_KEYS.has(k), `${file}: unknown key ${k}`);
      assert.equal(typeof w.definition, 'string', `${file}: definition`);
      assert.equal(typeof w.upstream, 'string', `${file}: say where upstream's verdicts come from`);
      assert.ok(Array.isArray(w.states) && w.states.length > 0, `${file}: states`);
      for (const s of w.states as Json[]) {
        const where = `${file} ${String(w.definition)} "${String(s.name)}"`;
        for (const k of Object.keys(s)) assert.ok(STATE_KEYS.has(k), `${where}: unknown key ${k}`);
        assert.ok(isStatus(s.upstream), `${where}: upstream ${String(s.upstream)}`);
        if (s.wlx !== undefined) assert.ok(isStatus(s.wlx), `${where}: wlx ${String(s.wlx)}`);
      }
      out.push({ ...(w as unknown as Omit<Workload, 'file'>), file });
    }
  }
  return out;
}

/** `patch` merged into `base`: objects key by key, anything else replaced; null deletes. */
function merge(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (typeof v === 'object' && !Array.isArray(v) && typeof out[k] === 'object' && out[k] !== null && !Array.isArray(out[k])) out[k] = merge(out[k] as Json, v as Json);
    else out[k] = v;
  }
  return out;
}

function objectOf(w: Workload, s: State): KubeObject {
  const o = structuredClone(w.object) as unknown as Json;
  if (s.metadata) o.metadata = merge(o.metadata as Json, s.metadata);
  if (s.spec) o.spec = merge((o.spec ?? {}) as Json, s.spec);
  if (s.status) o.status = structuredClone(s.status);
  return o as unknown as KubeObject;
}

function loadOne(path: string): Definition {
  const { definitions, problems } = loadDefinitionFile(path, 'builtin');
  assert.deepEqual(problems.filter((p) => p.severity === 'error'), [], path);
  assert.equal(definitions.length, 1, path);
  return definitions[0];
}

function verdicts(def: Definition, obj: KubeObject): StatusName[] {
  const result = evaluateStatus(planDefinition(def, new ExprCompiler()).status, obj, `${obj.kind}/${obj.metadata.name}`);
  assert.deepEqual(result.errors, [], `${def.name} on ${obj.metadata.name}`);
  return result.status;
}

const workloads = loadWorkloads();
const haveUpstream = existsSync(upstreamCatalog);
if (!haveUpstream) process.stdout.write(`# upstream catalog not found at ${upstreamCatalog}: its verdicts are not recomputed\n`);

test('every recorded state: wlx agrees with upstream wherever upstream says something', () => {
  const rows: string[] = [];
  let total = 0;
  let agree = 0;
  let said = 0;
  let saidAgree = 0;
  let moreSpecific = 0;
  const deviations: string[] = [];
  const byOperator = new Map<string, { n: number; agree: number }>();
  for (const w of workloads) {
    const def = loadOne(join(catalogDir, `${w.definition}.yaml`));
    const up = w.upstreamCatalog && haveUpstream ? loadOne(join(upstreamCatalog, w.upstreamCatalog)) : null;
    assert.equal(w.object.apiVersion, def.rootGvk.group ? `${def.rootGvk.group}/${def.rootGvk.version}` : def.rootGvk.version, `${w.file}: apiVersion`);
    assert.equal(w.object.kind, def.rootGvk.kind, `${w.file}: kind`);
    for (const s of w.states) {
      const where: string = `${w.file} ${w.object.kind} "${s.name}"`;
      const obj = objectOf(w, s);
      const ours = verdicts(def, obj);
      const headline = ours[0];
      if (up && !s.catalog) {
        const theirs = verdicts(up, obj);
        assert.ok(theirs.includes(s.upstream), `${where}: upstream's catalog gives ${theirs.join(',')}, the fixture says ${s.upstream}`);
      }
      total++;
      const op = byOperator.get(w.file) ?? { n: 0, agree: 0 };
      op.n++;
      if (headline === s.upstream) {
        agree++;
        op.agree++;
      }
      byOperator.set(w.file, op);
      if (s.upstream !== 'Undefined') {
        said++;
        if (headline === s.upstream) saidAgree++;
      } else if (headline !== 'Undefined') moreSpecific++;
      if (s.deviation) {
        assert.notEqual(s.upstream, 'Undefined', `${where}: a deviation needs an upstream verdict to deviate from`);
        assert.ok(s.wlx && s.wlx !== s.upstream, `${where}: a deviation names wlx's different verdict`);
        assert.equal(headline, s.wlx, `${where}: wlx reads ${ours.join(',')}`);
        deviations.push(`${w.definition}: ${s.name}: ${s.upstream} -> ${s.wlx}`);
      } else if (s.upstream !== 'Undefined') {
        assert.equal(s.wlx ?? s.upstream, s.upstream, `${where}: wlx differs from upstream without a deviation`);
        assert.equal(headline, s.upstream, `${where}: wlx reads ${ours.join(',')}, upstream ${s.upstream}`);
      } else {
        assert.equal(headline, s.wlx ?? 'Undefined', `${where}: wlx reads ${ours.join(',')}`);
      }
      rows.push(`${basename(w.file, '.yaml')} ${w.object.kind}: ${s.name}: upstream ${s.upstream}, wlx ${ours.join(',')}`);
    }
  }
  const lines = [
    `recorded states: ${total}; wlx agrees on ${agree}`,
    `upstream not Undefined: ${said}; wlx agrees on ${saidAgree}, deliberately differs on ${deviations.length}`,
    `upstream Undefined: ${total - said}; wlx more specific on ${moreSpecific}`,
    ...[...byOperator].map(([file, o]) => `  ${basename(file, '.yaml')}: ${o.n} states, ${o.agree} agree`),
    'deliberate deviations:',
    ...deviations.map((d) => `  ${d}`),
  ];
  if (process.env.WLX_RECORDED_STATES_VERBOSE) lines.push(...rows);
  process.stdout.write(lines.map((l) => `# ${l}\n`).join(''));
  assert.equal(saidAgree + deviations.length, said);
});

test('docs/status.md lists every definition that deviates from upstream on a recorded state', () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'status.md'), 'utf8');
  for (const w of workloads) {
    if (w.states.some((s) => s.deviation)) assert.ok(doc.includes(`\`${w.definition}\``), `docs/status.md does not mention ${w.definition}`);
  }
});

test('every operator upstream records has a fixture, and every fixture names its controller source', () => {
  const files = readdirSync(fixturesDir).filter((f) => f.endsWith('.yaml'));
  for (const op of ['agent-sandbox', 'batch-job', 'cronjob', 'deployment', 'dynamo', 'grove', 'jobset', 'knative', 'kserve', 'kubeflow', 'kuberay', 'lws', 'milvus', 'nim', 'pod', 'statefulset']) {
    assert.ok(files.includes(`${op}.yaml`), `no fixture for ${op}`);
  }
  for (const f of files) {
    // Each workload document opens with a comment naming the controller's repository, e.g. "(kubernetes-sigs/jobset, pkg/...".
    for (const doc of readFileSync(join(fixturesDir, f), 'utf8').split(/^---$/m)) {
      const head = doc.trimStart().split('\n').filter((l) => l.startsWith('#')).join(' ');
      assert.match(head, /\((?:[\w.-]+)\/(?:[\w.-]+)[,\s]/, `${f}: a document's header comment does not name the controller source it follows`);
    }
  }
});
