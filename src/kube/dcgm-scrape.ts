// GPU metrics from the cluster's dcgm-exporter pods, read through the API
// server's pod proxy (GET /api/v1/namespaces/NS/pods/NAME:PORT/proxy/metrics:
// a read, RBAC `get` on `pods/proxy`) with the same transport and credentials
// as every other request. The exporters are found among the pods the engine
// already watches (no extra list). Scrapes run every 5–15 s only while some
// view or `wlx get` holds the scraper; a failing exporter is retried with
// back-off; what went wrong is one notice, and its GPUs read unknown.
//
// With `--prometheus` the same scraper asks a Prometheus server instead (two
// instant queries a round, src/metrics/prometheus-api.ts): at a plain http(s)
// URL with its own TLS and none of the cluster's credentials, or as an
// in-cluster service through the API server's service proxy (RBAC `get` on
// `services/proxy`) with them. Same cadence, holders and notice.
import http from 'node:http';
import https from 'node:https';
import type { KubeObject, GpuReading, IdleRule } from '../model/types.js';
import { DEFAULT_IDLE_RULE } from '../model/utilisation.js';
import { DCGM_SERIES, GpuHistory, readingsFromSamples } from '../metrics/dcgm.js';
import { parseExposition } from '../metrics/prometheus.js';
import {
  idleQuery,
  parseInstantVector,
  PrometheusAnswerError,
  prometheusError,
  readingsFromPrometheus,
  seriesQuery,
} from '../metrics/prometheus-api.js';
import { describeFailure, KubeApiError, KubeConnectionError, type KubeTransport } from './client.js';
import { matchesSelector, parseLabelSelector, type Requirement } from './selector.js';

/**
 * Labels that mark dcgm-exporter pods: the GPU Operator's DaemonSet
 * (`app=nvidia-dcgm-exporter`) and the dcgm-exporter Helm chart's
 * (`app.kubernetes.io/name=dcgm-exporter`). Any one is enough.
 */
export const DEFAULT_DCGM_SELECTORS: readonly string[] = [
  'app=nvidia-dcgm-exporter',
  'app.kubernetes.io/name=dcgm-exporter',
];

/** dcgm-exporter's default listen port. */
export const DCGM_PORT = 9400;

export interface DcgmExporter {
  namespace: string;
  name: string;
  /** The node it runs on: its GPUs' node. */
  node: string | null;
  port: number;
}

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

/** The metrics port: a container port named `metrics` (the chart's, the operator's), else 9400. */
function metricsPort(pod: KubeObject): number {
  for (const c of Array.isArray(pod.spec?.['containers']) ? (pod.spec['containers'] as unknown[]) : [])
    for (const p of Array.isArray(asObj(c)?.ports) ? (asObj(c)!.ports as unknown[]) : []) {
      const port = asObj(p);
      if (port?.name === 'metrics' && typeof port.containerPort === 'number') return port.containerPort;
    }
  return DCGM_PORT;
}

/**
 * Running exporter pods among `pods`: matching `selector` when given (a
 * kubectl label selector), else any of DEFAULT_DCGM_SELECTORS.
 */
export function findExporters(pods: Iterable<KubeObject>, selector?: string): DcgmExporter[] {
  const selectors: Requirement[][] = (selector !== undefined ? [selector] : DEFAULT_DCGM_SELECTORS).map(
    parseLabelSelector,
  );
  const out: DcgmExporter[] = [];
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp || asObj(pod.status)?.phase !== 'Running') continue;
    if (!selectors.some((s) => matchesSelector(s, pod.metadata.labels))) continue;
    const node = pod.spec?.['nodeName'];
    out.push({
      namespace: pod.metadata.namespace ?? '',
      name: pod.metadata.name,
      node: typeof node === 'string' && node ? node : null,
      port: metricsPort(pod),
    });
  }
  return out.sort((a, b) => (a.node ?? '').localeCompare(b.node ?? '') || a.name.localeCompare(b.name));
}

/** The pods-proxy path of an exporter's /metrics. */
export function metricsProxyPath(e: DcgmExporter): string {
  return `/api/v1/namespaces/${encodeURIComponent(e.namespace)}/pods/${encodeURIComponent(`${e.name}:${e.port}`)}/proxy/metrics`;
}

