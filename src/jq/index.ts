// The jq engine's public API. compile() parses an expression into a program
// that evaluates against many inputs (it keeps nothing: whoever compiles for
// many evaluations keeps the program, e.g. the model's ExprCompiler):
//
// - native programs (the subset definitions use; see parser.ts) run in the
//   TypeScript evaluator, compiled to closures;
// - everything else is valid jq outside that subset and runs on jq 1.7.1 in
//   WebAssembly (wasm.ts) — synchronously too, so `run`/`first` work for every
//   program; `runAsync` and `runManyAsync` run it without blocking the thread
//   (the same deadline and errors), for callers that must stay responsive.
//
// compile() is synchronous and must still reject invalid jq. The native
// parser only ever *accepts* what it understands; whatever it cannot parse —
// unsupported or simply invalid — is compiled by jq itself, inside a
// never-taken branch (`if false then (EXPR) else empty end`, so nothing runs),
// and jq's verdict decides: a compile error, or a fallback program.
import { asBudgetError, enter, leave, tick } from './budget.js';
import { JqError, runtimeError } from './errors.js';
import { compileNode } from './evaluate.js';
import type { Compiled } from './compiled.js';
import { NotNative, parseNative } from './parser.js';
import { prepareWasm, runJq, runJqAsync, type WasmResult } from './wasm.js';
import { tokenise, type Token } from './lexer.js';

export { JqError, type BudgetLimit } from './errors.js';
export { formatJson, formatNumber } from './format.js';
export { wasmStats } from './wasm.js';
export { DEFAULT_BUDGET, evaluationBudget, setEvaluationBudget, type EvaluationBudget } from './budget.js';

export interface JqProgram {
  readonly source: string;
  /** True when the TypeScript evaluator runs it; false when jq-wasm does. */
  readonly native: boolean;
  /** All outputs; throws JqError (kind 'runtime'). */
  run(input: unknown): unknown[];
  /** The first output, or undefined when there is none; stops early. */
  first(input: unknown): unknown | undefined;
  /** Calls `emit` per output in order; throws JqError after emitting the outputs before the error. */
  stream(input: unknown, emit: (value: unknown) => void): void;
  /** The outputs for each input, or the JqError it raised (one jq-wasm call for fallback programs). */
  runMany(inputs: readonly unknown[]): (unknown[] | JqError)[];
  /**
   * stream() over many inputs (one jq-wasm call for fallback programs): `emit`
   * per output with its input's index; `fail` once for an input whose
   * evaluation raised, after that input's earlier outputs.
   */
  streamMany(
    inputs: readonly unknown[],
    emit: (inputIndex: number, value: unknown) => void,
    fail: (inputIndex: number, error: JqError) => void,
  ): void;
  /** run() without blocking the thread while jq-wasm runs (native programs run at once). */
  runAsync(input: unknown): Promise<unknown[]>;
  /** runMany() without blocking the thread while jq-wasm runs (native programs run at once). */
  runManyAsync(inputs: readonly unknown[]): Promise<(unknown[] | JqError)[]>;
}

/** Compiles `expr` or throws JqError (kind 'compile'). */
export function compile(expr: string): JqProgram {
  let compiled: Compiled;
  try {
    compiled = compileNode(parseNative(expr));
  } catch (err) {
    // Nesting too deep for the native parser's recursion: jq's parser decides.
    if (!(err instanceof NotNative) && !(err instanceof RangeError)) throw err;
    checkWithJq(expr);
    return new FallbackProgram(expr);
  }
  return new NativeProgram(expr, compiled);
}

/**
 * Whether `expr` compiles: throws the JqError compile() would, without
 * building a program (definition validation; the engine compiles its own).
 */
export function checkCompiles(expr: string): void {
  try {
    parseNative(expr);
    return;
  } catch (err) {
    if (!(err instanceof NotNative) && !(err instanceof RangeError)) throw err;
  }
  checkWithJq(expr);
}

/** Compile with the native evaluator disabled: the same expression on jq-wasm (tests, comparisons). */
export function compileFallback(expr: string): JqProgram {
  checkWithJq(expr);
  return new FallbackProgram(expr);
}

