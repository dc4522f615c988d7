// What wlx keeps of each object. A real pod is 2.5–10 KB of JSON, most of it
// managedFields, env, volumes, probes and the last-applied annotation that no
// view and no definition pod-side expression reads. Trimming right after each
// list page / watch line is parsed lets the untrimmed object die young, so
// 100,000 pods fit in a few hundred MB.
//
// Roles: 'pod', 'node', 'owner' (intermediate controllers such as Jobs,
// ReplicaSets, StatefulSets: metadata only, for ownerReference chains),
// 'workload' (a root object of a defined type: whole, since definition
// expressions may read anything in it), 'definition' (a cluster Karta: whole).
import type { KubeObject, ObjectMeta } from '../model/types.js';
import { deepEqual } from '../model/equal.js';

export type TrimRole = 'pod' | 'node' | 'owner' | 'workload' | 'definition';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** Annotation values longer than this are dropped from pods and owners (they are config blobs, not labels). */
const MAX_ANNOTATION_VALUE = 1024;
/** Container state messages longer than this are cut (termination messages can be 4 KB+). */
export const MAX_MESSAGE = 256;

type Json = Record<string, unknown>;

// Sharing. Pods of one template repeat the same containers, resources,
// tolerations, conditions and label values; JSON.parse gives each pod its own
// copies. Identical small values are shared (hash-consed by their JSON text)
// and frozen so nobody can change one pod's copy under another pod. Both
// tables are bounded: when full they are simply cleared (old values stay
// shared by whoever holds them).
const MAX_SHARED = 50_000;
const sharedValues = new Map<string, unknown>();
const sharedStrings = new Map<string, string>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The last value shared per slot (containers, tolerations, conditions...):
 * list pages come in name order, so the pods of one template arrive one after
 * another, and comparing with the previous pod's value (a few field reads)
 * finds nearly every repeat without building a JSON key.
 */
const recent = new Map<string, unknown>();

/**
 * One shared, frozen instance per distinct JSON value. `slot` names where the
 * value sits (e.g. 'containers'): the previous value shared there is tried
 * first, then the table keyed by the JSON text.
 */
export function share<T>(value: T, slot?: string): T {
  if (value === undefined || value === null || typeof value !== 'object') return value;
  const last = slot === undefined ? undefined : recentEqual(value, slot);
  return last ?? shareByJson(value, slot);
}

/** The previous value shared in `slot` when it equals `value`. */
function recentEqual<T>(value: T, slot: string): T | undefined {
  const last = recent.get(slot);
  return last !== undefined && deepEqual(last, value) ? (last as T) : undefined;
}

/**
 * Shares `value` only when it equals the previous value of its slot (values
 * that repeat among siblings, e.g. the ownerReferences of the pods of one
 * Job, but seldom across them: no JSON key is built and no table entry kept).
 */
export function shareRecent<T>(value: T, slot: string): T {
  if (value === undefined || value === null || typeof value !== 'object') return value;
  const last = recentEqual(value, slot);
  if (last !== undefined) return last;
  recent.set(slot, deepFreeze(value));
  return value;
}

function shareByJson<T>(value: T, slot: string | undefined): T {
  const key = JSON.stringify(value);
  if (key.length > 4096) return value;
  let out = sharedValues.get(key) as T | undefined;
  if (out === undefined) {
    if (sharedValues.size >= MAX_SHARED) sharedValues.clear();
    sharedValues.set(key, deepFreeze(value));
    out = value;
  }
  if (slot !== undefined) recent.set(slot, out);
  return out;
}

/** One shared copy per distinct short string (label values, node names, images, times). */
export function intern(value: unknown): unknown {
  if (typeof value !== 'string' || value.length > 256) return value;
  const hit = sharedStrings.get(value);
  if (hit !== undefined) return hit;
  if (sharedStrings.size >= MAX_SHARED) sharedStrings.clear();
  sharedStrings.set(value, value);
  return value;
}

function internRecord(rec: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec)) if (typeof v === 'string') out[k] = intern(v) as string;
  return out;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pick(source: unknown, keys: readonly string[]): Json | undefined {
  if (!isObject(source)) return undefined;
  const out: Json = {};
  let any = false;
  for (const k of keys) {
    const v = source[k];
    if (v !== undefined) {
      out[k] = v;
      any = true;
    }
  }
  return any ? out : undefined;
}

