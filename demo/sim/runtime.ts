// The simulation's shared machinery: the store subscription, an index of
// children by controller-owner uid, a de-duplicating work queue of reconcile
// requests (as controller-runtime's), the event recorder, and helpers that
// write new object versions without mutating what the store already holds
// (the store's watch history keeps references to old versions).
import type { ObjectStore, StoreEvent, StoredObject } from '../object-store.js';
import { type Random, type SimClock } from './clock.js';
import { EventRecorder } from './events.js';
import { controllerRef, KEY_BY_KIND, R, type Condition, type OwnerReference, type Pod } from './types.js';

export interface Controller {
  /** Resource key of the kind this controller reconciles. */
  readonly resource: string;
  /** Level-triggered: read the object (maybe gone) and its children, converge them. */
  reconcile(namespace: string | undefined, name: string): void;
}

/** Something that wants to see every store event (scheduler, kubelet). */
export type EventHook = (event: StoreEvent) => void;

interface QueueItem {
  controller: Controller;
  namespace: string | undefined;
  name: string;
}

/**
 * An owner's children: namespace (owners and children share it) and the stored
 * version of each, per resource. Kept current from the store's events, so a
 * reconcile (one per owner and churn tick at scale) reads its children without
 * a store lookup per child.
 */
interface Children {
  namespace: string | undefined;
  objects: Map<string, Map<string, StoredObject>>; // resource → child name → its stored version
}

export class Runtime {
  readonly events: EventRecorder;
  /**
   * Set while a scenario builds objects in their settled state: controllers
   * then write no creation events, and `admitPod` may bind and start a pod
   * before it is first stored.
   */
  quiet = false;
  admitPod: ((pod: Pod) => void) | undefined;
  /** While set, what controllers write as "now" (objects of a scenario that started hours ago). */
  backdate: string | undefined;
  private readonly controllers = new Map<string, Controller>();
  private readonly hooks: EventHook[] = [];
  private readonly queue = new Map<string, QueueItem>();
  private flushScheduled = false;
  private flushing = false;
  /** owner uid → its children. */
  private readonly childrenByOwner = new Map<string, Children>();
  /** `resource|namespace/name` → the owner uid it is indexed under (to move or drop it when that changes). */
  private readonly ownerOfChild = new Map<string, string>();
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(
    readonly store: ObjectStore,
    readonly clock: SimClock,
    readonly rng: Random,
    eventLimit: number,
  ) {
    this.events = new EventRecorder(store, clock, rng, eventLimit);
    this.clock.afterTask = () => this.flush();
    this.clock.onError = (err) => reportError('simulation task', err);
    this.unsubscribe = store.subscribe((e) => this.onStoreEvent(e));
  }

  /** RFC 3339 "now" for timestamps controllers write (the backdate while one is set). */
  isoNow(): string {
    return this.backdate ?? this.clock.iso();
  }

  register(controller: Controller): void {
    this.controllers.set(controller.resource, controller);
  }

  hook(h: EventHook): void {
    this.hooks.push(h);
  }

