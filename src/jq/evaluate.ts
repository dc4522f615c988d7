// The native evaluator: compiles a parsed expression once into closures.
// Every node becomes a generator in callback form, `(input, emit) => void`
// (jq's 0..n outputs, in jq's order); nodes that always yield exactly one value
// also get a direct `(input) => value` form, so the hot path of definitions —
// `.metadata.labels["k"]`, `.a // 1`, comparisons — is a few property reads.
import { tick } from './budget.js';
import { JqError, runtimeError } from './errors.js';
import { formatJson } from './format.js';
import type { BinaryOp, Node } from './parser.js';
import {
  add,
  compare,
  describe,
  divide,
  dumpTrunc,
  equals,
  hasKey,
  index,
  isTruthy,
  iterate,
  keysOf,
  kindOf,
  lengthOf,
  modulo,
  multiply,
  negate,
  setKey,
  slice,
  splitString,
  subtract,
  toNumber,
  toString,
  type JsonObject,
} from './value.js';

export type Emit = (value: unknown) => void;
export type Gen = (input: unknown, emit: Emit) => void;
export type One = (input: unknown) => unknown;

export interface Compiled {
  gen: Gen;
  /** Present when the node yields exactly one value (or throws). */
  one?: One;
}

/** Whether jq's `try`, `?` and `//` may catch `err`: runtime errors, but never running over budget. */
export function isCatchable(err: unknown): err is JqError {
  return err instanceof JqError && err.kind === 'runtime' && err.exceeded === null;
}

/** Thrown through a generator to stop it early (first/1, any/2, all/2, …). */
class Stop {}

function single(one: One): Compiled {
  return { one, gen: (input, emit) => emit(one(input)) };
}

/** Runs a generator until its first output; `found` says whether there was one. */
function firstOf(gen: Gen, input: unknown): { found: boolean; value: unknown } {
  const stop = new Stop();
  let value: unknown;
  let found = false;
  try {
    gen(input, (v) => {
      value = v;
      found = true;
      throw stop;
    });
  } catch (err) {
    if (err !== stop) throw err;
  }
  return { found, value };
}

function collect(gen: Gen, input: unknown): unknown[] {
  const out: unknown[] = [];
  gen(input, (v) => {
    tick();
    out.push(v);
  });
  return out;
}

/** Emits each item of `items`, one step each. */
function emitAll(items: unknown[], emit: Emit): void {
  tick();
  for (let i = 0; i < items.length; i++) {
    tick();
    emit(items[i]);
  }
}

const BINARY: Record<BinaryOp, (a: unknown, b: unknown) => unknown> = {
  '+': add,
  '-': subtract,
  '*': multiply,
  '/': divide,
  '%': modulo,
  '==': (a, b) => equals(a, b),
  '!=': (a, b) => !equals(a, b),
  '<': (a, b) => compare(a, b) < 0,
  '<=': (a, b) => compare(a, b) <= 0,
  '>': (a, b) => compare(a, b) > 0,
  '>=': (a, b) => compare(a, b) >= 0,
};

/** Applies one indexing step, dropping its error when the step is optional (`?`). */
function step(opt: boolean | undefined, op: () => unknown, emit: Emit): void {
  if (!opt) {
    emit(op());
    return;
  }
  let v: unknown;
  try {
    v = op();
  } catch (err) {
    if (isCatchable(err)) return;
    throw err;
  }
  emit(v);
}