function truncate(text: unknown, max = MAX_MESSAGE): unknown {
  if (typeof text !== 'string' || text.length <= max) return text;
  // Through a Buffer: a plain slice would keep the whole original string alive.
  return Buffer.from(`${text.slice(0, max)}... (${text.length - max} more characters)`, 'utf8').toString('utf8');
}

function trimAnnotations(annotations: unknown, dropBig: boolean): Record<string, string> | undefined {
  if (!isObject(annotations)) return undefined;
  const out: Record<string, string> = {};
  let any = false;
  for (const [k, v] of Object.entries(annotations)) {
    if (k === LAST_APPLIED) continue;
    if (typeof v !== 'string') continue;
    if (dropBig && v.length > MAX_ANNOTATION_VALUE) continue;
    out[k] = intern(v) as string;
    any = true;
  }
  return any ? out : undefined;
}

function trimOwnerReferences(refs: unknown): ObjectMeta['ownerReferences'] {
  if (!Array.isArray(refs)) return undefined;
  return refs.filter(isObject).map((r) => {
    const ref: NonNullable<ObjectMeta['ownerReferences']>[number] = {
      apiVersion: intern(String(r.apiVersion ?? '')) as string,
      kind: intern(String(r.kind ?? '')) as string,
      name: intern(String(r.name ?? '')) as string,
      uid: intern(String(r.uid ?? '')) as string,
    };
    if (r.controller === true) ref.controller = true;
    return ref;
  });
}

/** Metadata wlx reads: identity, times, labels, annotations (minus blobs), owners. */
export function trimMetadata(meta: unknown, dropBigAnnotations = true): ObjectMeta {
  const m = isObject(meta) ? meta : {};
  const out: ObjectMeta = { name: String(m.name ?? ''), uid: String(m.uid ?? '') };
  if (typeof m.namespace === 'string') out.namespace = intern(m.namespace) as string;
  if (typeof m.resourceVersion === 'string') out.resourceVersion = m.resourceVersion;
  if (typeof m.creationTimestamp === 'string') out.creationTimestamp = intern(m.creationTimestamp) as string;
  if (typeof m.deletionTimestamp === 'string') out.deletionTimestamp = m.deletionTimestamp;
  if (typeof m.generation === 'number') out.generation = m.generation;
  if (isObject(m.labels)) out.labels = internRecord(m.labels);
  const annotations = trimAnnotations(m.annotations, dropBigAnnotations);
  if (annotations) out.annotations = annotations;
  const owners = trimOwnerReferences(m.ownerReferences);
  if (owners && owners.length) out.ownerReferences = shareRecent(owners, 'ownerReferences');
  return out;
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
] as const;
const STATE_KEYS = ['reason', 'exitCode', 'startedAt', 'finishedAt', 'message', 'signal'] as const;

function trimContainers(list: unknown, slot: string): Json[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return share(
    list.map((c) => pick(c, CONTAINER_KEYS) ?? {}),
    slot,
  );
}

function trimContainerState(state: unknown): Json | undefined {
  if (!isObject(state)) return undefined;
  const out: Json = {};
  for (const phase of ['waiting', 'running', 'terminated'] as const) {
    const s = pick(state[phase], STATE_KEYS);
    if (s) {
      if (s.message !== undefined) s.message = truncate(s.message);
      if (typeof s.reason === 'string') s.reason = intern(s.reason);
      if (typeof s.startedAt === 'string') s.startedAt = intern(s.startedAt);
      if (typeof s.finishedAt === 'string') s.finishedAt = intern(s.finishedAt);
      out[phase] = s;
    } else if (isObject(state[phase])) {
      out[phase] = {};
    }
  }
  return out;
}

function trimContainerStatuses(list: unknown): Json[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.filter(isObject).map((cs) => {
    const out: Json = { name: intern(cs.name), ready: cs.ready, restartCount: cs.restartCount };
    if (cs.started !== undefined) out.started = cs.started;
    const state = trimContainerState(cs.state);
    if (state) out.state = state;
    const last = trimContainerState(cs.lastState);
    if (last && Object.keys(last).length) out.lastState = last;
    return out;
  });
}

// lastTransitionTime is kept (a view may say "not ready for 5m"); heartbeat times are not.
function trimConditions(list: unknown, slot: string): Json[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return share(
    list.filter(isObject).map((c) => {
      const out = pick(c, ['type', 'status', 'reason', 'message', 'lastTransitionTime']) ?? {};
      if (out.message !== undefined) out.message = truncate(out.message);
      return out;
    }),
    slot,
  );
}

