// DCGM readings from a Prometheus server's HTTP API (`--prometheus`) instead
// of the exporters themselves: two instant queries per round, one for the
// current series and one for idleness over the window, so `wlx get` knows
// idle at once. Answers are parsed strictly: anything but a success envelope
// with an instant vector of well-formed samples is an error naming what was
// wrong (the caller turns it into the one notice).
import type { GpuReading, IdleRule } from '../model/types.js';
import { DCGM, readingsFromSamples, type FreshReading } from './dcgm.js';
import { parseSampleValue, type Sample } from './prometheus.js';

/** The series read each round (as the exporter path reads them). */
export const PROMETHEUS_SERIES: readonly string[] = [
  DCGM.util,
  DCGM.engineActive,
  DCGM.fbUsed,
  DCGM.fbFree,
  DCGM.fbReserved,
  DCGM.power,
  DCGM.xid,
];

/** `60s`: a PromQL duration of whole seconds (at least 1). */
export function promDuration(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))}s`;
}

/** Every DCGM series wlx reads, in one selector. */
export function seriesQuery(): string {
  return `{__name__=~"${PROMETHEUS_SERIES.join('|')}"}`;
}

/**
 * Each GPU's highest utilisation over the window, only for series that
 * already existed a window ago (a GPU first seen 20 s ago has not been low
 * for 60 s, whatever its maximum says).
 */
export function idleQuery(windowMs: number): string {
  const w = promDuration(windowMs);
  return `max_over_time(${DCGM.util}[${w}]) and ${DCGM.util} offset ${w}`;
}

/** An answer that is not the instant vector asked for. */
export class PrometheusAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PrometheusAnswerError';
  }
}

export interface VectorSample {
  labels: Record<string, string>;
  /** NaN and ±Inf kept as such. */
  value: number;
  /** Evaluation time (ms). */
  atMs: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Prometheus' own error envelope in a body, when it is one (`bad_data: parse error …`). */
export function prometheusError(body: string): string | null {
  try {
    const doc = JSON.parse(body) as unknown;
    if (isObj(doc) && doc.status === 'error')
      return `${typeof doc.errorType === 'string' ? doc.errorType : 'error'}: ${typeof doc.error === 'string' ? doc.error : '(no message)'}`;
  } catch {
    // not JSON
  }
  return null;
}

/**
 * The instant vector of a `/api/v1/query` answer. Throws
 * PrometheusAnswerError for: not JSON, an error envelope (its errorType and
 * error), a result type other than vector, or a malformed sample (which one
 * and why). Histogram samples are not DCGM's and are refused likewise.
 */
export function parseInstantVector(body: string): VectorSample[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch (err) {
    const head = body.trim().slice(0, 40);
    throw new PrometheusAnswerError(`not JSON (${(err as Error).message}; starts "${head}")`);
  }
  if (!isObj(doc)) throw new PrometheusAnswerError('the answer is not a JSON object');
  if (doc.status === 'error') throw new PrometheusAnswerError(prometheusError(body) ?? 'error');
  if (doc.status !== 'success')
    throw new PrometheusAnswerError(`status is ${JSON.stringify(doc.status)}, not "success"`);
  const data = doc.data;
  if (!isObj(data)) throw new PrometheusAnswerError('no data object');
  if (data.resultType !== 'vector')
    throw new PrometheusAnswerError(`resultType is ${JSON.stringify(data.resultType)}, not "vector"`);
  if (!Array.isArray(data.result)) throw new PrometheusAnswerError('data.result is not an array');
  return data.result.map((entry, i) => {
    const where = `result[${i}]`;
    if (!isObj(entry)) throw new PrometheusAnswerError(`${where} is not an object`);
    if (!isObj(entry.metric)) throw new PrometheusAnswerError(`${where}.metric is not an object`);
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(entry.metric)) {
      if (typeof v !== 'string') throw new PrometheusAnswerError(`${where}.metric.${k} is not a string`);
      labels[k] = v;
    }
    const pair = entry.value;
    if (!Array.isArray(pair) || pair.length !== 2)
      throw new PrometheusAnswerError(`${where}.value is not a [time, "value"] pair`);
    const [t, text] = pair as unknown[];
    if (typeof t !== 'number' || !Number.isFinite(t))
      throw new PrometheusAnswerError(`${where}.value time is not a number`);
    if (typeof text !== 'string') throw new PrometheusAnswerError(`${where}.value is not a string`);
    const value = parseSampleValue(text);
    if (value === null) throw new PrometheusAnswerError(`${where}.value "${text.slice(0, 20)}" is not a number`);
    return { labels, value, atMs: Math.round(t * 1000) };
  });
}

/**
 * A vector sample as the exporter would have written it. Scraped without
 * honor_labels (kube-prometheus-stack's way), the exporter's pod mapping is
 * renamed `exported_pod` / `exported_namespace` / `exported_container` and
 * `pod` / `namespace` / `container` are the exporter's own; a free GPU then
 * has no `exported_pod` at all (an empty label is no label), so `renamed` is
 * decided over the whole answer. `exporterNode` maps an exporter pod's name
 * to its node: a `pod` naming an exporter is never a GPU's pod, and a
 * `Hostname` naming one (NODE_NAME unset) stands for its node.
 */
function asSample(
  v: VectorSample,
  name: string,
  renamed: boolean,
  exporterNode: (podName: string) => string | null,
): Sample {
  const labels: Record<string, string> = { ...v.labels };
  delete labels['__name__'];
  if (renamed)
    for (const k of ['pod', 'namespace', 'container']) {
      labels[k] = labels[`exported_${k}`] ?? '';
      delete labels[`exported_${k}`];
    }
  else if (labels['pod'] && exporterNode(labels['pod']) !== null) labels['pod'] = '';
  const host = labels['Hostname'];
  if (host) labels['Hostname'] = exporterNode(host) ?? host;
  return { name, labels, value: v.value, timestampMs: v.atMs };
}

const isRenamed = (answer: readonly VectorSample[]) => answer.some((v) => 'exported_pod' in v.labels);

/**
 * A GPU with its pod mapping: a series of the GPU from before its pod got it
 * (free, or another pod's) says nothing of the pod's use of it.
 */
function seriesIdentity(r: FreshReading): string {
  const pods = r.pods.map((p) => `${p.namespace}/${p.name}/${p.container ?? ''}`).sort();
  return `${r.key}|${pods.join(',')}`;
}

/**
 * Readings from the two answers: `series` (every DCGM series, by
 * `__name__`) and `maxUtil` (idleQuery's answer). A GPU whose maximum over
 * the window is under the threshold has been low for the whole window; one
 * absent from `maxUtil` (not there a window ago) has no known coverage.
 */
export function readingsFromPrometheus(
  series: readonly VectorSample[],
  maxUtil: readonly VectorSample[],
  at: number,
  rule: IdleRule,
  exporterNode: (podName: string) => string | null = () => null,
): GpuReading[] {
  const renamed = isRenamed(series);
  const samples = series.flatMap((v) => {
    const name = v.labels['__name__'];
    return name !== undefined && PROMETHEUS_SERIES.includes(name) ? [asSample(v, name, renamed, exporterNode)] : [];
  });
  const max = new Map<string, number | null>();
  for (const r of readingsFromSamples(
    maxUtil.map((v) => asSample(v, DCGM.util, renamed, exporterNode)),
    at,
  ))
    max.set(seriesIdentity(r), r.utilisation);
  const since = at - rule.windowMs;
  return readingsFromSamples(samples, at).map((r) => {
    const low = r.utilisation !== null && r.utilisation < rule.thresholdPercent;
    const m = max.get(seriesIdentity(r)) ?? null;
    if (m === null) return { ...r, lowSince: low ? at : null, coveredSince: null };
    if (m < rule.thresholdPercent) return { ...r, lowSince: since, coveredSince: since };
    return { ...r, lowSince: low ? at : null, coveredSince: since };
  });
}
