// Structural equality of plain JSON-like data, and structural sharing: the
// store hands the UI the previous object wherever nothing changed, so the UI
// can skip work by identity (old === new).

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // for-in filtered to own keys is the key set of Object.keys without an array
  // per call (the trimmer compares every pod's containers and conditions).
  let count = 0;
  for (const k in ao) {
    if (!hasOwn.call(ao, k)) continue;
    if (!hasOwn.call(bo, k) || !deepEqual(ao[k], bo[k])) return false;
    count++;
  }
  for (const k in bo) if (hasOwn.call(bo, k) && --count < 0) return false;
  return count === 0;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * `next`, with every part that deep-equals the corresponding part of `prev`
 * replaced by the `prev` object (arrays compared by position). Returns `prev`
 * itself when nothing differs.
 */
export function shareStructure<T>(prev: T, next: T): T {
  if (prev === next) return prev;
  if (typeof prev !== 'object' || typeof next !== 'object' || prev === null || next === null) return next;
  if (Array.isArray(prev) !== Array.isArray(next)) return next;
  // Under churn most of a rebuilt tree is unchanged or already shared: copy
  // only when some part is replaced by its previous version, and return
  // `next` itself when none is (allocating a copy of every level of every
  // rebuilt tree was most of the model's garbage at 2,000 pod events/s).
  let same = true;
  if (Array.isArray(next)) {
    const p = prev as unknown as unknown[];
    const n = next as unknown[];
    let out: unknown[] | undefined;
    for (let i = 0; i < n.length; i++) {
      const v = n[i];
      const s = i < p.length ? shareStructure(p[i], v) : v;
      if (s !== p[i]) same = false;
      if (s !== v && !out) out = n.slice(0, i);
      if (out) out.push(s);
    }
    if (same && p.length === n.length) return prev;
    return (out ?? n) as unknown as T;
  }
  const p = prev as Record<string, unknown>;
  const n = next as Record<string, unknown>;
  const keys = Object.keys(n);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = n[k];
    const s = Object.prototype.hasOwnProperty.call(p, k) ? shareStructure(p[k], v) : v;
    if (s !== p[k]) same = false;
    if (s !== v && !out) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = n[keys[j]];
    }
    if (out) out[k] = s;
  }
  if (same && Object.keys(p).length === keys.length) return prev;
  return (out ?? n) as T;
}
