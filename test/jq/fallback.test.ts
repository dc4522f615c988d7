// jq-wasm as the fallback engine: many consecutive calls must never hit the
// Emscripten abort that a single jq-wasm instance reaches after ~314 calls
// (instances are recycled), results must stay right throughout, and
// process.exitCode must not be touched by jq's exit statuses.
import assert from 'node:assert/strict';
import test from 'node:test';
import { compile, JqError, wasmStats } from '../../src/jq/index.js';

test('1,000 consecutive fallback evaluations complete with no abort, on recycled instances', () => {
  const program = compile('reduce .xs[] as $x (0; . + $x) | "\\(.)"');
  assert.equal(program.native, false);
  const before = { ...wasmStats };
  for (let i = 0; i < 1000; i++) {
    assert.deepEqual(program.run({ xs: [i, 1, 2] }), [String(i + 3)]);
  }
  // Every 20th call raises a runtime error, which must not disturb the instance either.
  for (let i = 0; i < 100; i++) {
    if (i % 20 === 0)
      assert.throws(
        () => program.run({ xs: ['a', 1] }),
        (e: unknown) => e instanceof JqError && e.kind === 'runtime',
      );
    else assert.deepEqual(program.run({ xs: [i] }), [String(i)]);
  }
  assert.equal(wasmStats.retries, before.retries, 'no instance aborted');
  assert.ok(
    wasmStats.instances - before.instances >= 5,
    `only ${wasmStats.instances - before.instances} instances for 1,100 calls`,
  );
  assert.equal(process.exitCode, undefined);
});

test('runMany evaluates 10,000 inputs in one jq-wasm call', () => {
  const program = compile('.a as $a | {a: $a, twice: ($a * 2)}');
  const inputs = Array.from({ length: 10_000 }, (_, i) => ({ a: i }));
  const calls = wasmStats.calls;
  const results = program.runMany(inputs);
  assert.equal(wasmStats.calls - calls, 1);
  assert.equal(results.length, 10_000);
  results.forEach((r, i) => assert.deepEqual(r, [{ a: i, twice: i * 2 }]));
});
