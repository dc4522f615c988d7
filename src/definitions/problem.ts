// The one text form of a definition problem, for every place that prints or
// reports one (`wlx definitions`, `wlx get`, the live engine's problem list).
// Plain text: callers sanitise it before it reaches a terminal (a cluster
// definition's name or message is cluster text).
import type { DefinitionProblem } from './types.js';

/** `file:line: field: message`, with `warning: ` before a warning's message. */
export function formatProblem(problem: DefinitionProblem): string {
  const where = problem.line !== undefined ? `${problem.file}:${problem.line}` : problem.file;
  const field = problem.field ? ` ${problem.field}:` : '';
  const message = problem.severity === 'warning' ? `warning: ${problem.message}` : problem.message;
  return `${where}:${field} ${message}`;
}
