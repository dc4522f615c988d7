// The native evaluator: compiles a parsed expression once into closures.
// Every node becomes a generator in callback form, `(input, emit) => void`
// (jq's 0..n outputs, in jq's order); nodes that always yield exactly one value
// also get a direct `(input) => value` form, so the hot path of definitions —
// `.metadata.labels["k"]`, `.a // 1`, comparisons — is a few property reads.
import { tick } from './budget.js';
import { collect, emitAll, single, type Compiled, type Emit } from './compiled.js';
import { BUILTINS } from './builtins.js';
import { JqError, runtimeError } from './errors.js';
import type { BinaryOp, Node } from './parser.js';
import {
  add,
  compare,
  describe,
  divide,
  equals,
  index,
  isTruthy,
  iterate,
  modulo,
  multiply,
  negate,
  setKey,
  slice,
  subtract,
  type JsonObject,
} from './value.js';

/** Whether jq's `try`, `?` and `//` may catch `err`: runtime errors, but never running over budget. */
export function isCatchable(err: unknown): err is JqError {
  return err instanceof JqError && err.kind === 'runtime' && err.exceeded === null;
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

function compileCall(name: string, argNodes: Node[]): Compiled {
  const builtin = BUILTINS[`${name}/${argNodes.length}`];
  if (!builtin) throw new Error(`internal: no native builtin ${name}/${argNodes.length}`);
  return builtin(argNodes.map(compileNode));
}
