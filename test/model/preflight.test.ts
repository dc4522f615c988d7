// The definitions' pre-flight (src/model/preflight.ts): a hot-reloaded Karta
// whose jq-wasm expression loops is found over budget in the worker while the
// main thread keeps running, and the store that gets the definitions next
// breaks it at its first evaluation without calling jq — no flush blocks for
// the deadline, also for an object that arrived after the pre-flight — while
// the healthy jq-wasm expressions were prefetched and are read, not re-run.
import assert from 'node:assert/strict';
import test from 'node:test';
import { compile, setEvaluationBudget, wasmStats } from '../../src/jq/index.js';
import { gvkKey, type Gvk } from '../../src/definitions/types.js';
import type { KubeObject } from '../../src/model/types.js';
import { ClusterStore } from '../../src/model/cluster-store.js';
import { ExprCompiler, firstOf, newDefinitionHealth, prefetchAsync } from '../../src/model/expr.js';
import { preflightDefinitions } from '../../src/model/preflight.js';
import { definition, gpuTemplate, object, pod } from './fixtures.js';

const DEADLINE_MS = 1_000;
const SLOW: Gvk = { group: 'x.io', version: 'v1', kind: 'Slow' };
const LOOP: Gvk = { group: 'x.io', version: 'v1', kind: 'Loop' };
// `as $x` bindings are outside the native subset: these run on jq-wasm.
const ROLE = '.metadata.labels as $l | $l.role';
const REPLICAS = '.spec.n as $n | $n';
const LOOPING = 'def f: f; f';

function definitions() {
  const healthy = definition(
    'slow',
    SLOW,
    {
      name: 'slow',
      statusDefinition: {
        statusMappings: {
          running: [{ byExpression: { expression: '.status as $s | $s.ok', expectedResult: 'true' } }],
        },
      },
    },
    [
      {
        name: 'a',
        ownerRef: 'slow',
        specDefinition: { podTemplateSpecPath: '.spec.t' },
        scaleDefinition: { replicasPath: REPLICAS },
        podSelector: { componentTypeSelector: { keyPath: ROLE, value: 'a' } },
      },
    ],
  );
  const looping = definition(
    'looping',
    LOOP,
    { name: 'looping', statusDefinition: { phaseDefinition: { path: LOOPING }, statusMappings: {} } },
    [
      {
        name: 'w',
        ownerRef: 'looping',
        specDefinition: { podTemplateSpecPath: '.spec.t' },
        scaleDefinition: { replicasPath: REPLICAS },
        podSelector: { componentTypeSelector: { keyPath: ROLE, value: 'w' } },
      },
    ],
  );
  return [healthy, looping];
}

/** Counts timer ticks while `run` is awaited: with the thread blocked there would be none. */
async function ticksDuring<T>(run: () => Promise<T>): Promise<{ ticks: number; ms: number; result: T }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const t0 = performance.now();
  try {
    const result = await run();
    return { ticks, ms: performance.now() - t0, result };
  } finally {
    clearInterval(timer);
  }
}

test('preflight: a looping Karta is broken off the main thread; the store then evaluates without calling jq', async (t) => {
  const defs = definitions();
  const exprs = new ExprCompiler();
  for (const e of [ROLE, REPLICAS, LOOPING]) assert.equal(compile(e).native, false, e);
  const slow = object('x.io/v1', 'Slow', 's', { spec: { n: 2, t: gpuTemplate(1) }, status: { ok: true } });
  const loop = object('x.io/v1', 'Loop', 'l', { spec: { n: 1, t: gpuTemplate(1) } });
  const pods = [
    pod('s-0', { owner: slow, node: 'n', gpus: 1, labels: { role: 'a' } }),
    pod('s-1', { owner: slow, node: 'n', gpus: 1, labels: { role: 'a' } }),
    pod('l-0', { owner: loop, node: 'n', gpus: 1, labels: { role: 'w' } }),
    // In a namespace without any workload of these kinds: not sent to jq.
    pod('elsewhere', { namespace: 'other', node: 'n', labels: { role: 'a' } }),
  ];
  const held = new Map<string, KubeObject[]>([
    [gvkKey(SLOW), [slow]],
    [gvkKey(LOOP), [loop]],
    [gvkKey({ group: '', version: 'v1', kind: 'Pod' }), pods],
  ]);
  const previous = setEvaluationBudget({ timeMs: DEADLINE_MS, batchMsPerInput: 0 });
  t.after(() => setEvaluationBudget(previous));

  const {
    ticks,
    ms,
    result: broken,
  } = await ticksDuring(() => preflightDefinitions(defs, (gvk) => held.get(gvkKey(gvk)) ?? [], exprs));
  assert.deepEqual([...broken.keys()], ['looping']);
  const failure = broken.get('looping')!;
  assert.equal(failure.exceeded, 'time');
  assert.match(failure.message, /exceeded the evaluation budget \(1,000 ms\); definition looping is not evaluated/);
  assert.equal(failure.expr.source, LOOPING);
  assert.ok(ms >= DEADLINE_MS - 5, `pre-flight took ${ms.toFixed(0)} ms`);
  assert.ok(ticks >= DEADLINE_MS / 10 / 4, `${ticks} timer ticks in ${ms.toFixed(0)} ms: the thread was blocked`);
  process.stdout.write(`# preflight: ${ms.toFixed(0)} ms, ${ticks} ticks of 10 ms meanwhile\n`);

  // The engine's store gets the same definitions (its own plans, the same
  // compiler) and the same objects, plus a Loop that arrived after the pre-flight.
  const store = new ClusterStore({ definitions: defs, exprs });
  const late = object('x.io/v1', 'Loop', 'late', { spec: { n: 1 } });
  for (const w of [slow, loop, late]) store.apply('workload', 'ADDED', w);
  for (const p of pods) store.apply('pod', 'ADDED', p);
  const calls = wasmStats.calls;
  const t0 = performance.now();
  store.flush();
  const flushMs = performance.now() - t0;
  assert.equal(wasmStats.calls - calls, 0, 'no jq-wasm call during the flush');
  assert.ok(flushMs < DEADLINE_MS / 2, `the flush took ${flushMs.toFixed(0)} ms`);

  assert.match(store.brokenDefinitions().get('looping')?.message ?? '', /exceeded the evaluation budget/);
  assert.equal(store.brokenDefinitions().has('slow'), false);
  const trees = new Map(store.workloads().map((w) => [w.name, w]));
  const s = trees.get('s')!;
  assert.deepEqual(s.status, ['Running']);
  assert.deepEqual(
    s.roles.map((r) => [r.component, r.replicas.desired, r.replicas.current]),
    [['a', 2, 2]],
  );
  assert.deepEqual(s.errors, []);
  for (const name of ['l', 'late'])
    assert.ok(
      trees.get(name)?.errors.some((e) => /exceeded the evaluation budget/.test(e)),
      `${name}: ${JSON.stringify(trees.get(name)?.errors)}`,
    );
});