const POD_SPEC_SLOTS = {
  overhead: 'pod.overhead',
  resources: 'pod.resources',
  nodeSelector: 'pod.nodeSelector',
  tolerations: 'pod.tolerations',
} as const;

export function trimPod(obj: unknown): KubeObject {
  const o = isObject(obj) ? obj : {};
  const spec = isObject(o.spec) ? o.spec : {};
  const status = isObject(o.status) ? o.status : {};
  const outSpec: Json = pick(spec, POD_SPEC_KEYS) ?? {};
  for (const k of ['nodeName', 'priorityClassName', 'schedulerName'] as const)
    if (outSpec[k] !== undefined) outSpec[k] = intern(outSpec[k]);
  for (const k of ['overhead', 'resources', 'nodeSelector', 'tolerations'] as const)
    if (outSpec[k] !== undefined) outSpec[k] = share(outSpec[k], POD_SPEC_SLOTS[k]);
  const containers = trimContainers(spec.containers, 'pod.containers');
  if (containers) outSpec.containers = containers;
  const init = trimContainers(spec.initContainers, 'pod.initContainers');
  if (init && init.length) outSpec.initContainers = init;
  const outStatus: Json = pick(status, ['phase', 'reason', 'hostIP', 'podIP', 'startTime', 'nominatedNodeName']) ?? {};
  for (const k of ['phase', 'reason', 'hostIP', 'startTime'] as const)
    if (outStatus[k] !== undefined) outStatus[k] = intern(outStatus[k]);
  if (status.message !== undefined) outStatus.message = truncate(status.message);
  const conditions = trimConditions(status.conditions, 'pod.conditions');
  if (conditions) outStatus.conditions = conditions;
  const cs = trimContainerStatuses(status.containerStatuses);
  if (cs) outStatus.containerStatuses = shareRecent(cs, 'pod.containerStatuses');
  const ics = trimContainerStatuses(status.initContainerStatuses);
  if (ics && ics.length) outStatus.initContainerStatuses = ics;
  return {
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : 'v1',
    kind: 'Pod',
    metadata: trimMetadata(o.metadata),
    spec: outSpec,
    status: outStatus,
  };
}

export function trimNode(obj: unknown): KubeObject {
  const o = isObject(obj) ? obj : {};
  const spec = isObject(o.spec) ? o.spec : {};
  const status = isObject(o.status) ? o.status : {};
  const meta = trimMetadata(o.metadata);
  // Node annotations are controller bookkeeping (volumes attached, CSI, ...): none is read.
  delete meta.annotations;
  const outSpec = pick(spec, ['taints', 'unschedulable', 'providerID']) ?? {};
  const outStatus = pick(status, ['capacity', 'allocatable', 'addresses']) ?? {};
  const conditions = trimConditions(status.conditions, 'node.conditions');
  if (conditions) outStatus.conditions = conditions;
  const nodeInfo = pick(status.nodeInfo, [
    'kubeletVersion',
    'containerRuntimeVersion',
    'osImage',
    'kernelVersion',
    'architecture',
  ]);
  if (nodeInfo) outStatus.nodeInfo = nodeInfo;
  return { apiVersion: 'v1', kind: 'Node', metadata: meta, spec: outSpec, status: outStatus };
}

export function trimOwner(obj: unknown): KubeObject {
  const o = isObject(obj) ? obj : {};
  return {
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : undefined,
    kind: typeof o.kind === 'string' ? o.kind : undefined,
    metadata: trimMetadata(o.metadata),
  };
}

/** A workload root or a Karta: everything but managedFields and the last-applied annotation. */
export function trimWhole(obj: unknown): KubeObject {
  const o = isObject(obj) ? obj : {};
  const meta: Json = isObject(o.metadata) ? { ...o.metadata } : {};
  delete meta.managedFields;
  if (isObject(meta.annotations) && LAST_APPLIED in meta.annotations) {
    const a = { ...meta.annotations };
    delete a[LAST_APPLIED];
    meta.annotations = a;
  }
  return { ...o, metadata: meta as ObjectMeta };
}

export function trimFor(role: TrimRole): (obj: unknown) => KubeObject {
  switch (role) {
    case 'pod':
      return trimPod;
    case 'node':
      return trimNode;
    case 'owner':
      return trimOwner;
    case 'workload':
    case 'definition':
      return trimWhole;
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
