// `pods/log`: container logs from the simulation's LogProvider, with the
// kubelet's query options (container, follow, tailLines, sinceSeconds,
// sinceTime, timestamps, previous, limitBytes), as text/plain, streamed while
// following until the client goes away.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StoredObject } from '../object-store.js';
import { badRequest, statusFailure, type StatusObject } from './status.js';

/** The log contract the simulation implements (demo/sim/logs.ts). */
export interface LogLine {
  time: string; // RFC3339Nano
  text: string;
}

export interface LogProvider {
  read(
    namespace: string,
    pod: string,
    container: string | undefined,
    previous: boolean,
  ): { lines: LogLine[] } | { error: string; code: number };
  follow(namespace: string, pod: string, container: string | undefined, onLine: (line: LogLine) => void): () => void;
}

export interface LogQuery {
  container?: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  sinceTime?: string;
  limitBytes?: number;
}

function nonNegativeInt(params: URLSearchParams, name: string): number | undefined | StatusObject {
  const v = params.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) return badRequest(`invalid value for ${name}: "${v}"`);
  return n;
}

export function parseLogQuery(params: URLSearchParams): LogQuery | StatusObject {
  const q: LogQuery = {
    container: params.get('container') || undefined,
    follow: params.get('follow') === 'true' || params.get('follow') === '1',
    previous: params.get('previous') === 'true' || params.get('previous') === '1',
    timestamps: params.get('timestamps') === 'true' || params.get('timestamps') === '1',
    sinceTime: params.get('sinceTime') || undefined,
  };
  for (const name of ['tailLines', 'sinceSeconds', 'limitBytes'] as const) {
    const n = nonNegativeInt(params, name);
    if (typeof n === 'object') return n;
    if (n !== undefined) q[name] = n;
  }
  if (q.sinceSeconds !== undefined && q.sinceTime)
    return badRequest('at most one of sinceTime or sinceSeconds may be specified');
  if (q.sinceSeconds === 0 || q.limitBytes === 0)
    return badRequest('sinceSeconds and limitBytes must be greater than 0');
  return q;
}

function containerNames(pod: StoredObject, field: 'containers' | 'initContainers'): string[] {
  const spec = (pod.spec ?? {}) as { containers?: Array<{ name: string }>; initContainers?: Array<{ name: string }> };
  return (spec[field] ?? []).map((c) => c.name);
}

/** The container to read, or the apiserver's 400 when it is missing or unknown. */
export function resolveContainer(pod: StoredObject, requested: string | undefined): string | StatusObject {
  const containers = containerNames(pod, 'containers');
  const inits = containerNames(pod, 'initContainers');
  const name = pod.metadata.name;
  if (!requested) {
    const defaulted = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
    if (defaulted && containers.includes(defaulted)) return defaulted;
    if (containers.length === 1) return containers[0];
    const initNote = inits.length ? ` or one of the init containers: [${inits.join(' ')}]` : '';
    return badRequest(
      `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]${initNote}`,
    );
  }
  if (containers.includes(requested) || inits.includes(requested)) return requested;
  return badRequest(`container ${requested} is not valid for pod ${name}`);
}

function format(line: LogLine, timestamps: boolean): string {
  return timestamps ? `${line.time} ${line.text}\n` : `${line.text}\n`;
}

/**
 * Writes the log response. Returns a Status for the caller to send when the
 * request fails before any byte is written.
 */
export function serveLogs(
  req: IncomingMessage,
  res: ServerResponse,
  provider: LogProvider | undefined,
  pod: StoredObject,
  q: LogQuery,
): StatusObject | undefined {
  const container = resolveContainer(pod, q.container);
  if (typeof container !== 'string') return container;
  const ns = pod.metadata.namespace ?? '';
  if (!provider)
    return statusFailure(
      400,
      'BadRequest',
      `container "${container}" in pod "${pod.metadata.name}" is waiting to start: no logs in this cluster`,
    );
  const got = provider.read(ns, pod.metadata.name, container, q.previous);
  if ('error' in got) {
    return statusFailure(got.code, got.code === 404 ? 'NotFound' : 'BadRequest', got.error);
  }
  let lines = got.lines;
  let since = Number.NEGATIVE_INFINITY;
  if (q.sinceSeconds !== undefined) since = Date.now() - q.sinceSeconds * 1000;
  else if (q.sinceTime) since = Date.parse(q.sinceTime);
  if (Number.isFinite(since)) lines = lines.filter((l) => Date.parse(l.time) >= since);
  if (q.tailLines !== undefined) lines = q.tailLines === 0 ? [] : lines.slice(-q.tailLines);

  res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  let budget = q.limitBytes ?? Number.POSITIVE_INFINITY;
  let done = false;
  const emit = (text: string): boolean => {
    if (done) return false;
    const bytes = Buffer.byteLength(text);
    if (bytes >= budget) {
      res.write(Buffer.from(text).subarray(0, budget));
      budget = 0;
      done = true;
      return false;
    }
    budget -= bytes;
    res.write(text);
    return true;
  };
  let within = true;
  for (const l of lines) {
    within = emit(format(l, q.timestamps));
    if (!within) break;
  }
  if (!q.follow || !within || q.previous) {
    res.end();
    return undefined;
  }
  // eslint-disable-next-line prefer-const -- finish() closes over it before follow() returns it
  let unfollow: (() => void) | undefined;
  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    unfollow?.();
  };
  unfollow = provider.follow(ns, pod.metadata.name, container, (line) => {
    if (!emit(format(line, q.timestamps))) {
      finish();
      res.end();
    }
  });
  if (ended) unfollow();
  const cleanup = finish;
  req.on('close', cleanup);
  res.on('close', cleanup);
  return undefined;
}
