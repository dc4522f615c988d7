// List semantics of the real apiserver over the demo store: selectors,
// resourceVersion / resourceVersionMatch, and limit/continue paging where
// every page shows the same snapshot (one resourceVersion across pages; the
// continue token names a cached snapshot and the position in it, and an
// evicted or unreadable token is 410 Expired as after etcd compaction).
import type { ObjectStore, StoredObject } from '../object-store.js';
import { storeKeyOf } from '../kinds.js';
import type { ServedKind } from '../kind-types.js';
import type { FieldSelector, LabelSelector } from './selectors.js';
import { badRequest, expired, tooLargeResourceVersion, type StatusObject } from './status.js';

export interface ListQuery {
  namespace?: string;
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
  limit?: number;
  continueToken?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export interface ListResult {
  items: StoredObject[];
  resourceVersion: string;
  continueToken?: string;
  remainingItemCount?: number;
}

export function objectSortKey(o: StoredObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;
}

/** Sorted by namespace/name, as etcd returns keys; keys computed once, not per comparison. */
function sortByKey(objects: StoredObject[]): StoredObject[] {
  const keyed = objects.map((o) => ({ k: objectSortKey(o), o }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.o);
}

interface Snapshot {
  rv: number;
  items: StoredObject[];
  createdAt: number;
}

interface ContinueToken {
  v: 1;
  rv: number;
  id: number;
  off: number;
}

/** Paged list snapshots, few and short-lived (like etcd's compaction window). */
export class ListSnapshots {
  private readonly snapshots = new Map<number, Snapshot>();
  private nextId = 1;

  constructor(
    readonly maxSnapshots = 16,
    readonly ttlMs = 5 * 60_000,
  ) {}

  add(s: Snapshot): number {
    const id = this.nextId++;
    this.snapshots.set(id, s);
    while (this.snapshots.size > this.maxSnapshots) this.snapshots.delete(this.snapshots.keys().next().value!);
    return id;
  }

  get(id: number): Snapshot | undefined {
    const s = this.snapshots.get(id);
    if (s && Date.now() - s.createdAt > this.ttlMs) {
      this.snapshots.delete(id);
      return undefined;
    }
    return s;
  }

  /** The last page was served: the snapshot is not needed any more. */
  release(id: number): void {
    this.snapshots.delete(id);
  }

  get size(): number {
    return this.snapshots.size;
  }

  clear(): void {
    this.snapshots.clear();
  }
}

function encodeToken(t: ContinueToken): string {
  return Buffer.from(JSON.stringify(t)).toString('base64url');
}

function decodeToken(s: string): ContinueToken | undefined {
  try {
    const t = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as ContinueToken;
    if (t && t.v === 1 && Number.isInteger(t.rv) && Number.isInteger(t.id) && Number.isInteger(t.off) && t.off >= 0)
      return t;
  } catch {
    // fall through: an unreadable token is treated like an expired one
  }
  return undefined;
}

const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';

/**
 * The objects of one kind as they were at resourceVersion `rv`, rebuilt from
 * the store's event history; undefined when the history does not reach back.
 */
export function objectsAt(store: ObjectStore, kind: ServedKind, rv: number): StoredObject[] | undefined {
  const key = storeKeyOf(kind);
  if (rv === store.currentRv) return store.list(key);
  const all = store.eventsSince(key, store.oldestResumableRv);
  if (!all || rv < store.oldestResumableRv) return undefined;
  const current = new Map(store.list(key).map((o) => [objectSortKey(o), o]));
  const lastAtOrBefore = new Map<string, { type: string; object: StoredObject }>();
  const firstAfter = new Map<string, string>();
  for (const e of all) {
    const k = objectSortKey(e.object);
    if (e.rv <= rv) lastAtOrBefore.set(k, { type: e.type, object: e.object });
    else if (!firstAfter.has(k)) firstAfter.set(k, e.type);
  }
  for (const [k, firstType] of firstAfter) {
    const before = lastAtOrBefore.get(k);
    if (before) {
      if (before.type === 'DELETED') current.delete(k);
      else current.set(k, before.object);
    } else if (firstType === 'ADDED') current.delete(k);
    else return undefined; // changed after rv, but its state at rv is older than the history
  }
  return [...current.values()];
}

function matches(o: StoredObject, q: ListQuery): boolean {
  if (q.namespace !== undefined && o.metadata.namespace !== q.namespace) return false;
  if (q.labelSelector && !q.labelSelector(o.metadata.labels)) return false;
  if (q.fieldSelector && !q.fieldSelector(o)) return false;
  return true;
}

export function listObjects(
  store: ObjectStore,
  snapshots: ListSnapshots,
  kind: ServedKind,
  q: ListQuery,
): ListResult | StatusObject {
  let rv: number;
  let items: StoredObject[];
  let offset = 0;
  if (q.continueToken) {
    if (q.resourceVersion) return badRequest('specifying resource version is not allowed when using continue');
    const t = decodeToken(q.continueToken);
    const snap = t && snapshots.get(t.id);
    if (!t || !snap || snap.rv !== t.rv) return expired(EXPIRED_CONTINUE);
    rv = snap.rv;
    items = snap.items;
    offset = t.off;
  } else {
    const requested = q.resourceVersion;
    let source: StoredObject[] | undefined;
    rv = store.currentRv;
    if (q.resourceVersionMatch && q.resourceVersionMatch !== 'Exact' && q.resourceVersionMatch !== 'NotOlderThan') {
      return badRequest(`unsupported resourceVersionMatch "${q.resourceVersionMatch}"`);
    }
    if (q.resourceVersionMatch && !requested) {
      return badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
    }
    if (requested && requested !== '0') {
      const n = Number(requested);
      if (!Number.isInteger(n) || n < 0) return badRequest(`invalid resource version: ${requested}`);
      if (n > store.currentRv) return tooLargeResourceVersion(n, store.currentRv);
      if (q.resourceVersionMatch === 'Exact' && n !== store.currentRv) {
        source = objectsAt(store, kind, n);
        if (!source) return expired(`The resourceVersion for the provided list is too old.`);
        rv = n;
      }
    }
    source ??= store.list(storeKeyOf(kind));
    items = sortByKey(
      q.namespace === undefined && !q.labelSelector && !q.fieldSelector ? source : source.filter((o) => matches(o, q)),
    );
  }
  const limit = q.limit && q.limit > 0 ? q.limit : 0;
  if (!limit && offset === 0) return { items, resourceVersion: String(rv) };
  const end = limit ? offset + limit : items.length;
  const page = items.slice(offset, end);
  const result: ListResult = { items: page, resourceVersion: String(rv) };
  if (end < items.length) {
    let id: number;
    if (q.continueToken) id = decodeToken(q.continueToken)!.id;
    else id = snapshots.add({ rv, items, createdAt: Date.now() });
    result.continueToken = encodeToken({ v: 1, rv, id, off: end });
    if (!q.labelSelector && !q.fieldSelector) result.remainingItemCount = items.length - end;
  } else if (q.continueToken) {
    snapshots.release(decodeToken(q.continueToken)!.id);
  }
  return result;
}
