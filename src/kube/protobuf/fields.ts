// Readers of protobuf fields into the JSON shape the API server's JSON would
// have: scalars, meta/v1 Time and MicroTime, maps (quantities among them), and
// a message's fields one by one (core-v1.ts, meta-v1.ts).
import type { WireReader } from './wire.js';

export type Json = Record<string, unknown>;

/** Reads one message's fields: `onField` returns false for a field it does not read (then skipped). */
export type FieldReader<T> = (r: WireReader, field: number, wire: number, out: T) => boolean;

/** Reads the message in the next length-delimited field into `out` with `onField`. */
export function message<T>(
  r: WireReader,
  wire: number,
  field: number,
  what: string,
  out: T,
  onField: FieldReader<T>,
): T {
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

export function str(r: WireReader, wire: number, field: number, what: string): string {
  r.expectBytes(wire, field, what);
  return r.string(what);
}

/** A non-pointer `omitempty` string: set unless empty. */
export function optStr(out: Json, key: string, r: WireReader, wire: number, field: number, what: string): void {
  const s = str(r, wire, field, what);
  if (s) out[key] = s;
}

export function int(r: WireReader, wire: number, field: number, what: string): number {
  r.expectVarint(wire, field, what);
  return r.int32(what);
}

export function int64(r: WireReader, wire: number, field: number, what: string): number {
  r.expectVarint(wire, field, what);
  return r.int64(what);
}

export function bool(r: WireReader, wire: number, field: number, what: string): boolean {
  r.expectVarint(wire, field, what);
  return r.bool(what);
}

/** RFC 3339 in seconds, as meta/v1 Time marshals to JSON; one text per distinct time of the body `r` reads. */
function rfc3339(r: WireReader, seconds: number): string {
  const texts = (r.timeTexts ??= new Map());
  let text = texts.get(seconds);
  if (text === undefined) {
    text = `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
    texts.set(seconds, text);
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
export function time(r: WireReader, wire: number, field: number): string | null {
  const t = message(r, wire, field, TIME, { seconds: 0, nanos: 0, empty: true }, timeOrEmptyFields);
  return t.empty ? null : rfc3339(r, t.seconds);
}

const timeOrEmptyFields: FieldReader<{ seconds: number; nanos: number; empty: boolean }> = (r, f, w, t) => {
  t.empty = false;
  return timeFields(r, f, w, t);
};

/** meta/v1 MicroTime: like Time with microseconds in JSON (RFC 3339 with 6 fraction digits). */
export function microTime(r: WireReader, wire: number, field: number): string | null {
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

export function mapField(
  out: Json,
  key: string,
  r: WireReader,
  wire: number,
  field: number,
  what: string,
  q: boolean,
): void {
  let m = out[key] as Json | undefined;
  if (!m) out[key] = m = {};
  mapEntry(r, wire, field, what, m, q);
}

export function push(out: Json, key: string, value: unknown): void {
  const list = out[key] as unknown[] | undefined;
  if (list) list.push(value);
  else out[key] = [value];
}
