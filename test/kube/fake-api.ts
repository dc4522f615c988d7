// A tiny API server for one namespaced kind (`/api/v1/namespaces/.../things`
// style paths are not needed: the reflector only sees a collection path),
// with just enough of list/watch semantics to drive the reflector through
// paging, bookmarks, 410s, malformed lines, stalls and errors. Listens on
// 127.0.0.1, port 0.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { HttpKubeTransport } from '../../src/kube/client.js';

export interface FakeObject {
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
  };
  [k: string]: unknown;
}

interface HistoryEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: FakeObject;
  rv: number;
}

export class FakeApi {
  readonly path = '/api/v1/things';
  readonly objects = new Map<string, FakeObject>();
  readonly history: HistoryEvent[] = [];
  readonly requests: string[] = [];
  rv = 1000;
  /** Events at or below this rv cannot be resumed from (410). */
  compactedRv = 0;
  /** Status code for every request while set (e.g. 403). */
  failWith: number | null = null;
  /** The next N watches answer a 410 ERROR event. */
  expireWatches = 0;
  /** Lines written at the start of the next watch (e.g. malformed ones). */
  injectLines: (string | Buffer)[] = [];
  /** Rewrites each list answer's bytes (e.g. to put invalid UTF-8 in it). */
  rawList: ((body: string) => Buffer) | null = null;
  /** Watches get headers and then silence (no end, no events). */
  stallWatches = false;
  /** Requests get no answer at all (not even headers). */
  hang = false;
  /** Send a bookmark at the current rv when a watch starts. */
  bookmarkOnStart = false;
  private server: http.Server | undefined;
  private readonly watchers = new Set<{ res: http.ServerResponse; send: (e: HistoryEvent) => void }>();
  port = 0;

  put(name: string, extra: Record<string, unknown> = {}, namespace = 'ns'): FakeObject {
    const existing = this.objects.get(name);
    this.rv += 1;
    // metadata first, as the API server writes it (the reflector names objects over its bounds from their first bytes)
    const metadata = {
      name,
      namespace,
      uid: existing?.metadata.uid ?? `uid-${name}-${this.rv}`,
      resourceVersion: String(this.rv),
    };
    const obj: FakeObject = { metadata, ...extra };
    obj.metadata = metadata;
    this.objects.set(name, obj);
    this.emit({ type: existing ? 'MODIFIED' : 'ADDED', object: obj, rv: this.rv });
    return obj;
  }

  /** Replace with a fresh uid (delete + create under the same name). */
  recreate(name: string): FakeObject {
    this.remove(name);
    return this.put(name);
  }

  remove(name: string): void {
    const existing = this.objects.get(name);
    if (!existing) return;
    this.objects.delete(name);
    this.rv += 1;
    const last = { ...existing, metadata: { ...existing.metadata, resourceVersion: String(this.rv) } };
    this.emit({ type: 'DELETED', object: last, rv: this.rv });
  }

  /** Changes made silently: no watcher sees them and history is compacted (a watch from before → 410). */
  silently(fn: () => void): void {
    const watchers = [...this.watchers];
    this.watchers.clear();
    fn();
    for (const w of watchers) this.watchers.add(w);
    this.compactedRv = this.rv;
  }

  private emit(e: HistoryEvent): void {
    this.history.push(e);
    for (const w of this.watchers) w.send(e);
  }

  /** Ends every open watch cleanly. */
  endWatches(): void {
    for (const w of this.watchers) w.res.end();
    this.watchers.clear();
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const w of this.watchers) w.res.destroy();
    this.watchers.clear();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  transport(): HttpKubeTransport {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'fake', server: `http://127.0.0.1:${this.port}`, skipTLSVerify: true }],
      users: [{ name: 'u', token: 'secret-token' }],
      contexts: [{ name: 'fake', cluster: 'fake', user: 'u' }],
      currentContext: 'fake',
    });
    return new HttpKubeTransport(kc, `http://127.0.0.1:${this.port}`, 'fake');
  }

  private status(res: http.ServerResponse, code: number, reason: string, message: string): void {
    res.writeHead(code, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }),
    );
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.requests.push(req.url ?? '');
    if (this.hang) return;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== this.path)
      return this.status(res, 404, 'NotFound', 'the server could not find the requested resource');
    if (this.failWith)
      return this.status(
        res,
        this.failWith,
        this.failWith === 403 ? 'Forbidden' : 'InternalError',
        `things is failing with ${this.failWith}`,
      );
    const selector = url.searchParams.get('labelSelector');
    const matches = (o: FakeObject) => {
      if (!selector) return true;
      const [k, v] = selector.split('=');
      return o.metadata.labels?.[k] === v;
    };
    if (url.searchParams.get('watch') === '1' || url.searchParams.get('watch') === 'true')
      return this.watch(url, res, matches);
    const limit = Number(url.searchParams.get('limit') ?? '0');
    const start = Number(url.searchParams.get('continue') ?? '0');
    const all = [...this.objects.values()]
      .filter(matches)
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    const end = limit > 0 ? Math.min(all.length, start + limit) : all.length;
    const page = all.slice(start, end);
    const meta: Record<string, unknown> = { resourceVersion: String(this.rv) };
    if (end < all.length) {
      meta.continue = String(end);
      meta.remainingItemCount = all.length - end;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    // Items carry no kind/apiVersion, as in real lists.
    const body = JSON.stringify({ kind: 'ThingList', apiVersion: 'v1', metadata: meta, items: page });
    res.end(this.rawList ? this.rawList(body) : body);
  }

  private watch(url: URL, res: http.ServerResponse, matches: (o: FakeObject) => boolean): void {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    const rv = Number(url.searchParams.get('resourceVersion') || '0');
    if (this.expireWatches > 0 || rv < this.compactedRv) {
      if (this.expireWatches > 0) this.expireWatches -= 1;
      res.end(
        JSON.stringify({
          type: 'ERROR',
          object: {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message: `too old resource version: ${rv}`,
            reason: 'Expired',
            code: 410,
          },
        }) + '\n',
      );
      return;
    }
    if (this.stallWatches) return; // headers, then nothing at all
    for (const line of this.injectLines.splice(0)) res.write(Buffer.concat([Buffer.from(line), Buffer.from('\n')]));
    if (this.bookmarkOnStart) {
      res.write(
        JSON.stringify({
          type: 'BOOKMARK',
          object: { kind: 'Thing', apiVersion: 'v1', metadata: { resourceVersion: String(this.rv) } },
        }) + '\n',
      );
    }
    const send = (e: HistoryEvent) => {
      if (matches(e.object)) res.write(JSON.stringify({ type: e.type, object: e.object }) + '\n');
    };
    for (const e of this.history) if (e.rv > rv) send(e);
    const watcher = { res, send };
    this.watchers.add(watcher);
    const timeout = Number(url.searchParams.get('timeoutSeconds') ?? '0');
    const timer = timeout > 0 ? setTimeout(() => res.end(), timeout * 1000) : undefined;
    res.on('close', () => {
      if (timer) clearTimeout(timer);
      this.watchers.delete(watcher);
    });
  }
}
