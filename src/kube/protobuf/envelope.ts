// Kubernetes' protobuf framing around objects: the `k8s\0` envelope (a
// runtime.Unknown {typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2,
// contentEncoding = 3, contentType = 4}, k8s.io/apimachinery/pkg/runtime/
// generated.proto), lists (PodList etc.: metadata = 1 ListMeta, items = 2), and
// watch streams: frames of a 4-byte big-endian length, each a meta/v1
// WatchEvent {type = 1, object = 2 RawExtension {raw = 1}} whose raw is itself
// an envelope.
import type { ObjectDecoder } from './core-v1.js';
import { topLevel, type Json } from './fields.js';
import { listMeta, statusFields, type ListMeta } from './meta-v1.js';
import { ProtobufError, WireReader, WIRE_BYTES } from './wire.js';

/** The media type of kube-apiserver's protobuf (an envelope's contentType, when set, names it). */
export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

export interface Envelope {
  apiVersion: string;
  kind: string;
  /** The object's bytes (a view into the input). */
  raw: Buffer;
  contentType: string;
}

const UNKNOWN = 'runtime.Unknown';

/** Reads the `k8s\0` envelope around one object or list. */
/** Whether `body` starts with the envelope's `k8s\0` prefix. */
function hasEnvelopePrefix(body: Buffer): boolean {
  return body.length >= 4 && body.readUInt32BE(0) === 0x6b387300;
}

export function readEnvelope(body: Buffer): Envelope {
  if (!hasEnvelopePrefix(body))
    throw new ProtobufError(`${UNKNOWN}: no "k8s\\0" prefix (not a Kubernetes protobuf message)`);
  const r = new WireReader(body, 4);
  const out: Envelope = { apiVersion: '', kind: '', raw: body.subarray(0, 0), contentType: '' };
  let hasRaw = false;
  topLevel(r, UNKNOWN, out, (r, f, w, e) => {
    if (f === 1) {
      r.expectBytes(w, f, UNKNOWN);
      const end = r.lengthEnd(UNKNOWN);
      const outer = r.end;
      r.end = end;
      topLevel(r, 'runtime.TypeMeta', e, (r, f, w, t) => {
        if (f === 1 || f === 2) r.expectBytes(w, f, 'runtime.TypeMeta');
        if (f === 1) t.apiVersion = r.string('runtime.TypeMeta');
        else if (f === 2) t.kind = r.string('runtime.TypeMeta');
        else return false;
        return true;
      });
      r.end = outer;
    } else if (f === 2) {
      r.expectBytes(w, f, UNKNOWN);
      e.raw = r.bytes(UNKNOWN);
      hasRaw = true;
    } else if (f === 4) {
      r.expectBytes(w, f, UNKNOWN);
      e.contentType = r.string(UNKNOWN);
    } else return false;
    return true;
  });
  if (!hasRaw) throw new ProtobufError(`${UNKNOWN}: no raw object (${out.kind || 'no kind'}) in ${body.length} bytes`);
  // An envelope may declare its raw to be another encoding (e.g. JSON): not read here.
  if (out.contentType !== '' && !out.contentType.startsWith(PROTOBUF_MEDIA_TYPE))
    throw new ProtobufError(`${UNKNOWN}: raw of content type ${out.contentType} is not protobuf`);
  return out;
}

export interface DecodedList {
  kind: string;
  metadata: ListMeta;
  /** Strings of the page that were not valid UTF-8 (decoded as U+FFFD). */
  invalidUtf8: number;
}

/**
 * Decodes a list page, handing each item to `onItem` as soon as it is decoded
 * (so nothing holds a page of decoded objects), with whether it had invalid UTF-8.
 */
