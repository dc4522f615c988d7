// A definition's jq expression, compiled once with where it came from (which
// component, which field), so that any failure can be reported as
// "component worker: scaleDefinition.replicasPath `.spec.x | tonumber`: <error>".
import { compile, evaluationBudget, JqError, type EvaluationBudget, type JqProgram } from '../jq/index.js';
import type { BudgetLimit } from '../jq/errors.js';

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
  /** What evaluations learnt of its program, shared with every Expr of the same text from the same ExprCompiler. */
  learnt: ProgramLearnt;
}

/**
 * What evaluating one program taught, kept with the program by the compiler
 * that made it (so two engines never see each other's):
 *
 * - `overBudget`: found over the budget off the main thread (prefetchAsync,
 *   the definitions' pre-flight), with the budget it ran under. A plan
 *   evaluating it later breaks at once instead of blocking the thread for the
 *   deadline: the objects it evaluates may have been replaced since (a watch
 *   event) and so are not among the prefetched inputs. Forgotten when the
 *   budget changes.
 * - `prefetched`: jq-wasm results by input identity (see prefetch below); a
 *   failure is kept as thrown and worded for the expression that reads it.
 */
interface ProgramLearnt {
  overBudget: { error: JqError; budget: EvaluationBudget } | null;
  readonly prefetched: WeakMap<object, unknown[] | Error>;
}

/** One text's program (or why it does not compile) and what was learnt of it. */
interface CompiledText {
  program: JqProgram | null;
  compileError: string | null;
  learnt: ProgramLearnt;
}

/**
 * Whether a definition still gets evaluated. The first evaluation of any of its
 * expressions that runs over the jq budget breaks it: from then on every one of
 * its expressions fails at once with that error, so that 10,000 objects do not
 * each pay the budget. A new plan (definitions reloaded with a change) starts healthy,
 * unless one of its programs is known to be over budget (ProgramLearnt above).
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

function knownOverBudget(expr: Expr): JqError | null {
  const known = expr.learnt.overBudget;
  return known && known.budget === evaluationBudget() ? known.error : null;
}

/** The failure that stops an evaluation before it starts: its definition broken, or its program over budget. */
function failureBefore(expr: Expr): ExprError | null {
  if (expr.health?.broken) return expr.health.broken;
  const known = expr.program && !expr.program.native ? knownOverBudget(expr) : null;
  return known ? evaluationFailure(expr, known) : null;
}

/** Refuses to evaluate an expression of a broken definition, or one known to be over budget. */
function checkHealthy(expr: Expr): void {
  const failure = failureBefore(expr);
  if (failure) throw failure;
}

/**
 * Compiles definition expressions, each distinct text once, and keeps with
 * each program what its evaluations learnt (ProgramLearnt). One per engine
 * (or store): its pre-flight and its store's plans — a reload's new plan
 * included — share programs, so what one found serves the others; another
 * engine's compiler shares nothing with it.
 */
export class ExprCompiler {
  private readonly byText = new Map<string, CompiledText>();

  compile(source: string, field: string, component: string | null, health: DefinitionHealth | null = null): Expr {
    const { program, compileError, learnt } = this.compiled(source);
    return { source, field, component, program, compileError, health, learnt };
  }

  private compiled(source: string): CompiledText {
    const hit = this.byText.get(source);
    if (hit) return hit;
    const learnt: ProgramLearnt = { overBudget: null, prefetched: new WeakMap() };
    // jq-wasm (Emscripten) leaves jq's exit status in process.exitCode when it
    // rejects an expression; a bad definition must not change how wlx exits.
    const exitCode = process.exitCode;
    let result: CompiledText;
    try {
      result = { program: compile(source), compileError: null, learnt };
    } catch (err) {
      result = { program: null, compileError: messageOf(err), learnt };
      // Running out of time while compiling says nothing lasting about the expression.
      if (err instanceof JqError && err.exceeded) return result;
    } finally {
      process.exitCode = exitCode;
    }
    this.byText.set(source, result);
    return result;
  }
}

