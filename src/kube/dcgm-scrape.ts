// GPU metrics from the cluster's dcgm-exporter pods, read through the API
// server's pod proxy (GET /api/v1/namespaces/NS/pods/NAME:PORT/proxy/metrics:
// a read, RBAC `get` on `pods/proxy`) with the same transport and credentials
// as every other request. The exporters are found among the pods the engine
// already watches (no extra list). Scrapes run every 5–15 s only while some
// view or `wlx get` holds the scraper; a failing exporter is retried with
// back-off; what went wrong is one notice, and its GPUs read unknown.
import type { KubeObject } from '../model/types.js';
import type { GpuReading } from '../model/utilisation.js';
import { DEFAULT_IDLE_RULE, type IdleRule } from '../model/utilisation.js';
import { DCGM_SERIES, GpuHistory, readingsFromSamples } from '../metrics/dcgm.js';
import { parseExposition } from '../metrics/prometheus.js';
import { describeFailure, type KubeTransport } from './client.js';
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
  /** Bytes read of one exporter's answer (default 4 MiB: a node of 8 GPUs writes ~60 KiB). */
  maxBytes: number;
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

  /** The answer's text, at most maxBytes of it. */
  private async read(path: string, signal: AbortSignal): Promise<string> {
    const res = await this.transport.open(path, { signal, accept: 'text/plain' });
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res) {
        const b = chunk as Buffer;
        size += b.length;
        if (size > this.opts.maxBytes)
          throw new TooLargeError(`answer over ${Math.round(this.opts.maxBytes / 1024)} KiB`);
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

function sourceOf(e: DcgmExporter): string {
  return `${e.namespace}/${e.name}`;
}
