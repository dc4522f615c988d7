// Content negotiation of reads, as kube-apiserver does it: the first media type
// of the Accept header the server can produce wins. Besides plain JSON it can
// turn any object or list into a meta.k8s.io Table (kubectl get, k9s) or into
// PartialObjectMetadata / PartialObjectMetadataList (client-go's metadata
// informers), in v1 or v1beta1 as asked. Protobuf (`application/vnd.kubernetes.
// protobuf`) is produced only for the kinds protobuf-encode.ts covers (core/v1
// pods, nodes, events) and only while the server's protobuf option is on; for
// any other kind (CRDs) it is skipped as kube-apiserver skips it, so a client
// that offers JSON after it gets JSON and one that offers only protobuf gets 406.
// With the option off every kind answers as a CRD does.
import type { MetaVersion } from './tables.js';
import { PROTOBUF_TYPE } from './protobuf.js';
import { statusFailure, type StatusObject } from './status.js';

export type Transform = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** What a read answers: plain JSON, protobuf, or a meta.k8s.io transform in a version. */
export type Negotiated = { as: 'json' } | { as: 'protobuf' } | { as: Transform; version: MetaVersion };

/** kube-apiserver's Content-Type of a protobuf watch stream. */
export const PROTOBUF_WATCH_TYPE = `${PROTOBUF_TYPE};stream=watch`;

const TRANSFORMS = new Set<string>(['Table', 'PartialObjectMetadata', 'PartialObjectMetadataList']);

interface MediaType {
  type: string;
  params: Map<string, string>;
}

function parseAccept(accept: string): MediaType[] {
  return accept
    .split(',')
    .map((part) => {
      const [type, ...rest] = part.split(';').map((x) => x.trim());
      const params = new Map<string, string>();
      for (const p of rest) {
        const eq = p.indexOf('=');
        if (eq > 0) params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim());
      }
      return { type: (type ?? '').toLowerCase(), params };
    })
    .filter((m) => m.type && m.params.get('q') !== '0');
}

/**
 * The answer for an Accept header, or undefined when nothing in it can be
 * produced (406). `protobuf`: whether this kind can be answered in protobuf.
 */
export function negotiate(accept: string | undefined, protobuf = false): Negotiated | undefined {
  if (!accept || !accept.trim()) return { as: 'json' };
  for (const m of parseAccept(accept)) {
    // Tables and PartialObjectMetadata in protobuf are not produced: the next type is tried.
    if (m.type === PROTOBUF_TYPE && protobuf && !m.params.has('as')) return { as: 'protobuf' };
    if (m.type !== 'application/json' && m.type !== '*/*' && m.type !== 'application/*') continue;
    const as = m.params.get('as');
    if (as === undefined) return { as: 'json' };
    const version = m.params.get('v');
    if (TRANSFORMS.has(as) && m.params.get('g') === 'meta.k8s.io' && (version === 'v1' || version === 'v1beta1'))
      return { as: as as Transform, version };
  }
  return undefined;
}

/** The Content-Type of an answer. */
export function contentTypeOf(n: Negotiated): string {
  if (n.as === 'json') return 'application/json';
  if (n.as === 'protobuf') return PROTOBUF_TYPE;
  return `application/json;as=${n.as};v=${n.version};g=meta.k8s.io`;
}

export function notAcceptable(message: string): StatusObject {
  return statusFailure(406, 'NotAcceptable', message);
}

/** kube-apiserver's answer to an Accept header it cannot satisfy (naming protobuf where this kind has it). */
export function unsupportedMediaType(protobuf = false): StatusObject {
  const types = protobuf ? `application/json, ${PROTOBUF_TYPE}` : 'application/json';
  return notAcceptable(`only the following media types are accepted: ${types}`);
}
