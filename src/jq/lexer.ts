// jq's tokens. The lexer knows the whole token set of jq (so the validator can
// see every operator and name an expression uses, even inside string
// interpolation); the native parser then accepts its subset of the grammar.

export type TokenType = 'num' | 'str' | 'field' | 'ident' | 'var' | 'format' | 'op' | 'eof';

export interface Token {
  type: TokenType;
  /** Operator/identifier/field name text, the decoded string, or the number text. */
  text: string;
  pos: number;
  /** Decoded value for 'num' and 'str'. */
  value?: unknown;
  /** For strings with `\(…)`: the tokens of each interpolated expression. */
  interpolations?: Token[][];
}

export class LexError extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

// Longest first.
const OPERATORS = [
  '?//=',
  '?//',
  '//=',
  '|=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '==',
  '!=',
  '<=',
  '>=',
  '//',
  '..',
  'and',
  'or',
  '.',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '|',
  ',',
  ':',
  ';',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '?',
];
const SYMBOLS = OPERATORS.filter((o) => !/^[a-z]/.test(o));

const IDENT_START = /[A-Za-z_]/;
const IDENT_CHAR = /[A-Za-z_0-9]/;
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const IDENT = /[A-Za-z_][A-Za-z_0-9]*(?:::[A-Za-z_][A-Za-z_0-9]*)*/y;

export function tokenise(src: string): Token[] {
  const tokens: Token[] = [];
  const i = lexInto(src, 0, tokens, false);
  if (i < src.length) throw new LexError(`unexpected ')'`, i);
  tokens.push({ type: 'eof', text: '', pos: src.length });
  return tokens;
}

/** Lexes from `start`; inside an interpolation stops at the unmatched ')' and returns its index. */
function lexInto(src: string, start: number, tokens: Token[], nested: boolean): number {
  let i = start;
  let depth = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '"') {
      i = lexString(src, i, tokens);
      continue;
    }
    NUMBER.lastIndex = i;
    const num = (c >= '0' && c <= '9') || (c === '.' && /\d/.test(src[i + 1] ?? '')) ? NUMBER.exec(src) : null;
    if (num) {
      tokens.push({ type: 'num', text: num[0], pos: i, value: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    if (c === '.' && IDENT_START.test(src[i + 1] ?? '')) {
      let j = i + 1;
      while (j < src.length && IDENT_CHAR.test(src[j])) j++;
      tokens.push({ type: 'field', text: src.slice(i + 1, j), pos: i });
      i = j;
      continue;
    }
    if ((c === '$' || c === '@') && IDENT_START.test(src[i + 1] ?? '')) {
      IDENT.lastIndex = i + 1;
      const m = IDENT.exec(src)!;
      tokens.push({ type: c === '$' ? 'var' : 'format', text: m[0], pos: i });
      i += 1 + m[0].length;
      continue;
    }
    if (IDENT_START.test(c)) {
      IDENT.lastIndex = i;
      const m = IDENT.exec(src)!;
      const word = m[0];
      tokens.push({ type: word === 'and' || word === 'or' ? 'op' : 'ident', text: word, pos: i });
      i += word.length;
      continue;
    }
    const op = SYMBOLS.find((o) => src.startsWith(o, i));
    if (!op) throw new LexError(`unexpected character '${c}'`, i);
    if (op === '(') depth++;
    if (op === ')') {
      if (depth === 0 && nested) return i;
      depth--;
    }
    tokens.push({ type: 'op', text: op, pos: i });
    i += op.length;
  }
  if (nested) throw new LexError('unterminated string interpolation', i);
  return i;
}

function lexString(src: string, start: number, tokens: Token[]): number {
  let i = start + 1;
  let out = '';
  let interpolations: Token[][] | undefined;
  while (true) {
    if (i >= src.length) throw new LexError('unterminated string', start);
    const c = src[i];
    if (c === '"') {
      i++;
      break;
    }
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = src[i + 1];
    i += 2;
    switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        const hex = src.slice(i, i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new LexError('invalid \\u escape', i);
        out += String.fromCharCode(parseInt(hex, 16));
        i += 4;
        break;
      }
      case '(': {
        const inner: Token[] = [];
        const close = lexInto(src, i, inner, true);
        inner.push({ type: 'eof', text: '', pos: close });
        (interpolations ??= []).push(inner);
        i = close + 1;
        break;
      }
      default:
        throw new LexError(`invalid escape '\\${e ?? ''}'`, i - 2);
    }
  }
  const tok: Token = { type: 'str', text: out, pos: start, value: out };
  if (interpolations) tok.interpolations = interpolations;
  tokens.push(tok);
  return i;
}