export function decodeList(
  body: Buffer,
  decode: ObjectDecoder,
  onItem: (object: Json, invalidUtf8: boolean) => void,
): DecodedList {
  const env = readEnvelope(body);
  const what = env.kind || 'list';
  const view = new WireReader(env.raw);
  const out: DecodedList = { kind: env.kind, metadata: {}, invalidUtf8: 0 };
  topLevel(view, what, out, (r, f, w, list) => {
    if (f === 1) list.metadata = listMeta(r, w, f);
    else if (f === 2) {
      r.expectBytes(w, f, what);
      const end = r.lengthEnd(what);
      const outer = r.end;
      r.end = end;
      const before = r.invalidUtf8;
      const obj = decode(r);
      r.end = outer;
      onItem(obj, r.invalidUtf8 !== before);
    } else return false;
    return true;
  });
  out.invalidUtf8 = view.invalidUtf8;
  return out;
}

/**
 * A list page's continue token, read before its items are decoded (ListMeta
 * comes first); '' when none. Works on the first bytes of a page cut short
 * (a page over its bound) as long as its ListMeta is whole.
 */
export function peekListContinue(body: Buffer): string {
  try {
    if (!hasEnvelopePrefix(body)) return '';
    const raw = openField(new WireReader(body, 4), 2);
    if (!raw) return '';
    const r = new WireReader(raw);
    while (r.pos < r.end) {
      const key = r.varint('list');
      if (key >>> 3 === 1 && (key & 7) === WIRE_BYTES) return listMeta(r, key & 7, 1).continue ?? '';
      r.skip(key & 7, 'list');
    }
  } catch {
    // An unreadable page fails when it is decoded.
  }
  return '';
}

export interface DecodedWatchEvent {
  type: string;
  /** The object's apiVersion and kind from its envelope (Status for ERROR events). */
  apiVersion: string;
  kind: string;
  object: Json;
  invalidUtf8: boolean;
}

const WATCH_EVENT = 'meta/v1 WatchEvent';

/** Decodes one watch frame (without its length prefix); a Status object for ERROR events. */
export function decodeWatchEvent(frame: Buffer, decode: ObjectDecoder): DecodedWatchEvent {
  const r = new WireReader(frame);
  let type = '';
  let raw: Buffer | undefined;
  topLevel(r, WATCH_EVENT, null, (r, f, w) => {
    if (f === 1) {
      r.expectBytes(w, f, WATCH_EVENT);
      type = r.string(WATCH_EVENT);
    } else if (f === 2) {
      r.expectBytes(w, f, WATCH_EVENT);
      const end = r.lengthEnd(WATCH_EVENT);
      const outer = r.end;
      r.end = end;
      topLevel(r, 'runtime.RawExtension', null, (r, f, w) => {
        if (f !== 1) return false;
        r.expectBytes(w, f, 'runtime.RawExtension');
        raw = r.bytes('runtime.RawExtension');
        return true;
      });
      r.end = outer;
    } else return false;
    return true;
  });
  if (!raw) throw new ProtobufError(`${WATCH_EVENT}: no object`);
  const env = readEnvelope(raw);
  const objectReader = new WireReader(env.raw);
  const object =
    env.kind === 'Status' ? topLevel(objectReader, 'meta/v1 Status', {}, statusFields) : decode(objectReader);
  return { type, apiVersion: env.apiVersion, kind: env.kind, object, invalidUtf8: objectReader.invalidUtf8 > 0 };
}

/**
 * "namespace/name" of the object in the first bytes of a watch frame or an
 * envelope, or of a list's first item (`isList`), for reports on a frame or
 * page over its bound; '' when not found.
 */
