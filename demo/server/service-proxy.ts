// The services proxy subresource
// (GET /api/v1/namespaces/NS/services/[https:]NAME[:PORT]/proxy/PATH) as
// kube-apiserver answers it: RBAC `get` on `services/proxy`, the Service must
// exist and have the port (a number or its name), then the request goes to an
// endpoint. Here the "endpoint" is a function of the simulation (the
// simulated Prometheus, demo/sim/prometheus.ts); none: 503 "no endpoints
// available", the real wording.
import type { ServerResponse } from 'node:http';
import type { StoredObject } from '../object-store.js';
import type { AccessAttributes } from './rbac.js';
import { notFound, statusFailure, type StatusObject } from './status.js';
import { parseProxyName, type ProxiedAnswer } from './pod-proxy.js';

export interface ServiceProxyRequest {
  namespace: string;
  name: string;
  /** As given: a port number or name; null: the service's only port. */
  port: string | null;
  scheme: 'http' | 'https';
  /** After `proxy`, with a leading slash (`/api/v1/query`). */
  path: string;
}

/** A 400 Status for a malformed name, the request, or null when the path is not a services proxy path. */
export function parseServiceProxyPath(segs: readonly string[]): ServiceProxyRequest | StatusObject | null {
  if (segs.length < 7 || segs[0] !== 'api' || segs[1] !== 'v1' || segs[2] !== 'namespaces') return null;
  if (segs[4] !== 'services' || segs[6] !== 'proxy') return null;
  const named = parseProxyName(segs[5], 'service');
  if ('code' in named) return named;
  return { namespace: segs[3], ...named, path: `/${segs.slice(7).join('/')}` };
}

export function serviceProxyAttributes(r: ServiceProxyRequest): AccessAttributes {
  return { verb: 'get', group: '', resource: 'services', subresource: 'proxy', namespace: r.namespace, name: r.name };
}

/** What answers behind a service's port; null: no endpoint. */
export type ServiceProxyBackend = (
  service: StoredObject,
  port: number,
  path: string,
  query: URLSearchParams,
) => ProxiedAnswer | null;

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

/** The service port the request names (by number or name), or the only one. */
function servicePort(service: StoredObject, port: string | null): number | null {
  const ports = Array.isArray(asObj(service['spec'])?.ports) ? (asObj(service['spec'])!.ports as unknown[]) : [];
  const list = ports.map(asObj).filter((p): p is Obj => p !== undefined);
  const hit =
    port === null
      ? list.length === 1
        ? list[0]
        : undefined
      : list.find((p) => String(p.port) === port || p.name === port);
  return typeof hit?.port === 'number' ? hit.port : null;
}

/** Serves one proxied GET (after RBAC allowed it); returns a Status to send instead, or undefined once answered. */
export function serveServiceProxy(
  res: ServerResponse,
  r: ServiceProxyRequest,
  service: StoredObject | undefined,
  query: URLSearchParams,
  backend: ServiceProxyBackend,
): StatusObject | undefined {
  if (!service) return notFound('services', '', r.name);
  const port = servicePort(service, r.port);
  const noEndpoints = statusFailure(503, 'ServiceUnavailable', `no endpoints available for service "${r.name}"`, {});
  if (port === null || r.scheme === 'https') return noEndpoints;
  const answer = backend(service, port, r.path, query);
  if (!answer) return noEndpoints;
  res.writeHead(answer.status, { 'Content-Type': answer.contentType, 'Cache-Control': 'no-cache, private' });
  res.end(answer.body);
  return undefined;
}
