// The evaluation budget: every jq evaluation is bounded, so an expression from
// a hostile or broken definition cannot hang or exhaust wlx. See README.md for
// the defaults and why.
//
// The native evaluator counts steps (values iterated, emitted, compared,
// printed) against a per-evaluation counter held here, and looks at the clock
// every CLOCK_EVERY steps; jq-wasm cannot count, so its calls run in a worker
// with a deadline (wasm.ts). Either way the error is the same JqError.
import { JqError, type BudgetLimit } from './errors.js';

export interface EvaluationBudget {
  /** Native evaluator steps per evaluation. */
  readonly steps: number;
  /** Wall time, ms: per native evaluation, per jq-wasm call. */
  readonly timeMs: number;
  /** Wall time added to a jq-wasm call per input after the first, ms (a runMany batch is one call). */
  readonly batchMsPerInput: number;
  /** Characters of any one string an evaluation builds. */
  readonly stringLength: number;
  /** Bytes of output of one jq-wasm call. */
  readonly outputBytes: number;
}

export const DEFAULT_BUDGET: EvaluationBudget = {
  steps: 4_000_000,
  timeMs: 5_000,
  batchMsPerInput: 1,
  stringLength: 64 * 1024 * 1024,
  outputBytes: 256 * 1024 * 1024,
};

let budget: EvaluationBudget = DEFAULT_BUDGET;

/** The budget every evaluation from now on gets (a partial one keeps the other limits). */
export function setEvaluationBudget(change: Partial<EvaluationBudget>): EvaluationBudget {
  const previous = budget;
  budget = { ...budget, ...change };
  return previous;
}

export function evaluationBudget(): EvaluationBudget {
  return budget;
}

/** jq-wasm's own heap limit (its build's maximum memory), which bounds recursion and data there. */
export const WASM_HEAP_BYTES = 256 * 1024 * 1024;

function describeLimit(limit: BudgetLimit): string {
  switch (limit) {
    case 'steps':
      return `${budget.steps.toLocaleString('en')} steps`;
    case 'time':
      return `${budget.timeMs.toLocaleString('en')} ms`;
    case 'depth':
      return 'nesting depth';
    case 'string':
      return `strings of ${budget.stringLength.toLocaleString('en')} characters`;
    case 'output':
      return `${budget.outputBytes.toLocaleString('en')} bytes of output`;
    case 'memory':
      return `${WASM_HEAP_BYTES / 1024 / 1024} MiB of jq memory`;
  }
}

/** The error of an evaluation over budget; `try`, `?` and `//` do not catch it. */
export function budgetError(limit: BudgetLimit): JqError {
  const err = new JqError('runtime', `exceeded the evaluation budget (${describeLimit(limit)})`);
  err.exceeded = limit;
  return err;
}

const CLOCK_EVERY = 4096;

// The running evaluation's counters. Outside any evaluation `left` is
// Infinity, so formatting or comparing values elsewhere never trips them.
let left = Infinity;
let clockAt = 0;
let deadline = 0;
let active = 0;
let lastSteps = 0;
const suspended: { left: number; clockAt: number; deadline: number }[] = [];

/** Starts an evaluation's budget; pair with leave() in a finally. Re-entrant. */
export function enter(): void {
  if (active++ > 0) suspended.push({ left, clockAt, deadline });
  left = budget.steps;
  clockAt = Math.max(left - CLOCK_EVERY, 0);
  // The clock starts at the first check: evaluations too short to reach it never read it.
  deadline = 0;
}

export function leave(): void {
  if (--active > 0) {
    const s = suspended.pop()!;
    left = s.left;
    clockAt = s.clockAt;
    deadline = s.deadline;
  } else {
    lastSteps = budget.steps - left;
    left = Infinity;
  }
}

/** Steps the last (outermost) native evaluation took: for measuring the margin of the defaults. */
export function lastEvaluationSteps(): number {
  return lastSteps;
}

/** Counts `n` steps of the running evaluation. */
export function tick(n = 1): void {
  if ((left -= n) < clockAt) checkpoint();
}

function checkpoint(): void {
  if (left < 0) throw budgetError('steps');
  const now = Date.now();
  if (deadline === 0) deadline = now + budget.timeMs;
  else if (now > deadline) throw budgetError('time');
  clockAt = Math.max(left - CLOCK_EVERY, 0);
}

/** Refuses to build a string of `length` characters when that is over budget. */
export function checkStringLength(length: number): void {
  if (length > budget.stringLength) throw budgetError('string');
}

/**
 * What a JavaScript error thrown while evaluating means for the budget: stack
 * overflow (deeply nested data) and V8's own size limits are over budget too.
 */
export function asBudgetError(err: unknown): unknown {
  if (!(err instanceof RangeError)) return err;
  if (/call stack/i.test(err.message)) return budgetError('depth');
  if (/string length/i.test(err.message)) return budgetError('string');
  if (/array length|allocation failed/i.test(err.message)) return budgetError('output');
  return err;
}
