import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JqError, runtimeError } from '../../src/jq/errors.js';

function nested(depth: number, make: () => JqError): JqError {
  return depth === 0 ? make() : nested(depth - 1, make);
}

test('runtime JqErrors carry no stack frames (cheap to raise under // and ?) and keep their message', () => {
  const e = nested(5, () => runtimeError({ a: 1 }));
  assert.equal(e.message, '{"a":1} (not a string)');
  assert.equal(e.kind, 'runtime');
  assert.deepEqual(e.value, { a: 1 });
  assert.ok(e instanceof Error);
  assert.equal(e.stack?.includes('\n    at '), false);
  assert.equal(e.stack?.startsWith('JqError: {"a":1}'), true);
});

test('creating a runtime JqError leaves the global stack-trace limit as it was', () => {
  const before = Error.stackTraceLimit;
  runtimeError('x');
  assert.equal(Error.stackTraceLimit, before);
  assert.ok((new Error('probe').stack ?? '').includes('\n    at '));
});

test('compile JqErrors keep their stack trace', () => {
  const e = nested(3, () => new JqError('compile', 'syntax error', '.a |'));
  assert.equal(e.message, 'syntax error');
  assert.equal(e.expression, '.a |');
  assert.ok((e.stack ?? '').includes('\n    at '));
});
