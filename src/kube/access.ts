// On-demand reads for the incident views (the "dao" of k9s): one object
// fetched fresh and whole (the model keeps trimmed copies), the events of a
// set of objects, a pod list, and a container's log stream. GET only, through
// the same KubeTransport (and so the same kubeconfig auth) the watches use.
// Nothing here sanitises: callers display through src/text/sanitise.ts.
import { type Gvk, gvkKey, gvkOf } from '../definitions/types.js';
import type { KubeObject, NamespaceReadable } from '../model/types.js';
import type { LogOptions, ObjectAccess, ObjectRef } from '../model/source.js';
import { forbiddenUser } from '../model/namespace-access.js';
import { getJson, KubeApiError, type KubeTransport } from './client.js';
import { Discovery, groupVersionPath } from './discovery.js';

/** Path of one object, given its plural resource name. */
export function objectPath(gvk: Gvk, resource: string, namespace: string | null | undefined, name: string): string {
  const base = groupVersionPath(gvk.group, gvk.version);
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${resource}/${encodeURIComponent(name)}`;
}

/** The query string of a pods/log request. */
export function logQuery(options: LogOptions): string {
  const q = new URLSearchParams();
  if (options.container) q.set('container', options.container);
  if (options.follow) q.set('follow', 'true');
  if (options.previous) q.set('previous', 'true');
  if (options.timestamps) q.set('timestamps', 'true');
  if (options.tailLines !== undefined) q.set('tailLines', String(Math.max(0, Math.floor(options.tailLines))));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Whether an event is about one of the filter's objects. */
export function eventMatches(
  event: KubeObject,
  filter: { uids?: readonly string[]; names?: readonly { kind: string; name: string }[] } | undefined,
): boolean {
  if (!filter) return true;
  const inv = (event['involvedObject'] ?? {}) as { uid?: string; kind?: string; name?: string };
  if (filter.uids && inv.uid && filter.uids.includes(inv.uid)) return true;
  if (filter.names && filter.names.some((n) => n.kind === inv.kind && n.name === inv.name)) return true;
  return false;
}

/** What the access layer keeps of unbounded answers (see README.md). */
export interface AccessBounds {
  /** Events kept of one events read: the newest. */
  maxEvents: number;
  /** Characters kept of one log line; the rest of the line is dropped, and said so. */
  maxLogLineChars: number;
}

export const DEFAULT_ACCESS_BOUNDS: AccessBounds = { maxEvents: 1000, maxLogLineChars: 16 * 1024 };

/** When an event last happened, for keeping the newest (RFC 3339 strings compare in time order). */
function eventTime(e: KubeObject): string {
  const o = e as { lastTimestamp?: unknown; eventTime?: unknown; firstTimestamp?: unknown };
  for (const t of [o.lastTimestamp, o.eventTime, o.firstTimestamp, e.metadata.creationTimestamp])
    if (typeof t === 'string' && t) return t;
  return '';
}

/** The newest `max` events, in the order they came (an incident is about what happened last). */
export function newestEvents(events: KubeObject[], max: number): KubeObject[] {
  if (events.length <= max) return events;
  const keep = new Set(
    events
      .map((e, i) => ({ t: eventTime(e), i }))
      .sort((a, b) => (a.t < b.t ? 1 : a.t > b.t ? -1 : b.i - a.i))
      .slice(0, max)
      .map((x) => x.i),
  );
  return events.filter((_, i) => keep.has(i));
}

/** Splits a log stream into lines, each cut at `maxChars` (a log with no newline must not grow without end). */
export class LogLineSplitter {
  private partial = '';
  /** Characters of the current line dropped so far (it is over the bound). */
  private dropped = 0;

  constructor(
    private readonly maxChars: number,
    private readonly onLine: (line: string) => void,
  ) {}

  write(chunk: string): void {
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', from)) {
      this.add(chunk.slice(from, nl));
      this.end();
      from = nl + 1;
    }
    this.add(chunk.slice(from));
  }

  /** The last line, when the stream ends without a newline. */
  close(): void {
    if (this.partial || this.dropped) this.end();
  }

  private add(text: string): void {
    const room = this.maxChars - this.partial.length;
    if (text.length <= room) this.partial += text;
    else {
      this.partial += text.slice(0, Math.max(room, 0));
      this.dropped += text.length - Math.max(room, 0);
    }
  }

  private end(): void {
    const line = this.dropped ? `${this.partial}… (${this.dropped} more characters not kept)` : this.partial;
    this.partial = '';
    this.dropped = 0;
    this.onLine(line);
  }
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as NodeJS.ErrnoException).code === 'ABORT_ERR');
}

// Plurals of the kinds wlx reads most, so the common reads need no discovery round trip.
const WELL_KNOWN: Record<string, { resource: string; namespaced: boolean }> = {
  '/v1/Pod': { resource: 'pods', namespaced: true },
  '/v1/Node': { resource: 'nodes', namespaced: false },
  '/v1/Event': { resource: 'events', namespaced: true },
  'batch/v1/Job': { resource: 'jobs', namespaced: true },
  'apps/v1/StatefulSet': { resource: 'statefulsets', namespaced: true },
  'apps/v1/ReplicaSet': { resource: 'replicasets', namespaced: true },
  'apps/v1/Deployment': { resource: 'deployments', namespaced: true },
};

class TransportAccess implements ObjectAccess {
  private readonly discovery: Discovery;

  constructor(
    private readonly transport: KubeTransport,
    private readonly bounds: AccessBounds,
  ) {
    this.discovery = new Discovery(transport);
  }

  private async resourceOf(gvk: Gvk): Promise<{ resource: string; namespaced: boolean }> {
    const known = WELL_KNOWN[gvkKey(gvk)];
    if (known) return known;
    const result = await this.discovery.resolve([gvk]);
    const info = result.found.get(gvkKey(gvk));
    if (!info) throw new Error(result.missing.get(gvkKey(gvk))?.message ?? `${gvk.kind} is not served`);
    return info;
  }

  async getObject(ref: ObjectRef): Promise<KubeObject> {
    const gvk = gvkOf(ref.apiVersion, ref.kind);
    const { resource, namespaced } = await this.resourceOf(gvk);
    return (await getJson(
      this.transport,
      objectPath(gvk, resource, namespaced ? ref.namespace : null, ref.name),
    )) as KubeObject;
  }

  async listPods(namespace: string): Promise<KubeObject[]> {
    const list = (await getJson(this.transport, `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`)) as {
      items?: KubeObject[];
    };
    return list.items ?? [];
  }

  async namespaceReadable(namespace: string): Promise<NamespaceReadable> {
    try {
      const res = await this.transport.open(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods?limit=1`);
      res.destroy();
      return { readable: true, user: null };
    } catch (err) {
      if (err instanceof KubeApiError && err.status === 403)
        return { readable: false, user: forbiddenUser(err.message) };
      return { readable: null, user: null };
    }
  }

  async listNamespaces(): Promise<KubeObject[]> {
    const list = (await getJson(this.transport, '/api/v1/namespaces')) as { items?: KubeObject[] };
    return list.items ?? [];
  }

  async listEvents(
    namespace: string | null,
    filter?: { uids?: readonly string[]; names?: readonly { kind: string; name: string }[] },
  ): Promise<KubeObject[]> {
    const base = namespace ? `/api/v1/namespaces/${encodeURIComponent(namespace)}/events` : '/api/v1/events';
    // One object: let the server filter. Several: one list, filtered here
    // (field selectors cannot OR, and N requests cost more than one list).
    let path = base;
    const one = filter && (filter.uids?.length ?? 0) + (filter.names?.length ?? 0) === 1 ? filter : null;
    if (one?.uids?.length) path += `?fieldSelector=${encodeURIComponent(`involvedObject.uid=${one.uids[0]}`)}`;
    else if (one?.names?.length)
      path += `?fieldSelector=${encodeURIComponent(`involvedObject.kind=${one.names[0].kind},involvedObject.name=${one.names[0].name}`)}`;
    const list = (await getJson(this.transport, path)) as { items?: KubeObject[] };
    return newestEvents(
      (list.items ?? []).filter((e) => eventMatches(e, filter)),
      this.bounds.maxEvents,
    );
  }

  async streamLogs(namespace: string, pod: string, options: LogOptions, onLine: (line: string) => void): Promise<void> {
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log${logQuery(options)}`;
    if (options.signal?.aborted) return;
    let res;
    try {
      res = await this.transport.open(path, { signal: options.signal, accept: '*/*' });
    } catch (err) {
      if (isAbort(err)) return;
      throw err;
    }
    const lines = new LogLineSplitter(this.bounds.maxLogLineChars, onLine);
    const onAbort = () => res.destroy();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      res.setEncoding('utf8');
      for await (const chunk of res) lines.write(chunk as string);
      lines.close();
    } catch (err) {
      if (!isAbort(err) && !options.signal?.aborted) throw err;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      res.destroy();
    }
  }
}

/** Read-only on-demand access over a transport. */
export function createAccess(transport: KubeTransport, bounds: Partial<AccessBounds> = {}): ObjectAccess {
  return new TransportAccess(transport, { ...DEFAULT_ACCESS_BOUNDS, ...bounds });
}