export function compileNode(node: Node): Compiled {
  if ((node.t === 'field' || node.t === 'index' || node.t === 'slice' || node.t === 'iterate') && node.opt) {
    return compileOptional(node);
  }
  switch (node.t) {
    case 'identity':
      return single((x) => x);
    case 'literal': {
      const v = node.value;
      return single(() => v);
    }
    case 'field':
      return compileField(node.target, node.name);
    case 'index': {
      const target = compileNode(node.target);
      const key = compileNode(node.index);
      if (target.one && key.one) {
        const t = target.one;
        const k = key.one;
        if (node.index.t === 'literal') {
          const kv = node.index.value;
          return single((x) => index(t(x), kv));
        }
        return single((x) => {
          const kv = k(x);
          return index(t(x), kv);
        });
      }
      // jq evaluates the index outside, the target inside.
      return {
        gen: (x, emit) => key.gen(x, (kv) => target.gen(x, (tv) => emit(index(tv, kv)))),
      };
    }
    case 'slice': {
      const target = compileNode(node.target);
      const from = node.from ? compileNode(node.from) : single(() => null);
      const to = node.to ? compileNode(node.to) : single(() => null);
      return {
        gen: (x, emit) => from.gen(x, (f) => to.gen(x, (t) => target.gen(x, (tv) => emit(slice(tv, f, t))))),
      };
    }
    case 'iterate': {
      const target = compileNode(node.target);
      return {
        gen: (x, emit) => target.gen(x, (tv) => emitAll(iterate(tv), emit)),
      };
    }
    case 'pipe': {
      const left = compileNode(node.left);
      const right = compileNode(node.right);
      if (left.one && right.one) {
        const l = left.one;
        const r = right.one;
        return single((x) => r(l(x)));
      }
      const rg = right.gen;
      if (left.one) {
        const l = left.one;
        return { gen: (x, emit) => rg(l(x), emit) };
      }
      return { gen: (x, emit) => left.gen(x, (v) => rg(v, emit)) };
    }
    case 'comma': {
      const left = compileNode(node.left).gen;
      const right = compileNode(node.right).gen;
      return {
        gen: (x, emit) => {
          tick();
          left(x, emit);
          right(x, emit);
        },
      };
    }
    case 'alt':
      return compileAlt(node.left, node.right);
    case 'and':
    case 'or':
      return compileBoolean(node.t, node.left, node.right);
    case 'binop': {
      const fn = BINARY[node.op];
      const left = compileNode(node.left);
      const right = compileNode(node.right);
      if (left.one && right.one) {
        const l = left.one;
        const r = right.one;
        return single((x) => {
          const b = r(x);
          return fn(l(x), b);
        });
      }
      // The right operand is the outer loop, as in jq.
      return {
        gen: (x, emit) =>
          right.gen(x, (b) =>
            left.gen(x, (a) => {
              tick();
              emit(fn(a, b));
            }),
          ),
      };
    }
    case 'neg': {
      const operand = compileNode(node.operand);
      if (operand.one) {
        const o = operand.one;
        return single((x) => negate(o(x)));
      }
      return { gen: (x, emit) => operand.gen(x, (v) => emit(negate(v))) };
    }
    case 'array': {
      if (!node.body) return single(() => []);
      const body = compileNode(node.body);
      if (body.one) {
        const b = body.one;
        return single((x) => [b(x)]);
      }
      const g = body.gen;
      return single((x) => collect(g, x));
    }
    case 'object':
      return compileObject(node.entries);
    case 'if':
      return compileIf(node.cond, node.then, node.else);
    case 'try':
      return compileTry(node.body, node.handler);
    case 'call':
      return compileCall(node.name, node.args);
  }
}

function compileOptional(node: Node & { t: 'field' | 'index' | 'slice' | 'iterate' }): Compiled {
  const target = compileNode(node.target);
  switch (node.t) {
    case 'field': {
      const name = node.name;
      return { gen: (x, emit) => target.gen(x, (o) => step(true, () => index(o, name), emit)) };
    }
    case 'index': {
      const key = compileNode(node.index);
      return { gen: (x, emit) => key.gen(x, (kv) => target.gen(x, (tv) => step(true, () => index(tv, kv), emit))) };
    }
    case 'slice': {
      const from = node.from ? compileNode(node.from) : single(() => null);
      const to = node.to ? compileNode(node.to) : single(() => null);
      return {
        gen: (x, emit) =>
          from.gen(x, (f) => to.gen(x, (t) => target.gen(x, (tv) => step(true, () => slice(tv, f, t), emit)))),
      };
    }
    case 'iterate':
      return {
        gen: (x, emit) =>
          target.gen(x, (tv) => {
            let items: unknown[];
            try {
              items = iterate(tv);
            } catch (err) {
              if (isCatchable(err)) return;
              throw err;
            }
            emitAll(items, emit);
          }),
      };
  }
}

function compileField(targetNode: Node, name: string): Compiled {
  if (targetNode.t === 'identity') {
    return single((x) => {
      if (typeof x === 'object' && x !== null && !Array.isArray(x)) {
        const v = (x as JsonObject)[name];
        return v === undefined || !Object.prototype.hasOwnProperty.call(x, name) ? null : v;
      }
      return index(x, name);
    });
  }
  const target = compileNode(targetNode);
  if (target.one) {
    const t = target.one;
    return single((x) => {
      const o = t(x);
      if (typeof o === 'object' && o !== null && !Array.isArray(o)) {
        const v = (o as JsonObject)[name];
        return v === undefined || !Object.prototype.hasOwnProperty.call(o, name) ? null : v;
      }
      return index(o, name);
    });
  }
  return { gen: (x, emit) => target.gen(x, (o) => emit(index(o, name))) };
}