// Expressions outside the native subset run on jq-wasm, where one call costs
// milliseconds but one call over many inputs costs little more. Callers that
// are about to evaluate such expressions for many objects (a flush placing
// thousands of pods) prefetch them in one batch; evaluation then reads the
// result for that very object (by identity) instead of calling jq again.
// Results are kept with the program (ProgramLearnt: one ExprCompiler gives
// every plan the same program for the same text), so what a pre-flight
// prefetched serves the plan the store makes afterwards.

/** Inputs a prefetchAsync sends to jq-wasm at once: the thread serialises and parses each chunk between awaits. */
const ASYNC_CHUNK = 1_000;

/** The prefetch memo of `e`'s program when `e` still needs jq-wasm to evaluate, else null. */
function memoToFill(e: Expr): WeakMap<object, unknown[] | Error> | null {
  if (!e.program || e.program.native || failureBefore(e)) return null;
  return e.learnt.prefetched;
}

/** Records a batch's results; an error over budget breaks `e`'s definition as an evaluation would. */
function record(
  e: Expr,
  memo: WeakMap<object, unknown[] | Error>,
  inputs: readonly object[],
  results: readonly (unknown[] | Error)[],
): void {
  inputs.forEach((input, i) => {
    const r = results[i] ?? new Error('no result');
    if (!Array.isArray(r)) evaluationFailure(e, r);
    memo.set(input, r);
  });
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** Breaks the definitions of expressions known over budget before their batch runs any of the others. */
function breakKnownOverBudget(exprs: readonly Expr[]): void {
  for (const e of exprs) failureBefore(e);
}

/** Evaluates the non-native expressions among `exprs` for all `inputs` in one jq-wasm run each. */
export function prefetch(exprs: readonly Expr[], inputs: readonly object[]): void {
  if (inputs.length === 0) return;
  breakKnownOverBudget(exprs);
  for (const e of exprs) {
    const memo = memoToFill(e);
    if (!memo) continue;
    const todo = inputs.filter((i) => !memo.has(i));
    if (todo.length === 0) continue;
    let results: (unknown[] | Error)[];
    try {
      results = e.program!.runMany(todo);
    } catch (err) {
      results = todo.map(() => asError(err));
    }
    record(e, memo, todo, results);
  }
}

/**
 * prefetch() off the main thread: jq-wasm runs in a worker while the caller
 * awaits (an explorer keeps drawing and reading keys), in chunks of
 * ASYNC_CHUNK inputs. An expression over budget breaks its definition, is
 * remembered as over budget (ProgramLearnt) and is not sent again.
 */
export async function prefetchAsync(exprs: readonly Expr[], inputs: readonly object[]): Promise<void> {
  if (inputs.length === 0) return;
  breakKnownOverBudget(exprs);
  for (const e of exprs) {
    const memo = memoToFill(e);
    if (!memo) continue;
    const program = e.program!;
    const todo = inputs.filter((i) => !memo.has(i));
    // Between awaits another evaluation may break the definition: then stop.
    for (let at = 0; at < todo.length && !failureBefore(e); at += ASYNC_CHUNK) {
      const chunk = todo.slice(at, at + ASYNC_CHUNK);
      let results: (unknown[] | Error)[];
      try {
        results = await program.runManyAsync(chunk);
      } catch (err) {
        results = chunk.map(() => asError(err));
      }
      record(e, memo, chunk, results);
      const exceeded = results.find((r): r is JqError => r instanceof JqError && r.exceeded !== null);
      if (exceeded) {
        e.learnt.overBudget = { error: exceeded, budget: evaluationBudget() };
        break;
      }
    }
  }
}

function prefetchedFor(expr: Expr, input: unknown): unknown[] | undefined {
  if (!expr.program || expr.program.native || typeof input !== 'object' || input === null) return undefined;
  const hit = expr.learnt.prefetched.get(input);
  if (hit instanceof Error) throw evaluationFailure(expr, hit);
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
