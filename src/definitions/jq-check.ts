// The one place where definition validation asks the jq engine (src/jq) about
// an expression: does it compile, and does it use a construct definitions may
// not use. Kept apart so the engine can be swapped without touching the rules.

/** What upstream forbids in definitions: writes, unbounded generators, deletion. */
export const FORBIDDEN_JQ_CONSTRUCTS = [
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
] as const;

interface JqEngine {
  compile(expr: string): unknown;
  validateExpression(expr: string, forbidden: string[]): string | null;
}

// The engine is being written alongside; load it if present so this module
// works (with a rough stand-in) before it lands. The specifier is a variable so
// that tsc does not require the module to exist yet.
const engineSpecifier = '../jq/index.js';
const engine: JqEngine | null = await import(engineSpecifier).then(
  (m: Partial<JqEngine>) => (typeof m.compile === 'function' && typeof m.validateExpression === 'function' ? (m as JqEngine) : null),
  () => null,
);

/** Why `expr` is not acceptable in a definition, or null when it is. */
export function checkJqExpression(expr: string): string | null {
  if (expr.trim() === '') return 'empty jq expression';
  if (engine) {
    try {
      engine.compile(expr);
    } catch (err) {
      return `jq expression does not compile: ${(err as Error).message}`;
    }
    const used = engine.validateExpression(expr, [...FORBIDDEN_JQ_CONSTRUCTS]);
    return used === null ? null : `jq expression uses ${describeConstruct(used)}, which definitions may not use`;
  }
  const used = roughForbiddenScan(expr);
  return used === null ? null : `jq expression uses ${describeConstruct(used)}, which definitions may not use`;
}

function describeConstruct(construct: string): string {
  return /^[a-z]+$/.test(construct) ? `\`${construct}\`` : `\`${construct}\` (${construct === '..' ? 'recursive descent' : 'assignment'})`;
}

/** Stand-in until src/jq exists: a token scan outside string literals, no parsing. */
function roughForbiddenScan(expr: string): string | null {
  const code = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const assign = /(\|=|\+=|-=|\*=|\/\/=|\/=|%=|(?<![=!<>])=(?!=))/.exec(code);
  if (assign) return assign[1]!;
  if (/(^|[^.])\.\.(?!\.)/.test(code)) return '..';
  const name = /(?<![.$\w])(recurse|paths|walk|repeat|range|del)\b/.exec(code);
  return name ? name[1]! : null;
}

/** True when the real engine is in use (tests report it). */
export const usingJqEngine = engine !== null;
