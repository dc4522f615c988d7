// A definition's jq expression, compiled once with where it came from (which
// component, which field), so that any failure can be reported as
// "component worker: scaleDefinition.replicasPath `.spec.x | tonumber`: <error>".
import { compile, JqError, type JqProgram } from '../jq/index.js';
import type { BudgetLimit } from '../jq/budget.js';

export interface Expr {
  source: string;
  /** Dotted field of the definition, e.g. `scaleDefinition.replicasPath`. */
  field: string;
  /** Component name; null for definition-wide fields (gangs). */
  component: string | null;
  program: JqProgram | null;
  /** Why it did not compile; then every evaluation fails with this message. */
  compileError: string | null;
  /** The health of the definition it belongs to, shared by all its expressions; null when standalone. */
  health: DefinitionHealth | null;
}

/**
 * Whether a definition still gets evaluated. The first evaluation of any of its
 * expressions that runs over the jq budget breaks it: from then on every one of
 * its expressions fails at once with that error, so that 10,000 objects do not
 * each pay the budget. A new plan (definitions reloaded with a change) starts healthy.
 */
export interface DefinitionHealth {
  readonly definition: string;
  broken: ExprError | null;
}

export function newDefinitionHealth(definition: string): DefinitionHealth {
  return { definition, broken: null };
}

/** An evaluation failure, carrying the expression so callers can say which one. */
export class ExprError extends Error {
  constructor(
    readonly expr: Expr,
    message: string,
    /** Set when the evaluation ran over the jq budget: which limit. */
    readonly exceeded: BudgetLimit | null = null,
  ) {
    super(message);
    this.name = 'ExprError';
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The ExprError for an evaluation that threw `err`; one over budget breaks the expression's definition. */
function evaluationFailure(expr: Expr, err: unknown): ExprError {
  const exceeded = err instanceof JqError ? err.exceeded : null;
  const health = exceeded ? expr.health : null;
  if (!health) return new ExprError(expr, messageOf(err), exceeded);
  // Another evaluation of a batch may have broken it already: keep the first failure.
  health.broken ??= new ExprError(
    expr,
    `${messageOf(err)}; definition ${health.definition} is not evaluated any more until it changes`,
    exceeded,
  );
  return health.broken;
}

/** Refuses to evaluate an expression of a broken definition. */
function checkHealthy(expr: Expr): void {
  const broken = expr.health?.broken;
  if (broken) throw broken;
}

export function compileExpr(
  source: string,
  field: string,
  component: string | null,
  health: DefinitionHealth | null = null,
): Expr {
  // jq-wasm (Emscripten) leaves jq's exit status in process.exitCode when it
  // rejects an expression; a bad definition must not change how wlx exits.
  const exitCode = process.exitCode;
  try {
    return { source, field, component, program: compile(source), compileError: null, health };
  } catch (err) {
    return { source, field, component, program: null, compileError: messageOf(err), health };
  } finally {
    process.exitCode = exitCode;
  }
}

// Expressions outside the native subset run on jq-wasm, where one call costs
// milliseconds but one call over many inputs costs little more. Callers that
// are about to evaluate such expressions for many objects (a flush placing
// thousands of pods) prefetch them in one batch; evaluation then reads the
// result for that very object (by identity) instead of calling jq again.
const prefetched = new WeakMap<Expr, WeakMap<object, unknown[] | ExprError>>();

/** Evaluates the non-native expressions among `exprs` for all `inputs` in one jq-wasm run each. */
export function prefetch(exprs: readonly Expr[], inputs: readonly object[]): void {
  if (inputs.length === 0) return;
  for (const e of exprs) {
    if (!e.program || e.program.native || e.health?.broken) continue;
    let memo = prefetched.get(e);
    if (!memo) {
      memo = new WeakMap();
      prefetched.set(e, memo);
    }
    const todo = inputs.filter((i) => !memo.has(i));
    if (todo.length === 0) continue;
    let results: (unknown[] | ExprError)[];
    try {
      results = e.program.runMany(todo).map((r) => (r instanceof JqError ? evaluationFailure(e, r) : r));
    } catch (err) {
      const error = evaluationFailure(e, err);
      results = todo.map(() => error);
    }
    todo.forEach((input, i) => memo.set(input, results[i] ?? new ExprError(e, 'no result')));
  }
}

function prefetchedFor(expr: Expr, input: unknown): unknown[] | undefined {
  if (expr.program?.native !== false || typeof input !== 'object' || input === null) return undefined;
  const hit = prefetched.get(expr)?.get(input);
  if (hit instanceof ExprError) throw hit;
  return hit;
}

/** All outputs. */
export function runExpr(expr: Expr, input: unknown): unknown[] {
  if (!expr.program) throw new ExprError(expr, expr.compileError ?? 'does not compile');
  checkHealthy(expr);
  const hit = prefetchedFor(expr, input);
  if (hit) return hit;
  try {
    return expr.program.run(input);
  } catch (err) {
    throw evaluationFailure(expr, err);
  }
}

/** The first output, or undefined when there is none. */
export function firstOf(expr: Expr, input: unknown): unknown {
  if (!expr.program) throw new ExprError(expr, expr.compileError ?? 'does not compile');
  checkHealthy(expr);
  const hit = prefetchedFor(expr, input);
  if (hit) return hit[0];
  try {
    return expr.program.first(input);
  } catch (err) {
    throw evaluationFailure(expr, err);
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
