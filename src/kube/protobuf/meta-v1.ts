// Decoders of meta/v1 ObjectMeta, OwnerReference, ListMeta and Status (field
// numbers of k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto).
import type { WireReader } from './wire.js';
import { bool, int, int64, mapField, message, optStr, push, str, time, type FieldReader, type Json } from './fields.js';

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
