// The one place where definition validation asks the jq engine (src/jq) about
// an expression: does it compile, and does it use a construct definitions may
// not use. Kept apart so the engine can be swapped without touching the rules.
import { checkCompiles, FORBIDDEN_IN_DEFINITIONS, validateExpression } from '../jq/index.js';

/** What upstream forbids in definitions: writes, unbounded generators, deletion (the jq engine's list). */
export const FORBIDDEN_JQ_CONSTRUCTS = FORBIDDEN_IN_DEFINITIONS;

/** Why `expr` is not acceptable in a definition, or null when it is. */
export function checkJqExpression(expr: string): string | null {
  if (expr.trim() === '') return 'empty jq expression';
  // Forbidden constructs first: they are a clearer message than any compile
  // error, and checking them needs no compilation.
  const used = validateExpression(expr, FORBIDDEN_JQ_CONSTRUCTS);
  if (used !== null) return `jq expression uses ${describeConstruct(used)}, which definitions may not use`;
  try {
    checkCompiles(expr);
  } catch (err) {
    return `jq expression does not compile: ${(err as Error).message}`;
  }
  return null;
}

function describeConstruct(construct: string): string {
  if (/^[a-z_]+$/.test(construct)) return `\`${construct}\``;
  return `\`${construct}\` (${construct === '..' ? 'recursive descent' : 'assignment'})`;
}
