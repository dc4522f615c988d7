// Decoders of the fields wlx keeps of core/v1 Pod, Node and Event into the
// JSON shape the API server's JSON would have for those fields (what
// trim.ts reads); every other field is skipped by its length. Field numbers
// are those of k8s.io/api/core/v1/generated.proto and
// k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto (kubernetes/api
// 10b39a3, kubernetes/apimachinery eed236c).
//
// JSON equivalence follows the Go types' JSON tags: a non-pointer field with
// `omitempty` is left out when it holds its zero value (gogo-protobuf writes
// those as "" / 0 / false), a pointer field is kept whenever it is present,
// and a meta/v1 Time written as an empty message is JSON's null.
import type { WireReader } from './wire.js';

export type Json = Record<string, unknown>;

/** Reads one message's fields: `onField` returns false for a field it does not read (then skipped). */
type FieldReader<T> = (r: WireReader, field: number, wire: number, out: T) => boolean;

/** Reads the message in the next length-delimited field into `out` with `onField`. */
function message<T>(r: WireReader, wire: number, field: number, what: string, out: T, onField: FieldReader<T>): T {
  r.expectBytes(wire, field, what);
  const end = r.lengthEnd(what);
  const outer = r.end;
  r.end = end;
  while (r.pos < end) {
    const key = r.varint(what);
    const f = key >>> 3;
    const w = key & 7;
    if (!onField(r, f, w, out)) r.skip(w, what);
  }
  r.end = outer;
  return out;
}

/** Reads a whole top-level message (no length prefix: `r` spans exactly it). */
export function topLevel<T>(r: WireReader, what: string, out: T, onField: FieldReader<T>): T {
  while (r.pos < r.end) {
    const key = r.varint(what);
    const f = key >>> 3;
    const w = key & 7;
    if (!onField(r, f, w, out)) r.skip(w, what);
  }
  return out;
}

function str(r: WireReader, wire: number, field: number, what: string): string {
  r.expectBytes(wire, field, what);
  return r.string(what);
}

/** A non-pointer `omitempty` string: set unless empty. */
function optStr(out: Json, key: string, r: WireReader, wire: number, field: number, what: string): void {
  const s = str(r, wire, field, what);
  if (s) out[key] = s;
}

function int(r: WireReader, wire: number, field: number, what: string): number {
  r.expectVarint(wire, field, what);
  return r.int32(what);
}

function int64(r: WireReader, wire: number, field: number, what: string): number {
  r.expectVarint(wire, field, what);
  return r.int64(what);
}

function bool(r: WireReader, wire: number, field: number, what: string): boolean {
  r.expectVarint(wire, field, what);
  return r.bool(what);
}

// Objects of one list share few distinct times (created together, started together).
const TIME_TEXTS = new Map<number, string>();

