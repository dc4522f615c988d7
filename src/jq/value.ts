// jq's value semantics over plain JSON values (null, boolean, number, string,
// array, plain object): kinds, truthiness, the total order, equality,
// arithmetic and indexing, with jq 1.6's error messages.
import { checkStringLength, tick } from './budget.js';
import { runtimeError } from './errors.js';
import { formatJson } from './format.js';

export type JqKind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
export type JsonObject = Record<string, unknown>;

export function kindOf(v: unknown): JqKind {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'object':
      return Array.isArray(v) ? 'array' : 'object';
    default:
      return 'null';
  }
}

export function isTruthy(v: unknown): boolean {
  return v !== null && v !== false && v !== undefined;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets a key without ever touching the prototype (`__proto__` is data here). */
export function setKey(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** A value as jq shows it inside error messages: compact JSON cut to 11 chars + "...". */
export function dumpTrunc(v: unknown): string {
  const s = formatJson(v);
  return s.length > 14 ? `${s.slice(0, 11)}...` : s;
}

export function describe(v: unknown): string {
  return `${kindOf(v)} (${dumpTrunc(v)})`;
}

const KIND_ORDER: Record<JqKind, number> = { null: 0, boolean: 1, number: 3, string: 4, array: 5, object: 6 };

function kindRank(v: unknown): number {
  if (v === false) return 1;
  if (v === true) return 2;
  return KIND_ORDER[kindOf(v)];
}

/** Strings compare by code point (= UTF-8 byte order, as jq), not UTF-16 unit. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (astral code points) sort after every BMP code unit >= 0xE000.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys && (xs ? y >= 0xe000 : x >= 0xe000)) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
}

export function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(compareStrings);
}

/** jq's total order: null < false < true < numbers < strings < arrays < objects. */
export function compare(a: unknown, b: unknown): number {
  const ra = kindRank(a);
  const rb = kindRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 3:
      return (a as number) < (b as number) ? -1 : (a as number) === (b as number) ? 0 : 1;
    case 4:
      return compareStrings(a as string, b as string);
    case 5: {
      const x = a as unknown[];
      const y = b as unknown[];
      const n = Math.min(x.length, y.length);
      tick(n + 1);
      for (let i = 0; i < n; i++) {
        const c = compare(x[i], y[i]);
        if (c) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    case 6: {
      const ka = sortedKeys(a as JsonObject);
      const kb = sortedKeys(b as JsonObject);
      const c = compare(ka, kb);
      if (c) return c;
      tick(ka.length);
      for (const k of ka) {
        const d = compare((a as JsonObject)[k], (b as JsonObject)[k]);
        if (d) return d;
      }
      return 0;
    }
    default:
      return 0;
  }
}

export function equals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return (a === null || a === undefined) && (b === null || b === undefined);
  }
  return compare(a, b) === 0;
}

export function add(a: unknown, b: unknown): unknown {
  if (a === null || a === undefined) return b;
  if (b === null || b === undefined) return a;
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (typeof a === 'string' && typeof b === 'string') {
    checkStringLength(a.length + b.length);
    return a + b;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    tick(a.length + b.length);
    return a.concat(b);
  }
  if (isObject(a) && isObject(b)) {
    tick();
    const out: JsonObject = {};
    for (const k of Object.keys(a)) setKey(out, k, a[k]);
    for (const k of Object.keys(b)) setKey(out, k, b[k]);
    return out;
  }
  throw runtimeError(`${describe(a)} and ${describe(b)} cannot be added`);
}

export function subtract(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (Array.isArray(a) && Array.isArray(b)) {
    tick(a.length * (b.length + 1));
    return a.filter((x) => !b.some((y) => equals(x, y)));
  }
  throw runtimeError(`${describe(a)} and ${describe(b)} cannot be subtracted`);
}

function deepMerge(a: JsonObject, b: JsonObject): JsonObject {
  tick();
  const out: JsonObject = {};
  for (const k of Object.keys(a)) setKey(out, k, a[k]);
  for (const k of Object.keys(b)) {
    const x = out[k];
    const y = b[k];
    setKey(out, k, Object.prototype.hasOwnProperty.call(out, k) && isObject(x) && isObject(y) ? deepMerge(x, y) : y);
  }
  return out;
}

export function multiply(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return a * b;
  if ((typeof a === 'string' && typeof b === 'number') || (typeof a === 'number' && typeof b === 'string')) {
    const str = typeof a === 'string' ? a : (b as string);
    const num = typeof a === 'number' ? a : (b as number);
    // jq 1.6: n = (int)(num - 1); repeat while n > 0; null when n < 0.
    const n = Math.trunc(num - 1);
    if (n < 0 || Number.isNaN(n)) return null;
    checkStringLength(str.length * (n + 1));
    return str.repeat(n + 1);
  }
  if (isObject(a) && isObject(b)) return deepMerge(a, b);
  throw runtimeError(`${describe(a)} and ${describe(b)} cannot be multiplied`);
}

export function splitString(s: string, sep: string): string[] {
  if (s === '') return [];
  if (sep === '') return Array.from(s);
  return s.split(sep);
}

export function divide(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') {
    if (b === 0) throw runtimeError(`${describe(a)} and ${describe(b)} cannot be divided because the divisor is zero`);
    return a / b;
  }
  if (typeof a === 'string' && typeof b === 'string') return splitString(a, b);
  throw runtimeError(`${describe(a)} and ${describe(b)} cannot be divided`);
}

export function modulo(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') {
    const x = Math.trunc(a);
    const y = Math.trunc(b);
    if (y === 0 || Number.isNaN(y)) {
      throw runtimeError(`${describe(a)} and ${describe(b)} cannot be divided (remainder) because the divisor is zero`);
    }
    const r = x % y;
    return r === 0 ? 0 : r;
  }
  throw runtimeError(`${describe(a)} and ${describe(b)} cannot be divided`);
}

