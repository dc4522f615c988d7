// The one error type of the jq engine. `compile` errors are syntax/binding
// errors (jq exits 3 for them); `runtime` errors are raised while evaluating
// (jq exits 5). A runtime error carries jq's error value: a message string, or
// any JSON value given to `error(v)`.

/** Which bound of the evaluation budget (budget.ts) an evaluation ran over. */
export type BudgetLimit = 'steps' | 'time' | 'depth' | 'string' | 'output' | 'memory';

export type JqErrorKind = 'compile' | 'runtime';

export class JqError extends Error {
  readonly kind: JqErrorKind;
  expression: string;
  /** The jq error value (`try … catch .` sees it); the message for compile errors. */
  readonly value: unknown;
  /** Set when the evaluation ran over its budget (budget.ts): which limit. No `try` catches it. */
  exceeded: BudgetLimit | null = null;

  constructor(kind: JqErrorKind, message: string, expression = '', value: unknown = message) {
    // Runtime errors are control flow as much as failures: every `.a.b // x`
    // or `f?` over a missing path raises one, and capturing a stack trace was
    // most of their cost under churn. Compile errors keep theirs (rare, and
    // worth a trace when debugging).
    if (kind === 'runtime') {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        super(message);
      } finally {
        Error.stackTraceLimit = limit;
      }
    } else {
      super(message);
    }
    this.name = 'JqError';
    this.kind = kind;
    this.expression = expression;
    this.value = value;
  }
}

/** A runtime error as jq raises it: `error(value)`; the message is how jq prints it. */
export function runtimeError(value: unknown): JqError {
  const message = typeof value === 'string' ? value : `${JSON.stringify(value)} (not a string)`;
  return new JqError('runtime', message, '', value);
}
