// A definition's jq expression, compiled once with where it came from (which
// component, which field), so that any failure can be reported as
// "component worker: scaleDefinition.replicasPath `.spec.x | tonumber`: <error>".
import { compile, type JqProgram } from '../jq/index.js';

export interface Expr {
  source: string;
  /** Dotted field of the definition, e.g. `scaleDefinition.replicasPath`. */
  field: string;
  /** Component name; null for definition-wide fields (gangs). */
  component: string | null;
  program: JqProgram | null;
  /** Why it did not compile; then every evaluation fails with this message. */
  compileError: string | null;
}

/** An evaluation failure, carrying the expression so callers can say which one. */
export class ExprError extends Error {
  constructor(
    readonly expr: Expr,
    message: string,
  ) {
    super(message);
    this.name = 'ExprError';
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function compileExpr(source: string, field: string, component: string | null): Expr {
  // jq-wasm (Emscripten) leaves jq's exit status in process.exitCode when it
  // rejects an expression; a bad definition must not change how wlx exits.
  const exitCode = process.exitCode;
  try {
    return { source, field, component, program: compile(source), compileError: null };
  } catch (err) {
    return { source, field, component, program: null, compileError: messageOf(err) };
  } finally {
    process.exitCode = exitCode;
  }
}

// Expressions outside the native subset run on jq-wasm, where one call costs
// milliseconds but one call over many inputs costs little more. Callers that
// are about to evaluate such expressions for many objects (a flush placing
// thousands of pods) prefetch them in one batch; evaluation then reads the
// result for that very object (by identity) instead of calling jq again.
const prefetched = new WeakMap<Expr, WeakMap<object, unknown[] | Error>>();

/** Evaluates the non-native expressions among `exprs` for all `inputs` in one jq-wasm run each. */
export function prefetch(exprs: readonly Expr[], inputs: readonly object[]): void {
  if (inputs.length === 0) return;
  for (const e of exprs) {
    if (!e.program || e.program.native) continue;
    let memo = prefetched.get(e);
    if (!memo) {
      memo = new WeakMap();
      prefetched.set(e, memo);
    }
    const todo = inputs.filter((i) => !memo.has(i));
    if (todo.length === 0) continue;
    let results: (unknown[] | Error)[];
    try {
      results = e.program.runMany(todo);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      results = todo.map(() => error);
    }
    todo.forEach((input, i) => memo.set(input, results[i] ?? new Error('no result')));
  }
}

function prefetchedFor(expr: Expr, input: unknown): unknown[] | undefined {
  if (expr.program?.native !== false || typeof input !== 'object' || input === null) return undefined;
  const hit = prefetched.get(expr)?.get(input);
  if (hit instanceof Error) throw new ExprError(expr, hit.message);
  return hit;
}

/** All outputs. */
export function runExpr(expr: Expr, input: unknown): unknown[] {
  if (!expr.program) throw new ExprError(expr, expr.compileError ?? 'does not compile');
  const hit = prefetchedFor(expr, input);
  if (hit) return hit;
  try {
    return expr.program.run(input);
  } catch (err) {
    throw new ExprError(expr, messageOf(err));
  }
}

/** The first output, or undefined when there is none. */
export function firstOf(expr: Expr, input: unknown): unknown {
  if (!expr.program) throw new ExprError(expr, expr.compileError ?? 'does not compile');
  const hit = prefetchedFor(expr, input);
  if (hit) return hit[0];
  try {
    return expr.program.first(input);
  } catch (err) {
    throw new ExprError(expr, messageOf(err));
  }
}

/**
 * A key path's value: it must yield exactly one non-empty value (a string, or
 * a number/boolean printed as jq would). Zero outputs or null means "no key"
 * (undefined); several outputs is an error.
 */
export function singleKey(expr: Expr, input: unknown): string | undefined {
  const out = runExpr(expr, input);
  if (out.length === 0) return undefined;
  if (out.length > 1) throw new ExprError(expr, `yields ${out.length} values, a key path must yield exactly one`);
  return keyString(out[0]);
}

/** How a jq value reads as a key: strings as they are, scalars as jq prints them, null as no key. */
export function keyString(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v === '' ? undefined : v;
  return JSON.stringify(v);
}

/** "<subject>: component c: field `expr`: message" */
export function describeFailure(subject: string, expr: Expr, message: string): string {
  const where = expr.component !== null ? `component ${expr.component}: ` : '';
  return `${subject}: ${where}${expr.field} \`${expr.source}\`: ${message}`;
}
