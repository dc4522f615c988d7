// A definition expression over the jq budget breaks its definition (src/model/expr.ts):
// the failure carries which limit, names the definition, and every later
// evaluation of any of that definition's expressions fails at once instead of
// paying the budget again; expressions of other definitions are unaffected.
import assert from 'node:assert/strict';
import test from 'node:test';
import { setEvaluationBudget, wasmStats } from '../../src/jq/index.js';
import { ExprCompiler, ExprError, firstOf, newDefinitionHealth, prefetch, runExpr } from '../../src/model/expr.js';

const exprs = new ExprCompiler();

const BIG = Array.from({ length: 10_000 }, (_, i) => i);

test('expr: an evaluation over budget breaks its definition; its other expressions are not evaluated again', (t) => {
  const previous = setEvaluationBudget({ steps: 1000 });
  t.after(() => setEvaluationBudget(previous));
  const health = newDefinitionHealth('looping');
  const heavy = exprs.compile('[.[], .[]] | length', 'statusDefinition.phaseDefinition.path', 'root', health);
  const light = exprs.compile('length', 'scaleDefinition.replicasPath', 'root', health);
  const other = exprs.compile('length', 'scaleDefinition.replicasPath', 'root', newDefinitionHealth('fine'));
  assert.equal(runExpr(heavy, [1, 2])[0], 4, 'under budget it evaluates');

  const failure = (() => {
    try {
      firstOf(heavy, BIG);
    } catch (err) {
      return err;
    }
    return null;
  })();
  assert.ok(failure instanceof ExprError);
  assert.equal(failure.exceeded, 'steps');
  assert.match(failure.message, /exceeded the evaluation budget .*definition looping is not evaluated any more/);
  assert.equal(health.broken, failure);

  // Small inputs and other fields of the same definition now fail with the first failure, without evaluating.
  assert.throws(
    () => runExpr(heavy, [1]),
    (err) => err === failure,
  );
  assert.throws(
    () => firstOf(light, [1]),
    (err) => err === failure,
  );
  assert.equal(firstOf(other, BIG), 10_000);
});

test('expr: a plain runtime error does not break the definition', () => {
  const health = newDefinitionHealth('erring');
  const e = exprs.compile('.a | tonumber', 'scaleDefinition.replicasPath', 'root', health);
  assert.throws(
    () => runExpr(e, { a: 'x' }),
    (err) => err instanceof ExprError && err.exceeded === null,
  );
  assert.equal(health.broken, null);
  assert.deepEqual(runExpr(e, { a: '3' }), [3]);
});

test('expr: a jq-wasm batch over its deadline breaks the definition once, for every input of the batch', (t) => {
  const health = newDefinitionHealth('wasm-loop');
  // Compiled (jq-wasm loaded) under the default budget; only the evaluation gets the short one.
  const loop = exprs.compile('def f: f; f', 'statusDefinition.phaseDefinition.path', 'root', health);
  assert.equal(loop.program?.native, false, loop.compileError ?? '');
  const previous = setEvaluationBudget({ timeMs: 100, batchMsPerInput: 0 });
  t.after(() => setEvaluationBudget(previous));
  const inputs = [{ a: 1 }, { a: 2 }];
  prefetch([loop], inputs);
  assert.ok(health.broken);
  assert.equal(health.broken.exceeded, 'time');
  for (const input of inputs)
    assert.throws(
      () => runExpr(loop, input),
      (err) => err === health.broken,
    );
  // A new input is not sent to jq-wasm again either.
  const calls = wasmStats.calls;
  assert.throws(
    () => firstOf(loop, { a: 3 }),
    (err) => err === health.broken,
  );
  assert.equal(wasmStats.calls, calls, 'no jq-wasm call for the broken definition');
});
