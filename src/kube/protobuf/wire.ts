// Protocol Buffers wire format, reading side: varints, length-delimited
// fields, and skipping fields by wire type without materialising them (a
// pod's volumes, env, probes and managedFields are passed over by their
// length). Every read is bounds-checked: truncated or malformed input throws a
// ProtobufError naming the message being read and the byte offset.
import { isUtf8 } from 'node:buffer';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

/** Input that is not a well-formed message of the expected type. */
export class ProtobufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufError';
  }
}

/** Strings of up to this many bytes are looked up in the cache below. */
const MAX_CACHED = 64;
const CACHE_SLOTS = 16384;
// A direct-mapped cache of recent strings by their bytes (a slot is replaced
// on a miss): a copy of each string's bytes in one fixed arena, its length,
// and the string. 1 MiB plus the strings, whatever the input.
const cacheArena = new Uint8Array(CACHE_SLOTS * MAX_CACHED);
const cacheLengths = new Int32Array(CACHE_SLOTS).fill(-1);
const cacheStrings: string[] = new Array<string>(CACHE_SLOTS).fill('');

/** A cursor over one buffer; nested messages are read by moving `end` in and out. */
export class WireReader {
  pos: number;
  /** Strings that were not valid UTF-8 (decoded with U+FFFD); the caller reports them. */
  invalidUtf8 = 0;
  /** meta/v1 Time texts by seconds, for this body only: the objects of one list share few distinct times. */
  timeTexts: Map<number, string> | undefined;

  constructor(
    readonly buf: Buffer,
    pos = 0,
    public end = buf.length,
  ) {
    this.pos = pos;
  }

  private fail(what: string, problem: string): never {
    throw new ProtobufError(`${what}: ${problem} at byte ${this.pos}`);
  }

  /** A varint of up to 64 bits as a number (exact up to 2^53; int32 callers take `| 0`). */
  varint(what: string): number {
    const buf = this.buf;
    let pos = this.pos;
    if (pos >= this.end) this.fail(what, 'truncated varint');
    let b = buf[pos++];
    if (b < 0x80) {
      this.pos = pos;
      return b;
    }
    let value = b & 0x7f;
    let scale = 128;
    for (let i = 1; i < 10; i++) {
      if (pos >= this.end) {
        this.pos = pos;
        this.fail(what, 'truncated varint');
      }
      b = buf[pos++];
      value += (b & 0x7f) * scale;
      if (b < 0x80) {
        this.pos = pos;
        return value;
      }
      scale *= 128;
    }
    this.pos = pos;
    return this.fail(what, 'varint longer than 10 bytes');
  }

  /** A signed int32 (negative values are sent as 10-byte varints of their 64-bit two's complement: the low 32 bits count). */
  int32(what: string): number {
    const buf = this.buf;
    let pos = this.pos;
    let result = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (pos >= this.end) {
        this.pos = pos;
        this.fail(what, 'truncated varint');
      }
      const b = buf[pos++];
      if (shift < 32) result |= (b & 0x7f) << shift;
      if (b < 0x80) {
        this.pos = pos;
        return result | 0;
      }
    }
    this.pos = pos;
    return this.fail(what, 'varint longer than 10 bytes');
  }

  /** A signed int64 (exact within ±2^53). */
  int64(what: string): number {
    const start = this.pos;
    const v = this.varint(what);
    if (v <= Number.MAX_SAFE_INTEGER) return v;
    // Beyond 2^53 (negative numbers among them): exactly, from the bytes.
    let big = 0n;
    for (let i = this.pos - 1; i >= start; i--) big = (big << 7n) | BigInt(this.buf[i] & 0x7f);
    return Number(BigInt.asIntN(64, big));
  }

  bool(what: string): boolean {
    return this.varint(what) !== 0;
  }

  /** The end offset of a length-delimited field starting at the cursor (the cursor moves past its length). */
  lengthEnd(what: string): number {
    const len = this.varint(what);
    const end = this.pos + len;
    if (end > this.end) this.fail(what, `field of ${len} bytes past the end of its message`);
    return end;
  }

  /** A length-delimited field's bytes (a view, not a copy). */
  bytes(what: string): Buffer {
    const end = this.lengthEnd(what);
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  /** A string field, UTF-8 (invalid bytes become U+FFFD and are counted in invalidUtf8). */
  string(what: string): string {
    const end = this.lengthEnd(what);
    const start = this.pos;
    this.pos = end;
    const len = end - start;
    if (len === 0) return '';
    if (len > MAX_CACHED) return this.utf8(start, end);
    // Names, label keys and values, quantities and images repeat from object
    // to object: one string per distinct value, found by its bytes without
    // decoding them again (this is also the interning trim.ts would do).
    const buf = this.buf;
    // Hashed on the length and up to 8 bytes at each end; a hit is confirmed on every byte.
    let h = Math.imul(len, 0x9e3779b1);
    const head = Math.min(end, start + 8);
    for (let i = start; i < head; i++) h = Math.imul(h ^ buf[i], 0x01000193);
    for (let i = Math.max(head, end - 8); i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
    const slot = (h ^ (h >>> 15)) & (CACHE_SLOTS - 1);
    const at = slot * MAX_CACHED;
    if (cacheLengths[slot] === len) {
      let i = 0;
      while (i < len && cacheArena[at + i] === buf[start + i]) i++;
      if (i === len) return cacheStrings[slot];
    }
    const s = buf.toString('utf8', start, end);
    if (s.includes('\uFFFD') && !isUtf8(buf.subarray(start, end))) {
      // Not cached: each occurrence is counted.
      this.invalidUtf8 += 1;
      return s;
    }
    for (let i = 0; i < len; i++) cacheArena[at + i] = buf[start + i];
    cacheLengths[slot] = len;
    cacheStrings[slot] = s;
    return s;
  }

  private utf8(start: number, end: number): string {
    const s = this.buf.toString('utf8', start, end);
    if (s.includes('\uFFFD') && !isUtf8(this.buf.subarray(start, end))) this.invalidUtf8 += 1;
    return s;
  }

  /** Skips one field's value of wire type `wire`. */
  skip(wire: number, what: string): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varint(what);
        return;
      case WIRE_FIXED64:
        this.advance(8, what);
        return;
      case WIRE_BYTES:
        this.pos = this.lengthEnd(what);
        return;
      case WIRE_FIXED32:
        this.advance(4, what);
        return;
      default:
        this.fail(what, `unsupported wire type ${wire}`);
    }
  }

  private advance(n: number, what: string): void {
    if (this.pos + n > this.end) this.fail(what, `truncated ${n * 8}-bit field`);
    this.pos += n;
  }

  /** Fails unless a length-delimited field has wire type 2 (a field number reused with another type). */
  expectBytes(wire: number, field: number, what: string): void {
    if (wire !== WIRE_BYTES) this.fail(what, `field ${field} has wire type ${wire}, expected length-delimited`);
  }

  /** Fails unless a varint field has wire type 0. */
  expectVarint(wire: number, field: number, what: string): void {
    if (wire !== WIRE_VARINT) this.fail(what, `field ${field} has wire type ${wire}, expected varint`);
  }
}
