// Differential test: every corpus case through wlx's engine and through
// /usr/bin/jq (1.6). Same outputs (as jq -c text: numbers and strings
// formatted identically), or both raise a runtime error, or both refuse to
// compile. Where jq 1.6 and jq 1.7 disagree, wlx follows 1.7.1 (its fallback
// engine, and gojq's semantics upstream uses) — such cases are accepted only
// when jq-wasm 1.7.1 gives exactly wlx's answer, and are listed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import assert from 'node:assert/strict';
import test from 'node:test';
import { compile, compileFallback, formatJson, JqError } from '../../src/jq/index.js';
import { CASES, catalogCases, catalogExpressions, type JqCase } from './corpus.js';

const JQ = '/usr/bin/jq';

type Outcome = { kind: 'ok'; text: string } | { kind: 'runtime'; message: string } | { kind: 'compile' };

function parseOutcome(line: string): Outcome {
  if (line.startsWith('{"ok":')) return { kind: 'ok', text: line.slice(6, -1) };
  const err = JSON.parse(line).err as unknown;
  return { kind: 'runtime', message: typeof err === 'string' ? err : formatJson(err) };
}

const wrap = (expr: string) => `try ([(\n${expr}\n)] | {ok: .}) catch {err: .}`;

/** Runs jq once per expression over all its inputs; one outcome per input. */
function jqOutcomes(expr: string, inputs: unknown[]): Outcome[] {
  const r = spawnSync(JQ, ['-c', wrap(expr)], {
    input: inputs.map((i) => JSON.stringify(i)).join('\n'),
    encoding: 'utf8',
  });
  if (r.status === 3) return inputs.map(() => ({ kind: 'compile' }));
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  assert.equal(
    lines.length,
    inputs.length,
    `jq gave ${lines.length} lines for ${inputs.length} inputs of ${expr}: ${r.stderr}`,
  );
  return lines.map(parseOutcome);
}

/**
 * jq's outcomes for many expressions with one jq process per chunk (jq's
 * start-up dominates otherwise): the program dispatches on the case number.
 * A chunk that does not compile (some expression is invalid) is halved until
 * the invalid expressions run alone.
 */
