// The simulated API server's object store: every object of every served kind,
// one global, increasing resourceVersion, a bounded event history (for watches
// that resume from a resourceVersion, and 410 Expired when it is too old) and
// synchronous subscribers. The HTTP layer (demo/server/) and the simulated
// controllers (demo/sim/) both work only through this class.

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoredObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    resourceVersion: string;
    creationTimestamp: string;
    generation?: number;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<{
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
      blockOwnerDeletion?: boolean;
    }>;
    deletionTimestamp?: string;
    finalizers?: string[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

export interface StoreEvent {
  type: WatchEventType;
  /** `group/version/resource`, e.g. `/v1/pods`, `batch/v1/jobs`. */
  resourceKey: string;
  object: StoredObject;
  rv: number;
}

export type StoreListener = (event: StoreEvent) => void;

export function resourceKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export class ObjectStore {
  private readonly byResource = new Map<string, Map<string, StoredObject>>();
  private readonly history: StoreEvent[] = [];
  /** When each event of `history` happened (ms), for the time window. */
  private readonly historyAt: number[] = [];
  private historyStart = 0; // index offset into `history` after trimming
  private readonly listeners = new Set<StoreListener>();
  private rv: number;
  private uidCounter = 0;

  /**
   * @param historyLimit events kept for watch resumption; a watch from an older
   *   resourceVersion gets 410 Expired.
   * @param startRv first resourceVersion; derived from the clock by default so a
   *   restarted server never reuses one.
   * @param historyWindowMs events younger than this are kept even beyond
   *   historyLimit, as etcd keeps every revision until its periodic compaction
   *   (kube-apiserver compacts every 5 minutes): under heavy churn a count alone
   *   would expire a watch that resumes from a list taking a few seconds, and the
   *   client would relist for ever.
   */
  constructor(
    readonly historyLimit = 10_000,
    startRv = Math.floor(Date.now() / 10),
    readonly historyWindowMs = 0,
  ) {
    this.rv = startRv;
  }

  /** The newest resourceVersion handed out. */
  get currentRv(): number {
    return this.rv;
  }

  /** The oldest resourceVersion a watch may resume from (exclusive lower bound). */
  get oldestResumableRv(): number {
    const first = this.history[this.historyStart];
    return first ? first.rv - 1 : this.rv;
  }

  /** Jump the resourceVersion forward (used by a simulated restart). */
  bumpRv(to: number): void {
    if (to > this.rv) this.rv = to;
    // Events before a restart cannot be resumed from: clear history.
    this.history.length = 0;
    this.historyAt.length = 0;
    this.historyStart = 0;
  }

  newUid(): string {
    this.uidCounter += 1;
    const rand = Math.floor(Math.random() * 0xffffffff)
      .toString(16)
      .padStart(8, '0');
    const n = this.uidCounter.toString(16).padStart(12, '0');
    return `${rand}-${n.slice(0, 4)}-4${n.slice(4, 7)}-a${n.slice(7, 10)}-${n}${rand.slice(0, 0)}`.slice(0, 36);
  }

  list(key: string, namespace?: string): StoredObject[] {
    const objects = this.byResource.get(key);
    if (!objects) return [];
    const out: StoredObject[] = [];
    for (const obj of objects.values()) {
      if (namespace === undefined || obj.metadata.namespace === namespace) out.push(obj);
    }
    return out;
  }

  get(key: string, namespace: string | undefined, name: string): StoredObject | undefined {
    return this.byResource.get(key)?.get(objectKey(namespace, name));
  }

  /** Create or replace; fills uid, creationTimestamp, resourceVersion. Returns the stored object. */
  put(key: string, object: StoredObject): StoredObject {
    let objects = this.byResource.get(key);
    if (!objects) {
      objects = new Map();
      this.byResource.set(key, objects);
    }
    const k = objectKey(object.metadata.namespace, object.metadata.name);
    const existing = objects.get(k);
    if (!object.metadata.uid) object.metadata.uid = existing?.metadata.uid ?? this.newUid();
    if (!object.metadata.creationTimestamp) {
      object.metadata.creationTimestamp =
        existing?.metadata.creationTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    }
    this.rv += 1;
    object.metadata.resourceVersion = String(this.rv);
    objects.set(k, object);
    this.emit({ type: existing ? 'MODIFIED' : 'ADDED', resourceKey: key, object, rv: this.rv });
    return object;
  }

  delete(key: string, namespace: string | undefined, name: string): StoredObject | undefined {
    const objects = this.byResource.get(key);
    const k = objectKey(namespace, name);
    const existing = objects?.get(k);
    if (!objects || !existing) return undefined;
    objects.delete(k);
    this.rv += 1;
    const last = { ...existing, metadata: { ...existing.metadata, resourceVersion: String(this.rv) } };
    this.emit({ type: 'DELETED', resourceKey: key, object: last, rv: this.rv });
    return last;
  }

  /** Events with rv > sinceRv for one resource, or undefined when sinceRv is too old (410). */
  eventsSince(key: string, sinceRv: number): StoreEvent[] | undefined {
    if (sinceRv < this.oldestResumableRv) return undefined;
    const out: StoreEvent[] = [];
    for (let i = this.historyStart; i < this.history.length; i++) {
      const e = this.history[i];
      if (e.rv > sinceRv && e.resourceKey === key) out.push(e);
    }
    return out;
  }

  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  resourceKeys(): string[] {
    return [...this.byResource.keys()];
  }

  private emit(event: StoreEvent): void {
    const now = Date.now();
    this.history.push(event);
    this.historyAt.push(now);
    while (
      this.history.length - this.historyStart > this.historyLimit &&
      now - this.historyAt[this.historyStart] >= this.historyWindowMs
    ) {
      this.historyStart += 1;
    }
    // Compact now and then so the arrays do not grow without bound.
    if (this.historyStart > Math.max(this.historyLimit, 1024)) {
      this.history.splice(0, this.historyStart);
      this.historyAt.splice(0, this.historyStart);
      this.historyStart = 0;
    }
    for (const l of this.listeners) l(event);
  }
}
