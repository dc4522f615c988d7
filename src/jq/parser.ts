// The native parser: jq's grammar for the subset wlx evaluates itself (paths,
// pipes, streams, `//`, boolean and arithmetic operators, comparisons,
// construction, `if`, `try`, `?` and a set of builtins). It mirrors jq's
// precedence table:  '|' < ',' < '//' < 'or' < 'and' < comparisons < '+ -' < '* / %'
// < postfix ('?', paths) — and jq's restricted object-value grammar
// (`{a: 1 + 2}` is a syntax error in jq). Anything else — valid jq outside the
// subset, or invalid jq — throws NotNative, and compile() lets jq itself decide.
import { LexError, tokenise, type Token } from './lexer.js';

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=';

export type Node =
  | { t: 'identity' }
  | { t: 'literal'; value: unknown }
  // `opt`: the suffix `?` of jq's `Term FIELD '?'`, `Term '[' … ']' '?'`: it
  // suppresses errors of this indexing step only, not of its target.
  | { t: 'field'; target: Node; name: string; opt?: boolean }
  | { t: 'index'; target: Node; index: Node; opt?: boolean }
  | { t: 'slice'; target: Node; from: Node | null; to: Node | null; opt?: boolean }
  | { t: 'iterate'; target: Node; opt?: boolean }
  | { t: 'pipe'; left: Node; right: Node }
  | { t: 'comma'; left: Node; right: Node }
  | { t: 'alt'; left: Node; right: Node }
  | { t: 'and'; left: Node; right: Node }
  | { t: 'or'; left: Node; right: Node }
  | { t: 'binop'; op: BinaryOp; left: Node; right: Node }
  | { t: 'neg'; operand: Node }
  | { t: 'array'; body: Node | null }
  | { t: 'object'; entries: { key: Node; value: Node }[] }
  | { t: 'if'; cond: Node; then: Node; else: Node | null }
  | { t: 'try'; body: Node; handler: Node | null }
  | { t: 'call'; name: string; args: Node[] };

export class NotNative extends Error {}

/** Builtins the native evaluator implements, by name/arity. */
export const NATIVE_BUILTINS = new Set([
  'empty/0',
  'error/0',
  'error/1',
  'not/0',
  'select/1',
  'map/1',
  'length/0',
  'utf8bytelength/0',
  'keys/0',
  'keys_unsorted/0',
  'has/1',
  'to_entries/0',
  'from_entries/0',
  'with_entries/1',
  'add/0',
  'any/0',
  'any/1',
  'any/2',
  'all/0',
  'all/1',
  'all/2',
  'first/0',
  'first/1',
  'last/0',
  'last/1',
  'type/0',
  'tonumber/0',
  'tostring/0',
  'tojson/0',
  'ascii_downcase/0',
  'ascii_upcase/0',
  'values/0',
  'nulls/0',
  'booleans/0',
  'numbers/0',
  'strings/0',
  'arrays/0',
  'objects/0',
  'iterables/0',
  'scalars/0',
  'join/1',
  'startswith/1',
  'endswith/1',
  'split/1',
  'sort/0',
  'reverse/0',
  'min/0',
  'max/0',
  'floor/0',
]);

const KEYWORDS = new Set([
  'if',
  'then',
  'elif',
  'else',
  'end',
  'as',
  'def',
  'reduce',
  'foreach',
  'try',
  'catch',
  'label',
  'import',
  'include',
  '__loc__',
  'and',
  'or',
]);

const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);

class Parser {
  private i = 0;
  constructor(private readonly toks: Token[]) {}

  private peek(): Token {
    return this.toks[this.i];
  }
  private next(): Token {
    return this.toks[this.i++];
  }
  private isOp(text: string): boolean {
    const t = this.peek();
    return t.type === 'op' && t.text === text;
  }
  private isIdent(text: string): boolean {
    const t = this.peek();
    return t.type === 'ident' && t.text === text;
  }
  private expectOp(text: string): void {
    if (!this.isOp(text)) throw new NotNative(`expected '${text}'`);
    this.i++;
  }
  private expectIdent(text: string): void {
    if (!this.isIdent(text)) throw new NotNative(`expected '${text}'`);
    this.i++;
  }

  parseProgram(): Node {
    const n = this.parsePipe();
    if (this.peek().type !== 'eof') throw new NotNative(`unexpected '${this.peek().text}'`);
    return n;
  }

  // '|' is right-associative and lowest.
  private parsePipe(): Node {
    const left = this.parseComma();
    if (this.isOp('|')) {
      this.i++;
      return { t: 'pipe', left, right: this.parsePipe() };
    }
    return left;
  }

