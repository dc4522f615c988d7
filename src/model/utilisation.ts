// GPU utilisation rolled up the tree: per pod, role, workload, node and the
// cluster, from per-GPU readings (src/metrics/dcgm.ts makes them from
// dcgm-exporter scrapes). Pure functions over plain objects. Unknown is
// `null`, never 0: a GPU without a reading is not an idle GPU.
import type { GpuReading, IdleRule, PodUtilisationEntry, ReadingIndex, Straggler } from './types.js';

export const DEFAULT_IDLE_RULE: IdleRule = { thresholdPercent: 5, windowMs: 60_000 };

/** Allocated (assigned to a pod) and under the threshold for the whole window. */
export function isIdle(gpu: GpuReading, now: number, rule: IdleRule = DEFAULT_IDLE_RULE): boolean {
  return gpu.pods.length > 0 && gpu.lowSince !== null && now - gpu.lowSince >= rule.windowMs;
}

/**
 * Whether an allocated GPU's idleness is not known yet: no utilisation, or
 * low ever since it was first seen (or with no known coverage) but for less
 * than the window. A busy GPU, or one that went low after a busy scrape, is
 * known not idle; a free GPU is never idle.
 */
export function isIdleUnknown(gpu: GpuReading, now: number, rule: IdleRule = DEFAULT_IDLE_RULE): boolean {
  if (gpu.pods.length === 0 || isIdle(gpu, now, rule)) return false;
  if (gpu.utilisation === null) return true;
  if (gpu.lowSince === null) return false;
  return gpu.coveredSince === null || gpu.coveredSince >= gpu.lowSince;
}

