// The values of the explorer's options, checked alike whether they come from
// a flag (src/cli/common.ts turns the errors into usage errors) or from
// config.yaml (settings.ts turns them into file:line problems). Each parser
// throws an Error saying what is wrong with the value.
import { parseLabelSelector } from '../../kube/selector.js';
import { parsePrometheusTarget, type PrometheusTarget } from '../../kube/dcgm-scrape.js';

/** `90s`, `5m`, `1h`, `250ms` or plain seconds, in ms. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m?.[2] ?? 's'] ?? 1000;
  const ms = m ? Number(m[1]) * unit : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`"${text}" is not a duration (e.g. 60s, 5m)`);
  return ms;
}

const RESOURCE_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?(\/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

export function checkGpuResource(r: string): void {
  if (!RESOURCE_NAME.test(r)) throw new Error(`"${r}" is not a resource name (e.g. nvidia.com/gpu)`);
}

const LABEL_KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

export function checkTopologyKey(k: string): void {
  if (!LABEL_KEY.test(k)) throw new Error(`"${k}" is not a node label key (e.g. topology.kubernetes.io/zone)`);
}

export function checkDcgmSelector(selector: string): void {
  let selects: boolean;
  try {
    selects = parseLabelSelector(selector).length > 0;
  } catch (err) {
    throw new Error(`"${selector}": ${(err as Error).message}`);
  }
  if (!selects) throw new Error(`"${selector}": it selects nothing`);
}

export function checkNamespace(ns: string): void {
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(ns) || ns.length > 63) throw new Error(`"${ns}" is not a namespace name`);
}

export function parsePrometheus(text: string): PrometheusTarget {
  return parsePrometheusTarget(text);
}
