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
import {
  bool,
  int,
  int64,
  mapField,
  message,
  microTime,
  optStr,
  push,
  str,
  time,
  topLevel,
  type FieldReader,
  type Json,
} from './fields.js';
import { objectMeta } from './meta-v1.js';

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