/** How long an idle GPU has been idle (ms), else null. */
export function idleForMs(gpu: GpuReading, now: number, rule: IdleRule = DEFAULT_IDLE_RULE): number | null {
  return isIdle(gpu, now, rule) && gpu.lowSince !== null ? now - gpu.lowSince : null;
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** What a set of GPUs says together (a pod's, a node's, the cluster's). */
export interface GpuRollup {
  /** GPUs with a reading. */
  gpus: number;
  /** Mean utilisation (%) over those that report it; null when none does. */
  utilisation: number | null;
  memoryUsedBytes: number | null;
  memoryTotalBytes: number | null;
  powerWatts: number | null;
  /** Idle by the rule. */
  idle: number;
  /** Allocated GPUs whose idleness is not known yet (isIdleUnknown). */
  idleUnknown: number;
  /** The longest any of them has been idle (ms); null when none is idle. */
  idleForMs: number | null;
  /** GPUs whose last XID error is not 0. */
  xidErrors: number;
}

/** Rolls up a set of GPUs; each GPU once, whatever number of pods share it. */
export function rollupGpus(gpus: readonly GpuReading[], now: number, rule: IdleRule = DEFAULT_IDLE_RULE): GpuRollup {
  // One pass, no list per figure: this runs per pod of each changed workload under churn.
  let list = gpus;
  if (gpus.length > 1) {
    const seen = new Map<string, GpuReading>();
    for (const g of gpus) seen.set(g.key, g);
    if (seen.size !== gpus.length) list = [...seen.values()];
  }
  let idle = 0;
  let idleUnknown = 0;
  let longest: number | null = null;
  let utilSum = 0;
  let utilCount = 0;
  let memoryUsed: number | null = null;
  let memoryTotal: number | null = null;
  let power: number | null = null;
  let xidErrors = 0;
  for (const g of list) {
    if (g.utilisation !== null) {
      utilSum += g.utilisation;
      utilCount++;
    }
    if (g.memoryUsedBytes !== null) memoryUsed = (memoryUsed ?? 0) + g.memoryUsedBytes;
    if (g.memoryTotalBytes !== null) memoryTotal = (memoryTotal ?? 0) + g.memoryTotalBytes;
    if (g.powerWatts !== null) power = (power ?? 0) + g.powerWatts;
    if (g.xid !== null && g.xid !== 0) xidErrors++;
    if (isIdleUnknown(g, now, rule)) idleUnknown++;
    const d = idleForMs(g, now, rule);
    if (d === null) continue;
    idle++;
    longest = longest === null ? d : Math.max(longest, d);
  }
  return {
    gpus: list.length,
    utilisation: utilCount ? utilSum / utilCount : null,
    memoryUsedBytes: memoryUsed,
    memoryTotalBytes: memoryTotal,
    powerWatts: power,
    idle,
    idleUnknown,
    idleForMs: longest,
    xidErrors,
  };
}

/** `namespace/name`: how readings and the tree name a pod. */
export function podKeyOf(p: { namespace: string; name: string }): string {
  return `${p.namespace}/${p.name}`;
}

export function indexReadings(readings: Iterable<GpuReading>): ReadingIndex {
  const byPod = new Map<string, GpuReading[]>();
  const byNode = new Map<string, GpuReading[]>();
  const add = (m: Map<string, GpuReading[]>, k: string, r: GpuReading) => {
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  };
  for (const r of readings) {
    const pods = new Set(r.pods.map(podKeyOf));
    for (const p of pods) add(byPod, p, r);
    if (r.node !== null) add(byNode, r.node, r);
  }
  return { byPod, byNode };
}

/** A group's mean and its least busy pod ("min rank": the one to look at first). */
export interface GroupUtilisation<P = string> {
  /** Mean over the group's GPUs (each GPU once). */
  utilisation: number | null;
  /** The pod with the lowest utilisation, when any pod reports one. */
  lowest: PodUtilisationEntry<P> | null;
  /** Idle GPUs; null while any allocated GPU of the group is unknown (a count is never a guess). */
  idle: number | null;
  idleForMs: number | null;
  /** Summed over the GPUs that report power; null when none does. */
  powerWatts: number | null;
  /** GPUs whose last XID error is not 0. */
  xidErrors: number;
}

/** One pod's readings and their rollup, read once per group (several figures of a group read each pod). */
export interface PodReadings<P = string> {
  /** `namespace/name`, or the pod itself. */
  pod: P;
  readings: readonly GpuReading[];
  /** Null when no GPU of the pod reports. */
  rollup: GpuRollup | null;
}

const NO_READINGS: readonly GpuReading[] = [];

/** A pod with its readings (none when undefined) and their rollup. */
export function podReadings<P>(
  pod: P,
  readings: readonly GpuReading[] | undefined,
  now: number,
  rule: IdleRule = DEFAULT_IDLE_RULE,
): PodReadings<P> {
  const list = readings ?? NO_READINGS;
  return { pod, readings: list, rollup: list.length ? rollupGpus(list, now, rule) : null };
}

/** A group's rollup: the GPUs of all its pods (each once), and its lowest pod. */
export function groupUtilisation(
  pods: readonly string[],
  index: ReadingIndex,
  now: number,
  rule: IdleRule = DEFAULT_IDLE_RULE,
): GroupUtilisation {
  return groupUtilisationOf(
    pods.map((p) => podReadings(p, index.byPod.get(p), now, rule)),
    now,
    rule,
  );
}

/** groupUtilisation over pods already read. */
export function groupUtilisationOf<P>(
  pods: readonly PodReadings<P>[],
  now: number,
  rule: IdleRule = DEFAULT_IDLE_RULE,
): GroupUtilisation<P> {
  const gpus: GpuReading[] = [];
  let lowest: PodUtilisationEntry<P> | null = null;
  for (const p of pods) {
    for (const g of p.readings) gpus.push(g);
    const u = p.rollup?.utilisation ?? null;
    if (u !== null && (lowest === null || u < (lowest.utilisation ?? Infinity)))
      lowest = { pod: p.pod, utilisation: u };
  }
  const r = rollupGpus(gpus, now, rule);
  return {
    utilisation: r.utilisation,
    lowest,
    idle: r.idleUnknown > 0 ? null : r.idle,
    idleForMs: r.idleUnknown > 0 ? null : r.idleForMs,
    powerWatts: r.powerWatts,
    xidErrors: r.xidErrors,
  };
}

/** When a pod counts as a straggler of its group. */
export interface StragglerRule {
  /** Pods reporting utilisation, at least (the median of one pod says nothing). */
  minPods: number;
  /** Under this fraction of the group's median… */
  ratio: number;
  /** …and at least this many points under it (10 % of a 12 % median is noise, not a straggler). */
  minGapPoints: number;
}

export const DEFAULT_STRAGGLER_RULE: StragglerRule = { minPods: 2, ratio: 0.5, minGapPoints: 20 };

function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Pods far below their group's median: under `ratio` × median and at least
 * `minGapPoints` below it. Synchronous training runs at the pace of its
 * slowest rank, so one such pod holds the whole group back. Pods without a
 * reading are neither counted nor flagged.
 */
export function stragglers<P = string>(
  pods: readonly PodUtilisationEntry<P>[],
  rule: StragglerRule = DEFAULT_STRAGGLER_RULE,
): Straggler<P>[] {
  const reporting: { pod: P; utilisation: number }[] = [];
  for (const p of pods) if (p.utilisation !== null) reporting.push({ pod: p.pod, utilisation: p.utilisation });
  if (reporting.length < rule.minPods) return [];
  const m = median(reporting.map((p) => p.utilisation).sort((a, b) => a - b));
  return reporting
    .filter((p) => p.utilisation < m * rule.ratio && m - p.utilisation >= rule.minGapPoints)
    .map((p) => ({ pod: p.pod, utilisation: p.utilisation, median: m }));
}

/** Mean over every GPU that reports (the header's cluster figure). */
export function clusterUtilisation(readings: Iterable<GpuReading>): number | null {
  const values: number[] = [];
  for (const r of readings) if (r.utilisation !== null) values.push(r.utilisation);
  return mean(values);
}

/** `45 s`, `4 min`, `2 h 5 min`: scrapes are seconds apart, so no finer. */
export function roughDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
}

/** The why-panel line: "3 GPUs of training/broken-finetune allocated and idle for 4 min". */
export function idleSentence(workload: string, idle: number | null, idleFor: number | null): string | null {
  if (idle === null || idle <= 0) return null;
  const what = `${idle} GPU${idle === 1 ? '' : 's'} of ${workload} allocated and idle`;
  return idleFor === null ? what : `${what} for ${roughDuration(idleFor)}`;
}

/** The why-panel line for a straggler. */
export function stragglerSentence(s: Straggler): string {
  return `${s.pod} at ${Math.round(s.utilisation)} % GPU, its role's median ${Math.round(s.median)} %: a straggler`;
}