/** Warms up jq-wasm (compiles its WebAssembly asynchronously); optional. */
export function prepareFallback(): Promise<void> {
  return prepareWasm();
}

function checkWithJq(expr: string): void {
  if (expr.trim() === '') return; // jq treats an empty program as `.`
  const r = callJq({ kind: 'compile', expr, input: '', args: ['-n', `if false then (\n${expr}\n) else empty end`] });
  if (r.status === 0) return;
  // The wrapper shifts jq's wording ("unexpected ')'"); compiling the bare
  // expression again gives jq's own message. It fails to compile as well, so
  // nothing runs (and -n gives it no input).
  const bare = callJq({ kind: 'compile', expr, input: '', args: ['-n', expr] });
  const stderr = bare.status === 3 ? bare.stderr : r.stderr;
  const first = stderr.split('\n').find((l) => l.trim() !== '') ?? `jq exited with status ${r.status}`;
  const message = first
    .replace(/^jq: error: /, '')
    .replace(/ \(Unix shell quoting issues\?\)/, '')
    .replace(/ at <top-level>, line \d+:$/, '');
  throw new JqError('compile', message, expr);
}

/** One jq-wasm call an evaluation needs (JSON text of `inputs` values in, jq's output back). */
interface JqCall {
  kind: 'compile' | 'runtime';
  expr: string;
  input: string;
  args: string[];
  inputs?: number;
}

/**
 * A fallback evaluation written once as a generator of the jq-wasm calls it
 * needs; drive() runs them blocking, driveAsync() awaiting, so the two paths
 * share every rule of how jq's output is read.
 */
type JqSteps<T> = Generator<JqCall, T, WasmResult>;

/** A failure of jq-wasm itself (unloadable, aborting twice) as a JqError; a budget JqError names the expression. */
function callFailure(call: JqCall, err: unknown): JqError {
  if (err instanceof JqError) {
    err.expression ||= call.expr;
    return err;
  }
  return new JqError(call.kind, `jq-wasm failed on this expression: ${(err as Error).message}`, call.expr);
}

function callJq(call: JqCall): WasmResult {
  try {
    return runJq(call.input, call.args, call.inputs);
  } catch (err) {
    throw callFailure(call, err);
  }
}

function drive<T>(steps: JqSteps<T>): T {
  let step = steps.next();
  while (!step.done) {
    const call = step.value;
    let result: WasmResult;
    try {
      result = runJq(call.input, call.args, call.inputs);
    } catch (err) {
      step = steps.throw(callFailure(call, err));
      continue;
    }
    step = steps.next(result);
  }
  return step.value;
}

async function driveAsync<T>(steps: JqSteps<T>): Promise<T> {
  let step = steps.next();
  while (!step.done) {
    const call = step.value;
    let result: WasmResult;
    try {
      result = await runJqAsync(call.input, call.args, call.inputs);
    } catch (err) {
      step = steps.throw(callFailure(call, err));
      continue;
    }
    step = steps.next(result);
  }
  return step.value;
}

function withExpression(err: unknown, expr: string): unknown {
  const e = asBudgetError(err);
  if (e instanceof JqError && e.kind === 'runtime' && !e.expression) e.expression = expr;
  return e;
}

class NativeProgram implements JqProgram {
  readonly native = true;
  constructor(
    readonly source: string,
    private readonly compiled: Compiled,
  ) {}

  run(input: unknown): unknown[] {
    enter();
    try {
      const one = this.compiled.one;
      if (one) return [one(input)];
      const out: unknown[] = [];
      this.compiled.gen(input, (v) => {
        tick();
        out.push(v);
      });
      return out;
    } catch (err) {
      throw withExpression(err, this.source);
    } finally {
      leave();
    }
  }

  first(input: unknown): unknown | undefined {
    enter();
    try {
      const one = this.compiled.one;
      if (one) return one(input);
      const stop = {};
      let value: unknown;
      try {
        this.compiled.gen(input, (v) => {
          value = v;
          throw stop;
        });
      } catch (err) {
        if (err !== stop) throw err;
      }
      return value;
    } catch (err) {
      throw withExpression(err, this.source);
    } finally {
      leave();
    }
  }

