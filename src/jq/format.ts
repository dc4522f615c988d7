// JSON text exactly as `jq -c` (1.6) prints it: its number formatting (shortest
// round-trip digits, exponent form for decpt <= -4 or decpt > digits + 15,
// infinities clamped to ±DBL_MAX, NaN as null, -0 kept), its string escapes
// (\b \f \n \r \t, other C0 controls and DEL as \u00XX), object keys in
// insertion order. Beyond jq, C1 controls and bidi overrides are also written
// as \u escapes: the value is the same JSON, but it cannot drive a terminal.

import { checkStringLength, tick } from './budget.js';

const DBL_MAX = '1.7976931348623157e+308';

export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'null';
  if (n === Infinity) return DBL_MAX;
  if (n === -Infinity) return `-${DBL_MAX}`;
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  const sign = n < 0 ? '-' : '';
  const [mantissa, exponent] = Math.abs(n).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const nd = digits.length;
  const decpt = Number(exponent) + 1;
  if (decpt <= -4 || decpt > nd + 15) {
    const e = decpt - 1;
    const mant = nd > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= nd) return `${sign}${digits}${'0'.repeat(decpt - nd)}`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

// Characters that need escaping: `"`, `\`, C0, DEL, C1, bidi controls, lone surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;
const ESCAPE_ALL =
  /["\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeChar(ch: string): string {
  switch (ch) {
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '\b':
      return '\\b';
    case '\f':
      return '\\f';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
  }
  const code = ch.charCodeAt(0);
  // A lone surrogate is not valid Unicode; jq replaces it when reading input.
  if (code >= 0xd800 && code <= 0xdfff) return '\ufffd';
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

export function formatString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  return `"${s.replace(ESCAPE_ALL, escapeChar)}"`;
}

/** Compact JSON text as `jq -c` prints it. */
export function formatJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return formatNumber(value);
    case 'string':
      return formatString(value);
    case 'object': {
      // Counted (budget.ts): shared values make a DAG that prints far larger than it is.
      if (Array.isArray(value)) {
        tick(value.length + 1);
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + formatJson(value[i]);
        checkStringLength(out.length);
        return out + ']';
      }
      const keys = Object.keys(value);
      tick(keys.length + 1);
      let out = '{';
      let first = true;
      for (const key of keys) {
        out += (first ? '' : ',') + formatString(key) + ':' + formatJson((value as Record<string, unknown>)[key]);
        first = false;
      }
      checkStringLength(out.length);
      return out + '}';
    }
    default:
      return 'null';
  }
}
