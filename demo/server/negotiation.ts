// Content negotiation of reads, as kube-apiserver does it: the first media type
// of the Accept header the server can produce wins. Besides plain JSON it can
// turn any object or list into a meta.k8s.io Table (kubectl get, k9s) or into
// PartialObjectMetadata / PartialObjectMetadataList (client-go's metadata
// informers), in v1 or v1beta1 as asked. Protobuf is not spoken: clients that
// offer JSON after it (kubectl describe, client-go) get JSON.
import type { MetaVersion } from './tables.js';
import { statusFailure, type StatusObject } from './status.js';

export type Transform = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** What a read answers: plain JSON, or a meta.k8s.io transform in a version. */
export type Negotiated = { as: 'json' } | { as: Transform; version: MetaVersion };

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

/** The answer for an Accept header, or undefined when nothing in it can be produced (406). */
export function negotiate(accept: string | undefined): Negotiated | undefined {
  if (!accept || !accept.trim()) return { as: 'json' };
  for (const m of parseAccept(accept)) {
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
  return n.as === 'json' ? 'application/json' : `application/json;as=${n.as};v=${n.version};g=meta.k8s.io`;
}

export function notAcceptable(message: string): StatusObject {
  return statusFailure(406, 'NotAcceptable', message);
}

/** kube-apiserver's answer to an Accept header it cannot satisfy. */
export function unsupportedMediaType(): StatusObject {
  return notAcceptable('only the following media types are accepted: application/json');
}