function compileAlt(leftNode: Node, rightNode: Node): Compiled {
  const left = compileNode(leftNode);
  const right = compileNode(rightNode);
  if (left.one && right.one) {
    const l = left.one;
    const r = right.one;
    return single((x) => {
      const v = l(x);
      return v !== null && v !== false && v !== undefined ? v : r(x);
    });
  }
  return {
    gen: (x, emit) => {
      let any = false;
      left.gen(x, (v) => {
        if (isTruthy(v)) {
          any = true;
          emit(v);
        }
      });
      if (!any) right.gen(x, emit);
    },
  };
}

function compileBoolean(kind: 'and' | 'or', leftNode: Node, rightNode: Node): Compiled {
  const left = compileNode(leftNode);
  const right = compileNode(rightNode);
  const shortCircuit = kind === 'or';
  if (left.one && right.one) {
    const l = left.one;
    const r = right.one;
    return single((x) => (isTruthy(l(x)) === shortCircuit ? shortCircuit : isTruthy(r(x))));
  }
  return {
    gen: (x, emit) =>
      left.gen(x, (a) => {
        if (isTruthy(a) === shortCircuit) emit(shortCircuit);
        else right.gen(x, (b) => emit(isTruthy(b)));
      }),
  };
}

function compileObject(entries: { key: Node; value: Node }[]): Compiled {
  const compiled = entries.map((e) => ({ key: compileNode(e.key), value: compileNode(e.value) }));
  const checkKey = (k: unknown): string => {
    if (typeof k !== 'string') throw runtimeError(`Cannot use ${describe(k)} as object key`);
    return k;
  };
  if (compiled.every((e) => e.key.one && e.value.one)) {
    const pairs = compiled.map((e) => ({ k: e.key.one!, v: e.value.one! }));
    return single((x) => {
      const out: JsonObject = {};
      for (const p of pairs) {
        const k = checkKey(p.k(x));
        setKey(out, k, p.v(x));
      }
      return out;
    });
  }
  // Cartesian product: each entry's key is the outer loop, its value the inner.
  return {
    gen: (x, emit) => {
      const build = (i: number, acc: JsonObject): void => {
        tick();
        if (i === compiled.length) {
          emit(acc);
          return;
        }
        const e = compiled[i];
        e.key.gen(x, (k) => {
          const key = checkKey(k);
          e.value.gen(x, (v) => {
            const next: JsonObject = {};
            for (const kk of Object.keys(acc)) setKey(next, kk, acc[kk]);
            setKey(next, key, v);
            build(i + 1, next);
          });
        });
      };
      build(0, {});
    },
  };
}

function compileIf(condNode: Node, thenNode: Node, elseNode: Node | null): Compiled {
  const cond = compileNode(condNode);
  const then = compileNode(thenNode);
  const otherwise = elseNode ? compileNode(elseNode) : single((x) => x);
  if (cond.one && then.one && otherwise.one) {
    const c = cond.one;
    const t = then.one;
    const o = otherwise.one;
    return single((x) => (isTruthy(c(x)) ? t(x) : o(x)));
  }
  return {
    gen: (x, emit) => cond.gen(x, (c) => (isTruthy(c) ? then.gen(x, emit) : otherwise.gen(x, emit))),
  };
}

/** Errors raised downstream of a `try` body pass through it untouched (jq 1.7, gojq). */
class Downstream {
  constructor(
    readonly error: unknown,
    readonly owner: object,
  ) {}
}

function compileTry(bodyNode: Node, handlerNode: Node | null): Compiled {
  const body = compileNode(bodyNode);
  const handler = handlerNode ? compileNode(handlerNode) : null;
  return {
    gen: (x, emit) => {
      const owner = {};
      try {
        body.gen(x, (v) => {
          try {
            emit(v);
          } catch (err) {
            throw new Downstream(err, owner);
          }
        });
      } catch (err) {
        if (err instanceof Downstream && err.owner === owner) throw err.error;
        if (!isCatchable(err)) throw err;
        if (handler) handler.gen(err.value, emit);
      }
    },
  };
}

type Builtin = (args: Compiled[]) => Compiled;

function argValues(arg: Compiled, x: unknown, f: (v: unknown) => void): void {
  arg.gen(x, f);
}

/** A builtin of one value argument (jq's `def f($a)`): one output per argument output. */
function withArg(arg: Compiled, fn: (x: unknown, a: unknown) => unknown): Compiled {
  if (arg.one) {
    const a = arg.one;
    return single((x) => fn(x, a(x)));
  }
  return { gen: (x, emit) => arg.gen(x, (a) => emit(fn(x, a))) };
}

