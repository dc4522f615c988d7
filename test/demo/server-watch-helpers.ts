// Test helpers: a fixture cluster on a free loopback port, and a watch-stream
// reader that collects newline-delimited events.
import { request, type IncomingMessage } from 'node:http';
import { ObjectStore } from '../../demo/object-store.js';
import { startDemoCluster, type DemoCluster, type DemoClusterOptions } from '../../demo/index.js';
import { FixtureLogs, populate } from './server-fixtures.js';
import type { StoredObject } from '../../demo/object-store.js';

export interface Fixture {
  cluster: DemoCluster;
  store: ObjectStore;
  logs: FixtureLogs;
  objects: Record<string, StoredObject>;
  url: (path: string) => string;
}

export async function startFixture(options: DemoClusterOptions = {}, historyLimit?: number): Promise<Fixture> {
  const store = new ObjectStore(historyLimit);
  const objects = populate(store);
  const logs = new FixtureLogs(store);
  const cluster = await startDemoCluster({ simulate: false, store, logs, ...options });
  return { cluster, store, logs, objects, url: (p) => `${cluster.server}${p}` };
}

export interface WatchEvent {
  type: string;
  object: Record<string, unknown> & {
    metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> };
  };
}

export interface WatchReader {
  status: number;
  headers: IncomingMessage['headers'];
  events: WatchEvent[];
  /** Lines that did not parse as JSON. */
  garbage: string[];
  /** Resolves when the server ends or cuts the stream: 'end' or 'error'. */
  closed: Promise<'end' | 'error'>;
  waitFor(pred: (e: WatchEvent) => boolean, timeoutMs?: number): Promise<WatchEvent>;
  close(): void;
}

export function openWatch(url: string, headers: Record<string, string> = {}): Promise<WatchReader> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers });
    req.on('error', reject);
    req.on('response', (res) => {
      const events: WatchEvent[] = [];
      const garbage: string[] = [];
      const waiters: Array<{ pred: (e: WatchEvent) => boolean; resolve: (e: WatchEvent) => void }> = [];
      let buf = '';
      let closedResolve!: (v: 'end' | 'error') => void;
      const closed = new Promise<'end' | 'error'>((r) => (closedResolve = r));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (!line.trim()) continue;
          let e: WatchEvent;
          try {
            e = JSON.parse(line) as WatchEvent;
          } catch {
            garbage.push(line);
            continue;
          }
          events.push(e);
          for (const w of [...waiters]) {
            if (w.pred(e)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(e);
            }
          }
        }
      });
      res.on('end', () => closedResolve('end'));
      res.on('error', () => closedResolve('error'));
      res.on('aborted', () => closedResolve('error'));
      req.on('error', () => closedResolve('error'));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        garbage,
        closed,
        waitFor(pred, timeoutMs = 3000) {
          const found = events.find(pred);
          if (found) return Promise.resolve(found);
          return new Promise((res2, rej2) => {
            const timer = setTimeout(
              () =>
                rej2(
                  new Error(
                    `no matching watch event within ${timeoutMs} ms; got ${JSON.stringify(events.map((e) => [e.type, e.object.metadata?.name]))}`,
                  ),
                ),
              timeoutMs,
            );
            waiters.push({
              pred,
              resolve: (e) => {
                clearTimeout(timer);
                res2(e);
              },
            });
          });
        },
        close() {
          req.destroy();
        },
      });
    });
    req.end();
  });
}

export const TABLE_ACCEPT =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
export const AGGREGATED_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