export function negate(a: unknown): unknown {
  if (typeof a === 'number') return -a;
  throw runtimeError(`${describe(a)} cannot be negated`);
}

function indexArray(a: unknown[], i: number): unknown {
  if (!Number.isInteger(i)) return null;
  const idx = i < 0 ? a.length + i : i;
  return idx >= 0 && idx < a.length ? a[idx] : null;
}

/** `.[k]` (and `.k`): jq's jv_get. */
export function index(target: unknown, key: unknown): unknown {
  if (typeof key === 'string') {
    if (isObject(target)) {
      const v = Object.prototype.hasOwnProperty.call(target, key) ? target[key] : null;
      return v === undefined ? null : v;
    }
    if (target === null || target === undefined) return null;
    throw runtimeError(`Cannot index ${kindOf(target)} with string "${key}"`);
  }
  if (typeof key === 'number') {
    if (Array.isArray(target)) {
      const v = indexArray(target, key);
      return v === undefined ? null : v;
    }
    if (target === null || target === undefined) return null;
  } else if (Array.isArray(key) && Array.isArray(target)) {
    return indices(target, key);
  } else if (isObject(key) && (Array.isArray(target) || typeof target === 'string' || target === null)) {
    return slice(target, key['start'] ?? null, key['end'] ?? null);
  } else if (isObject(key) && (target === null || target === undefined)) {
    return null;
  }
  throw runtimeError(`Cannot index ${kindOf(target)} with ${kindOf(key)}`);
}

function indices(a: unknown[], b: unknown[]): unknown {
  if (b.length === 0) return null;
  const out: number[] = [];
  for (let i = 0; i + b.length <= a.length; i++) {
    let match = true;
    for (let j = 0; j < b.length && match; j++) match = equals(a[i + j], b[j]);
    if (match) out.push(i);
  }
  return out;
}

function sliceBound(v: unknown, len: number, dflt: number): number {
  if (v === null || v === undefined) return dflt;
  let n = v as number;
  if (n < 0) n += len;
  n = n < 0 ? 0 : n > len ? len : n;
  return n;
}

/** `.[from:to]` on arrays, strings (by code point) and null. */
export function slice(target: unknown, from: unknown, to: unknown): unknown {
  if (
    (from !== null && from !== undefined && typeof from !== 'number') ||
    (to !== null && to !== undefined && typeof to !== 'number')
  ) {
    throw runtimeError('Start and end indices of an array slice must be numbers');
  }
  if (target === null || target === undefined) return null;
  if (Array.isArray(target)) {
    const len = target.length;
    const s = Math.floor(sliceBound(from, len, 0));
    let e = Math.ceil(sliceBound(to, len, len));
    if (e > len) e = len;
    return e > s ? target.slice(s, e) : [];
  }
  if (typeof target === 'string') {
    const cps = Array.from(target);
    const len = cps.length;
    const s = Math.floor(sliceBound(from, len, 0));
    let e = Math.ceil(sliceBound(to, len, len));
    if (e > len) e = len;
    return e > s ? cps.slice(s, e).join('') : '';
  }
  throw runtimeError(`Cannot index ${kindOf(target)} with object`);
}

/** The values `.[]` yields, or an error naming the value. */
export function iterate(target: unknown): unknown[] {
  if (Array.isArray(target)) return target;
  if (isObject(target)) return Object.values(target);
  throw runtimeError(`Cannot iterate over ${describe(target)}`);
}

export function lengthOf(v: unknown): number {
  if (v === null || v === undefined) return 0;
  switch (typeof v) {
    case 'number':
      return Math.abs(v);
    case 'string': {
      let n = 0;
      for (let i = 0; i < v.length; i++) {
        const c = v.charCodeAt(i);
        if (c < 0xdc00 || c > 0xdfff || i === 0 || (v.charCodeAt(i - 1) & 0xfc00) !== 0xd800) n++;
      }
      return n;
    }
    case 'object':
      return Array.isArray(v) ? v.length : Object.keys(v).length;
    default:
      throw runtimeError(`${describe(v)} has no length`);
  }
}

export function keysOf(v: unknown, sorted: boolean): unknown[] {
  if (isObject(v)) {
    const keys = Object.keys(v);
    tick(keys.length);
    return sorted ? keys.sort(compareStrings) : keys;
  }
  if (Array.isArray(v)) {
    tick(v.length);
    return v.map((_, i) => i);
  }
  throw runtimeError(`${describe(v)} has no keys`);
}

export function hasKey(v: unknown, k: unknown): boolean {
  // jq 1.6 and 1.7: null has no keys of any type.
  if (v === null || v === undefined) return false;
  if (isObject(v) && typeof k === 'string') return Object.prototype.hasOwnProperty.call(v, k);
  if (Array.isArray(v) && typeof k === 'number') return k >= 0 && k < v.length;
  throw runtimeError(`Cannot check whether ${kindOf(v)} has a ${kindOf(k)} key`);
}

const NUMBER_TEXT = /^[ \t\n\r]*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r]*$/;

export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (NUMBER_TEXT.test(v)) return Number(v);
    if (v.trim() === '') throw runtimeError(`Expected JSON value (while parsing '${v}')`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      throw runtimeError(`Invalid numeric literal at EOF at line 1, column ${v.length} (while parsing '${v}')`);
    }
    if (typeof parsed === 'number') return parsed;
  }
  throw runtimeError(`${describe(v)} cannot be parsed as a number`);
}

export function toString(v: unknown): string {
  return typeof v === 'string' ? v : formatJson(v);
}