  stream(input: unknown, emit: (value: unknown) => void): void {
    enter();
    try {
      this.compiled.gen(input, (v) => {
        tick();
        emit(v);
      });
    } catch (err) {
      throw withExpression(err, this.source);
    } finally {
      leave();
    }
  }

  runMany(inputs: readonly unknown[]): (unknown[] | JqError)[] {
    return inputs.map((input) => {
      try {
        return this.run(input);
      } catch (err) {
        if (err instanceof JqError) return err;
        throw err;
      }
    });
  }

  streamMany(
    inputs: readonly unknown[],
    emit: (inputIndex: number, value: unknown) => void,
    fail: (inputIndex: number, error: JqError) => void,
  ): void {
    inputs.forEach((input, i) => {
      try {
        this.stream(input, (v) => emit(i, v));
      } catch (err) {
        if (!(err instanceof JqError)) throw err;
        fail(i, err);
      }
    });
  }

  async runAsync(input: unknown): Promise<unknown[]> {
    return this.run(input);
  }

  async runManyAsync(inputs: readonly unknown[]): Promise<(unknown[] | JqError)[]> {
    return this.runMany(inputs);
  }
}

const ERROR_PREFIX = /^jq: error \(at [^)]*\)(?: \(not a string\))?: /;

function toJsonText(input: unknown): string {
  return JSON.stringify(input === undefined ? null : input);
}

/** jq's stderr for a runtime error → JqError with jq's error value. */
function parseRuntimeError(stderr: string, expr: string): JqError {
  const line = stderr.split('\n').find((l) => l.startsWith('jq: error')) ?? stderr.trim();
  const notString = /^jq: error \(at [^)]*\) \(not a string\): (.*)$/.exec(line);
  if (notString) {
    let value: unknown = notString[1];
    try {
      value = JSON.parse(notString[1]);
    } catch {
      // keep the text
    }
    const err = runtimeError(value);
    err.expression = expr;
    return err;
  }
  return new JqError('runtime', line.replace(ERROR_PREFIX, ''), expr);
}

function parseLines(stdout: string): unknown[] {
  const out: unknown[] = [];
  for (const line of stdout.split('\n')) if (line !== '') out.push(JSON.parse(line));
  return out;
}

interface Outcome {
  outputs: unknown[];
  error: JqError | null;
}

function outputsOf({ outputs, error }: Outcome): unknown[] {
  if (error) throw error;
  return outputs;
}

class FallbackProgram implements JqProgram {
  readonly native = false;
  constructor(readonly source: string) {}

  private *exec(input: unknown): JqSteps<Outcome> {
    const r = yield {
      kind: 'runtime',
      expr: this.source,
      input: toJsonText(input),
      args: ['-c', this.source === '' ? '.' : this.source],
    };
    const outputs = parseLines(r.stdout);
    if (r.status === 0) return { outputs, error: null };
    return { outputs, error: parseRuntimeError(r.stderr, this.source) };
  }

  run(input: unknown): unknown[] {
    return outputsOf(drive(this.exec(input)));
  }

  async runAsync(input: unknown): Promise<unknown[]> {
    return outputsOf(await driveAsync(this.exec(input)));
  }

  first(input: unknown): unknown | undefined {
    const { outputs, error } = drive(this.exec(input));
    if (outputs.length) return outputs[0];
    if (error) throw error;
    return undefined;
  }

  stream(input: unknown, emit: (value: unknown) => void): void {
    const { outputs, error } = drive(this.exec(input));
    for (const v of outputs) emit(v);
    if (error) throw error;
  }

  /**
   * One jq run of `wrapped` over all inputs, or the budget error it ran into:
   * the batch is one call with one deadline (scaled by its size), so that
   * error is every input's.
   */
  private *batch(inputs: readonly unknown[], wrapped: string): JqSteps<WasmResult | JqError> {
    try {
      return yield {
        kind: 'runtime',
        expr: this.source,
        input: inputs.map(toJsonText).join('\n'),
        args: ['-c', wrapped],
        inputs: inputs.length,
      };
    } catch (err) {
      if (err instanceof JqError && err.exceeded) return err;
      throw err;
    }
  }

