// The simulated cluster's Kubernetes API server: a real HTTP server on
// loopback that answers enough of the Kubernetes API (version, discovery,
// get/list/watch with selectors, paging and resourceVersion semantics,
// Tables and metadata-only answers, pods/log, Status errors, RBAC with two
// users and the self reviews, CRDs, OpenAPI, health checks, bearer-token auth,
// read-only by default) for the real kubectl, client-go programs (k9s) and
// @kubernetes/client-node to work against it unchanged. It reads and writes
// cluster state only through the ObjectStore. Design: demo/server/README.md.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { resourceKey, type ObjectStore, type StoredObject } from '../object-store.js';
import { apiVersionOf, findKind, present, qualifiedResource, storeKeyOf } from '../kinds.js';
import type { ServedKind } from '../kind-types.js';
import {
  AGGREGATED_CONTENT_TYPE,
  aggregatedDiscovery,
  legacyApiVersions,
  legacyGroupDocument,
  legacyGroupList,
  legacyResourceList,
  wantsAggregated,
} from './discovery.js';
import {
  parseFieldSelector,
  parseLabelSelector,
  SelectorError,
  type FieldSelector,
  type LabelSelector,
} from './selectors.js';
import { listObjects, ListSnapshots, objectsAt } from './lists.js';
import { partialObjectMetadata, toTable, type IncludeObject } from './tables.js';
import {
  contentTypeOf,
  negotiate,
  notAcceptable,
  PROTOBUF_WATCH_TYPE,
  unsupportedMediaType,
  type Negotiated,
} from './negotiation.js';
import { encodeEnvelopedObject, encodeList, hasProtobufSchema } from './protobuf-encode.js';
import {
  ADMIN_USER,
  authorise,
  forbiddenFor,
  RESTRICTED_PATH_PREFIX,
  RESTRICTED_USER,
  selfSubjectAccessReview,
  selfSubjectRulesReview,
  type AccessAttributes,
  type DemoUser,
} from './rbac.js';
import { admitCreate, canonicalMetadata } from './admission.js';
import { installCrds } from './crds.js';
import { healthAnswer } from './health.js';
import { openApiV2, openApiV3Document, openApiV3Root } from './openapi.js';
import { VERSION_INFO } from './version.js';
import { pendingWorkloads } from './visibility.js';
import { VISIBILITY_GROUP } from '../kinds-queueing.js';
import { decodeReview, PROTOBUF_TYPE } from './protobuf.js';
import { Watcher, WatchHub } from './watch.js';
import { FaultError, Faults, validateFaults, type FaultConfig } from './faults.js';
import { RequestLog } from './request-log.js';
import { parseLogQuery, serveLogs, type LogProvider } from './logs.js';
import { parsePodProxyPath, podProxyAttributes, servePodProxy, type PodProxyBackend } from './pod-proxy.js';
import {
  parseServiceProxyPath,
  serveServiceProxy,
  serviceProxyAttributes,
  type ServiceProxyBackend,
} from './service-proxy.js';
import {
  badRequest,
  expired,
  invalid,
  methodNotAllowed,
  notFound,
  pathNotFound,
  statusFailure,
  unauthorized,
  type StatusObject,
} from './status.js';

export const LOOPBACK = '127.0.0.1';

export { VERSION_INFO };

export interface ApiServerOptions {
  store: ObjectStore;
  /** Only loopback is allowed; anything else throws. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** When set, every API request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** The restricted user's token in token mode (default: a random one, see `restrictedToken`). */
  restrictedToken?: string;
  /** Accept DELETE (graceful for pods), POST, PUT and PATCH; otherwise 405. */
  allowWrites?: boolean;
  faults?: Partial<FaultConfig>;
  logs?: LogProvider;
  /** What answers behind `pods/NAME:PORT/proxy/…` (default: nothing listens, 503). */
  podProxy?: PodProxyBackend;
  /** Interval of BOOKMARK events on watches that allow them (default 15 s divided by speed, at least 1 s). */
  bookmarkIntervalMs?: number;
  /** The server's own limit on a watch without timeoutSeconds (default 30-60 min, like --min-request-timeout). */
  maxWatchSeconds?: number;
  /** Simulation speed: divides pod deletion grace periods. */
  speed?: number;
  /**
   * Answer protobuf to reads of core/v1 pods, nodes and events that ask for it
   * first, as kube-apiserver does (default true); false: JSON to every Accept.
   */
  protobuf?: boolean;
}

interface Route {
  kind: ServedKind;
  namespace?: string;
  name?: string;
  subresource?: string;
}

const JSON_TYPE = 'application/json';
/** Lists with more items than this are streamed in slices of this size. */
const LIST_STREAM_THRESHOLD = 2000;

const NOTHING_LISTENS: PodProxyBackend = () => null;
const PODS_KEY = resourceKey('', 'v1', 'pods');
const SERVICES_KEY = resourceKey('', 'v1', 'services');

