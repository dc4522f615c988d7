// The pods proxy subresource (GET /api/v1/namespaces/NS/pods/NAME[:PORT]/proxy/PATH)
// as kube-apiserver answers it: RBAC `get` on `pods/proxy`, then the request
// is passed to the pod's port; a pod that is gone is 404, one that cannot be
// reached (not running, no IP, nothing listening) 503 with the proxy's
// "error trying to reach service" wording. Here the "pod" behind the port is
// a function of the simulation (demo/sim/dcgm.ts for dcgm-exporter pods).
import type { ServerResponse } from 'node:http';
import type { StoredObject } from '../object-store.js';
import type { AccessAttributes } from './rbac.js';
import { badRequest, notFound, statusFailure, type StatusObject } from './status.js';

/** What the proxied request is about. */
export interface PodProxyRequest {
  namespace: string;
  name: string;
  /** The port named in `NAME:PORT` (`https:NAME:PORT` sets the scheme); null: the pod's first port. */
  port: number | null;
  scheme: 'http' | 'https';
  /** The path after `proxy`, with a leading slash (`/metrics`). */
  path: string;
}

/** `[scheme:]NAME[:PORT]` of a pods or services proxy path (the port as given), or a 400 Status. */
export function parseProxyName(
  seg: string,
  what: 'pod' | 'service',
): { scheme: 'http' | 'https'; name: string; port: string | null } | StatusObject {
  const parts = seg.split(':');
  let scheme: 'http' | 'https' = 'http';
  if (parts.length === 3) {
    if (parts[0] !== 'http' && parts[0] !== 'https') return badRequest(`invalid scheme "${parts[0]}"`);
    scheme = parts[0];
    parts.shift();
  }
  if (parts.length > 2 || parts[0] === '' || parts[1] === '') return badRequest(`invalid ${what} proxy name "${seg}"`);
  return { scheme, name: parts[0], port: parts[1] ?? null };
}

/**
 * The proxy request of decoded path segments
 * (`['api','v1','namespaces',NS,'pods','NAME:PORT','proxy',...rest]`), a 400
 * Status for a malformed name/port, or null when the path is not a pods proxy path.
 */
export function parsePodProxyPath(segs: readonly string[]): PodProxyRequest | StatusObject | null {
  if (segs.length < 7 || segs[0] !== 'api' || segs[1] !== 'v1' || segs[2] !== 'namespaces') return null;
  if (segs[4] !== 'pods' || segs[6] !== 'proxy') return null;
  const named = parseProxyName(segs[5], 'pod');
  if ('code' in named) return named;
  let port: number | null = null;
  if (named.port !== null) {
    port = Number(named.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return badRequest(`invalid port "${named.port}"`);
  }
  return { namespace: segs[3], name: named.name, port, scheme: named.scheme, path: `/${segs.slice(7).join('/')}` };
}

/** What the authorizer is asked: `get` on `pods/proxy` of that pod (any method but GET is not served here). */
export function podProxyAttributes(r: PodProxyRequest): AccessAttributes {
  return { verb: 'get', group: '', resource: 'pods', subresource: 'proxy', namespace: r.namespace, name: r.name };
}

/** An answer from "inside" the pod, or null: nothing listens on that port. */
export interface ProxiedAnswer {
  status: number;
  contentType: string;
  body: string;
}
export type PodProxyBackend = (pod: StoredObject, port: number, path: string) => ProxiedAnswer | null;

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

function firstPort(pod: StoredObject): number | null {
  for (const c of Array.isArray(asObj(pod['spec'])?.containers) ? (asObj(pod['spec'])!.containers as unknown[]) : [])
    for (const p of Array.isArray(asObj(c)?.ports) ? (asObj(c)!.ports as unknown[]) : []) {
      const n = asObj(p)?.containerPort;
      if (typeof n === 'number') return n;
    }
  return null;
}

function unreachable(message: string): StatusObject {
  return statusFailure(503, 'ServiceUnavailable', `error trying to reach service: ${message}`, {});
}

/**
 * Serves one proxied GET (after RBAC allowed it). Returns a Status to send
 * instead when the pod is missing or cannot be reached; otherwise the answer
 * has been written.
 */
export function servePodProxy(
  res: ServerResponse,
  r: PodProxyRequest,
  pod: StoredObject | undefined,
  backend: PodProxyBackend,
): StatusObject | undefined {
  if (!pod) return notFound('pods', '', r.name);
  const status = asObj(pod['status']);
  const ip = typeof status?.podIP === 'string' ? status.podIP : '';
  const port = r.port ?? firstPort(pod);
  if (port === null) return unreachable(`pod ${r.name} has no port to proxy to`);
  if (status?.phase !== 'Running' || !ip)
    return unreachable(`dial tcp ${ip || '<nil>'}:${port}: connect: no route to host`);
  if (r.scheme === 'https') return unreachable(`tls: first record does not look like a TLS handshake`);
  const answer = backend(pod, port, r.path);
  if (!answer) return unreachable(`dial tcp ${ip}:${port}: connect: connection refused`);
  res.writeHead(answer.status, { 'Content-Type': answer.contentType, 'Cache-Control': 'no-cache, private' });
  res.end(answer.body);
  return undefined;
}

/** The exposition format's content type, as dcgm-exporter sends it. */
export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * A backend that serves `/metrics` on port 9400 of dcgm-exporter pods from a
 * per-node text source (demo/sim/dcgm.ts's SimulatedDcgm.metricsText).
 */
export function dcgmExporterBackend(
  isExporter: (pod: StoredObject) => boolean,
  metricsText: (node: string) => string | null,
): PodProxyBackend {
  return (pod, port, path) => {
    if (!isExporter(pod) || port !== 9400) return null;
    if (path !== '/metrics')
      return { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };
    const node = asObj(pod['spec'])?.nodeName;
    const text = typeof node === 'string' ? metricsText(node) : null;
    return { status: 200, contentType: PROMETHEUS_TEXT, body: text ?? '' };
  };
}