/** RFC 3339 in seconds, as meta/v1 Time marshals to JSON. */
function rfc3339(seconds: number): string {
  let text = TIME_TEXTS.get(seconds);
  if (text === undefined) {
    if (TIME_TEXTS.size >= 4096) TIME_TEXTS.clear();
    text = `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
    TIME_TEXTS.set(seconds, text);
  }
  return text;
}

const TIME = 'meta/v1 Time';
const timeFields: FieldReader<{ seconds: number; nanos: number }> = (r, f, w, t) => {
  if (f === 1) t.seconds = int64(r, w, f, TIME);
  else if (f === 2) t.nanos = int(r, w, f, TIME);
  else return false;
  return true;
};

/** meta/v1 Time: {seconds = 1, nanos = 2}; an empty message is the zero time (JSON null). Nanos are not in JSON. */
function time(r: WireReader, wire: number, field: number): string | null {
  const t = message(r, wire, field, TIME, { seconds: 0, nanos: 0, empty: true }, timeOrEmptyFields);
  return t.empty ? null : rfc3339(t.seconds);
}

const timeOrEmptyFields: FieldReader<{ seconds: number; nanos: number; empty: boolean }> = (r, f, w, t) => {
  t.empty = false;
  return timeFields(r, f, w, t);
};

/** meta/v1 MicroTime: like Time with microseconds in JSON (RFC 3339 with 6 fraction digits). */
function microTime(r: WireReader, wire: number, field: number): string | null {
  const t = message(r, wire, field, 'meta/v1 MicroTime', { seconds: 0, nanos: 0 }, timeFields);
  if (t.seconds === 0 && t.nanos === 0) return null;
  const micros = String(Math.floor(t.nanos / 1000)).padStart(6, '0');
  return `${new Date(t.seconds * 1000).toISOString().slice(0, 19)}.${micros}Z`;
}

/** A map entry message {key = 1, value = 2} with a string value, or a Quantity {string = 1} when `quantity`. */
function mapEntry(r: WireReader, wire: number, field: number, what: string, into: Json, quantity: boolean): void {
  r.expectBytes(wire, field, what);
  const end = r.lengthEnd(what);
  const outer = r.end;
  r.end = end;
  let key = '';
  let value = '';
  while (r.pos < end) {
    const k = r.varint(what);
    const f = k >>> 3;
    const w = k & 7;
    if (f === 1) key = str(r, w, f, what);
    else if (f === 2) {
      if (!quantity) value = str(r, w, f, what);
      else value = message(r, w, f, 'resource.Quantity', { s: '' }, quantityFields).s;
    } else r.skip(w, what);
  }
  r.end = outer;
  into[key] = value;
}

const quantityFields: FieldReader<{ s: string }> = (r, f, w, q) => {
  if (f !== 1) return false;
  q.s = str(r, w, f, 'resource.Quantity');
  return true;
};

function mapField(out: Json, key: string, r: WireReader, wire: number, field: number, what: string, q: boolean): void {
  let m = out[key] as Json | undefined;
  if (!m) out[key] = m = {};
  mapEntry(r, wire, field, what, m, q);
}

function push(out: Json, key: string, value: unknown): void {
  const list = out[key] as unknown[] | undefined;
  if (list) list.push(value);
  else out[key] = [value];
}

// ---- meta/v1

const OWNER = 'meta/v1 OwnerReference';
const ownerFields: FieldReader<Json> = (r, f, w, o) => {
  switch (f) {
    case 1:
      o.kind = str(r, w, f, OWNER);
      return true;
    case 3:
      o.name = str(r, w, f, OWNER);
      return true;
    case 4:
      o.uid = str(r, w, f, OWNER);
      return true;
    case 5:
      o.apiVersion = str(r, w, f, OWNER);
      return true;
    case 6:
      o.controller = bool(r, w, f, OWNER);
      return true;
    default:
      return false;
  }
};

const META = 'meta/v1 ObjectMeta';
/** ObjectMeta: what trim.ts metadata() reads (managedFields, finalizers, generateName are skipped). */
const objectMetaFields: FieldReader<Json> = (r, f, w, m) => {
  switch (f) {
    case 1:
      optStr(m, 'name', r, w, f, META);
      return true;
    case 3:
      optStr(m, 'namespace', r, w, f, META);
      return true;
    case 5:
      optStr(m, 'uid', r, w, f, META);
      return true;
    case 6:
      optStr(m, 'resourceVersion', r, w, f, META);
      return true;
    case 7: {
      const g = int64(r, w, f, META);
      if (g) m.generation = g;
      return true;
    }
    case 8:
      m.creationTimestamp = time(r, w, f);
      return true;
    case 9:
      m.deletionTimestamp = time(r, w, f);
      return true;
    case 11:
      mapField(m, 'labels', r, w, f, META, false);
      return true;
    case 12:
      mapField(m, 'annotations', r, w, f, META, false);
      return true;
    case 13:
      push(m, 'ownerReferences', message(r, w, f, OWNER, {}, ownerFields));
      return true;
    default:
      return false;
  }
};

export function objectMeta(r: WireReader, wire: number, field: number): Json {
  return message(r, wire, field, META, {}, objectMetaFields);
}

const LIST_META = 'meta/v1 ListMeta';
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}
const listMetaFields: FieldReader<ListMeta> = (r, f, w, m) => {
  if (f === 2) m.resourceVersion = str(r, w, f, LIST_META) || undefined;
  else if (f === 3) m.continue = str(r, w, f, LIST_META) || undefined;
  else if (f === 4) m.remainingItemCount = int64(r, w, f, LIST_META);
  else return false;
  return true;
};

export function listMeta(r: WireReader, wire: number, field: number): ListMeta {
  return message(r, wire, field, LIST_META, {}, listMetaFields);
}

const STATUS = 'meta/v1 Status';
/** meta/v1 Status (a watch ERROR event's object): status, message, reason, code. */
export const statusFields: FieldReader<Json> = (r, f, w, s) => {
  switch (f) {
    case 2:
      optStr(s, 'status', r, w, f, STATUS);
      return true;
    case 3:
      optStr(s, 'message', r, w, f, STATUS);
      return true;
    case 4:
      optStr(s, 'reason', r, w, f, STATUS);
      return true;
    case 6: {
      const code = int(r, w, f, STATUS);
      if (code) s.code = code;
      return true;
    }
    default:
      return false;
  }
};

// ---- core/v1 Pod

const REQS = 'core/v1 ResourceRequirements';
const CLAIM = 'core/v1 ResourceClaim';
const claimFields: FieldReader<Json> = (r, f, w, c) => {
  if (f === 1) c.name = str(r, w, f, CLAIM);
  else if (f === 2) optStr(c, 'request', r, w, f, CLAIM);
  else return false;
  return true;
};
const requirementsFields: FieldReader<Json> = (r, f, w, q) => {
  if (f === 1) mapField(q, 'limits', r, w, f, REQS, true);
  else if (f === 2) mapField(q, 'requests', r, w, f, REQS, true);
  else if (f === 3) push(q, 'claims', message(r, w, f, CLAIM, {}, claimFields));
  else return false;
  return true;
};

const CONTAINER = 'core/v1 Container';
const containerFields: FieldReader<Json> = (r, f, w, c) => {
  switch (f) {
    case 1:
      c.name = str(r, w, f, CONTAINER);
      return true;
    case 2:
      optStr(c, 'image', r, w, f, CONTAINER);
      return true;
    case 8:
      c.resources = message(r, w, f, REQS, {}, requirementsFields);
      return true;
    case 24:
      c.restartPolicy = str(r, w, f, CONTAINER); // *string: kept when present
      return true;
    default:
      return false;
  }
};

const TOLERATION = 'core/v1 Toleration';
const tolerationFields: FieldReader<Json> = (r, f, w, t) => {
  switch (f) {
    case 1:
      optStr(t, 'key', r, w, f, TOLERATION);
      return true;
    case 2:
      optStr(t, 'operator', r, w, f, TOLERATION);
      return true;
    case 3:
      optStr(t, 'value', r, w, f, TOLERATION);
      return true;
    case 4:
      optStr(t, 'effect', r, w, f, TOLERATION);
      return true;
    case 5:
      t.tolerationSeconds = int64(r, w, f, TOLERATION);
      return true;
    default:
      return false;
  }
};

const POD_CLAIM = 'core/v1 PodResourceClaim';
const podClaimFields: FieldReader<Json> = (r, f, w, c) => {
  if (f === 1) c.name = str(r, w, f, POD_CLAIM);
  else if (f === 3) c.resourceClaimName = str(r, w, f, POD_CLAIM);
  else if (f === 4) c.resourceClaimTemplateName = str(r, w, f, POD_CLAIM);
  else return false;
  return true;
};

const POD_SPEC = 'core/v1 PodSpec';
const podSpecFields: FieldReader<Json> = (r, f, w, s) => {
  switch (f) {
    case 2:
      push(s, 'containers', message(r, w, f, CONTAINER, {}, containerFields));
      return true;
    case 20:
      push(s, 'initContainers', message(r, w, f, CONTAINER, {}, containerFields));
      return true;
    case 7:
      mapField(s, 'nodeSelector', r, w, f, POD_SPEC, false);
      return true;
    case 10:
      optStr(s, 'nodeName', r, w, f, POD_SPEC);
      return true;
    case 19:
      optStr(s, 'schedulerName', r, w, f, POD_SPEC);
      return true;
    case 22:
      push(s, 'tolerations', message(r, w, f, TOLERATION, {}, tolerationFields));
      return true;
    case 24:
      optStr(s, 'priorityClassName', r, w, f, POD_SPEC);
      return true;
    case 32:
      mapField(s, 'overhead', r, w, f, POD_SPEC, true);
      return true;
    case 39:
      push(s, 'resourceClaims', message(r, w, f, POD_CLAIM, {}, podClaimFields));
      return true;
    case 40:
      s.resources = message(r, w, f, REQS, {}, requirementsFields);
      return true;
    default:
      return false;
  }
};

const CONDITION = 'core/v1 PodCondition';
/** PodCondition and NodeCondition share the numbers wlx reads (type 1, status 2, lastTransitionTime 4, reason 5, message 6). */
const conditionFields: FieldReader<Json> = (r, f, w, c) => {
  switch (f) {
    case 1:
      c.type = str(r, w, f, CONDITION);
      return true;
    case 2:
      c.status = str(r, w, f, CONDITION);
      return true;
    case 4:
      c.lastTransitionTime = time(r, w, f);
      return true;
    case 5:
      optStr(c, 'reason', r, w, f, CONDITION);
      return true;
    case 6:
      optStr(c, 'message', r, w, f, CONDITION);
      return true;
    default:
      return false;
  }
};

const WAITING = 'core/v1 ContainerStateWaiting';
const waitingFields: FieldReader<Json> = (r, f, w, s) => {
  if (f === 1) optStr(s, 'reason', r, w, f, WAITING);
  else if (f === 2) optStr(s, 'message', r, w, f, WAITING);
  else return false;
  return true;
};
const runningFields: FieldReader<Json> = (r, f, w, s) => {
  if (f !== 1) return false;
  s.startedAt = time(r, w, f);
  return true;
};
const TERMINATED = 'core/v1 ContainerStateTerminated';
const terminatedFields: FieldReader<Json> = (r, f, w, s) => {
  switch (f) {
    case 1:
      s.exitCode = int(r, w, f, TERMINATED);
      return true;
    case 2: {
      const signal = int(r, w, f, TERMINATED);
      if (signal) s.signal = signal;
      return true;
    }
    case 3:
      optStr(s, 'reason', r, w, f, TERMINATED);
      return true;
    case 4:
      optStr(s, 'message', r, w, f, TERMINATED);
      return true;
    case 5:
      s.startedAt = time(r, w, f);
      return true;
    case 6:
      s.finishedAt = time(r, w, f);
      return true;
    default:
      return false;
  }
};
const STATE = 'core/v1 ContainerState';
const stateFields: FieldReader<Json> = (r, f, w, s) => {
  if (f === 1) s.waiting = message(r, w, f, WAITING, {}, waitingFields);
  else if (f === 2) s.running = message(r, w, f, 'core/v1 ContainerStateRunning', {}, runningFields);
  else if (f === 3) s.terminated = message(r, w, f, TERMINATED, {}, terminatedFields);
  else return false;
  return true;
};

const STATUS_OF_CONTAINER = 'core/v1 ContainerStatus';
const containerStatusFields: FieldReader<Json> = (r, f, w, c) => {
  switch (f) {
    case 1:
      c.name = str(r, w, f, STATUS_OF_CONTAINER);
      return true;
    case 2:
      c.state = message(r, w, f, STATE, {}, stateFields);
      return true;
    case 3:
      c.lastState = message(r, w, f, STATE, {}, stateFields);
      return true;
    case 4:
      c.ready = bool(r, w, f, STATUS_OF_CONTAINER);
      return true;
    case 5:
      c.restartCount = int(r, w, f, STATUS_OF_CONTAINER);
      return true;
    case 9:
      c.started = bool(r, w, f, STATUS_OF_CONTAINER);
      return true;
    default:
      return false;
  }
};

const CLAIM_STATUS = 'core/v1 PodResourceClaimStatus';
const claimStatusFields: FieldReader<Json> = (r, f, w, c) => {
  if (f === 1) c.name = str(r, w, f, CLAIM_STATUS);
  else if (f === 2) c.resourceClaimName = str(r, w, f, CLAIM_STATUS);
  else return false;
  return true;
};

const POD_STATUS = 'core/v1 PodStatus';
const podStatusFields: FieldReader<Json> = (r, f, w, s) => {
  switch (f) {
    case 1:
      optStr(s, 'phase', r, w, f, POD_STATUS);
      return true;
    case 2:
      push(s, 'conditions', message(r, w, f, CONDITION, {}, conditionFields));
      return true;
    case 3:
      optStr(s, 'message', r, w, f, POD_STATUS);
      return true;
    case 4:
      optStr(s, 'reason', r, w, f, POD_STATUS);
      return true;
    case 5:
      optStr(s, 'hostIP', r, w, f, POD_STATUS);
      return true;
    case 6:
      optStr(s, 'podIP', r, w, f, POD_STATUS);
      return true;
    case 7:
      s.startTime = time(r, w, f);
      return true;
    case 8:
      push(s, 'containerStatuses', message(r, w, f, STATUS_OF_CONTAINER, {}, containerStatusFields));
      return true;
    case 10:
      push(s, 'initContainerStatuses', message(r, w, f, STATUS_OF_CONTAINER, {}, containerStatusFields));
      return true;
    case 11:
      optStr(s, 'nominatedNodeName', r, w, f, POD_STATUS);
      return true;
    case 15:
      push(s, 'resourceClaimStatuses', message(r, w, f, CLAIM_STATUS, {}, claimStatusFields));
      return true;
    default:
      return false;
  }
};

const POD = 'core/v1 Pod';
const podFields: FieldReader<Json> = (r, f, w, p) => {
  if (f === 1) p.metadata = objectMeta(r, w, f);
  else if (f === 2) p.spec = message(r, w, f, POD_SPEC, {}, podSpecFields);
  else if (f === 3) p.status = message(r, w, f, POD_STATUS, {}, podStatusFields);
  else return false;
  return true;
};

// ---- core/v1 Node

const TAINT = 'core/v1 Taint';
const taintFields: FieldReader<Json> = (r, f, w, t) => {
  switch (f) {
    case 1:
      t.key = str(r, w, f, TAINT);
      return true;
    case 2:
      optStr(t, 'value', r, w, f, TAINT);
      return true;
    case 3:
      t.effect = str(r, w, f, TAINT);
      return true;
    case 4:
      t.timeAdded = time(r, w, f);
      return true;
    default:
      return false;
  }
};

const NODE_SPEC = 'core/v1 NodeSpec';
const nodeSpecFields: FieldReader<Json> = (r, f, w, s) => {
  if (f === 3) optStr(s, 'providerID', r, w, f, NODE_SPEC);
  else if (f === 4) {
    if (bool(r, w, f, NODE_SPEC)) s.unschedulable = true;
  } else if (f === 5) push(s, 'taints', message(r, w, f, TAINT, {}, taintFields));
  else return false;
  return true;
};

const ADDRESS = 'core/v1 NodeAddress';
const addressFields: FieldReader<Json> = (r, f, w, a) => {
  if (f === 1) a.type = str(r, w, f, ADDRESS);
  else if (f === 2) a.address = str(r, w, f, ADDRESS);
  else return false;
  return true;
};

const NODE_INFO = 'core/v1 NodeSystemInfo';
const NODE_INFO_KEYS: Record<number, string> = {
  4: 'kernelVersion',
  5: 'osImage',
  6: 'containerRuntimeVersion',
  7: 'kubeletVersion',
  10: 'architecture',
};
const nodeInfoFields: FieldReader<Json> = (r, f, w, i) => {
  const key = NODE_INFO_KEYS[f];
  if (key === undefined) return false;
  i[key] = str(r, w, f, NODE_INFO);
  return true;
};

const NODE_STATUS = 'core/v1 NodeStatus';
const nodeStatusFields: FieldReader<Json> = (r, f, w, s) => {
  switch (f) {
    case 1:
      mapField(s, 'capacity', r, w, f, NODE_STATUS, true);
      return true;
    case 2:
      mapField(s, 'allocatable', r, w, f, NODE_STATUS, true);
      return true;
    case 4:
      push(s, 'conditions', message(r, w, f, 'core/v1 NodeCondition', {}, conditionFields));
      return true;
    case 5:
      push(s, 'addresses', message(r, w, f, ADDRESS, {}, addressFields));
      return true;
    case 7:
      s.nodeInfo = message(r, w, f, NODE_INFO, {}, nodeInfoFields);
      return true;
    default:
      return false;
  }
};

const nodeFields: FieldReader<Json> = (r, f, w, n) => {
  if (f === 1) n.metadata = objectMeta(r, w, f);
  else if (f === 2) n.spec = message(r, w, f, NODE_SPEC, {}, nodeSpecFields);
  else if (f === 3) n.status = message(r, w, f, NODE_STATUS, {}, nodeStatusFields);
  else return false;
  return true;
};

// ---- core/v1 Event

const REF = 'core/v1 ObjectReference';
const REF_KEYS: Record<number, string> = {
  1: 'kind',
  2: 'namespace',
  3: 'name',
  4: 'uid',
  5: 'apiVersion',
  6: 'resourceVersion',
  7: 'fieldPath',
};
const refFields: FieldReader<Json> = (r, f, w, o) => {
  const key = REF_KEYS[f];
  if (key === undefined) return false;
  optStr(o, key, r, w, f, REF);
  return true;
};

const SOURCE = 'core/v1 EventSource';
const sourceFields: FieldReader<Json> = (r, f, w, s) => {
  if (f === 1) optStr(s, 'component', r, w, f, SOURCE);
  else if (f === 2) optStr(s, 'host', r, w, f, SOURCE);
  else return false;
  return true;
};

const SERIES = 'core/v1 EventSeries';
const seriesFields: FieldReader<Json> = (r, f, w, s) => {
  if (f === 1) s.count = int(r, w, f, SERIES);
  else if (f === 2) s.lastObservedTime = microTime(r, w, f);
  else return false;
  return true;
};

const EVENT = 'core/v1 Event';
/** What views and `kubectl describe` read of an Event (access.ts, the incident view). */
const eventFields: FieldReader<Json> = (r, f, w, e) => {
  switch (f) {
    case 1:
      e.metadata = objectMeta(r, w, f);
      return true;
    case 2:
      e.involvedObject = message(r, w, f, REF, {}, refFields);
      return true;
    case 3:
      optStr(e, 'reason', r, w, f, EVENT);
      return true;
    case 4:
      optStr(e, 'message', r, w, f, EVENT);
      return true;
    case 5:
      e.source = message(r, w, f, SOURCE, {}, sourceFields);
      return true;
    case 6:
      e.firstTimestamp = time(r, w, f);
      return true;
    case 7:
      e.lastTimestamp = time(r, w, f);
      return true;
    case 8: {
      const count = int(r, w, f, EVENT);
      if (count) e.count = count;
      return true;
    }
    case 9:
      optStr(e, 'type', r, w, f, EVENT);
      return true;
    case 10:
      e.eventTime = microTime(r, w, f);
      return true;
    case 11:
      e.series = message(r, w, f, SERIES, {}, seriesFields);
      return true;
    case 12:
      optStr(e, 'action', r, w, f, EVENT);
      return true;
    case 13:
      e.related = message(r, w, f, REF, {}, refFields);
      return true;
    case 14:
      e.reportingComponent = str(r, w, f, EVENT);
      return true;
    case 15:
      e.reportingInstance = str(r, w, f, EVENT);
      return true;
    default:
      return false;
  }
};

/** Decodes one object of a kind from the `raw` bytes of its envelope or list item (r spans exactly it). */
export type ObjectDecoder = (r: WireReader) => Json;

const DECODERS: Record<string, ObjectDecoder> = {
  Pod: (r) => topLevel(r, POD, {}, podFields),
  Node: (r) => topLevel(r, 'core/v1 Node', {}, nodeFields),
  Event: (r) => topLevel(r, EVENT, {}, eventFields),
};

/** The decoder of a core/v1 kind wlx reads as protobuf; undefined for every other kind. */
export function decoderFor(apiVersion: string, kind: string): ObjectDecoder | undefined {
  return apiVersion === 'v1' ? DECODERS[kind] : undefined;
}
