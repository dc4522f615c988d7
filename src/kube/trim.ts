// What wlx keeps of each object. A real pod is 2.5–10 KB of JSON, most of it
// managedFields, env, volumes, probes and the last-applied annotation that no
// view and no definition pod-side expression reads. Trimming right after each
// list page / watch line is parsed lets the untrimmed object die young, so
// 100,000 pods fit in a few hundred MB. Every role's shape is here (over 650
// lines) beside the interning and shared values they all use.
//
// Roles: 'pod', 'node', 'owner' (intermediate controllers such as Jobs,
// ReplicaSets, StatefulSets: metadata only, for ownerReference chains),
// 'workload' (a root object of a defined type: whole, since definition
// expressions may read anything in it), 'definition' (a cluster Karta: whole).
import type { KubeObject, ObjectMeta } from '../model/types.js';
import { deepEqual } from '../model/equal.js';
import {
  boundWhole,
  Cuts,
  isObject,
  LAST_APPLIED,
  NO_CUTS,
  trimWhole,
  truncate,
  type Json,
  type TrimReport,
} from './trim-bounds.js';

/**
 * `scheduling`: Kueue, KAI, Volcano and Workload API objects (src/model/scheduling/), kept whole like workloads;
 * `dra`: resource.k8s.io claims, templates, slices and classes (spec, and a claim's allocation);
 * `topology`: Kueue Topologies (their levels).
 */
export type TrimRole = 'pod' | 'node' | 'owner' | 'workload' | 'definition' | 'scheduling' | 'dra' | 'topology';