function stringOp(name: string, fn: (s: string, arg: string) => unknown): Builtin {
  return ([arg]) =>
    withArg(arg, (x, a) => {
      if (typeof x !== 'string' || typeof a !== 'string') throw runtimeError(`${name}() requires string inputs`);
      return fn(x, a);
    });
}

function typeFilter(kinds: string[]): Builtin {
  return () => ({
    gen: (x, emit) => {
      if (kinds.includes(kindOf(x))) emit(x);
    },
  });
}

function asciiCase(upper: boolean): Builtin {
  return () =>
    single((x) => {
      if (typeof x !== 'string') throw runtimeError('explode input must be a string');
      return x.replace(upper ? /[a-z]+/g : /[A-Z]+/g, (m) => (upper ? m.toUpperCase() : m.toLowerCase()));
    });
}

function fromEntries(x: unknown): unknown {
  let out: JsonObject = {};
  for (const e of iterate(x)) {
    let k: unknown = null;
    // jq 1.6: `map({(.key // .name // .Name // .Key): .value}) | add + {} // {}`.
    for (const name of ['key', 'name', 'Name', 'Key']) {
      k = index(e, name);
      if (isTruthy(k)) break;
    }
    if (typeof k !== 'string') throw runtimeError(`Cannot use ${kindOf(k)} (${dumpTrunc(k)}) as object key`);
    const v = index(e, 'value');
    const next = add(out, { [k]: v }) as JsonObject;
    out = next;
  }
  return out;
}

function toEntries(x: unknown): unknown[] {
  return keysOf(x, false).map((k) => ({ key: k, value: index(x, k) }));
}

/** jq 1.6 `any(gen; cond)` / `all(gen; cond)`: stop at the first deciding condition. */
function quantifier(want: boolean, gen: Gen, cond: Compiled, x: unknown): boolean {
  const stop = new Stop();
  let decided = false;
  try {
    gen(x, (item) =>
      cond.gen(item, (c) => {
        if (isTruthy(c) === want) {
          decided = true;
          throw stop;
        }
      }),
    );
  } catch (err) {
    if (err !== stop) throw err;
  }
  return want ? decided : !decided;
}

const iterGen: Gen = (x, emit) => emitAll(iterate(x), emit);