test('prefetchAsync: results are read by the expression of another plan; an error is worded for it', async () => {
  const source = '.a as $a | $a | tonumber';
  const exprs = new ExprCompiler();
  const first = exprs.compile(source, 'scaleDefinition.replicasPath', 'x', newDefinitionHealth('one'));
  const other = exprs.compile(source, 'scaleDefinition.minReplicasPath', 'y', newDefinitionHealth('two'));
  const inputs = [{ a: '4' }, { a: 'four' }];
  await prefetchAsync([first], inputs);
  const calls = wasmStats.calls;
  assert.equal(firstOf(other, inputs[0]), 4);
  assert.throws(
    () => firstOf(other, inputs[1]),
    (err: Error) => /while parsing 'four'/.test(err.message) && !/definition/.test(err.message),
  );
  assert.equal(wasmStats.calls - calls, 0);
  assert.equal(other.health?.broken, null);
});

test('preflight: what it learns stays with its compiler; a store compiling on its own calls jq again', async () => {
  const healthy = definitions().slice(0, 1);
  const slow = object('x.io/v1', 'Slow', 's', { spec: { n: 2, t: gpuTemplate(1) }, status: { ok: true } });
  const pods = [0, 1].map((i) => pod(`s-${i}`, { owner: slow, node: 'n', gpus: 1, labels: { role: 'a' } }));
  const held = (gvk: Gvk): KubeObject[] => (gvkKey(gvk) === gvkKey(SLOW) ? [slow] : pods);
  const engines = [new ExprCompiler(), new ExprCompiler()];
  await preflightDefinitions(healthy, held, engines[0]);
  const flushCalls = (exprs: ExprCompiler): number => {
    const store = new ClusterStore({ definitions: healthy, exprs });
    store.apply('workload', 'ADDED', slow);
    for (const p of pods) store.apply('pod', 'ADDED', p);
    const calls = wasmStats.calls;
    store.flush();
    assert.deepEqual(store.workloads()[0].status, ['Running']);
    return wasmStats.calls - calls;
  };
  assert.equal(flushCalls(engines[0]), 0, "the pre-flight's compiler: its results are read");
  assert.ok(flushCalls(engines[1]) > 0, 'another compiler shares none of them');
});

test('ExprCompiler: one program per text within a compiler; over budget is known only to the compiler that found it', async (t) => {
  const [one, two] = [new ExprCompiler(), new ExprCompiler()];
  const a = one.compile(LOOPING, 'statusDefinition.phaseDefinition.path', 'root', newDefinitionHealth('a'));
  assert.equal(one.compile(LOOPING, 'f', null).program, a.program);
  assert.notEqual(two.compile(LOOPING, 'f', null).program, a.program);
  assert.equal(a.program?.native, false);
  const previous = setEvaluationBudget({ timeMs: 200, batchMsPerInput: 0 });
  t.after(() => setEvaluationBudget(previous));
  await prefetchAsync([a], [{}]);
  assert.equal(a.health?.broken?.exceeded, 'time');

  // A new plan's expression of the same text: broken at once by the same compiler, evaluated by another.
  const again = one.compile(LOOPING, 'statusDefinition.phaseDefinition.path', 'root', newDefinitionHealth('a'));
  const calls = wasmStats.calls;
  assert.throws(
    () => firstOf(again, { late: true }),
    (err: Error) => /exceeded the evaluation budget/.test(err.message),
  );
  assert.equal(wasmStats.calls - calls, 0, 'known over budget: no jq call');
  const elsewhere = two.compile(LOOPING, 'statusDefinition.phaseDefinition.path', 'root', newDefinitionHealth('a'));
  assert.throws(
    () => firstOf(elsewhere, { late: true }),
    (err: Error) => /exceeded the evaluation budget/.test(err.message),
  );
  assert.ok(wasmStats.calls - calls > 0, 'another compiler knew nothing: jq ran it');
});