/** A Prometheus server: a plain http(s) URL, or a service reached through the API server's service proxy. */
export type PrometheusTarget =
  | { kind: 'url'; url: URL; display: string }
  | { kind: 'service'; namespace: string; name: string; port: string; display: string };

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * `--prometheus`: `http(s)://host[:port][/prefix]` or `svc/NAMESPACE/NAME:PORT`
 * (PORT a number or the service port's name). Throws an Error saying what is
 * wrong.
 */
export function parsePrometheusTarget(text: string): PrometheusTarget {
  const svc = /^svc\/([^/]+)\/([^/:]+):([^/:]+)$/.exec(text);
  if (svc) {
    const [, namespace, name, port] = svc;
    for (const [what, v] of [
      ['namespace', namespace],
      ['service name', name],
    ] as const)
      if (!DNS_LABEL.test(v) || v.length > 63) throw new Error(`${what} "${v}" is not a DNS label`);
    const n = Number(port);
    if (
      /^\d+$/.test(port) ? !(n >= 1 && n <= 65535) : !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(port) || port.length > 15
    )
      throw new Error(`port "${port}" is neither 1–65535 nor a port name`);
    return { kind: 'service', namespace, name, port, display: `svc/${namespace}/${name}:${port}` };
  }
  if (text.startsWith('svc/')) throw new Error('expected svc/NAMESPACE/NAME:PORT');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('expected an http(s) URL or svc/NAMESPACE/NAME:PORT');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${url.protocol} is not http: or https:`);
  if (url.search || url.hash) throw new Error('give the server, without a query or fragment');
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  // Never shown: user:password in the URL.
  return { kind: 'url', url, display: `${url.origin}${url.pathname.replace(/\/$/, '')}` };
}

/** The `/api/v1/query` request of a query, as the target is reached. */
export function prometheusQueryPath(target: PrometheusTarget, query: string): string {
  const q = `api/v1/query?query=${encodeURIComponent(query)}`;
  if (target.kind === 'url') return new URL(q, target.url).toString();
  const svc = encodeURIComponent(`${target.name}:${target.port}`);
  return `/api/v1/namespaces/${encodeURIComponent(target.namespace)}/services/${svc}/proxy/${q}`;
}

/** A plain-URL Prometheus answered outside 2xx. */
class PrometheusHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`answered ${status}`);
  }
}

/** Why GPU metrics are missing (wholly or in part), in one line; null when all is well. */
export interface DcgmNotice {
  kind: 'no-exporter' | 'forbidden' | 'failed';
  text: string;
}

export interface DcgmState {
  /** Current readings of every exporter that answered its last scrape. */
  readings: GpuReading[];
  notice: DcgmNotice | null;
  /** When the last round ended (ms), null before the first. */
  scrapedAt: number | null;
  exporters: number;
}

export interface DcgmScraperOptions {
  /** Between rounds; clamped to 5–15 s (default 10 s). */
  intervalMs: number;
  /** A label selector (`--dcgm-selector`) instead of the built-in ones. */
  selector?: string;
  /** Ask this Prometheus instead of the exporters (`--prometheus`). */
  prometheus?: PrometheusTarget;
  /** Bytes read of one exporter's answer (default 4 MiB: a node of 8 GPUs writes ~60 KiB). */
  maxBytes: number;
  /** Bytes read of one Prometheus answer (default 64 MiB: every GPU of the cluster, ~5 KiB each). */
  prometheusMaxBytes: number;
  /** One scrape's time limit (default 5 s). */
  timeoutMs: number;
  /** Longest wait before retrying a failing exporter (default 2 min). */
  maxBackoffMs: number;
  /** Exporters scraped at once. */
  concurrency: number;
  idle: IdleRule;
  now: () => number;
}

export const DEFAULT_DCGM_SCRAPER: DcgmScraperOptions = {
  intervalMs: 10_000,
  maxBytes: 4 * 1024 * 1024,
  prometheusMaxBytes: 64 * 1024 * 1024,
  timeoutMs: 5_000,
  maxBackoffMs: 120_000,
  concurrency: 8,
  idle: DEFAULT_IDLE_RULE,
  now: () => Date.now(),
};

/** An answer longer than the bound: read no further. */
class TooLargeError extends Error {}

interface Backoff {
  failures: number;
  retryAt: number;
  cause: ReturnType<typeof describeFailure>;
}

export class DcgmScraper {
  private readonly opts: DcgmScraperOptions;
  private readonly history: GpuHistory;
  private readonly backoff = new Map<string, Backoff>();
  private holders = 0;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<DcgmState> | undefined;
  private abort: AbortController | undefined;
  private last: DcgmState = { readings: [], notice: null, scrapedAt: null, exporters: 0 };
  private known = new Set<string>();

  constructor(
    private readonly transport: KubeTransport,
    /** The pods the engine has (exporters are found among them). */
    private readonly pods: () => Iterable<KubeObject>,
    private readonly onChange: (state: DcgmState) => void = () => {},
    options: Partial<DcgmScraperOptions> = {},
  ) {
    this.opts = { ...DEFAULT_DCGM_SCRAPER, ...options };
    this.opts.intervalMs = Math.min(15_000, Math.max(5_000, this.opts.intervalMs));
    if (this.opts.selector !== undefined) parseLabelSelector(this.opts.selector); // a bad selector fails here, not per round
    this.history = new GpuHistory({ thresholdPercent: this.opts.idle.thresholdPercent });
  }

  state(): DcgmState {
    return this.last;
  }

  /**
   * Starts scraping (at once, then every interval) while at least one holder
   * keeps it; the returned function lets go.
   */
  acquire(): () => void {
    this.holders++;
    if (this.holders === 1) void this.loop();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
      if (this.holders === 0) this.pause();
    };
  }

  /** Stops for good: no timer, in-flight requests aborted. */
  stop(): void {
    this.holders = 0;
    this.pause();
  }

  /** One round over every exporter (not backing off); resolves with the new state. */
  scrapeOnce(): Promise<DcgmState> {
    if (!this.round)
      this.round = this.scrapeAll().finally(() => {
        this.round = undefined;
      });
    return this.round;
  }

  private pause(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.abort?.abort();
  }

  private async loop(): Promise<void> {
    if (this.holders === 0) return;
    await this.scrapeOnce();
    if (this.holders === 0 || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.loop();
    }, this.opts.intervalMs);
    this.timer.unref();
  }

  private async scrapeAll(): Promise<DcgmState> {
    if (this.opts.prometheus) return this.queryPrometheus(this.opts.prometheus);
    const exporters = findExporters(this.pods(), this.opts.selector);
    const sources = new Set(exporters.map(sourceOf));
    for (const gone of this.known) {
      if (sources.has(gone)) continue;
      this.history.drop(gone);
      this.backoff.delete(gone);
    }
    this.known = sources;
    const abort = new AbortController();
    this.abort = abort;
    const now = this.opts.now();
    const due = exporters.filter((e) => (this.backoff.get(sourceOf(e))?.retryAt ?? 0) <= now);
    let next = 0;
    const worker = async () => {
      while (next < due.length && !abort.signal.aborted) await this.scrapeExporter(due[next++], abort.signal);
    };
    await Promise.all(Array.from({ length: Math.min(this.opts.concurrency, due.length) }, worker));
    this.last = {
      readings: this.history.current(),
      notice: this.notice(exporters),
      scrapedAt: this.opts.now(),
      exporters: exporters.length,
    };
    if (!abort.signal.aborted) this.onChange(this.last);
    return this.last;
  }

  private async scrapeExporter(e: DcgmExporter, signal: AbortSignal): Promise<void> {
    const source = sourceOf(e);
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    try {
      const text = await this.read(metricsProxyPath(e), AbortSignal.any([signal, timeout]));
      const at = this.opts.now();
      const parsed = parseExposition(text, { names: DCGM_SERIES });
      this.history.record(source, readingsFromSamples(parsed.samples, at, e.node), at);
      this.backoff.delete(source);
    } catch (err) {
      if (signal.aborted) return; // stopped: not the exporter's fault
      this.history.drop(source);
      const failures = (this.backoff.get(source)?.failures ?? 0) + 1;
      const cause =
        err instanceof TooLargeError
          ? { kind: 'server' as const, text: err.message }
          : timeout.aborted
            ? { kind: 'stalled' as const, text: `no answer within ${Math.round(this.opts.timeoutMs / 1000)} s` }
            : describeFailure(err);
      const wait = Math.min(this.opts.maxBackoffMs, this.opts.intervalMs * 2 ** (failures - 1));
      this.backoff.set(source, { failures, retryAt: this.opts.now() + wait, cause });
    }
  }

  /** One round against Prometheus: the series and the idle query at once; any failure is the notice. */
  private async queryPrometheus(target: PrometheusTarget): Promise<DcgmState> {
    const abort = new AbortController();
    this.abort = abort;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const signal = AbortSignal.any([abort.signal, timeout]);
    const at = this.opts.now();
    let readings: GpuReading[] = [];
    let notice: DcgmNotice | null = null;
    try {
      const [series, max] = await Promise.all(
        [seriesQuery(), idleQuery(this.opts.idle.windowMs)].map(async (q) =>
          parseInstantVector(await this.readPrometheus(target, q, signal)),
        ),
      );
      const exporterNodes = new Map(findExporters(this.pods(), this.opts.selector).map((e) => [e.name, e.node]));
      readings = readingsFromPrometheus(series, max, at, this.opts.idle, (host) => exporterNodes.get(host) ?? null);
      if (readings.length === 0)
        notice = { kind: 'no-exporter', text: `GPU metrics: Prometheus ${target.display} has no DCGM series` };
    } catch (err) {
      notice = prometheusNotice(target, err, timeout.aborted && !abort.signal.aborted, this.opts.timeoutMs);
    }
    this.last = { readings, notice, scrapedAt: this.opts.now(), exporters: 0 };
    if (!abort.signal.aborted) this.onChange(this.last);
    return this.last;
  }

  private async readPrometheus(target: PrometheusTarget, query: string, signal: AbortSignal): Promise<string> {
    const where = prometheusQueryPath(target, query);
    const limit = this.opts.prometheusMaxBytes;
    if (target.kind === 'service')
      return this.readBody(await this.transport.open(where, { signal, accept: 'application/json' }), limit);
    // Its own connection: none of the cluster's credentials or TLS settings go to it.
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const get = where.startsWith('https:') ? https.get : http.get;
      const req = get(where, { signal, headers: { accept: 'application/json' } }, resolve);
      req.on('error', (err: NodeJS.ErrnoException) =>
        reject(signal.aborted ? err : new KubeConnectionError(err.message, err.code ?? null, err.message)),
      );
    });
    const body = await this.readBody(res, limit);
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) throw new PrometheusHttpError(status, body);
    return body;
  }

  /** The answer's text, at most maxBytes of it. */
  private async read(path: string, signal: AbortSignal): Promise<string> {
    return this.readBody(await this.transport.open(path, { signal, accept: 'text/plain' }), this.opts.maxBytes);
  }

  private async readBody(res: http.IncomingMessage, maxBytes: number): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res) {
        const b = chunk as Buffer;
        size += b.length;
        if (size > maxBytes) throw new TooLargeError(`answer over ${Math.round(maxBytes / 1024)} KiB`);
        chunks.push(b);
      }
    } finally {
      res.destroy();
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private notice(exporters: DcgmExporter[]): DcgmNotice | null {
    if (exporters.length === 0) {
      const how =
        this.opts.selector !== undefined ? `matching ${this.opts.selector}` : '(GPU Operator or chart labels)';
      return { kind: 'no-exporter', text: `GPU metrics: no running dcgm-exporter pod ${how}` };
    }
    const failing = exporters.map((e) => this.backoff.get(sourceOf(e))).filter((b): b is Backoff => b !== undefined);
    if (failing.length === 0) return null;
    const of = failing.length === exporters.length ? 'all' : `${failing.length} of ${exporters.length}`;
    if (failing.every((b) => b.cause.kind === 'forbidden'))
      return {
        kind: 'forbidden',
        text: `GPU metrics: forbidden (403) for ${of} exporters: reading them needs get on pods/proxy`,
      };
    const first = failing.find((b) => b.cause.kind !== 'forbidden') ?? failing[0];
    return { kind: 'failed', text: `GPU metrics: scrape failed for ${of} exporters: ${first.cause.text}` };
  }
}

/** The one notice of a failed Prometheus round: who, and why in a few words (never a credential). */
function prometheusNotice(target: PrometheusTarget, err: unknown, timedOut: boolean, timeoutMs: number): DcgmNotice {
  const who = `GPU metrics: Prometheus ${target.display}`;
  if (err instanceof KubeApiError && err.status === 403)
    return { kind: 'forbidden', text: `${who}: forbidden (403): reading it needs get on services/proxy` };
  let cause: string;
  if (timedOut) cause = `no answer within ${Math.round(timeoutMs / 1000)} s`;
  else if (err instanceof PrometheusAnswerError) cause = `bad answer: ${err.message}`;
  else if (err instanceof TooLargeError) cause = err.message;
  else if (err instanceof PrometheusHttpError)
    cause = `answered ${err.status}${prefixed(prometheusError(err.body) ?? firstLine(err.body))}`;
  else if (err instanceof KubeApiError) {
    // The service proxy passes Prometheus' own error body on; the message holds its beginning.
    const body = /HTTP \d+: (.*)$/s.exec(err.message)?.[1] ?? '';
    cause = `${describeFailure(err).text}${prefixed(prometheusError(body) ?? '')}`;
  } else cause = describeFailure(err).text;
  return { kind: 'failed', text: `${who}: ${cause}` };
}

const prefixed = (text: string) => (text ? `: ${text}` : '');
const firstLine = (text: string) => text.trim().split('\n')[0]?.slice(0, 120) ?? '';

function sourceOf(e: DcgmExporter): string {
  return `${e.namespace}/${e.name}`;
}