const BUILTINS: Record<string, Builtin> = {
  'empty/0': () => ({ gen: () => {} }),
  'error/0': () =>
    single((x) => {
      throw runtimeError(x);
    }),
  'error/1': ([msg]) => ({
    gen: (x) =>
      argValues(msg, x, (m) => {
        throw runtimeError(m);
      }),
  }),
  'not/0': () => single((x) => !isTruthy(x)),
  'select/1': ([f]) => ({
    gen: (x, emit) =>
      f.gen(x, (c) => {
        if (isTruthy(c)) emit(x);
      }),
  }),
  'map/1': ([f]) =>
    single((x) => {
      const out: unknown[] = [];
      iterGen(x, (item) =>
        f.gen(item, (v) => {
          tick();
          out.push(v);
        }),
      );
      return out;
    }),
  'length/0': () => single(lengthOf),
  'utf8bytelength/0': () =>
    single((x) => {
      if (typeof x !== 'string')
        throw runtimeError(`${kindOf(x)} (${dumpTrunc(x)}) only strings have UTF-8 byte length`);
      return Buffer.byteLength(x, 'utf8');
    }),
  'keys/0': () => single((x) => keysOf(x, true)),
  'keys_unsorted/0': () => single((x) => keysOf(x, false)),
  'has/1': ([k]) => withArg(k, hasKey),
  'to_entries/0': () => single(toEntries),
  'from_entries/0': () => single(fromEntries),
  'with_entries/1': ([f]) =>
    single((x) => {
      const mapped: unknown[] = [];
      emitAll(toEntries(x), (e) =>
        f.gen(e, (v) => {
          tick();
          mapped.push(v);
        }),
      );
      return fromEntries(mapped);
    }),
  'add/0': () =>
    single((x) => {
      let acc: unknown = null;
      emitAll(iterate(x), (v) => (acc = add(acc, v)));
      return acc;
    }),
  'any/0': () =>
    single((x) => {
      tick(lengthOf(x));
      return iterate(x).reduce<boolean>((acc, v) => acc || isTruthy(v), false);
    }),
  'all/0': () =>
    single((x) => {
      tick(lengthOf(x));
      return iterate(x).reduce<boolean>((acc, v) => acc && isTruthy(v), true);
    }),
  'any/1': ([f]) =>
    single((x) => {
      let acc = false;
      iterGen(x, (item) => f.gen(item, (c) => (acc = acc || isTruthy(c))));
      return acc;
    }),
  'all/1': ([f]) =>
    single((x) => {
      let acc = true;
      iterGen(x, (item) => f.gen(item, (c) => (acc = acc && isTruthy(c))));
      return acc;
    }),
  'any/2': ([g, c]) => single((x) => quantifier(true, g.gen, c, x)),
  'all/2': ([g, c]) => single((x) => quantifier(false, g.gen, c, x)),
  'first/0': () => single((x) => index(x, 0)),
  'last/0': () => single((x) => index(x, -1)),
  'first/1': ([f]) => ({
    gen: (x, emit) => {
      const r = firstOf(f.gen, x);
      if (r.found) emit(r.value);
    },
  }),
  'last/1': ([f]) =>
    single((x) => {
      let last: unknown = null;
      f.gen(x, (v) => {
        tick();
        last = v;
      });
      return last;
    }),
  'type/0': () => single(kindOf),
  'tonumber/0': () => single(toNumber),
  'tostring/0': () => single(toString),
  'tojson/0': () => single(formatJson),
  'ascii_downcase/0': asciiCase(false),
  'ascii_upcase/0': asciiCase(true),
  'values/0': () => ({ gen: (x, emit) => (x === null || x === undefined ? undefined : emit(x)) }),
  'nulls/0': typeFilter(['null']),
  'booleans/0': typeFilter(['boolean']),
  'numbers/0': typeFilter(['number']),
  'strings/0': typeFilter(['string']),
  'arrays/0': typeFilter(['array']),
  'objects/0': typeFilter(['object']),
  'iterables/0': typeFilter(['array', 'object']),
  'scalars/0': typeFilter(['null', 'boolean', 'number', 'string']),
  // jq 1.6: reduce .[] as $i (null; (if .==null then "" else .+$x end) +
  //   ($i | if .==null then "" elif type=="boolean" or type=="number" then tojson else . end)) // ""
  'join/1': ([sep]) =>
    withArg(sep, (x, s) => {
      let acc: unknown = null;
      const items = iterate(x);
      tick(items.length);
      for (const item of items) {
        const left = acc === null ? '' : add(acc, s);
        const right =
          item === null || item === undefined
            ? ''
            : typeof item === 'boolean' || typeof item === 'number'
              ? formatJson(item)
              : item;
        acc = add(left, right);
      }
      return isTruthy(acc) ? acc : '';
    }),
  'startswith/1': stringOp('startswith', (s, a) => s.startsWith(a)),
  'endswith/1': stringOp('endswith', (s, a) => s.endsWith(a)),
  'split/1': ([sep]) =>
    withArg(sep, (x, s) => {
      if (typeof x !== 'string' || typeof s !== 'string')
        throw runtimeError('split input and separator must be strings');
      return splitString(x, s);
    }),
  'sort/0': () =>
    single((x) => {
      if (!Array.isArray(x))
        throw runtimeError(`${kindOf(x)} (${dumpTrunc(x)}) cannot be sorted, as it is not an array`);
      tick(x.length);
      return x.slice().sort(compare);
    }),
  'reverse/0': () =>
    single((x) => {
      if (typeof x === 'string') return Array.from(x).reverse().join('');
      if (x === null || x === undefined) return [];
      if (!Array.isArray(x)) throw runtimeError(`Cannot index ${kindOf(x)} with number`);
      return x.slice().reverse();
    }),
  'min/0': () => single((x) => extreme(x, -1)),
  'max/0': () => single((x) => extreme(x, 1)),
  'floor/0': () =>
    single((x) => {
      if (typeof x !== 'number') throw runtimeError(`${kindOf(x)} (${dumpTrunc(x)}) number required`);
      return Math.floor(x);
    }),
};

function extreme(x: unknown, sign: number): unknown {
  if (!Array.isArray(x)) throw runtimeError(`${kindOf(x)} (${dumpTrunc(x)}) cannot be sorted, as it is not an array`);
  let best: unknown = null;
  tick(x.length);
  for (let i = 0; i < x.length; i++) {
    if (i === 0 || compare(x[i], best) * sign >= 0) best = x[i];
  }
  return best;
}

function compileCall(name: string, argNodes: Node[]): Compiled {
  const builtin = BUILTINS[`${name}/${argNodes.length}`];
  if (!builtin) throw new Error(`internal: no native builtin ${name}/${argNodes.length}`);
  return builtin(argNodes.map(compileNode));
}