/** Annotation values longer than this are dropped from pods and owners (they are config blobs, not labels). */
const MAX_ANNOTATION_VALUE = 1024;
/** Label values are at most 63 characters in Kubernetes; longer ones are dropped. */
const MAX_LABEL_VALUE = 1024;
/** Entries kept of any list of a pod, node or owner (containers, conditions, owners...). */
export const MAX_LIST = 256;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * A maker of empty plain objects (Object's prototype) with room for `room`
 * properties in-object. `{}` holds four and spills the rest into a second
 * array (16 bytes and up to 3 spare slots); `new` on a function leaves room for
 * eight, then shrinks it to the most its first objects used (V8's slack
 * tracking), so the first one made here has `room` properties. One maker per
 * kind of object, each sized for its own.
 */
export function inObjectMaker<T extends object = Json>(room: number): () => T {
  const InObject = function (): void {} as unknown as new () => T;
  InObject.prototype = Object.prototype;
  const first = new InObject() as Record<string, unknown>;
  for (let i = 0; i < room; i++) first[`room${i}`] = 0;
  // The tracking reads the shapes still alive when it ends: `first` stays so that its shape does.
  return Object.assign(() => new InObject(), { sizedBy: first });
}

// What most pods have: name, uid, namespace, resourceVersion, creationTimestamp, labels, annotations, owners;
// a status's phase, hostIP, podIP, startTime, conditions, containerStatuses; a spec's node, scheduler,
// tolerations, containers and one more (nodeSelector, priorityClassName, resources...).
const newPodMetadata = inObjectMaker<ObjectMeta>(8);
const newPodSpec = inObjectMaker(5);
const newPodStatus = inObjectMaker(6);
const newCondition = inObjectMaker(5); // CONDITION_KEYS

function pick(source: unknown, keys: readonly string[], make?: () => Json): Json | undefined {
  if (!isObject(source)) return undefined;
  let out: Json | undefined;
  for (const k of keys) {
    const v = source[k];
    if (v !== undefined) {
      out ??= make ? make() : {};
      out[k] = v;
    }
  }
  return out;
}

/**
 * Whether `kept` deep-equals `pick(source, keys) ?? {}` (each value cut by
 * `truncate` when `cut`), without building the pick: the trimmer tries the
 * previous pod's shared value this way before building its own.
 */
function equalsPicked(kept: unknown, source: unknown, keys: readonly string[], cut = Cut.none): boolean {
  if (!isObject(kept)) return false;
  const from = isObject(source) ? source : undefined;
  let present = 0;
  for (const k of keys) {
    const v = from === undefined ? undefined : from[k];
    if (v === undefined) continue;
    if (!hasOwn.call(kept, k) || !deepEqual(kept[k], cutBy(cut, k) ? truncate(v) : v)) return false;
    present++;
  }
  return ownKeyCount(kept) === present;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Which picked values `truncate` cuts: none, all (conditions), a container state's reason and message. */
const enum Cut {
  none,
  all,
  state,
}

function cutBy(cut: Cut, key: string): boolean {
  return cut === Cut.all || (cut === Cut.state && (key === 'reason' || key === 'message'));
}

function ownKeyCount(o: Json): number {
  let n = 0;
  for (const k in o) if (hasOwn.call(o, k)) n++;
  return n;
}

/** Whether `a` and `b` have the same own keys with the same values by identity (strings by value). */
function sameOwnValues(a: Json, b: Json): boolean {
  let n = 0;
  for (const k in b) {
    if (!hasOwn.call(b, k)) continue;
    if (a[k] !== b[k] || !hasOwn.call(a, k)) return false;
    n++;
  }
  return n === ownKeyCount(a);
}

/** Whether `kept` deep-equals what `containerState(state)` builds of the object `state`. */
function equalsState(kept: unknown, state: Json): boolean {
  if (!isObject(kept)) return false;
  let present = 0;
  for (const phase of STATE_PHASES) {
    const s = state[phase];
    if (!isObject(s)) continue;
    if (!hasOwn.call(kept, phase) || !equalsPicked(kept[phase], s, STATE_KEYS, Cut.state)) return false;
    present++;
  }
  return ownKeyCount(kept) === present;
}

/** Whether `kept` deep-equals what `containerStatuses` builds of the object `cs`. */
function equalsStatus(kept: unknown, cs: Json): boolean {
  if (!isObject(kept)) return false;
  let present = 3;
  if (!hasOwn.call(kept, 'name') || !deepEqual(kept.name, truncate(cs.name))) return false;
  if (!hasOwn.call(kept, 'ready') || !deepEqual(kept.ready, cs.ready)) return false;
  if (!hasOwn.call(kept, 'restartCount') || !deepEqual(kept.restartCount, cs.restartCount)) return false;
  if (cs.started !== undefined) {
    if (!hasOwn.call(kept, 'started') || !deepEqual(kept.started, cs.started)) return false;
    present++;
  }
  if (isObject(cs.state)) {
    if (!hasOwn.call(kept, 'state') || !equalsState(kept.state, cs.state)) return false;
    present++;
  }
  const last = cs.lastState;
  if (isObject(last) && STATE_PHASES.some((phase) => isObject(last[phase]))) {
    if (!hasOwn.call(kept, 'lastState') || !equalsState(kept.lastState, last)) return false;
    present++;
  }
  return ownKeyCount(kept) === present;
}

/** Whether `kept` (an owner reference the trimmer built) equals the one it would build of `ref`. */
function equalsOwnerRef(kept: unknown, ref: Json): boolean {
  if (!isObject(kept)) return false;
  const controller = ref.controller === true;
  return (
    kept.apiVersion === String(ref.apiVersion ?? '') &&
    kept.kind === String(ref.kind ?? '') &&
    kept.name === String(ref.name ?? '') &&
    kept.uid === String(ref.uid ?? '') &&
    (kept.controller === true) === controller &&
    ownKeyCount(kept) === (controller ? 5 : 4)
  );
}

const CONTAINER_KEYS = ['name', 'image', 'resources', 'restartPolicy'] as const;
const POD_SPEC_KEYS = [
  'nodeName',
  'overhead',
  'resources',
  'priorityClassName',
  'schedulerName',
  'nodeSelector',
  'tolerations',
  // DRA: which claims (or templates) the pod names; src/model/dra.ts reads them.
  'resourceClaims',
] as const;
const CONDITION_KEYS = ['type', 'status', 'reason', 'message', 'lastTransitionTime'] as const;
const STATE_KEYS = ['reason', 'exitCode', 'startedAt', 'finishedAt', 'message', 'signal'] as const;
const STATE_PHASES = ['waiting', 'running', 'terminated'] as const;
const POD_STATUS_KEYS = [
  'phase',
  'reason',
  'hostIP',
  'podIP',
  'startTime',
  'nominatedNodeName',
  'resourceClaimStatuses',
] as const;
const POD_SPEC_INTERNED = ['nodeName', 'priorityClassName', 'schedulerName'] as const;
const POD_STATUS_INTERNED = ['phase', 'reason', 'hostIP', 'startTime'] as const;
const POD_STATUS_CUT = ['podIP', 'nominatedNodeName'] as const;

const POD_SPEC_SLOTS = {
  overhead: 'pod.overhead',
  resources: 'pod.resources',
  nodeSelector: 'pod.nodeSelector',
  tolerations: 'pod.tolerations',
} as const;

// Sharing. Pods of one template repeat the same containers, resources,
// tolerations, conditions and label values; JSON.parse gives each pod its own
// copies. Identical small values are shared (hash-consed by their JSON text)
// and frozen so nobody can change one pod's copy under another pod. Both
// tables are bounded: when full they are simply cleared (old values stay
// shared by whoever holds them). The tables belong to one Trimmer, owned by
// one engine or offline model: two engines in a process share nothing.
const MAX_SHARED = 50_000;

/** Fields whose previous value `internAt` tries first: namespace, creation time, then POD_SPEC_INTERNED, POD_STATUS_INTERNED. */
const enum Slot {
  namespace = 0,
  created = 1,
  podSpec = 2,
  podStatus = podSpec + 3,
  count = podStatus + 4,
}
const OWNERS_SLOT = 'ownerReferences';
const CONTAINER_STATUSES_SLOT = 'pod.containerStatuses';

/** Trims objects for what wlx keeps of them, sharing repeated values among the objects it trimmed. */
export class Trimmer {
  private readonly sharedValues = new Map<string, unknown>();
  private readonly sharedStrings = new Map<string, string>();
  /**
   * The last value shared per slot (containers, tolerations, conditions...):
   * list pages come in name order, so the pods of one template arrive one after
   * another, and comparing with the previous pod's value (a few field reads)
   * finds nearly every repeat without building a JSON key.
   */
  private readonly recent = new Map<string, unknown>();
  /** The labels and annotations kept of the previous object: its values are tried before the string table. */
  private lastLabels: Record<string, string> | undefined;
  private lastAnnotations: Record<string, string> | undefined;
  /** The last string interned per `Slot`. */
  private readonly lastInterned: unknown[] = new Array<unknown>(Slot.count).fill(undefined);

  /**
   * The trim function of `role`; what a bound cuts is told to `report`.
   * `previousPod` finds what was kept of a pod's last version by its uid: its
   * parts are tried first (see `pod`).
   */
  for(
    role: TrimRole,
    report: TrimReport = () => undefined,
    previousPod?: (uid: string) => KubeObject | undefined,
  ): (obj: unknown) => KubeObject {
    switch (role) {
      case 'pod':
        if (previousPod)
          return (obj) => {
            const uid = isObject(obj) && isObject(obj.metadata) ? obj.metadata.uid : undefined;
            return this.pod(obj, report, typeof uid === 'string' ? previousPod(uid) : undefined);
          };
        return (obj) => this.pod(obj, report);
      case 'node':
        return (obj) => this.node(obj, report);
      case 'owner':
        return (obj) => this.owner(obj, report);
      case 'workload':
      case 'definition':
      case 'scheduling':
        return (obj) => trimWhole(obj, report);
      case 'dra':
      case 'topology':
        return (obj) => this.specAndAllocation(obj, report);
    }
  }

  /**
   * One shared, frozen instance per distinct JSON value. `slot` names where the
   * value sits (e.g. 'containers'): the previous value shared there is tried
   * first, then the table keyed by the JSON text.
   */
  share<T>(value: T, slot?: string): T {
    if (value === undefined || value === null || typeof value !== 'object') return value;
    const last = slot === undefined ? undefined : this.recentEqual(value, slot);
    return last ?? this.shareByJson(value, slot);
  }

  /** The previous value shared in `slot` when it equals `value`. */
  private recentEqual<T>(value: T, slot: string): T | undefined {
    const last = this.recent.get(slot);
    return last !== undefined && deepEqual(last, value) ? (last as T) : undefined;
  }

  private shareByJson<T>(value: T, slot: string | undefined): T {
    const key = JSON.stringify(value);
    if (key.length > 4096) return value;
    let out = this.sharedValues.get(key) as T | undefined;
    if (out === undefined) {
      if (this.sharedValues.size >= MAX_SHARED) this.sharedValues.clear();
      this.sharedValues.set(key, deepFreeze(value));
      out = value;
    }
    if (slot !== undefined) this.recent.set(slot, out);
    return out;
  }

  /**
   * `intern(value)`, trying first the value interned last in `slot` (the same
   * field of the previous object): equal to it for most siblings, and no hash
   * of the new string is needed to tell.
   */
  private internAt(value: unknown, slot: number): unknown {
    const before = this.lastInterned[slot];
    if (before === value) return before;
    const out = this.intern(value);
    this.lastInterned[slot] = out;
    return out;
  }

  /** One shared copy per distinct short string (label values, node names, images, times). */
  intern(value: unknown): unknown {
    if (typeof value !== 'string' || value.length > 256) return value;
    const hit = this.sharedStrings.get(value);
    if (hit !== undefined) return hit;
    if (this.sharedStrings.size >= MAX_SHARED) this.sharedStrings.clear();
    this.sharedStrings.set(value, value);
    return value;
  }

  /**
   * `value` interned, trying first the same key of the previous object's map:
   * siblings repeat most label values, and comparing two strings needs no hash
   * of the new one (hashing every value was most of the cost of interning).
   */
  private internAs(value: string, previous: Record<string, string> | undefined, key: string): string {
    const before = previous === undefined ? undefined : previous[key];
    return before === value ? before : (this.intern(value) as string);
  }

  /**
   * The labels with their values interned. When every value is kept the parsed
   * map itself is kept, its values replaced by their interned copies: a parsed
   * object holds its properties in-object, a copy built key by key spills past
   * four into a second array (~100 bytes a pod more).
   */
  private internLabels(rec: Json, cut: Cuts): Record<string, string> {
    const keys = Object.keys(rec);
    if (!Object.isFrozen(rec) && keys.every((k) => typeof rec[k] === 'string' && rec[k].length <= MAX_LABEL_VALUE))
      return (this.lastLabels = this.internInPlace(rec as Record<string, string>, keys, this.lastLabels));
    const out: Record<string, string> = {};
    const previous = this.lastLabels;
    for (const k of keys) {
      const v = rec[k];
      if (typeof v !== 'string') continue;
      if (v.length > MAX_LABEL_VALUE) cut.note(`label ${k} of ${v.length.toLocaleString('en')} characters dropped`);
      else out[k] = this.internAs(v, previous, k);
    }
    this.lastLabels = out;
    return out;
  }

  /** `rec`'s values replaced by their interned copies (equal strings: nobody can tell but the heap). */
  private internInPlace(
    rec: Record<string, string>,
    keys: readonly string[],
    previous: Record<string, string> | undefined,
  ): Record<string, string> {
    // Always written: `===` on strings compares text, so it cannot tell the copies apart.
    for (const k of keys) rec[k] = this.internAs(rec[k], previous, k);
    return rec;
  }

  private annotations(annotations: unknown): Record<string, string> | undefined {
    if (!isObject(annotations)) return undefined;
    const keys = Object.keys(annotations);
    if (
      keys.length > 0 &&
      !Object.isFrozen(annotations) &&
      keys.every((k) => {
        const v = annotations[k];
        return k !== LAST_APPLIED && typeof v === 'string' && v.length <= MAX_ANNOTATION_VALUE;
      })
    )
      return (this.lastAnnotations = this.internInPlace(
        annotations as Record<string, string>,
        keys,
        this.lastAnnotations,
      ));
    const out: Record<string, string> = {};
    const previous = this.lastAnnotations;
    let any = false;
    for (const k of Object.keys(annotations)) {
      const v = annotations[k];
      if (k === LAST_APPLIED) continue;
      if (typeof v !== 'string') continue;
      // Config blobs, not labels: dropped silently, as they always were (no view reads them).
      if (v.length > MAX_ANNOTATION_VALUE) continue;
      out[k] = this.internAs(v, previous, k);
      any = true;
    }
    if (any) this.lastAnnotations = out;
    return any ? out : undefined;
  }

  /**
   * At most MAX_LIST owner references, shared when they equal the previous
   * object's (the pods of one Job), which is tried before building them.
   */
  private ownerReferences(refs: unknown, cut: Cuts): ObjectMeta['ownerReferences'] {
    if (!Array.isArray(refs)) return undefined;
    let count = 0;
    for (const r of refs) if (isObject(r)) count++;
    if (!count) return undefined;
    if (count > MAX_LIST) cut.note(`${count - MAX_LIST} ownerReferences beyond ${MAX_LIST} dropped`);
    const n = Math.min(count, MAX_LIST);
    const last = this.recent.get(OWNERS_SLOT);
    if (Array.isArray(last) && last.length === n) {
      let at = 0;
      let same = true;
      for (let i = 0; at < n && same; i++) {
        const r: unknown = refs[i];
        if (isObject(r)) same = equalsOwnerRef(last[at++], r);
      }
      if (same) return last as ObjectMeta['ownerReferences'];
    }
    // Exactly n long: an array grown by push keeps room for 16 more (128 bytes a pod with one owner).
    const out: NonNullable<ObjectMeta['ownerReferences']> = new Array(n);
    for (let i = 0, at = 0; at < n; i++) {
      const r: unknown = refs[i];
      if (!isObject(r)) continue;
      const apiVersion = this.intern(String(r.apiVersion ?? '')) as string;
      const kind = this.intern(String(r.kind ?? '')) as string;
      const name = this.intern(String(r.name ?? '')) as string;
      const uid = this.intern(String(r.uid ?? '')) as string;
      // Two literals, not a property added after: an added one would take a second array.
      out[at++] =
        r.controller === true ? { apiVersion, kind, name, uid, controller: true } : { apiVersion, kind, name, uid };
    }
    this.recent.set(OWNERS_SLOT, deepFreeze(out));
    return out;
  }

  /**
   * Metadata wlx reads: identity, times, labels, annotations (minus blobs), owners.
   * `previous`: the same object's last kept metadata, whose name and uid strings are kept when equal (one copy each).
   */
  metadata(meta: unknown, cut: Cuts = NO_CUTS, make?: () => ObjectMeta, previous?: ObjectMeta): ObjectMeta {
    const m = isObject(meta) ? meta : {};
    const out = make ? make() : ({} as ObjectMeta);
    out.name = previous !== undefined && previous.name === m.name ? previous.name : String(m.name ?? '');
    out.uid = previous !== undefined && previous.uid === m.uid ? previous.uid : String(m.uid ?? '');
    if (typeof m.namespace === 'string') out.namespace = this.internAt(m.namespace, Slot.namespace) as string;
    if (typeof m.resourceVersion === 'string') out.resourceVersion = m.resourceVersion;
    if (typeof m.creationTimestamp === 'string')
      out.creationTimestamp = this.internAt(m.creationTimestamp, Slot.created) as string;
    if (typeof m.deletionTimestamp === 'string') out.deletionTimestamp = m.deletionTimestamp;
    if (typeof m.generation === 'number') out.generation = m.generation;
    // The last version's maps when unchanged: the parsed ones then die young, and nothing is interned.
    if (isObject(m.labels))
      out.labels =
        previous?.labels !== undefined && sameOwnValues(previous.labels, m.labels)
          ? previous.labels
          : this.internLabels(m.labels, cut);
    const annotations =
      previous?.annotations !== undefined &&
      isObject(m.annotations) &&
      sameOwnValues(previous.annotations, m.annotations)
        ? previous.annotations
        : this.annotations(m.annotations);
    if (annotations) out.annotations = annotations;
    const owners = this.ownerReferences(m.ownerReferences, cut);
    if (owners) out.ownerReferences = owners;
    return out;
  }

  private containers(list: unknown, slot: string, cut: Cuts, what: string): Json[] | undefined {
    if (!Array.isArray(list)) return undefined;
    if (list.length > MAX_LIST) cut.note(`${list.length - MAX_LIST} ${what} beyond ${MAX_LIST} dropped`);
    const n = Math.min(list.length, MAX_LIST);
    // The previous pod's list, when this one would trim to it, without building this one.
    const last = this.recent.get(slot);
    if (Array.isArray(last) && last.length === n) {
      let i = 0;
      while (i < n && equalsPicked(last[i], list[i], CONTAINER_KEYS)) i++;
      if (i === n) return last as Json[];
    }
    const out: Json[] = new Array<Json>(n);
    for (let i = 0; i < n; i++) out[i] = pick(list[i], CONTAINER_KEYS) ?? {};
    return this.shareByJson(out, slot);
  }

  private containerState(state: unknown): Json | undefined {
    if (!isObject(state)) return undefined;
    const out: Json = {};
    for (const phase of STATE_PHASES) {
      const s = pick(state[phase], STATE_KEYS);
      if (s) {
        if (s.message !== undefined) s.message = truncate(s.message);
        if (typeof s.reason === 'string') s.reason = this.intern(truncate(s.reason));
        if (typeof s.startedAt === 'string') s.startedAt = this.intern(s.startedAt);
        if (typeof s.finishedAt === 'string') s.finishedAt = this.intern(s.finishedAt);
        out[phase] = s;
      } else if (isObject(state[phase])) {
        out[phase] = {};
      }
    }
    return out;
  }

  /** With `slot`, shared when equal to the previous list there (tried before building this one). */
  private containerStatuses(list: unknown, cut: Cuts, what: string, slot?: string): Json[] | undefined {
    if (!Array.isArray(list)) return undefined;
    if (list.length > MAX_LIST) cut.note(`${list.length - MAX_LIST} ${what} beyond ${MAX_LIST} dropped`);
    const n = Math.min(list.length, MAX_LIST);
    const last = slot === undefined ? undefined : this.recent.get(slot);
    if (Array.isArray(last)) {
      let at = 0;
      let same = true;
      for (let i = 0; i < n && same; i++) {
        const cs: unknown = list[i];
        if (isObject(cs)) same = at < last.length && equalsStatus(last[at++], cs);
      }
      if (same && at === last.length) return last as Json[];
    }
    const out: Json[] = [];
    for (let i = 0; i < n; i++) {
      const cs: unknown = list[i];
      if (!isObject(cs)) continue;
      const status: Json = { name: this.intern(truncate(cs.name)), ready: cs.ready, restartCount: cs.restartCount };
      if (cs.started !== undefined) status.started = cs.started;
      const state = this.containerState(cs.state);
      if (state) status.state = state;
      const last = this.containerState(cs.lastState);
      if (last && Object.keys(last).length) status.lastState = last;
      out.push(status);
    }
    if (slot !== undefined) this.recent.set(slot, deepFreeze(out));
    return out;
  }

  // lastTransitionTime is kept (a view may say "not ready for 5m"); heartbeat times are not.
  private conditions(list: unknown, slot: string, cut: Cuts): Json[] | undefined {
    if (!Array.isArray(list)) return undefined;
    if (list.length > MAX_LIST) cut.note(`${list.length - MAX_LIST} conditions beyond ${MAX_LIST} dropped`);
    const n = Math.min(list.length, MAX_LIST);
    const last = this.recent.get(slot);
    if (Array.isArray(last)) {
      let at = 0;
      let same = true;
      for (let i = 0; i < n && same; i++) {
        const c: unknown = list[i];
        if (isObject(c)) same = at < last.length && equalsPicked(last[at++], c, CONDITION_KEYS, Cut.all);
      }
      if (same && at === last.length) return last as Json[];
    }
    const out: Json[] = [];
    for (let i = 0; i < n; i++) {
      const c: unknown = list[i];
      if (!isObject(c)) continue;
      const kept = pick(c, CONDITION_KEYS, newCondition) ?? {};
      for (const k of CONDITION_KEYS) if (kept[k] !== undefined) kept[k] = truncate(kept[k]);
      out.push(kept);
    }
    return this.shareByJson(out, slot);
  }

  /**
   * What wlx keeps of a pod. With `previous` (what was kept of the same pod's
   * last version), its parts are tried first, as the previous pod's are: a
   * watch event of a pod under churn changes its status, and comparing with
   * the pod before it in the stream (another workload's) finds few repeats.
   */
  pod(obj: unknown, report: TrimReport = () => undefined, previous?: KubeObject): KubeObject {
    if (previous !== undefined) this.tryFirst(previous);
    const o = isObject(obj) ? obj : {};
    const cut = new Cuts();
    const spec = isObject(o.spec) ? o.spec : {};
    const status = isObject(o.status) ? o.status : {};
    const outSpec: Json = pick(spec, POD_SPEC_KEYS, newPodSpec) ?? newPodSpec();
    for (let i = 0; i < POD_SPEC_INTERNED.length; i++) {
      const k = POD_SPEC_INTERNED[i];
      if (outSpec[k] !== undefined) outSpec[k] = this.internAt(truncate(outSpec[k]), Slot.podSpec + i);
    }
    for (const k of ['overhead', 'resources', 'nodeSelector', 'tolerations'] as const)
      if (outSpec[k] !== undefined) outSpec[k] = this.share(outSpec[k], POD_SPEC_SLOTS[k]);
    if (Array.isArray(outSpec.tolerations) && outSpec.tolerations.length > MAX_LIST) {
      cut.note(`${outSpec.tolerations.length - MAX_LIST} tolerations beyond ${MAX_LIST} dropped`);
      outSpec.tolerations = outSpec.tolerations.slice(0, MAX_LIST);
    }
    const containers = this.containers(spec.containers, 'pod.containers', cut, 'containers');
    if (containers) outSpec.containers = containers;
    const init = this.containers(spec.initContainers, 'pod.initContainers', cut, 'initContainers');
    if (init && init.length) outSpec.initContainers = init;
    // Unchanged (a status event): the last version's spec, whose parts these now are.
    const keptSpec =
      previous !== undefined && isObject(previous.spec) && sameOwnValues(previous.spec, outSpec)
        ? previous.spec
        : outSpec;
    const outStatus: Json = pick(status, POD_STATUS_KEYS, newPodStatus) ?? newPodStatus();
    for (let i = 0; i < POD_STATUS_INTERNED.length; i++) {
      const k = POD_STATUS_INTERNED[i];
      if (outStatus[k] !== undefined) outStatus[k] = this.internAt(truncate(outStatus[k]), Slot.podStatus + i);
    }
    for (const k of POD_STATUS_CUT) if (outStatus[k] !== undefined) outStatus[k] = truncate(outStatus[k]);
    if (status.message !== undefined) outStatus.message = truncate(status.message);
    const conditions = this.conditions(status.conditions, 'pod.conditions', cut);
    if (conditions) outStatus.conditions = conditions;
    const cs = this.containerStatuses(status.containerStatuses, cut, 'containerStatuses', CONTAINER_STATUSES_SLOT);
    if (cs) outStatus.containerStatuses = cs;
    const ics = this.containerStatuses(status.initContainerStatuses, cut, 'initContainerStatuses');
    if (ics && ics.length) outStatus.initContainerStatuses = ics;
    const metadata = this.metadata(o.metadata, cut, newPodMetadata, previous?.metadata);
    cut.reportTo(report, 'Pod', metadata);
    return {
      apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : 'v1',
      kind: 'Pod',
      metadata,
      spec: keptSpec,
      status: outStatus,
    };
  }

  /** `pod`'s kept parts as the ones to try first for the next pod (only shared, frozen ones may be shared again). */
  private tryFirst(pod: KubeObject): void {
    const meta = pod.metadata;
    const spec: Json = isObject(pod.spec) ? pod.spec : {};
    const status: Json = isObject(pod.status) ? pod.status : {};
    this.seed('pod.containers', spec.containers);
    this.seed('pod.initContainers', spec.initContainers);
    for (const k of ['overhead', 'resources', 'nodeSelector', 'tolerations'] as const)
      this.seed(POD_SPEC_SLOTS[k], spec[k]);
    this.seed('pod.conditions', status.conditions);
    this.seed(CONTAINER_STATUSES_SLOT, status.containerStatuses);
    this.seed(OWNERS_SLOT, meta.ownerReferences);
    if (meta.labels) this.lastLabels = meta.labels;
    if (meta.annotations) this.lastAnnotations = meta.annotations;
    if (meta.namespace !== undefined) this.lastInterned[Slot.namespace] = meta.namespace;
    if (meta.creationTimestamp !== undefined) this.lastInterned[Slot.created] = meta.creationTimestamp;
    for (let i = 0; i < POD_SPEC_INTERNED.length; i++)
      if (spec[POD_SPEC_INTERNED[i]] !== undefined) this.lastInterned[Slot.podSpec + i] = spec[POD_SPEC_INTERNED[i]];
    for (let i = 0; i < POD_STATUS_INTERNED.length; i++)
      if (status[POD_STATUS_INTERNED[i]] !== undefined)
        this.lastInterned[Slot.podStatus + i] = status[POD_STATUS_INTERNED[i]];
  }

  private seed(slot: string, value: unknown): void {
    if (value !== undefined && value !== null && typeof value === 'object' && Object.isFrozen(value))
      this.recent.set(slot, value);
  }

  /**
   * What src/model/dra.ts and the store read of a DRA object or a Topology:
   * metadata, spec (requests, devices, selectors, levels) and a claim's
   * status.allocation (its reservedFor list can name thousands of pods).
   */
  specAndAllocation(obj: unknown, report: TrimReport = () => undefined): KubeObject {
    const o = isObject(obj) ? obj : {};
    const status = isObject(o.status) ? pick(o.status, ['allocation']) : undefined;
    return trimWhole(
      {
        apiVersion: o.apiVersion,
        kind: o.kind,
        metadata: this.metadata(o.metadata),
        ...(o.spec !== undefined ? { spec: o.spec } : {}),
        ...(status ? { status } : {}),
      },
      report,
    );
  }

  node(obj: unknown, report: TrimReport = () => undefined): KubeObject {
    const o = isObject(obj) ? obj : {};
    const cut = new Cuts();
    const spec = isObject(o.spec) ? o.spec : {};
    const status = isObject(o.status) ? o.status : {};
    const meta = this.metadata(o.metadata, cut);
    // Node annotations are controller bookkeeping (volumes attached, CSI, ...): none is read.
    delete meta.annotations;
    const outSpec = pick(spec, ['taints', 'unschedulable', 'providerID']) ?? {};
    const outStatus = pick(status, ['capacity', 'allocatable', 'addresses']) ?? {};
    for (const [where, list] of [
      ['taints', outSpec],
      ['addresses', outStatus],
    ] as const) {
      const v = list[where];
      if (Array.isArray(v) && v.length > MAX_LIST) {
        cut.note(`${v.length - MAX_LIST} ${where} beyond ${MAX_LIST} dropped`);
        list[where] = v.slice(0, MAX_LIST);
      }
    }
    const nodeInfo = pick(status.nodeInfo, [
      'kubeletVersion',
      'containerRuntimeVersion',
      'osImage',
      'kernelVersion',
      'architecture',
    ]);
    if (nodeInfo) outStatus.nodeInfo = nodeInfo;
    // capacity, allocatable and nodeInfo are maps of any size: bounded like a whole object.
    const kept = boundWhole({ apiVersion: 'v1', kind: 'Node', metadata: meta, spec: outSpec, status: outStatus }, cut);
    // Shared (frozen) after the walk, which changes values in place.
    const conditions = this.conditions(status.conditions, 'node.conditions', cut);
    if (conditions) outStatus.conditions = conditions;
    cut.reportTo(report, 'Node', meta);
    return kept;
  }

  owner(obj: unknown, report: TrimReport = () => undefined): KubeObject {
    const o = isObject(obj) ? obj : {};
    const cut = new Cuts();
    const metadata = this.metadata(o.metadata, cut);
    const kind = typeof o.kind === 'string' ? o.kind : undefined;
    cut.reportTo(report, kind ?? 'object', metadata);
    return { apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : undefined, kind, metadata };
  }
}

/**
 * List items and watch objects of a kind carry no apiVersion/kind in lists;
 * put them back (definitions match roots by apiVersion+kind).
 */
export function withTypeMeta(obj: unknown, apiVersion: string, kind: string): unknown {
  if (isObject(obj) && (obj.apiVersion === undefined || obj.kind === undefined)) {
    obj.apiVersion ??= apiVersion;
    obj.kind ??= kind;
  }
  return obj;
}
