// Unit tests of the jq engine's API: number/string formatting, compile()
// keeping nothing, native vs fallback programs, early stop in first(), error kinds and
// values, try scoping, the forbidden-construct validator.
import assert from 'node:assert/strict';
import test from 'node:test';
import {
  checkCompiles,
  compile,
  compileFallback,
  FORBIDDEN_IN_DEFINITIONS,
  formatJson,
  formatNumber,
  JqError,
  validateExpression,
} from '../../src/jq/index.js';
import { catalogExpressions } from './corpus.js';

function runtimeErrorOf(fn: () => unknown): JqError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof JqError, `expected a JqError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected an error');
}

test('numbers print as jq 1.6 prints them', () => {
  const cases: [number, string][] = [
    [1, '1'],
    [1.5, '1.5'],
    [-0, '-0'],
    [0.1, '0.1'],
    [1e-7, '1e-07'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1e16, '1e+16'],
    [1.5e16, '15000000000000000'],
    [1e17, '1e+17'],
    [12345678901234567890, '12345678901234567000'],
    [Infinity, '1.7976931348623157e+308'],
    [-Infinity, '-1.7976931348623157e+308'],
    [NaN, 'null'],
    [1.5e300, '1.5e+300'],
    [2e-300, '2e-300'],
    [123456789012345680000, '123456789012345680000'],
    [3.14159, '3.14159'],
  ];
  for (const [n, want] of cases) assert.equal(formatNumber(n), want, `formatNumber(${n})`);
});

test('strings and objects print as jq -c prints them, terminal controls escaped', () => {
  assert.equal(formatJson({ b: [1, 'x\n\u007f\u0001"\\'], a: null }), '{"b":[1,"x\\n\\u007f\\u0001\\"\\\\"],"a":null}');
  assert.equal(formatJson('é/ü'), '"é/ü"');
  // C1 CSI and a bidi override are escaped (same JSON value, no terminal effect).
  assert.equal(formatJson('\u009b2J\u202e'), '"\\u009b2J\\u202e"');
  assert.equal(JSON.parse(formatJson('\u009b2J\u202e')), '\u009b2J\u202e');
});

test('compile() keeps nothing between calls: whoever compiles keeps the program', () => {
  const a = compile('.metadata.labels["x/y"] // "none"');
  assert.notEqual(compile('.metadata.labels["x/y"] // "none"'), a);
  assert.equal(a.native, true);
  assert.deepEqual(a.run({ metadata: { labels: { 'x/y': 'v' } } }), ['v']);
  assert.deepEqual(a.run({}), ['none']);
});

test('compile errors are JqErrors of kind compile, every time', () => {
  for (const expr of ['.a |', 'foo(1)', '{a: 1 + 2}', '$undefined']) {
    for (let i = 0; i < 2; i++) {
      const err = runtimeErrorOf(() => compile(expr));
      assert.equal(err.kind, 'compile', expr);
      assert.equal(err.expression, expr);
    }
  }
  assert.match(runtimeErrorOf(() => compile('foo')).message, /foo\/0 is not defined/);
});

test('checkCompiles: the verdict of compile() without a program', () => {
  for (const expr of ['.a |', 'foo(1)', '$undefined']) {
    const err = runtimeErrorOf(() => checkCompiles(expr));
    assert.equal(err.kind, 'compile', expr);
    assert.equal(err.message, runtimeErrorOf(() => compile(expr)).message, expr);
  }
  for (const expr of ['.metadata.name', 'reduce .[] as $x (0; . + $x)', ''])
    assert.doesNotThrow(() => checkCompiles(expr));
});

test('every upstream catalog expression runs natively', (t) => {
  const exprs = catalogExpressions();
  if (!exprs.length) return t.skip('upstream catalog missing');
  const fallback = exprs.filter((e) => !compile(e).native);
  assert.deepEqual(fallback, []);
});

test('expressions outside the native subset run on jq-wasm, synchronously and async', async () => {
  const p = compile('reduce .[] as $x (0; . + $x)');
  assert.equal(p.native, false);
  assert.deepEqual(p.run([1, 2, 3]), [6]);
  assert.equal(p.first([4]), 4);
  assert.deepEqual(await p.runAsync([5, 5]), [10]);
  const interp = compile('"\\(.a)-\\(.b)"');
  assert.equal(interp.native, false);
  assert.deepEqual(interp.run({ a: 1, b: 'x' }), ['1-x']);
  const err = runtimeErrorOf(() => compile('.[] as $x | $x.a').run([1]));
  assert.equal(err.kind, 'runtime');
  assert.equal(err.message, 'Cannot index number with string "a"');
});

test('runMany evaluates many inputs, errors per input, for both engines', () => {
  for (const expr of ['.a + 1', '.a as $v | $v + 1']) {
    const results = compile(expr).runMany([{ a: 1 }, { a: 'x' }, {}, { a: 41 }]);
    assert.deepEqual(results[0], [2], expr);
    assert.ok(results[1] instanceof JqError && results[1].kind === 'runtime', expr);
    assert.deepEqual(results[2], [1], expr);
    assert.deepEqual(results[3], [42], expr);
  }
});

test('first() stops at the first output; run() raises the later error', () => {
  const p = compile('.[] | if . == 2 then error("two") else . end');
  assert.equal(p.first([1, 2]), 1);
  assert.equal(p.first([]), undefined);
  const err = runtimeErrorOf(() => p.run([1, 2]));
  assert.equal(err.kind, 'runtime');
  assert.equal(err.message, 'two');
  assert.equal(err.expression, '.[] | if . == 2 then error("two") else . end');
  const seen: unknown[] = [];
  assert.throws(() => p.stream([1, 3, 2, 4], (v) => seen.push(v)), JqError);
  assert.deepEqual(seen, [1, 3]);
});

test('error values: strings are messages, other values are kept', () => {
  const err = runtimeErrorOf(() => compile('error({"a": 1})').run(null));
  assert.deepEqual(err.value, { a: 1 });
  assert.deepEqual(compile('try error({"a": 1}) catch .a').run(null), [1]);
  const fb = runtimeErrorOf(() => compileFallback('error({"a": 1})').run(null));
  assert.deepEqual(fb.value, { a: 1 });
});

test('try covers its body only; `?` after an indexing step guards that step only', () => {
  assert.deepEqual(compile('[.[] | .a?]').run([1, { a: 2 }]), [[2]]);
  assert.deepEqual(compile('[.a[]?]').run({ a: 5 }), [[]]);
  assert.equal(runtimeErrorOf(() => compile('.a.b[]?').run(7)).message, 'Cannot index number with string "a"');
  assert.equal(runtimeErrorOf(() => compile('(1, 2)? | error("x")').run(null)).message, 'x');
  assert.deepEqual(compile('try error("x") catch . + "!"').run(null), ['x!']);
});

test('jq evaluation order for streams', () => {
  assert.deepEqual(compile('[(1, 2) + (10, 20)]').run(null), [[11, 12, 21, 22]]);
  assert.deepEqual(compile('[{a: (1, 2), b: (3, 4)}]').run(null), [
    [
      { a: 1, b: 3 },
      { a: 1, b: 4 },
      { a: 2, b: 3 },
      { a: 2, b: 4 },
    ],
  ]);
  assert.deepEqual(compile('[(true, false) and (true, false)]').run(null), [[true, false, false]]);
  assert.deepEqual(compile('[(null, false, 1, 2) // 3]').run(null), [[1, 2]]);
});

test('object keys named __proto__ are data, not prototypes', () => {
  const [o] = compile('{("__proto__"): {polluted: true}}').run(null) as [Record<string, unknown>];
  assert.equal(Object.getPrototypeOf(o), Object.prototype);
  assert.deepEqual(Object.keys(o), ['__proto__']);
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  assert.deepEqual(compile('.["__proto__"]').run(JSON.parse('{"__proto__": 1}')), [1]);
  assert.deepEqual(compile('.constructor').run({}), [null]);
});

test('validateExpression names the forbidden construct used', () => {
  const forbidden = [
    '=',
    '|=',
    '+=',
    '-=',
    '*=',
    '/=',
    '%=',
    '//=',
    '..',
    'recurse',
    'paths',
    'walk',
    'repeat',
    'range',
    'del',
  ];
  const cases: [string, string | null][] = [
    ['.a = 1', '='],
    ['.a |= 1', '|='],
    ['.a += 1', '+='],
    ['.a //= 1', '//='],
    ['[..]', '..'],
    ['recurse', 'recurse'],
    ['[paths]', 'paths'],
    ['walk(.)', 'walk'],
    ['[limit(2; repeat(1))]', 'repeat'],
    ['[range(3)]', 'range'],
    ['del(.a)', 'del'],
    ['"\\(range(2))"', 'range'],
    ['.a == 1', null],
    ['.a != 1 and .b <= 2 or .c >= 3', null],
    ['.a // 1', null],
    ['.range', null],
    ['{range: 1}', null],
    ['{del, paths: 2}', null],
    ['.metadata.labels["x/y"]', null],
    ['"a = b"', null],
    ['.a | not', null],
  ];
  for (const [expr, want] of cases) assert.equal(validateExpression(expr, forbidden), want, expr);
  assert.deepEqual([...FORBIDDEN_IN_DEFINITIONS].sort(), [...forbidden].sort());
  assert.equal(validateExpression('.a |= 1'), '|=');
  assert.equal(validateExpression('.a', []), null);
});

test('streamMany: outputs per input, earlier outputs kept before an error, for both engines', () => {
  for (const expr of ['.[] | 10 / .', '.[] as $x | 10 / $x']) {
    const seen: [number, unknown][] = [];
    const failed: [number, string][] = [];
    compile(expr).streamMany(
      [[1, 2], [5, 0, 1], [], [10]],
      (i, v) => seen.push([i, v]),
      (i, err) => failed.push([i, err.kind]),
    );
    assert.deepEqual(
      seen,
      [
        [0, 10],
        [0, 5],
        [1, 2],
        [3, 1],
      ],
      expr,
    );
    assert.deepEqual(failed, [[1, 'runtime']], expr);
  }
});
