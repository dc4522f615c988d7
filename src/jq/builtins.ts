// jq's builtins as the native evaluator runs them (name/arity → a compiler of
// their compiled arguments), jq 1.6 semantics.
import { tick } from './budget.js';
import { runtimeError } from './errors.js';
import { formatJson } from './format.js';
import { emitAll, firstOf, single, Stop, type Compiled, type Gen } from './compiled.js';
import {
  add,
  compare,
  dumpTrunc,
  hasKey,
  index,
  isTruthy,
  iterate,
  keysOf,
  kindOf,
  lengthOf,
  splitString,
  toNumber,
  toString,
  type JsonObject,
} from './value.js';

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

export const BUILTINS: Record<string, Builtin> = {
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
