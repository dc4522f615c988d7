// How a definition problem reads wherever it is shown (CLI, explorer, snapshot).
import { relative, isAbsolute } from 'node:path';
import type { DefinitionProblem } from './types.js';
import { sanitise } from '../text/sanitise.js';

/** `file:line: field: message`, with `warning: ` before warnings' messages. */
export function formatProblem(problem: DefinitionProblem): string {
  const where = problem.line !== undefined ? `${displayPath(problem.file)}:${problem.line}` : displayPath(problem.file);
  const field = problem.field ? ` ${problem.field}:` : '';
  const message = problem.severity === 'warning' ? `warning: ${problem.message}` : problem.message;
  return sanitise(`${where}:${field} ${message}`);
}

function displayPath(file: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}
