// The asynchronous jq-wasm path (src/jq/wasm.ts runJqAsync): an over-budget
// expression is cut off at the same deadline as on the synchronous path, but
// the thread stays free meanwhile (a timer keeps firing: with Atomics.wait it
// would not fire once), the worker is replaced, and its answers equal the
// synchronous path's on the whole jq corpus.
import assert from 'node:assert/strict';
import test from 'node:test';
import { compile, compileFallback, JqError, setEvaluationBudget, wasmStats } from '../../src/jq/index.js';
import { CASES, catalogCases } from './corpus.js';

const DEADLINE_MS = 1_000;
const TICK_MS = 10;

/** Counts timer ticks while `run` is awaited: how free the event loop stayed. */
async function ticksDuring<T>(run: () => Promise<T>): Promise<{ ticks: number; ms: number; result: T | unknown }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, TICK_MS);
  const t0 = performance.now();
  let result: T | unknown;
  try {
    result = await run();
  } catch (err) {
    result = err;
  } finally {
    clearInterval(timer);
  }
  return { ticks, ms: performance.now() - t0, result };
}

test('async: `def f: f; f` is cut off at the deadline while the main thread keeps running timers', async (t) => {
  const loop = compile('def f: f; f');
  assert.equal(loop.native, false);
  // The asynchronous lane's worker starts (and is ready) before the clock runs.
  assert.deepEqual(await compile('[limit(2; repeat(.))]').runAsync(1), [[1, 1]]);
  const previous = setEvaluationBudget({ timeMs: DEADLINE_MS });
  t.after(() => setEvaluationBudget(previous));
  const before = { ...wasmStats };

  const { ticks, ms, result } = await ticksDuring(() => loop.runAsync({}));
  assert.ok(result instanceof JqError, `not a JqError: ${String(result)}`);
  assert.equal(result.exceeded, 'time');
  assert.equal(result.message, 'exceeded the evaluation budget (1,000 ms)');
  assert.equal(result.expression, 'def f: f; f');
  assert.ok(ms >= DEADLINE_MS - 5, `answered after ${ms.toFixed(0)} ms, before the deadline`);
  assert.ok(ms < DEADLINE_MS + 3_000, `answered after ${ms.toFixed(0)} ms`);
  // A blocked thread runs no timer at all; a free one about every TICK_MS (fewer on a loaded machine).
  assert.ok(ticks >= DEADLINE_MS / TICK_MS / 4, `${ticks} timer ticks in ${ms.toFixed(0)} ms`);
  assert.equal(wasmStats.overruns - before.overruns, 1);
  process.stdout.write(`# async overrun: ${ms.toFixed(0)} ms, ${ticks} ticks of ${TICK_MS} ms meanwhile\n`);

  // The worker was terminated: the next call starts a fresh one and answers.
  assert.deepEqual(await compile('[limit(3; repeat(.a))]').runAsync({ a: 'x' }), [['x', 'x', 'x']]);
  assert.equal(wasmStats.workers - before.workers, 1, 'one new worker');
  assert.deepEqual(await loop.runManyAsync([]), []);
});

test('async: a batch over its deadline gives every input the budget error; the next batch works', async (t) => {
  const loop = compile('if .loop then def f: f; f else .v end');
  await loop.runManyAsync([{ v: 0 }]);
  const previous = setEvaluationBudget({ timeMs: 300, batchMsPerInput: 0 });
  t.after(() => setEvaluationBudget(previous));
  const results = await loop.runManyAsync([{ v: 1 }, { loop: true }, { v: 3 }]);
  assert.equal(results.length, 3);
  for (const r of results) assert.ok(r instanceof JqError && r.exceeded === 'time', String(r));
  assert.deepEqual(await loop.runManyAsync([{ v: 1 }, { v: 2 }]), [[1], [2]]);
});

test('async: a synchronous call answers while an asynchronous one loops (each lane has its own worker)', async (t) => {
  const loop = compile('def f: f; f');
  const quick = compile('[limit(2; repeat(.))]');
  quick.run(0);
  await quick.runAsync(0);
  const previous = setEvaluationBudget({ timeMs: DEADLINE_MS });
  t.after(() => setEvaluationBudget(previous));
  const looping = loop.runAsync(null).catch((err: unknown) => err);
  const t0 = performance.now();
  assert.deepEqual(quick.run(7), [[7, 7]]);
  const ms = performance.now() - t0;
  assert.ok(ms < DEADLINE_MS / 2, `the synchronous call took ${ms.toFixed(0)} ms`);
  const err = await looping;
  assert.ok(err instanceof JqError && err.exceeded === 'time');
  // Queued asynchronous calls run after it, each with its own deadline.
  const [a, b] = await Promise.all([quick.runAsync(1), quick.runAsync(2)]);
  assert.deepEqual([a, b], [[[1, 1]], [[2, 2]]]);
});

/** A result as comparable data: outputs, or the error's kind and message. */
function comparable(r: unknown[] | JqError): unknown {
  return r instanceof JqError ? { error: r.kind, message: r.message } : r;
}

test('async: runAsync and runManyAsync equal run and runMany on the jq corpus (jq-wasm for every expression)', async () => {
  const byExpr = new Map<string, unknown[]>();
  const handWritten = new Set(CASES.map((c) => c.expr));
  for (const c of [...CASES, ...catalogCases()]) {
    const list = byExpr.get(c.expr) ?? [];
    list.push(c.input);
    byExpr.set(c.expr, list);
  }
  let compared = 0;
  for (const [expr, inputs] of byExpr) {
    let program;
    try {
      program = compileFallback(expr);
    } catch (err) {
      if (err instanceof JqError && err.kind === 'compile') continue;
      throw err;
    }
    const sync = program.runMany(inputs).map(comparable);
    const async = (await program.runManyAsync(inputs)).map(comparable);
    assert.deepEqual(async, sync, `runManyAsync of ${expr}`);
    const one = async (input: unknown) => {
      try {
        return await program.runAsync(input);
      } catch (err) {
        if (err instanceof JqError) return comparable(err);
        throw err;
      }
    };
    const single = (input: unknown) => {
      try {
        return program.run(input);
      } catch (err) {
        if (err instanceof JqError) return comparable(err);
        throw err;
      }
    };
    // One call per input: the hand-written cases only (the catalog's are many and plain).
    if (handWritten.has(expr))
      for (const input of inputs) assert.deepEqual(await one(input), single(input), `runAsync of ${expr}`);
    compared += inputs.length;
  }
  assert.ok(byExpr.size > 400 && compared > 1_000, `only ${byExpr.size} expressions, ${compared} cases`);
  process.stdout.write(`# async = sync on ${byExpr.size} expressions, ${compared} cases\n`);
});