  private parseComma(): Node {
    let left = this.parseAlt();
    while (this.isOp(',')) {
      this.i++;
      left = { t: 'comma', left, right: this.parseAlt() };
    }
    return left;
  }

  // '//' is right-associative.
  private parseAlt(): Node {
    const left = this.parseOr();
    if (this.isOp('//')) {
      this.i++;
      return { t: 'alt', left, right: this.parseAlt() };
    }
    return left;
  }

  private parseOr(): Node {
    let left = this.parseAnd();
    while (this.isOp('or')) {
      this.i++;
      left = { t: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): Node {
    let left = this.parseComparison();
    while (this.isOp('and')) {
      this.i++;
      left = { t: 'and', left, right: this.parseComparison() };
    }
    return left;
  }

  // Non-associative: `1 < 2 < 3` is a syntax error in jq.
  private parseComparison(): Node {
    const left = this.parseAdditive();
    const t = this.peek();
    if (t.type === 'op' && COMPARISONS.has(t.text)) {
      this.i++;
      const right = this.parseAdditive();
      const after = this.peek();
      if (after.type === 'op' && COMPARISONS.has(after.text)) throw new NotNative('non-associative comparison');
      return { t: 'binop', op: t.text as BinaryOp, left, right };
    }
    return left;
  }

  private parseAdditive(): Node {
    let left = this.parseMultiplicative();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.next().text as BinaryOp;
      left = { t: 'binop', op, left, right: this.parseMultiplicative() };
    }
    return left;
  }

  private parseMultiplicative(): Node {
    let left = this.parseUnary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) {
      const op = this.next().text as BinaryOp;
      left = { t: 'binop', op, left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(): Node {
    if (this.isOp('-')) {
      this.i++;
      return { t: 'neg', operand: this.parseUnary() };
    }
    return this.parsePostfix();
  }

  private parsePostfix(): Node {
    let parenthesised = this.isOp('(');
    let node = this.parsePrimary();
    for (;;) {
      const t = this.peek();
      if (!(t.type === 'op' && t.text === '?')) parenthesised = false;
      if (t.type === 'field') {
        this.i++;
        node = { t: 'field', target: node, name: t.text };
      } else if (t.type === 'op' && t.text === '.' && this.toks[this.i + 1]?.type === 'str') {
        const s = this.toks[this.i + 1];
        if (s.interpolations) throw new NotNative('string interpolation');
        this.i += 2;
        node = { t: 'field', target: node, name: s.value as string };
      } else if (t.type === 'op' && t.text === '[') {
        node = this.parseBracketSuffix(node);
      } else if (t.type === 'op' && t.text === '?') {
        this.i++;
        if (
          (node.t === 'field' || node.t === 'index' || node.t === 'slice' || node.t === 'iterate') &&
          !node.opt &&
          !parenthesised
        ) {
          node = { ...node, opt: true };
        } else node = { t: 'try', body: node, handler: null };
      } else if (t.type === 'ident' && t.text === 'as') {
        throw new NotNative('variable binding');
      } else {
        return node;
      }
    }
  }

  private parseBracketSuffix(target: Node): Node {
    this.expectOp('[');
    if (this.isOp(']')) {
      this.i++;
      return { t: 'iterate', target };
    }
    if (this.isOp(':')) {
      this.i++;
      const to = this.parsePipe();
      this.expectOp(']');
      return { t: 'slice', target, from: null, to };
    }
    const index = this.parsePipe();
    if (this.isOp(':')) {
      this.i++;
      if (this.isOp(']')) {
        this.i++;
        return { t: 'slice', target, from: index, to: null };
      }
      const to = this.parsePipe();
      this.expectOp(']');
      return { t: 'slice', target, from: index, to };
    }
    this.expectOp(']');
    return { t: 'index', target, index };
  }

  private parsePrimary(): Node {
    const t = this.next();
    switch (t.type) {
      case 'num':
        return { t: 'literal', value: t.value };
      case 'str':
        if (t.interpolations) throw new NotNative('string interpolation');
        return { t: 'literal', value: t.value };
      case 'field':
        return { t: 'field', target: { t: 'identity' }, name: t.text };
      case 'var':
        throw new NotNative('variables');
      case 'format':
        throw new NotNative('formats');
      case 'eof':
        throw new NotNative('unexpected end of expression');
      case 'op':
        return this.parseOpPrimary(t);
      case 'ident':
        return this.parseIdentPrimary(t);
    }
  }

  private parseOpPrimary(t: Token): Node {
    switch (t.text) {
      case '.': {
        const n = this.peek();
        if (n.type === 'str') {
          if (n.interpolations) throw new NotNative('string interpolation');
          this.i++;
          return { t: 'field', target: { t: 'identity' }, name: n.value as string };
        }
        if (n.type === 'op' && n.text === '[') return this.parseBracketSuffix({ t: 'identity' });
        return { t: 'identity' };
      }
      case '(': {
        const body = this.parsePipe();
        this.expectOp(')');
        return body;
      }
      case '[': {
        if (this.isOp(']')) {
          this.i++;
          return { t: 'array', body: null };
        }
        const body = this.parsePipe();
        this.expectOp(']');
        return { t: 'array', body };
      }
      case '{':
        return this.parseObject();
      default:
        throw new NotNative(`unsupported '${t.text}'`);
    }
  }

  private parseIdentPrimary(t: Token): Node {
    switch (t.text) {
      case 'true':
        return { t: 'literal', value: true };
      case 'false':
        return { t: 'literal', value: false };
      case 'null':
        return { t: 'literal', value: null };
      case 'if':
        return this.parseIf();
      case 'try': {
        const body = this.parsePostTerm();
        if (this.isIdent('catch')) {
          this.i++;
          return { t: 'try', body, handler: this.parsePostTerm() };
        }
        return { t: 'try', body, handler: null };
      }
    }
    if (KEYWORDS.has(t.text) || t.text.includes('::')) throw new NotNative(`unsupported '${t.text}'`);
    const args: Node[] = [];
    if (this.isOp('(')) {
      this.i++;
      for (;;) {
        args.push(this.parsePipe());
        if (this.isOp(';')) {
          this.i++;
          continue;
        }
        this.expectOp(')');
        break;
      }
    }
    if (!NATIVE_BUILTINS.has(`${t.text}/${args.length}`)) throw new NotNative(`${t.text}/${args.length} is not native`);
    return { t: 'call', name: t.text, args };
  }

  // `try` binds tighter than every binary operator: its body is one postfix term.
  private parsePostTerm(): Node {
    if (this.isOp('-')) throw new NotNative('negation after try');
    return this.parsePostfix();
  }

  private parseIf(): Node {
    const cond = this.parsePipe();
    this.expectIdent('then');
    const then = this.parsePipe();
    if (this.isIdent('elif')) {
      this.i++;
      return { t: 'if', cond, then, else: this.parseIf() };
    }
    if (this.isIdent('else')) {
      this.i++;
      const otherwise = this.parsePipe();
      this.expectIdent('end');
      return { t: 'if', cond, then, else: otherwise };
    }
    this.expectIdent('end');
    return { t: 'if', cond, then, else: null };
  }

  private parseObject(): Node {
    const entries: { key: Node; value: Node }[] = [];
    if (this.isOp('}')) {
      this.i++;
      return { t: 'object', entries };
    }
    for (;;) {
      const k = this.next();
      let key: Node;
      let shorthand: string | null = null;
      if (k.type === 'ident' && !k.text.includes('::')) {
        key = { t: 'literal', value: k.text };
        shorthand = k.text;
      } else if (k.type === 'str' && !k.interpolations) {
        key = { t: 'literal', value: k.value };
        shorthand = k.value as string;
      } else if (k.type === 'num' || (k.type === 'op' && k.text === '(')) {
        if (k.type === 'num') throw new NotNative('numeric object key');
        key = this.parsePipe();
        this.expectOp(')');
      } else {
        throw new NotNative('unsupported object key');
      }
      let value: Node;
      if (this.isOp(':')) {
        this.i++;
        value = this.parseObjectValue();
      } else {
        if (shorthand === null) throw new NotNative('object key needs a value');
        value = { t: 'field', target: { t: 'identity' }, name: shorthand };
      }
      entries.push({ key, value });
      if (this.isOp(',')) {
        this.i++;
        continue;
      }
      this.expectOp('}');
      return { t: 'object', entries };
    }
  }

  // jq's ExpD: ExpD '|' ExpD | '-' ExpD | Term.
  private parseObjectValue(): Node {
    let left: Node;
    if (this.isOp('-')) {
      this.i++;
      left = { t: 'neg', operand: this.parseObjectValue() };
      return left;
    }
    left = this.parsePostfix();
    if (this.isOp('|')) {
      this.i++;
      return { t: 'pipe', left, right: this.parseObjectValue() };
    }
    return left;
  }
}

/** Parses an expression of the native subset, or throws NotNative. */
export function parseNative(src: string): Node {
  let toks: Token[];
  try {
    toks = tokenise(src);
  } catch (err) {
    if (err instanceof LexError) throw new NotNative(err.message);
    throw err;
  }
  return new Parser(toks).parseProgram();
}