function isTrue(v: string | null): boolean {
  return v === 'true' || v === '1';
}

/** The authorizer's verb for a request (kube-apiserver's RequestInfo). */
function requestVerb(method: string, name: string | undefined, watch: boolean): string {
  if (method === 'GET' || method === 'HEAD') return watch ? 'watch' : name === undefined ? 'list' : 'get';
  if (method === 'POST') return 'create';
  if (method === 'PUT') return 'update';
  if (method === 'PATCH') return 'patch';
  if (method === 'DELETE') return name === undefined ? 'deletecollection' : 'delete';
  return method.toLowerCase();
}

/** The self reviews: POSTs that change nothing, so read-only mode answers them. */
const REVIEWS: Record<string, typeof selfSubjectRulesReview> = {
  selfsubjectaccessreviews: selfSubjectAccessReview as typeof selfSubjectRulesReview,
  selfsubjectrulesreviews: selfSubjectRulesReview,
};

/** Compares the bearer token in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const got = Buffer.from(header ?? '');
  const want = Buffer.from(`Bearer ${token}`);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** A request body over the server's limit: kube-apiserver answers 413 RequestEntityTooLarge. */
class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`Request entity too large: limit is ${limit}`);
  }
}

async function readBytes(req: IncomingMessage, limit = 4 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBytes(req)).toString('utf8');
}

export class ApiServer {
  readonly store: ObjectStore;
  readonly faults: Faults;
  readonly requests = new RequestLog();
  private readonly opts: ApiServerOptions;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly hub: WatchHub;
  private readonly snapshots = new ListSnapshots();
  private readonly timers = new Set<NodeJS.Timeout>();
  private dropTimer: NodeJS.Timeout | undefined;
  private boundPort = 0;
  private stopped = false;
  private logs: LogProvider | undefined;
  private podProxy: PodProxyBackend;
  private serviceProxy: ServiceProxyBackend = () => null;
  /** The restricted user's bearer token in token mode. */
  readonly restrictedToken: string | undefined;

  constructor(opts: ApiServerOptions) {
    const host = opts.host ?? LOOPBACK;
    if (host !== LOOPBACK && host !== 'localhost')
      throw new Error(`the demo API server listens on loopback only, not on "${host}"`);
    this.opts = opts;
    this.store = opts.store;
    this.logs = opts.logs;
    this.podProxy = opts.podProxy ?? NOTHING_LISTENS;
    this.faults = new Faults(opts.faults);
    this.restrictedToken =
      opts.token === undefined ? undefined : (opts.restrictedToken ?? randomBytes(18).toString('base64url'));
    installCrds(this.store);
    // Bookmarks every 15 s of simulated time (at least every second of real time).
    this.hub = new WatchHub(this.store, opts.bookmarkIntervalMs ?? Math.max(1000, 15_000 / (opts.speed ?? 1)));
    this.faults.onChange((c) => this.armDropTimer(c));
    this.armDropTimer(this.faults.get());
  }

  /** Lets the simulation's log provider arrive after the server was built. */
  setLogProvider(logs: LogProvider | undefined): void {
    this.logs = logs;
  }

  /** Lets the simulation's pods proxy backend (its dcgm-exporters) arrive after the server was built. */
  setPodProxyBackend(backend: PodProxyBackend | undefined): void {
    this.podProxy = backend ?? NOTHING_LISTENS;
  }

  /** The simulation's services proxy backend (its Prometheus). */
  setServiceProxyBackend(backend: ServiceProxyBackend | undefined): void {
    this.serviceProxy = backend ?? (() => null);
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `http://${LOOPBACK}:${this.boundPort}`;
  }

  /** Number of open watch streams. */
  get openWatches(): number {
    return this.hub.size;
  }

  async listen(): Promise<void> {
    await this.listenOn(this.opts.port ?? 0);
  }