export function objectNameInProtobuf(head: Buffer, isWatchFrame: boolean, isList = false): string {
  const meta: Json = {};
  try {
    let body = head;
    if (isWatchFrame) {
      // WatchEvent.object (2) → RawExtension.raw (1) → envelope.
      body = openField(new WireReader(body), 2) ?? Buffer.alloc(0);
      body = openField(new WireReader(body), 1) ?? Buffer.alloc(0);
    }
    if (body.length < 4) return '';
    let raw = openField(new WireReader(body, 4), 2);
    // A list: its first item (items = 2, after ListMeta = 1).
    if (raw && isList) raw = openField(new WireReader(raw), 2);
    if (!raw) return '';
    const r = new WireReader(raw);
    const key = r.varint('object');
    if (key >>> 3 !== 1 || (key & 7) !== WIRE_BYTES) return '';
    // The metadata may be cut short: read what is there.
    const len = r.varint('object');
    const m = new WireReader(raw, r.pos, Math.min(raw.length, r.pos + len));
    try {
      topLevel(m, 'meta/v1 ObjectMeta', meta, (r, f, w, out: Json) => {
        if ((f === 1 || f === 3) && w === WIRE_BYTES) {
          out[f === 1 ? 'name' : 'namespace'] = r.string('meta/v1 ObjectMeta');
          return true;
        }
        return false;
      });
    } catch {
      // Cut in the middle: what was read before the cut is in `meta`.
    }
  } catch {
    return '';
  }
  const name = typeof meta.name === 'string' ? meta.name : '';
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  return name ? (ns ? `${ns}/${name}` : name) : '';
}

/** The bytes of the first length-delimited field `field` at the reader's top level, cut to what is there. */
function openField(r: WireReader, field: number): Buffer | undefined {
  while (r.pos < r.end) {
    const key = r.varint('frame');
    const w = key & 7;
    if (key >>> 3 === field && w === WIRE_BYTES) {
      const len = r.varint('frame');
      return r.buf.subarray(r.pos, Math.min(r.end, r.pos + len));
    }
    r.skip(w, 'frame');
  }
  return undefined;
}

/**
 * Splits a watch stream into frames (4-byte big-endian length, then the
 * frame). A frame longer than `maxFrameBytes` is not kept: its first
 * `headBytes` are handed to `onSkipped` with its length, the rest passed over
 * as it arrives.
 */
export class WatchFrameSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes still to pass over of a frame over the bound, and its head. */
  private skipLeft = 0;
  private skipHead: Buffer | undefined;
  private skipLength = 0;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly headBytes: number,
    private readonly onSkipped: (head: Buffer, length: number) => void,
  ) {}

  /** The complete frames in `chunk` and what came before it. */
  push(chunk: Buffer): Buffer[] {
    const frames: Buffer[] = [];
    let data = chunk;
    for (;;) {
      if (this.skipLeft > 0) {
        const take = Math.min(this.skipLeft, data.length);
        if (this.skipHead && this.skipHead.length < this.headBytes)
          this.skipHead = Buffer.concat([this.skipHead, data.subarray(0, take)]).subarray(0, this.headBytes);
        this.skipLeft -= take;
        data = data.subarray(take);
        if (this.skipLeft > 0) return frames;
        this.onSkipped(this.skipHead ?? Buffer.alloc(0), this.skipLength);
        this.skipHead = undefined;
      }
      if (data.length) {
        this.pending.push(data);
        this.pendingBytes += data.length;
        data = Buffer.alloc(0);
      }
      if (this.pendingBytes < 4) return frames;
      const all = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
      this.pending = [all];
      const length = all.readUInt32BE(0);
      if (length > this.maxFrameBytes) {
        this.pending = [];
        this.pendingBytes = 0;
        this.skipLeft = length;
        this.skipLength = length;
        this.skipHead = Buffer.alloc(0);
        data = all.subarray(4);
        if (!data.length) return frames;
        continue;
      }
      if (all.length < 4 + length) return frames;
      frames.push(all.subarray(4, 4 + length));
      const rest = all.subarray(4 + length);
      this.pending = rest.length ? [rest] : [];
      this.pendingBytes = rest.length;
      if (!rest.length) return frames;
    }
  }

  /** Bytes of an unfinished frame at the end of the stream (0 when it ended on a frame boundary). */
  get leftover(): number {
    return this.pendingBytes + this.skipLeft;
  }
}