  enqueue(resource: string, namespace: string | undefined, name: string): void {
    const controller = this.controllers.get(resource);
    if (!controller || this.stopped) return;
    const k = `${resource}|${namespace ?? ''}/${name}`;
    if (!this.queue.has(k)) this.queue.set(k, { controller, namespace, name });
    if (!this.flushScheduled && !this.flushing) {
      this.flushScheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Reconcile until the queue is empty (reconciles enqueue more work). */
  flush(): void {
    this.flushScheduled = false;
    if (this.flushing || this.stopped) return;
    this.flushing = true;
    try {
      let budget = 5_000_000;
      while (this.queue.size && budget-- > 0 && !this.stopped) {
        const [k, item] = this.queue.entries().next().value as [string, QueueItem];
        this.queue.delete(k);
        try {
          item.controller.reconcile(item.namespace, item.name);
        } catch (err) {
          reportError(`reconcile ${k}`, err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Children whose controller ownerReference points at `ownerUid`, optionally of one resource. */
  children<T extends StoredObject = StoredObject>(ownerUid: string, resource?: string): T[] {
    const entry = this.childrenByOwner.get(ownerUid);
    if (!entry) return [];
    const out: T[] = [];
    for (const [res, objects] of entry.objects) {
      if (resource && res !== resource) continue;
      for (const obj of objects.values()) if (controllerRef(obj)?.uid === ownerUid) out.push(obj as T);
    }
    return out;
  }

  /** Creates an object (fills a seeded uid so reruns with the same seed match). */
  create<T extends StoredObject>(resource: string, obj: T): T {
    if (!obj.metadata.uid) obj.metadata.uid = this.rng.uid();
    if (!obj.metadata.creationTimestamp) obj.metadata.creationTimestamp = this.isoNow();
    return this.store.put(resource, obj) as T;
  }

  /**
   * Writes a new version built from the stored one: top level and metadata are
   * copied, `change` returns the fields to replace. Nothing stored is mutated.
   */
  update<T extends StoredObject>(
    resource: string,
    current: T,
    change: Partial<T>,
    metadata?: Partial<StoredObject['metadata']>,
  ): T {
    const next = { ...current, ...change, metadata: { ...current.metadata, ...(metadata ?? {}) } } as T;
    return this.store.put(resource, next) as T;
  }

  /** Writes `status` only when it differs from the stored one (no churn on no-op reconciles). */
  putStatus<T extends StoredObject>(resource: string, current: T, status: unknown): T {
    if (JSON.stringify(current['status']) === JSON.stringify(status)) return current;
    return this.update(resource, current, { status } as unknown as Partial<T>);
  }

  /**
   * A condition list with `cond` set: lastTransitionTime is kept when the
   * status did not change, as every real controller does.
   */
  setCondition(
    conditions: Condition[] | undefined,
    cond: Condition,
    timeFields: Array<'lastTransitionTime' | 'lastUpdateTime' | 'lastProbeTime'> = ['lastTransitionTime'],
  ): Condition[] {
    const list = [...(conditions ?? [])];
    const i = list.findIndex((c) => c.type === cond.type);
    const old = i >= 0 ? list[i] : undefined;
    const now = this.isoNow();
    const next: Condition = { ...cond };
    for (const f of timeFields) {
      if (f === 'lastProbeTime') next.lastProbeTime = null;
      else if (f === 'lastUpdateTime')
        next.lastUpdateTime = old && sameCondition(old, cond) ? (old.lastUpdateTime ?? now) : now;
      else next.lastTransitionTime = old && old.status === cond.status ? (old.lastTransitionTime ?? now) : now;
    }
    if (old) list[i] = next;
    else list.push(next);
    return list;
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    this.queue.clear();
  }

  private onStoreEvent(event: StoreEvent): void {
    if (this.stopped) return;
    const obj = event.object;
    const ref = controllerRef(obj);
    this.indexChild(event, ref);
    if (this.controllers.has(event.resourceKey))
      this.enqueue(event.resourceKey, obj.metadata.namespace, obj.metadata.name);
    if (ref) {
      const ownerResource = KEY_BY_KIND[`${ref.apiVersion}/${ref.kind}`];
      if (ownerResource) this.enqueue(ownerResource, obj.metadata.namespace, ref.name);
    }
    if (event.type === 'DELETED') this.collectGarbage(obj);
    for (const h of this.hooks) h(event);
  }

  /** The child's stored version under its controller owner (moved when the owner changes, dropped when gone). */
  private indexChild(event: StoreEvent, ref: OwnerReference | undefined): void {
    const obj = event.object;
    const key = `${event.resourceKey}|${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    const before = this.ownerOfChild.get(key);
    if (before !== undefined && (event.type === 'DELETED' || before !== ref?.uid)) {
      this.childrenByOwner.get(before)?.objects.get(event.resourceKey)?.delete(obj.metadata.name);
      this.ownerOfChild.delete(key);
    }
    if (event.type === 'DELETED' || !ref) return;
    let entry = this.childrenByOwner.get(ref.uid);
    if (!entry) this.childrenByOwner.set(ref.uid, (entry = { namespace: obj.metadata.namespace, objects: new Map() }));
    let objects = entry.objects.get(event.resourceKey);
    if (!objects) entry.objects.set(event.resourceKey, (objects = new Map()));
    objects.set(obj.metadata.name, obj);
    this.ownerOfChild.set(key, ref.uid);
  }

  /**
   * Background cascading deletion, as the garbage collector does: children of
   * a deleted owner go too. Pods get a deletionTimestamp so their kubelet
   * stops them first.
   */
  private collectGarbage(owner: StoredObject): void {
    const entry = this.childrenByOwner.get(owner.metadata.uid);
    if (!entry) return;
    this.childrenByOwner.delete(owner.metadata.uid);
    for (const [resource, objects] of entry.objects) {
      for (const name of [...objects.keys()]) {
        const child = this.store.get(resource, entry.namespace, name);
        if (!child || controllerRef(child)?.uid !== owner.metadata.uid) continue;
        if (
          resource === R.pods &&
          child.metadata['deletionTimestamp'] === undefined &&
          (child as { spec?: { nodeName?: string } }).spec?.nodeName
        ) {
          this.update(R.pods, child, {}, { deletionTimestamp: this.clock.iso(), deletionGracePeriodSeconds: 30 });
        } else {
          this.store.delete(resource, entry.namespace, name);
        }
      }
    }
  }
}

function sameCondition(a: Condition, b: Condition): boolean {
  return a.status === b.status && a.reason === b.reason && a.message === b.message;
}

let reported = 0;
/**
 * A bug in one reconcile or task must not take the demo API server down with
 * it: report it (a few times) and carry on, as a controller would requeue.
 */
export function reportError(what: string, err: unknown): void {
  if (reported++ < 20)
    process.stderr.write(`wlx demo simulation: ${what} failed: ${(err as Error)?.stack ?? String(err)}\n`);
}
