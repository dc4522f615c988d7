// Compact sets of uids for the store's indexes (a node's, a workload's, a
// controller's pods: three entries per pod). Most keys hold one uid (a Job's
// or a StatefulSet pod's controller holds one pod) and most of the rest a few
// dozen, so a set is a plain string until its second uid and a frozen array of
// exactly its uids until SMALL_MAX: a V8 Set costs 20–40 bytes an entry in its
// hash table, an exact array 8. Only larger sets are Sets.

/** One uid, an array of 2..SMALL_MAX (never mutated), a Set, or none. Insertion order, as a Set's. */
type Uids = string | readonly string[] | Set<string> | undefined;

/** Largest array; one more uid makes a Set. Adding or removing copies the array: O(SMALL_MAX) at most. */
const SMALL_MAX = 64;
/** A Set shrunk to this many becomes an array again (below SMALL_MAX, so that one uid in and out does not convert twice). */
const SET_MIN = 32;

function withUid(b: Uids, uid: string): Exclude<Uids, undefined> {
  if (b === undefined) return uid;
  if (typeof b === 'string') return b === uid ? b : [b, uid];
  if (b instanceof Set) return b.add(uid);
  if (b.includes(uid)) return b;
  return b.length < SMALL_MAX ? b.concat(uid) : new Set(b).add(uid);
}

function withoutUid(b: Uids, uid: string): Uids {
  if (b === undefined || typeof b === 'string') return b === uid ? undefined : b;
  if (b instanceof Set) {
    if (!b.delete(uid)) return b;
    return b.size <= SET_MIN ? [...b] : b;
  }
  const i = b.indexOf(uid);
  if (i < 0) return b;
  if (b.length === 2) return b[1 - i];
  return i === 0 ? b.slice(1) : b.slice(0, i).concat(b.slice(i + 1));
}

function eachOf(b: Uids): Iterable<string> {
  return b === undefined ? [] : typeof b === 'string' ? [b] : b;
}

/** A set of uids (a workload's pods). */
export class UidSet implements Iterable<string> {
  private v: Uids = undefined;

  add(uid: string): void {
    this.v = withUid(this.v, uid);
  }

  delete(uid: string): void {
    this.v = withoutUid(this.v, uid);
  }

  [Symbol.iterator](): Iterator<string> {
    return eachOf(this.v)[Symbol.iterator]();
  }
}

/** key → set of uids (pods by controller uid, by node name). */
export class UidIndex {
  private readonly byKey = new Map<string, Exclude<Uids, undefined>>();

  add(key: string, uid: string): void {
    const b = this.byKey.get(key);
    const next = withUid(b, uid);
    if (next !== b) this.byKey.set(key, next);
  }

  remove(key: string, uid: string): void {
    const b = this.byKey.get(key);
    const next = withoutUid(b, uid);
    if (next === undefined) this.byKey.delete(key);
    else if (next !== b) this.byKey.set(key, next);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  get(key: string): Iterable<string> {
    return eachOf(this.byKey.get(key));
  }
}

/** Adds `value` to the Set at `key` of a Map of Sets. */
export function addTo<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  let s = index.get(key);
  if (!s) {
    s = new Set();
    index.set(key, s);
  }
  s.add(value);
}

/** Removes `value` from the Set at `key`, and the key when its Set is empty. */
export function removeFrom<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  const s = index.get(key);
  if (!s) return;
  s.delete(value);
  if (s.size === 0) index.delete(key);
}
