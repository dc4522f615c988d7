// Compact sets of uids for the store's indexes. Most keys hold one uid (a
// Job's or a StatefulSet pod's controller holds one pod, a JobSet one Job per
// replicatedJob), so a set is a plain string until its second uid: one Set
// object saved per key.

/** One uid, a Set of two or more, or none. Replaced, not mutated, when it changes shape. */
type Uids = string | Set<string> | undefined;

function withUid(b: Uids, uid: string): string | Set<string> {
  if (b === undefined) return uid;
  if (typeof b === 'string') return b === uid ? b : new Set([b, uid]);
  b.add(uid);
  return b;
}

function withoutUid(b: Uids, uid: string): Uids {
  if (b === undefined || typeof b === 'string') return b === uid ? undefined : b;
  b.delete(uid);
  return b.size === 0 ? undefined : b.size === 1 ? b.values().next().value! : b;
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

/** key → set of uids (pods by controller uid). */
export class UidIndex {
  private readonly byKey = new Map<string, string | Set<string>>();

  add(key: string, uid: string): void {
    this.byKey.set(key, withUid(this.byKey.get(key), uid));
  }

  remove(key: string, uid: string): void {
    const b = withoutUid(this.byKey.get(key), uid);
    if (b === undefined) this.byKey.delete(key);
    else this.byKey.set(key, b);
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