function jqOutcomesBatched(groups: Map<string, unknown[]>): Map<string, Outcome[]> {
  const result = new Map<string, Outcome[]>();
  const runChunk = (chunk: string[]): void => {
    if (chunk.length === 1) {
      result.set(chunk[0], jqOutcomes(chunk[0], groups.get(chunk[0])!));
      return;
    }
    const program = `.i as $i | .v | ${chunk.map((e, i) => `${i ? 'elif' : 'if'} $i == ${i} then ${wrap(e)}`).join('\n')} else null end`;
    const input = chunk.flatMap((e, i) => groups.get(e)!.map((v) => JSON.stringify({ i, v }))).join('\n');
    const r = spawnSync(JQ, ['-c', program], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    const total = chunk.reduce((n, e) => n + groups.get(e)!.length, 0);
    if (r.status !== 0 || lines.length !== total) {
      const half = Math.ceil(chunk.length / 2);
      runChunk(chunk.slice(0, half));
      runChunk(chunk.slice(half));
      return;
    }
    let k = 0;
    for (const e of chunk)
      result.set(
        e,
        groups.get(e)!.map(() => parseOutcome(lines[k++])),
      );
  };
  // Expressions wlx refuses are most likely invalid: run them alone from the start.
  const compiles = (e: string) => {
    try {
      compile(e);
      return true;
    } catch {
      return false;
    }
  };
  const exprs = [...groups.keys()].filter(compiles);
  for (const e of groups.keys()) if (!compiles(e)) runChunk([e]);
  for (let start = 0; start < exprs.length; start += 64) runChunk(exprs.slice(start, start + 64));
  return result;
}

function wlxOutcome(expr: string, input: unknown, fallback = false): Outcome {
  let program;
  try {
    program = fallback ? compileFallback(expr) : compile(expr);
  } catch (err) {
    if (err instanceof JqError && err.kind === 'compile') return { kind: 'compile' };
    throw err;
  }
  try {
    return { kind: 'ok', text: formatJson(program.run(input)) };
  } catch (err) {
    if (err instanceof JqError && err.kind === 'runtime') {
      return { kind: 'runtime', message: typeof err.value === 'string' ? err.value : formatJson(err.value) };
    }
    throw err;
  }
}

function sameOutcome(a: Outcome, b: Outcome): boolean {
  return a.kind === b.kind && (a.kind !== 'ok' || a.text === (b as { text: string }).text);
}

function groupByExpression(cases: JqCase[]): Map<string, unknown[]> {
  const m = new Map<string, unknown[]>();
  for (const c of cases) {
    const list = m.get(c.expr) ?? [];
    list.push(c.input);
    m.set(c.expr, list);
  }
  return m;
}

function compare(t: test.TestContext, cases: JqCase[]): void {
  const failures: string[] = [];
  const divergences: string[] = [];
  const messageDiffs: string[] = [];
  let compared = 0;
  const groups = groupByExpression(cases);
  const outcomes = jqOutcomesBatched(groups);
  for (const [expr, inputs] of groups) {
    const expected = outcomes.get(expr)!;
    inputs.forEach((input, i) => {
      compared++;
      const want = expected[i];
      const got = wlxOutcome(expr, input);
      const where = `${expr}  on ${JSON.stringify(input)?.slice(0, 60)}`;
      if (sameOutcome(want, got)) {
        if (want.kind === 'runtime' && got.kind === 'runtime' && want.message !== got.message) {
          messageDiffs.push(`${where}\n    jq:  ${want.message}\n    wlx: ${got.message}`);
        }
        return;
      }
      const v17 = wlxOutcome(expr, input, true);
      if (sameOutcome(v17, got)) {
        divergences.push(`${where}\n    jq 1.6: ${JSON.stringify(want)}\n    wlx = jq 1.7.1: ${JSON.stringify(got)}`);
        return;
      }
      failures.push(`${where}\n    jq:  ${JSON.stringify(want)}\n    wlx: ${JSON.stringify(got)}`);
    });
  }
  t.diagnostic(
    `${compared} cases compared; ${divergences.length} follow jq 1.7.1 where 1.6 differs; ${messageDiffs.length} error messages worded differently`,
  );
  for (const d of divergences) t.diagnostic(`1.6/1.7 divergence: ${d}`);
  for (const d of messageDiffs) t.diagnostic(`message: ${d}`);
  assert.deepEqual(failures, [], `${failures.length} mismatches:\n${failures.slice(0, 40).join('\n')}`);
}

test('the corpus has at least 200 cases, catalog expressions included', () => {
  assert.ok(CASES.length >= 200, `only ${CASES.length} hand-written cases`);
  if (existsSync('/work/shared/upstream-catalog')) assert.ok(catalogExpressions().length >= 100);
});

test('hand-written corpus: wlx agrees with jq', (t) => {
  if (!existsSync(JQ)) return t.skip('jq missing');
  compare(t, CASES);
});

test('upstream catalog expressions: wlx agrees with jq on workload and pod inputs', (t) => {
  if (!existsSync(JQ)) return t.skip('jq missing');
  const cases = catalogCases();
  if (!cases.length) return t.skip('upstream catalog missing');
  compare(t, cases);
});

test('where jq 1.6 and jq-wasm (1.7.1) agree, wlx agrees: null | has(k), -(.a)', (t) => {
  if (!existsSync(JQ)) return t.skip('jq missing');
  const cases: JqCase[] = [
    ...['has("x")', 'has(0)', 'has(null)', '.missing | has("a")'].map((expr) => ({ expr, input: null })),
    ...['-(.a)', '-(.a) + 1', '[-(.a), -.a]'].map((expr) => ({ expr, input: { a: 3 } })),
  ];
  for (const c of cases) {
    const [jq16] = jqOutcomes(c.expr, [c.input]);
    const jq17 = wlxOutcome(c.expr, c.input, true);
    assert.deepEqual(jq17, jq16, `the references disagree on ${c.expr}`);
    assert.deepEqual(wlxOutcome(c.expr, c.input), jq16, c.expr);
  }
});
