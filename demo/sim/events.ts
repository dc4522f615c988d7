// core/v1 Events as client-go's recorder writes them: one Event object per
// (involved object, source, type, reason, message); a repeat bumps `count` and
// `lastTimestamp` on the same object (the event correlator), which is what
// `kubectl describe` shows as "(x4 over 2m)". The number kept is bounded, the
// oldest going first (the apiserver expires them after an hour).
import type { ObjectStore, StoredObject } from '../object-store.js';
import type { Random, SimClock } from './clock.js';
import { R } from './types.js';

export interface EventSpec {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** Reporting component, e.g. kubelet, default-scheduler, job-controller. */
  component: string;
  /** Node name for kubelet events (source.host). */
  host?: string;
  /** e.g. spec.containers{main} */
  fieldPath?: string;
  /** reportingInstance; defaults to host or component. */
  instance?: string;
}

export class EventRecorder {
  /** correlation key → event name, in creation order (oldest first). */
  private readonly byKey = new Map<string, { namespace: string; name: string }>();
  private seq = 0;

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: SimClock,
    private readonly rng: Random,
    private readonly limit: number,
  ) {}

  record(involved: StoredObject, spec: EventSpec): StoredObject {
    const namespace = involved.metadata.namespace ?? 'default';
    const key = [
      involved.metadata.uid,
      spec.component,
      spec.host ?? '',
      spec.type,
      spec.reason,
      spec.fieldPath ?? '',
      spec.message,
    ].join('\u0000');
    const now = this.clock.iso();
    const known = this.byKey.get(key);
    const existing = known && this.store.get(R.events, known.namespace, known.name);
    if (existing) {
      const next = {
        ...existing,
        metadata: { ...existing.metadata },
        count: ((existing['count'] as number | undefined) ?? 1) + 1,
        lastTimestamp: now,
      };
      // Re-insert so the bound evicts the least recently seen first.
      this.byKey.delete(key);
      this.byKey.set(key, known);
      return this.store.put(R.events, next);
    }
    // client-go names events <object>.<unix nanos in hex>.
    const nanos = BigInt(Math.floor(this.clock.wallMs())) * 1_000_000n + BigInt(this.seq++ % 1_000_000);
    const name = `${involved.metadata.name}.${nanos.toString(16)}`;
    const event: StoredObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace, uid: this.rng.uid(), resourceVersion: '', creationTimestamp: now },
      involvedObject: {
        kind: involved.kind,
        namespace: involved.metadata.namespace,
        name: involved.metadata.name,
        uid: involved.metadata.uid,
        apiVersion: involved.apiVersion,
        resourceVersion: involved.metadata.resourceVersion,
        ...(spec.fieldPath ? { fieldPath: spec.fieldPath } : {}),
      },
      reason: spec.reason,
      message: spec.message,
      source: spec.host ? { component: spec.component, host: spec.host } : { component: spec.component },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type: spec.type,
      eventTime: null,
      reportingComponent: spec.component,
      reportingInstance: spec.instance ?? spec.host ?? spec.component,
    };
    this.byKey.set(key, { namespace, name });
    while (this.byKey.size > this.limit) {
      const [oldKey, old] = this.byKey.entries().next().value as [string, { namespace: string; name: string }];
      this.byKey.delete(oldKey);
      this.store.delete(R.events, old.namespace, old.name);
    }
    return this.store.put(R.events, event);
  }
}
