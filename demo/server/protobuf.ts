// Just enough of Kubernetes' protobuf wire format to read the bodies kubectl
// POSTs for the self reviews: kubectl's typed clients send
// `application/vnd.kubernetes.protobuf` (the "k8s\0" envelope around a
// runtime.Unknown whose `raw` holds the object). Field numbers are those of
// k8s.io/api/authorization/v1/generated.proto. Everything else this server
// reads and writes is JSON.

export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** A message: each field number with its values (varints as numbers, length-delimited as bytes). */
type Fields = Map<number, Array<number | Buffer>>;

function readVarint(buf: Buffer, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at >= buf.length) throw new Error('truncated varint');
    const b = buf[at++];
    value += (b & 0x7f) * 2 ** shift;
    if (!(b & 0x80)) return [value, at];
    shift += 7;
    if (shift > 63) throw new Error('varint too long');
  }
}

function readMessage(buf: Buffer): Fields {
  const fields: Fields = new Map();
  let at = 0;
  while (at < buf.length) {
    let key: number;
    [key, at] = readVarint(buf, at);
    const field = Math.floor(key / 8);
    const wire = key & 7;
    let value: number | Buffer;
    if (wire === 0) [value, at] = readVarint(buf, at);
    else if (wire === 2) {
      let len: number;
      [len, at] = readVarint(buf, at);
      if (at + len > buf.length) throw new Error('truncated field');
      value = buf.subarray(at, at + len);
      at += len;
    } else if (wire === 1) {
      value = buf.subarray(at, at + 8);
      at += 8;
    } else if (wire === 5) {
      value = buf.subarray(at, at + 4);
      at += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
    const list = fields.get(field) ?? [];
    list.push(value);
    fields.set(field, list);
  }
  return fields;
}

/** A message layout: field number → [JSON name, 'string' | 'bool' | nested layout]. */
type Layout = Record<number, [string, 'string' | 'bool' | Layout]>;

function toJson(buf: Buffer, layout: Layout): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, values] of readMessage(buf)) {
    const spec = layout[field];
    const last = values[values.length - 1];
    if (!spec || last === undefined) continue;
    const [name, type] = spec;
    if (type === 'string') out[name] = Buffer.isBuffer(last) ? last.toString('utf8') : String(last);
    else if (type === 'bool') out[name] = last === 1;
    else if (Buffer.isBuffer(last)) out[name] = toJson(last, type);
  }
  return out;
}

const RESOURCE_ATTRIBUTES: Layout = {
  1: ['namespace', 'string'],
  2: ['verb', 'string'],
  3: ['group', 'string'],
  4: ['version', 'string'],
  5: ['resource', 'string'],
  6: ['subresource', 'string'],
  7: ['name', 'string'],
};

const LAYOUTS: Record<string, Layout> = {
  SelfSubjectAccessReview: {
    2: [
      'spec',
      {
        1: ['resourceAttributes', RESOURCE_ATTRIBUTES],
        2: ['nonResourceAttributes', { 1: ['path', 'string'], 2: ['verb', 'string'] }],
      },
    ],
  },
  SelfSubjectRulesReview: { 2: ['spec', { 1: ['namespace', 'string'] }] },
};

/** Decodes a protobuf self review into its JSON form; throws on anything else. */
export function decodeReview(body: Buffer): Record<string, unknown> {
  if (body.length < 4 || !body.subarray(0, 4).equals(MAGIC)) throw new Error('not a Kubernetes protobuf message');
  const unknown = readMessage(body.subarray(4));
  const typeMeta = unknown.get(1)?.[0];
  const raw = unknown.get(2)?.[0];
  if (!Buffer.isBuffer(typeMeta) || !Buffer.isBuffer(raw)) throw new Error('a protobuf envelope without an object');
  const { apiVersion, kind } = toJson(typeMeta, { 1: ['apiVersion', 'string'], 2: ['kind', 'string'] }) as {
    apiVersion?: string;
    kind?: string;
  };
  const layout = kind !== undefined ? LAYOUTS[kind] : undefined;
  if (!layout || apiVersion !== 'authorization.k8s.io/v1')
    throw new Error(`protobuf is only read for the self reviews, not ${apiVersion ?? '?'} ${kind ?? '?'}`);
  return { apiVersion, kind, ...toJson(raw, layout) };
}
