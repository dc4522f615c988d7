// Label and field selectors with the syntax and semantics of the real
// apiserver (k8s.io/apimachinery/pkg/labels and pkg/fields): `=`, `==`, `!=`,
// `in`, `notin`, `key` (exists), `!key` for labels; `=`, `==`, `!=` on a fixed
// set of fields per kind for fields. Parse errors become 400 BadRequest.

export class SelectorError extends Error {}

type LabelRequirement =
  | { op: 'eq' | 'neq'; key: string; value: string }
  | { op: 'in' | 'notin'; key: string; values: string[] }
  | { op: 'exists' | 'notexists'; key: string };

export type LabelSelector = (labels: Record<string, string> | undefined) => boolean;

const KEY = /^([a-z0-9A-Z]([-a-z0-9A-Z.]*[a-z0-9A-Z])?\/)?[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Splits on commas that are not inside parentheses. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts.map((p) => p.trim());
}

function checkKey(key: string, whole: string): string {
  if (!KEY.test(key)) throw new SelectorError(`unable to parse requirement: invalid label key "${key}" in "${whole}"`);
  return key;
}

function checkValue(value: string, whole: string): string {
  if (value.length > 63 || !VALUE.test(value))
    throw new SelectorError(`unable to parse requirement: invalid label value "${value}" in "${whole}"`);
  return value;
}

function parseRequirement(part: string): LabelRequirement {
  let m = /^(\S+?)\s+(in|notin)\s*\((.*)\)$/.exec(part);
  if (m) {
    const values = m[3].split(',').map((v) => checkValue(v.trim(), part));
    return { op: m[2] as 'in' | 'notin', key: checkKey(m[1], part), values };
  }
  m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
  if (m) {
    return { op: m[2] === '!=' ? 'neq' : 'eq', key: checkKey(m[1], part), value: checkValue(m[3].trim(), part) };
  }
  m = /^!\s*(\S+)$/.exec(part);
  if (m) return { op: 'notexists', key: checkKey(m[1], part) };
  if (/^\S+$/.test(part)) return { op: 'exists', key: checkKey(part, part) };
  throw new SelectorError(`unable to parse requirement: "${part}"`);
}

export function parseLabelSelector(text: string | null | undefined): LabelSelector | undefined {
  if (!text || !text.trim()) return undefined;
  const reqs = splitTopLevel(text.trim()).map((part) => {
    if (!part) throw new SelectorError(`unable to parse requirement: empty requirement in "${text}"`);
    return parseRequirement(part);
  });
  return (labels) => {
    const l = labels ?? {};
    for (const r of reqs) {
      const has = Object.prototype.hasOwnProperty.call(l, r.key);
      const v = l[r.key];
      switch (r.op) {
        case 'eq':
          if (!has || v !== r.value) return false;
          break;
        case 'neq':
          if (has && v === r.value) return false;
          break;
        case 'in':
          if (!has || !r.values.includes(v)) return false;
          break;
        case 'notin':
          if (has && r.values.includes(v)) return false;
          break;
        case 'exists':
          if (!has) return false;
          break;
        case 'notexists':
          if (has) return false;
          break;
      }
    }
    return true;
  };
}

export type FieldSelector = (obj: Record<string, unknown>) => boolean;

function fieldValue(obj: Record<string, unknown>, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (path === 'source' && cur && typeof cur === 'object')
    return String((cur as { component?: string }).component ?? '');
  if (cur === undefined || cur === null)
    return path === 'spec.unschedulable' || path === 'spec.hostNetwork' ? 'false' : '';
  return typeof cur === 'object' ? JSON.stringify(cur) : String(cur);
}

/** Unescapes `\,` `\=` `\!` `\\` as fields.ParseSelector does. */
function unescapeFieldValue(v: string): string {
  return v.replace(/\\(.)/g, '$1');
}

function splitUnescaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      cur += s[i] + s[i + 1];
      i++;
    } else if (s[i] === sep) {
      out.push(cur);
      cur = '';
    } else cur += s[i];
  }
  out.push(cur);
  return out;
}

/**
 * @param allowed field paths this kind supports (metadata.name and
 *   metadata.namespace are always allowed); others → SelectorError, which the
 *   server answers with 400 like `field label not supported: x`.
 */
export function parseFieldSelector(
  text: string | null | undefined,
  allowed: readonly string[],
): FieldSelector | undefined {
  if (!text || !text.trim()) return undefined;
  const reqs: Array<{ path: string; neq: boolean; value: string }> = [];
  for (const raw of splitUnescaped(text, ',')) {
    const part = raw.trim();
    if (!part) continue;
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!m) throw new SelectorError(`invalid selector: '${text}'; can't understand '${part}'`);
    const path = m[1].trim();
    if (path !== 'metadata.name' && path !== 'metadata.namespace' && !allowed.includes(path)) {
      throw new SelectorError(`field label not supported: ${path}`);
    }
    reqs.push({ path, neq: m[2] === '!=', value: unescapeFieldValue(m[3]) });
  }
  if (!reqs.length) return undefined;
  return (obj) => reqs.every((r) => (fieldValue(obj, r.path) === r.value) !== r.neq);
}