  private listenOn(port: number): Promise<void> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent)
          this.sendStatus(
            res,
            statusFailure(500, 'InternalError', `Internal error occurred: ${(err as Error).message}`),
          );
        else res.destroy();
      });
    });
    server.keepAliveTimeout = 65_000;
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, LOOPBACK, () => {
        server.off('error', reject);
        this.boundPort = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private closeListener(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.hub.dropAll();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (!server) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  /**
   * The restart fault: stop listening, cut every connection, move the
   * resourceVersion past every old one (so old watch positions expire), and
   * listen again on the same port with the state kept.
   */
  async restart(): Promise<void> {
    await this.closeListener();
    this.snapshots.clear();
    this.store.bumpRv(this.store.currentRv + 1_000_000);
    if (!this.stopped) await this.listenOn(this.boundPort);
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.dropTimer) clearInterval(this.dropTimer);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.hub.close();
    await this.closeListener();
  }

  private armDropTimer(c: FaultConfig): void {
    if (this.dropTimer) clearInterval(this.dropTimer);
    this.dropTimer = undefined;
    if (c.dropWatchesEverySeconds > 0) {
      this.dropTimer = setInterval(() => this.hub.dropAll(), c.dropWatchesEverySeconds * 1000);
      this.dropTimer.unref();
    }
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  // ---- responses

  private send(res: ServerResponse, code: number, body: unknown, contentType = JSON_TYPE): void {
    this.sendText(res, code, JSON.stringify(body), contentType);
  }

  private sendText(
    res: ServerResponse,
    code: number,
    text: string,
    contentType: string,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(code, {
      'Content-Type': contentType,
      'Cache-Control': 'no-cache, private',
      ...headers,
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  private sendBytes(res: ServerResponse, code: number, body: Buffer, contentType: string): void {
    res.writeHead(code, {
      'Content-Type': contentType,
      'Cache-Control': 'no-cache, private',
      'Content-Length': body.length,
    });
    res.end(body);
  }

  private sendStatus(res: ServerResponse, s: StatusObject): void {
    this.send(res, s.code, s);
  }

  // ---- dispatch

  /**
   * Who is asking: the restricted user under its path prefix, the admin
   * elsewhere; in token mode the bearer token must be that user's. Returns the
   * user and the path with the prefix removed, or undefined (401).
   */
  private identify(req: IncomingMessage, path: string): { user: DemoUser; path: string } | undefined {
    const restricted = path === RESTRICTED_PATH_PREFIX || path.startsWith(`${RESTRICTED_PATH_PREFIX}/`);
    const user = restricted ? RESTRICTED_USER : ADMIN_USER;
    const rest = restricted ? path.slice(RESTRICTED_PATH_PREFIX.length) || '/' : path;
    const token = restricted ? this.restrictedToken : this.opts.token;
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) return undefined;
    return { user, path: rest };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const rec = this.requests.start(method, req.url ?? '/', res, req.headers.accept);
    const started = Date.now();
    const done = () => this.requests.finish(rec, res.statusCode, Date.now() - started);
    res.on('finish', done);
    res.on('close', done);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const rawPath = url.pathname.replace(/\/+$/, '') || '/';
    const readOnlyMethod = method === 'GET' || method === 'HEAD';

    const unprefixed = rawPath.startsWith(`${RESTRICTED_PATH_PREFIX}/`)
      ? rawPath.slice(RESTRICTED_PATH_PREFIX.length)
      : rawPath;
    const health = healthAnswer(unprefixed, url.searchParams);
    if (health) {
      if (!readOnlyMethod) return this.sendStatus(res, methodNotAllowed());
      return this.sendText(res, health.code, health.body, 'text/plain; charset=utf-8', {
        'X-Content-Type-Options': 'nosniff',
      });
    }
    const who = this.identify(req, rawPath);
    if (!who) {
      this.sendStatus(res, unauthorized());
      return;
    }
    const { user, path } = who;
    rec.user = user.name;
    if (path.startsWith('/debug/wlx/') && user === ADMIN_USER) {
      await this.handleDebug(req, res, path);
      return;
    }
    const delay = this.faults.delayMs;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (res.destroyed) return;

    if (path === '/version')
      return readOnlyMethod ? this.send(res, 200, VERSION_INFO) : this.sendStatus(res, methodNotAllowed());
    if (path === '/openapi/v2' || path.startsWith('/openapi/v3')) {
      if (!readOnlyMethod) return this.sendStatus(res, methodNotAllowed());
      return this.serveOpenApi(req, res, path, url);
    }
    let segs: string[];
    try {
      segs = path.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      return this.sendStatus(res, pathNotFound());
    }
    if (segs[0] === 'api' || segs[0] === 'apis') {
      const discovery = this.discovery(req, segs);
      if (discovery !== undefined) {
        if (!readOnlyMethod) return this.sendStatus(res, methodNotAllowed());
        if (discovery === null) return this.sendStatus(res, pathNotFound());
        return this.send(res, 200, discovery.body, discovery.contentType);
      }
      const proxy = parsePodProxyPath(segs);
      if (proxy !== null) {
        if ('code' in proxy) return this.sendStatus(res, proxy);
        // Proxying other methods would write through to the pod: not served (read-only demo).
        if (!readOnlyMethod) return this.sendStatus(res, methodNotAllowed());
        const attrs = podProxyAttributes(proxy);
        if (!authorise(user, attrs) || this.faults.isForbidden('pods/proxy'))
          return this.sendStatus(res, forbiddenFor(user, attrs));
        const pod = this.store.get(PODS_KEY, proxy.namespace, proxy.name);
        const failure = servePodProxy(res, proxy, pod, this.podProxy);
        if (failure) this.sendStatus(res, failure);
        return;
      }
      const svcProxy = parseServiceProxyPath(segs);
      if (svcProxy !== null) {
        if ('code' in svcProxy) return this.sendStatus(res, svcProxy);
        if (!readOnlyMethod) return this.sendStatus(res, methodNotAllowed());
        const attrs = serviceProxyAttributes(svcProxy);
        if (!authorise(user, attrs)) return this.sendStatus(res, forbiddenFor(user, attrs));
        const service = this.store.get(SERVICES_KEY, svcProxy.namespace, svcProxy.name);
        const failure = serveServiceProxy(res, svcProxy, service, url.searchParams, this.serviceProxy);
        if (failure) this.sendStatus(res, failure);
        return;
      }
      const route = this.route(segs);
      if (!route) return this.sendStatus(res, pathNotFound());
      const review = REVIEWS[route.kind.plural];
      if (review && route.kind.group === 'authorization.k8s.io') {
        if (method !== 'POST' || route.name !== undefined) return this.sendStatus(res, methodNotAllowed());
        return this.handleReview(req, res, user, review);
      }
      const watch = readOnlyMethod && isTrue(url.searchParams.get('watch'));
      const attrs = {
        verb: requestVerb(method, route.name, watch),
        group: route.kind.group,
        resource: route.kind.plural,
        subresource: route.subresource,
        namespace: route.namespace,
        name: route.name,
      };
      if (route.kind.group === VISIBILITY_GROUP) return this.handleVisibility(res, url, method, user, route, attrs);
      if (readOnlyMethod && !route.kind.verbs.includes('get')) return this.sendStatus(res, methodNotAllowed());
      if (!authorise(user, attrs)) return this.sendStatus(res, forbiddenFor(user, attrs));
      if (this.faults.isForbidden(qualifiedResource(route.kind)))
        return this.sendStatus(res, forbiddenFor(user, attrs));
      if (readOnlyMethod) return this.handleRead(req, res, url, route);
      if (!this.opts.allowWrites) return this.sendStatus(res, methodNotAllowed());
      return this.handleWrite(req, res, url, method, route);
    }
    this.sendStatus(res, pathNotFound());
  }

  /** Kueue's visibility API: GETs of pendingworkloads only, authorised as any other request. */
  private handleVisibility(
    res: ServerResponse,
    url: URL,
    method: string,
    user: DemoUser,
    route: Route,
    attrs: AccessAttributes,
  ): void {
    if (method !== 'GET' && method !== 'HEAD') return this.sendStatus(res, methodNotAllowed());
    if (!authorise(user, attrs)) return this.sendStatus(res, forbiddenFor(user, attrs));
    const answer = pendingWorkloads(this.store, route, url.searchParams);
    if (answer.kind === 'Status') return this.sendStatus(res, answer as StatusObject);
    this.send(res, 200, answer);
  }

  private async handleReview(
    req: IncomingMessage,
    res: ServerResponse,
    user: DemoUser,
    review: typeof selfSubjectRulesReview,
  ): Promise<void> {
    let body: Record<string, unknown>;
    const bytes = await readBytes(req);
    // kubectl's typed clients POST protobuf; client-node and curl POST JSON.
    if ((req.headers['content-type'] ?? '').startsWith(PROTOBUF_TYPE)) {
      try {
        body = decodeReview(bytes);
      } catch (err) {
        return this.sendStatus(
          res,
          badRequest(`the request body is not a readable protobuf review: ${(err as Error).message}`),
        );
      }
    } else {
      try {
        const parsed: unknown = JSON.parse(bytes.toString('utf8') || '{}');
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        body = parsed as Record<string, unknown>;
      } catch {
        return this.sendStatus(res, badRequest('the request body is not valid JSON (only JSON is accepted)'));
      }
    }
    const answer = review(user, body);
    if (answer.kind === 'Status') return this.sendStatus(res, answer as unknown as StatusObject);
    this.send(res, 201, answer);
  }

  /** /openapi/v2 (JSON only), /openapi/v3 and its per-group/version documents. */
  private serveOpenApi(req: IncomingMessage, res: ServerResponse, path: string, url: URL): void {
    if (path === '/openapi/v2') {
      const accept = req.headers.accept ?? '';
      // client-go asks for protobuf only; JSON is what this server speaks, so say so as kube-apiserver would.
      if (accept && !/application\/json|\*\/\*/.test(accept)) return this.sendStatus(res, unsupportedMediaType());
      const doc = openApiV2();
      return this.sendText(res, 200, doc.body, JSON_TYPE, { ETag: `"${doc.etag}"` });
    }
    if (path === '/openapi/v3') return this.send(res, 200, openApiV3Root());
    const doc = openApiV3Document(path.slice('/openapi/v3/'.length));
    if (!doc) return this.sendStatus(res, pathNotFound());
    const hash = url.searchParams.get('hash');
    if (hash !== null && hash !== doc.hash) {
      // A stale hash: send the client to the current document, as kube-openapi does.
      res.writeHead(301, { Location: `${url.pathname}?hash=${doc.hash}`, 'Cache-Control': 'no-cache, private' });
      res.end();
      return;
    }
    const cache: Record<string, string> =
      hash === null
        ? { ETag: `"${doc.hash}"` }
        : {
            ETag: `"${doc.hash}"`,
            'Cache-Control': 'public, immutable',
            Expires: new Date(Date.now() + 365 * 86400_000).toUTCString(),
          };
    this.sendText(res, 200, doc.body, JSON_TYPE, cache);
  }

  /** undefined: not a discovery path; null: a discovery path that does not exist. */
  private discovery(req: IncomingMessage, segs: string[]): { body: unknown; contentType?: string } | null | undefined {
    const aggregated = wantsAggregated(req.headers.accept);
    if (segs[0] === 'api') {
      if (segs.length === 1) {
        return aggregated
          ? { body: aggregatedDiscovery(true), contentType: AGGREGATED_CONTENT_TYPE }
          : { body: legacyApiVersions(`${LOOPBACK}:${this.boundPort}`) };
      }
      if (segs.length === 2) return segs[1] === 'v1' ? { body: legacyResourceList('', 'v1') } : null;
      return undefined;
    }
    if (segs.length === 1) {
      return aggregated
        ? { body: aggregatedDiscovery(false), contentType: AGGREGATED_CONTENT_TYPE }
        : { body: legacyGroupList() };
    }
    if (segs.length === 2) {
      const doc = legacyGroupDocument(segs[1]);
      return doc ? { body: doc } : null;
    }
    if (segs.length === 3) {
      const doc = legacyResourceList(segs[1], segs[2]);
      return doc ? { body: doc } : null;
    }
    return undefined;
  }

  private route(segs: string[]): Route | undefined {
    const [group, version, rest] = segs[0] === 'api' ? ['', segs[1], segs.slice(2)] : [segs[1], segs[2], segs.slice(3)];
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      const kind = findKind(group, version, rest[2]);
      if (kind?.namespaced && rest.length <= 5)
        return { kind, namespace: rest[1], name: rest[3], subresource: rest[4] };
      if (group !== '' || rest.length > 3) return undefined;
    }
    const kind = findKind(group, version, rest[0] ?? '');
    if (!kind || rest.length > 3) return undefined;
    if (kind.namespaced && rest.length > 1) return undefined;
    return { kind, name: rest[1], subresource: rest[2] };
  }

  // ---- reads

  private parseSelectors(
    kind: ServedKind,
    params: URLSearchParams,
  ): { label?: LabelSelector; field?: FieldSelector } | StatusObject {
    try {
      return {
        label: parseLabelSelector(params.get('labelSelector')),
        field: parseFieldSelector(params.get('fieldSelector'), kind.fieldSelectors),
      };
    } catch (err) {
      if (err instanceof SelectorError) return badRequest(err.message);
      throw err;
    }
  }

  private async handleRead(req: IncomingMessage, res: ServerResponse, url: URL, route: Route): Promise<void> {
    const { kind, namespace, name, subresource } = route;
    const params = url.searchParams;
    const watch = isTrue(params.get('watch'));
    const include = (params.get('includeObject') as IncludeObject | null) ?? 'Metadata';
    if (!['None', 'Metadata', 'Object'].includes(include))
      return this.sendStatus(res, badRequest(`invalid includeObject: ${include}`));
    const logRequest = subresource === 'log' && kind.kind === 'Pod' && name !== undefined;
    const protobuf = this.opts.protobuf !== false && hasProtobufSchema(apiVersionOf(kind), kind.kind);
    const answer = logRequest ? ({ as: 'json' } as const) : negotiate(req.headers.accept, protobuf);
    if (!answer) return this.sendStatus(res, unsupportedMediaType(protobuf));
    const contentType = contentTypeOf(answer);

    if (name !== undefined) {
      const obj = this.store.get(storeKeyOf(kind), namespace, name);
      if (!obj) return this.sendStatus(res, notFound(kind.plural, kind.group, name));
      if (subresource === 'log' && kind.kind === 'Pod') {
        const q = parseLogQuery(params);
        if ('kind' in q) return this.sendStatus(res, q);
        const failure = serveLogs(req, res, this.logs, obj, q);
        if (failure) this.sendStatus(res, failure);
        return;
      }
      if (subresource !== undefined && !kind.subresources.some((s) => s.name === subresource && s.kind === kind.kind)) {
        return this.sendStatus(res, pathNotFound());
      }
      if (answer.as === 'Table') {
        const t = toTable(kind, [obj], include, { resourceVersion: obj.metadata.resourceVersion }, answer.version);
        return this.send(res, 200, t, contentType);
      }
      if (answer.as === 'PartialObjectMetadataList')
        return this.sendStatus(res, notAcceptable(notAListMessage(answer.as, kind)));
      if (answer.as === 'PartialObjectMetadata')
        return this.send(res, 200, partialObjectMetadata(obj, answer.version), contentType);
      if (answer.as === 'protobuf')
        return this.sendBytes(
          res,
          200,
          encodeEnvelopedObject(apiVersionOf(kind), kind.kind, present(kind, obj)),
          contentType,
        );
      return this.send(res, 200, present(kind, obj));
    }
    if (subresource !== undefined) return this.sendStatus(res, pathNotFound());

    const selectors = this.parseSelectors(kind, params);
    if ('kind' in selectors) return this.sendStatus(res, selectors);
    if (watch)
      return this.startWatch(req, res, params, kind, namespace, selectors.label, selectors.field, answer, include);
    if (answer.as === 'PartialObjectMetadata')
      return this.sendStatus(
        res,
        notAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (*v1.${kind.listKind})`),
      );

    const limitText = params.get('limit');
    const limit = limitText ? Number(limitText) : undefined;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0))
      return this.sendStatus(res, badRequest(`invalid limit: ${limitText}`));
    const result = listObjects(this.store, this.snapshots, kind, {
      namespace,
      labelSelector: selectors.label,
      fieldSelector: selectors.field,
      limit,
      continueToken: params.get('continue') || undefined,
      resourceVersion: params.get('resourceVersion') || undefined,
      resourceVersionMatch: params.get('resourceVersionMatch') || undefined,
    });
    if ('code' in result) return this.sendStatus(res, result);
    const metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number } = {
      resourceVersion: result.resourceVersion,
    };
    if (result.continueToken) metadata.continue = result.continueToken;
    if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
    if (answer.as === 'Table')
      return this.send(res, 200, toTable(kind, result.items, include, metadata, answer.version), contentType);
    if (answer.as === 'PartialObjectMetadataList') {
      const list = {
        kind: 'PartialObjectMetadataList',
        apiVersion: `meta.k8s.io/${answer.version}`,
        metadata,
        items: result.items.map((o) => partialObjectMetadata(o, answer.version)),
      };
      return this.send(res, 200, list, contentType);
    }
    const items = kind.servedFrom ? result.items.map((o) => present(kind, o)) : result.items;
    if (answer.as === 'protobuf')
      return this.sendBytes(res, 200, encodeList(apiVersionOf(kind), kind.kind, metadata, items), contentType);
    if (items.length > LIST_STREAM_THRESHOLD) return this.streamList(res, kind, metadata, items);
    this.send(res, 200, { kind: kind.listKind, apiVersion: apiVersionOf(kind), metadata, items });
  }

  /** A big list written in slices, so no single huge string is built and the first bytes go out at once. */
  private async streamList(
    res: ServerResponse,
    kind: ServedKind,
    metadata: Record<string, unknown>,
    items: StoredObject[],
  ): Promise<void> {
    res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-cache, private' });
    const head = JSON.stringify({ kind: kind.listKind, apiVersion: apiVersionOf(kind), metadata });
    res.write(`${head.slice(0, -1)},"items":[`);
    for (let i = 0; i < items.length && !res.destroyed; i += LIST_STREAM_THRESHOLD) {
      const slice = items
        .slice(i, i + LIST_STREAM_THRESHOLD)
        .map((o) => JSON.stringify(o))
        .join(',');
      const ok = res.write(i === 0 ? slice : `,${slice}`);
      if (!ok && !res.destroyed)
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
    }
    res.end(']}');
  }

  private startWatch(
    req: IncomingMessage,
    res: ServerResponse,
    params: URLSearchParams,
    kind: ServedKind,
    namespace: string | undefined,
    labelSelector: LabelSelector | undefined,
    fieldSelector: FieldSelector | undefined,
    answer: Negotiated,
    include: IncludeObject,
  ): void {
    const rvText = params.get('resourceVersion') ?? '';
    const rvMatch = params.get('resourceVersionMatch') ?? '';
    const sendInitialEventsText = params.get('sendInitialEvents');
    const sendInitialEvents = isTrue(sendInitialEventsText);
    const bookmarks = isTrue(params.get('allowWatchBookmarks'));
    const listKind = kind.listKind;
    if (sendInitialEventsText !== null) {
      if (rvMatch !== 'NotOlderThan') {
        return this.sendStatus(
          res,
          invalid(
            listKind,
            'sendInitialEvents is forbidden for watch unless resourceVersionMatch is set to NotOlderThan',
            'resourceVersionMatch',
          ),
        );
      }
      if (sendInitialEvents && !bookmarks) {
        return this.sendStatus(
          res,
          invalid(listKind, 'sendInitialEvents requires setting allowWatchBookmarks to true', 'allowWatchBookmarks'),
        );
      }
    } else if (rvMatch) {
      return this.sendStatus(
        res,
        invalid(
          listKind,
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
          'resourceVersionMatch',
        ),
      );
    }
    let fromRv: number | undefined;
    if (rvText && rvText !== '0') {
      const n = Number(rvText);
      if (!Number.isInteger(n) || n < 0) return this.sendStatus(res, badRequest(`invalid resource version: ${rvText}`));
      fromRv = n;
    }
    const timeoutText = params.get('timeoutSeconds');
    const maxSeconds = this.opts.maxWatchSeconds ?? 1800 * (1 + Math.random());
    const timeoutSeconds =
      timeoutText !== null && Number(timeoutText) > 0 ? Math.min(Number(timeoutText), maxSeconds) : maxSeconds;

    // A metadata-only watch streams PartialObjectMetadata objects whichever of the two kinds was asked.
    const format =
      answer.as === 'json' || answer.as === 'protobuf' ? answer.as : answer.as === 'Table' ? 'table' : 'metadata';
    const metaVersion = answer.as === 'json' || answer.as === 'protobuf' ? 'v1' : answer.version;
    res.writeHead(200, {
      'Content-Type':
        format === 'metadata'
          ? contentTypeOf({ as: 'PartialObjectMetadata', version: metaVersion })
          : format === 'protobuf'
            ? PROTOBUF_WATCH_TYPE
            : contentTypeOf(answer),
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
    });
    // client-node's informer waits for the headers before it counts the watch as started.
    res.flushHeaders();
    const w = new Watcher(
      { kind, namespace, labelSelector, fieldSelector, format, metaVersion, include, bookmarks },
      res,
      this.faults,
    );

    const expire = (message: string) => {
      w.error(expired(message));
      w.end();
    };
    if (this.faults.takeWatchExpiry())
      return expire(`too old resource version: ${rvText || 0} (${this.store.currentRv})`);
    if (sendInitialEvents || (fromRv === undefined && sendInitialEventsText === null)) {
      this.hub.start(w, { kind: 'initial', bookmarkAfter: sendInitialEvents });
    } else if (fromRv === undefined) {
      // sendInitialEvents=false without a resourceVersion: changes from now on only.
      this.hub.start(w, { kind: 'history', events: [], stateAtStart: this.store.list(storeKeyOf(kind)) });
    } else {
      const events = this.store.eventsSince(storeKeyOf(kind), fromRv);
      if (!events) return expire(`too old resource version: ${fromRv} (${this.store.oldestResumableRv + 1})`);
      // Selector watches need the objects that matched at fromRv to turn later changes into DELETED.
      const stateAtStart =
        labelSelector || fieldSelector
          ? (objectsAt(this.store, kind, Math.min(fromRv, this.store.currentRv)) ?? this.store.list(storeKeyOf(kind)))
          : [];
      this.hub.start(w, { kind: 'history', events, stateAtStart });
    }
    const timer = setTimeout(() => {
      if (bookmarks) w.bookmark(this.store.currentRv);
      w.end();
    }, timeoutSeconds * 1000);
    const cleanup = () => {
      clearTimeout(timer);
      this.hub.remove(w);
      w.closed = true;
    };
    res.on('close', cleanup);
    req.on('close', cleanup);
  }

  // ---- writes (only with allowWrites)

  private async handleWrite(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    method: string,
    route: Route,
  ): Promise<void> {
    const { kind, namespace, name, subresource } = route;
    if (subresource !== undefined && subresource !== 'status') return this.sendStatus(res, methodNotAllowed());
    let text: string;
    try {
      text = await readBody(req);
    } catch (err) {
      if (!(err instanceof BodyTooLarge)) throw err;
      return this.sendStatus(res, statusFailure(413, 'RequestEntityTooLarge', err.message));
    }
    let body: Record<string, unknown> = {};
    if (text.trim()) {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return this.sendStatus(res, badRequest('the request body is not valid JSON (only JSON is accepted)'));
      }
    }
    const key = storeKeyOf(kind);
    if (method === 'DELETE') {
      if (name === undefined) return this.sendStatus(res, methodNotAllowed());
      const obj = this.store.get(key, namespace, name);
      if (!obj) return this.sendStatus(res, notFound(kind.plural, kind.group, name));
      return this.send(res, 200, this.deleteObject(kind, obj, url.searchParams, body));
    }
    if (method === 'POST') {
      if (name !== undefined) return this.sendStatus(res, methodNotAllowed());
      const obj = body as unknown as StoredObject;
      const objName = obj.metadata?.name;
      if (!objName)
        return this.sendStatus(res, invalid(kind.kind, 'Required value: name is required', 'metadata.name'));
      if (this.store.get(key, namespace, objName)) {
        return this.sendStatus(
          res,
          statusFailure(409, 'AlreadyExists', `${qualifiedResource(kind)} "${objName}" already exists`, {
            name: objName,
            kind: kind.plural,
          }),
        );
      }
      const fresh = admitCreate(kind, {
        ...obj,
        apiVersion: apiVersionOf(kind),
        kind: kind.kind,
        metadata: { ...obj.metadata, namespace, uid: '', resourceVersion: '', creationTimestamp: '' },
      });
      return this.send(res, 201, this.store.put(key, canonicalMetadata(fresh)));
    }
    if (name === undefined) return this.sendStatus(res, methodNotAllowed());
    const existing = this.store.get(key, namespace, name);
    if (!existing) return this.sendStatus(res, notFound(kind.plural, kind.group, name));
    let next: StoredObject;
    if (method === 'PUT') {
      const rv = (body.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
      if (rv && rv !== existing.metadata.resourceVersion) {
        return this.sendStatus(
          res,
          statusFailure(
            409,
            'Conflict',
            `Operation cannot be fulfilled on ${qualifiedResource(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
            { name, kind: kind.plural },
          ),
        );
      }
      next = {
        ...(body as unknown as StoredObject),
        metadata: {
          ...(body.metadata as StoredObject['metadata']),
          name,
          namespace,
          uid: existing.metadata.uid,
          creationTimestamp: existing.metadata.creationTimestamp,
        },
      };
    } else if (method === 'PATCH') {
      next = mergePatch(existing, body) as StoredObject;
      next.metadata = { ...next.metadata, name, namespace, uid: existing.metadata.uid };
    } else {
      return this.sendStatus(res, methodNotAllowed());
    }
    if (subresource === 'status') next = { ...existing, status: next.status };
    return this.send(res, 200, this.store.put(key, canonicalMetadata(next)));
  }

  /** Pods go away gracefully (deletionTimestamp, then the kubelet or a timer removes them); other kinds at once. */
  private deleteObject(
    kind: ServedKind,
    obj: StoredObject,
    params: URLSearchParams,
    body: Record<string, unknown>,
  ): StoredObject {
    const key = storeKeyOf(kind);
    const { namespace, name } = obj.metadata;
    if (kind.kind !== 'Pod') return this.store.delete(key, namespace, name) ?? obj;
    const spec = (obj.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
    const phase = (obj.status as { phase?: string } | undefined)?.phase;
    const fromQuery = params.get('gracePeriodSeconds');
    const grace =
      fromQuery !== null
        ? Number(fromQuery)
        : typeof body.gracePeriodSeconds === 'number'
          ? body.gracePeriodSeconds
          : (spec.terminationGracePeriodSeconds ?? 30);
    if (grace <= 0 || !spec.nodeName || phase === 'Succeeded' || phase === 'Failed') {
      return this.store.delete(key, namespace, name) ?? obj;
    }
    if (obj.metadata.deletionTimestamp) return obj;
    const deadline = new Date(Date.now() + grace * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    const terminating = this.store.put(key, {
      ...obj,
      metadata: { ...obj.metadata, deletionTimestamp: deadline, deletionGracePeriodSeconds: grace },
    });
    const uid = obj.metadata.uid;
    // If no simulated kubelet finishes the pod, remove it when its grace period ends.
    this.later((grace * 1000) / (this.opts.speed ?? 1), () => {
      const still = this.store.get(key, namespace, name);
      if (still && still.metadata.uid === uid) this.store.delete(key, namespace, name);
    });
    return terminating;
  }

  // ---- debug endpoints (exempt from read-only; never touch cluster objects)

  private async handleDebug(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === '/debug/wlx/requests') {
      if (req.method === 'GET')
        return this.send(res, 200, { kind: 'RequestLog', total: this.requests.count, items: this.requests.records() });
      if (req.method === 'DELETE') {
        this.requests.clear();
        return this.send(res, 200, { kind: 'RequestLog', total: this.requests.count, items: [] });
      }
      return this.sendStatus(res, methodNotAllowed());
    }
    if (path === '/debug/wlx/faults') {
      if (req.method === 'GET') return this.send(res, 200, this.faults.get());
      if (req.method !== 'POST') return this.sendStatus(res, methodNotAllowed());
      let input: Record<string, unknown>;
      try {
        input = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
        if (!input || typeof input !== 'object' || Array.isArray(input))
          throw new FaultError('faults must be a JSON object');
        const { restart, dropWatchesNow, ...config } = input;
        const valid = validateFaults(config);
        const after = this.faults.set(valid);
        if (dropWatchesNow === true) this.hub.dropAll();
        if (restart === true) {
          // Answer first; the restart cuts this connection too.
          res.on('finish', () => void this.restart());
        }
        return this.send(res, 200, after);
      } catch (err) {
        return this.sendStatus(res, badRequest((err as Error).message));
      }
    }
    this.sendStatus(res, pathNotFound());
  }
}

/** kube-apiserver's 406 when a list transform is asked of a single object. */
function notAListMessage(as: string, kind: ServedKind): string {
  return `you requested ${as}, but the requested object is not a list (*v1.${kind.kind})`;
}

/** RFC 7386 JSON merge patch (also used for strategic-merge patches, which it approximates). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