  private *many(inputs: readonly unknown[]): JqSteps<(unknown[] | JqError)[]> {
    if (inputs.length === 0) return [];
    // One jq run over the whole stream; each input yields exactly one line.
    const wrapped = `try ([(\n${this.source || '.'}\n)] | {ok: .}) catch {err: .}`;
    const r = yield* this.batch(inputs, wrapped);
    if (r instanceof JqError) return inputs.map(() => r);
    const lines = r.status === 0 ? parseLines(r.stdout) : [];
    if (lines.length !== inputs.length) {
      const out: (unknown[] | JqError)[] = [];
      for (const input of inputs) {
        try {
          out.push(outputsOf(yield* this.exec(input)));
        } catch (err) {
          if (!(err instanceof JqError)) throw err;
          out.push(err);
        }
      }
      return out;
    }
    return lines.map((line) => {
      const l = line as { ok?: unknown[]; err?: unknown };
      if (l.ok) return l.ok;
      const err = runtimeError(l.err);
      err.expression = this.source;
      return err;
    });
  }

  runMany(inputs: readonly unknown[]): (unknown[] | JqError)[] {
    return drive(this.many(inputs));
  }

  runManyAsync(inputs: readonly unknown[]): Promise<(unknown[] | JqError)[]> {
    return driveAsync(this.many(inputs));
  }

  streamMany(
    inputs: readonly unknown[],
    emit: (inputIndex: number, value: unknown) => void,
    fail: (inputIndex: number, error: JqError) => void,
  ): void {
    if (inputs.length === 0) return;
    // One jq run over the stream: each output tagged {o}, an error {e}, the end of an input {d}.
    const wrapped = `(try ((\n${this.source || '.'}\n) | {o: .}) catch {e: .}), {d: true}`;
    const r = drive(this.batch(inputs, wrapped));
    if (r instanceof JqError) {
      inputs.forEach((_, i) => fail(i, r));
      return;
    }
    if (r.status !== 0) {
      // Not expected (the wrapper catches runtime errors); evaluate one input at a time.
      inputs.forEach((input, i) => {
        try {
          this.stream(input, (v) => emit(i, v));
        } catch (err) {
          if (!(err instanceof JqError)) throw err;
          fail(i, err);
        }
      });
      return;
    }
    let i = 0;
    for (const line of parseLines(r.stdout) as { o?: unknown; e?: unknown; d?: true }[]) {
      if (line.d) i++;
      else if ('o' in line) emit(i, line.o);
      else {
        const err = runtimeError(line.e);
        err.expression = this.source;
        fail(i, err);
      }
    }
  }
}

/** What Workload Map definitions may not use: assignment/update operators, `..` and the recursive or mutating builtins. */
export const FORBIDDEN_IN_DEFINITIONS: readonly string[] = [
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

function flatten(tokens: Token[], out: Token[] = []): Token[] {
  for (const t of tokens) {
    out.push(t);
    if (t.interpolations) for (const inner of t.interpolations) flatten(inner, out);
  }
  return out;
}

/**
 * The first construct of `forbidden` the expression uses, or null. Entries are
 * operators (`=`, `|=`, `+=`, `..`, …) or builtin names (`recurse`, `paths`,
 * `del`, …); names are matched as calls, not as fields (`.paths`), variables
 * or object keys (`{range: 1}`). Returns null for text that does not
 * tokenise — compile() reports that.
 */
export function validateExpression(
  expr: string,
  forbidden: readonly string[] = FORBIDDEN_IN_DEFINITIONS,
): string | null {
  let tokens: Token[];
  try {
    tokens = flatten(tokenise(expr));
  } catch {
    return null;
  }
  const wanted = new Set(forbidden);
  const braces: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'op') {
      if (t.text === '{' || t.text === '(' || t.text === '[') braces.push(t.text);
      else if (t.text === '}' || t.text === ')' || t.text === ']') braces.pop();
      if (wanted.has(t.text)) return t.text;
    } else if (t.type === 'ident' && wanted.has(t.text)) {
      const prev = tokens[i - 1];
      const next = tokens[i + 1];
      const isKey =
        braces[braces.length - 1] === '{' &&
        prev?.type === 'op' &&
        (prev.text === '{' || prev.text === ',') &&
        next?.type === 'op' &&
        (next.text === ':' || next.text === ',' || next.text === '}');
      if (!isKey) return t.text;
    }
  }
  return null;
}
