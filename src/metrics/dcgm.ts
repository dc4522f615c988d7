// dcgm-exporter samples → one reading per GPU (or MIG instance), joined to
// the pods the exporter maps them to (its pod / namespace / container labels,
// on by default in the GPU Operator), else to their node only. A bounded
// history per GPU tells how long each has been under the idle threshold.
import type { GpuPodRef, GpuReading } from '../model/types.js';
import { DEFAULT_IDLE_RULE } from '../model/utilisation.js';
import type { Sample } from './prometheus.js';

/** The series wlx reads (field names as dcgm-exporter's default counters file has them). */
export const DCGM = {
  util: 'DCGM_FI_DEV_GPU_UTIL',
  /** MIG instances have no GPU_UTIL; the graphics engine's active ratio (0–1) stands for it. */
  engineActive: 'DCGM_FI_PROF_GR_ENGINE_ACTIVE',
  fbUsed: 'DCGM_FI_DEV_FB_USED',
  fbFree: 'DCGM_FI_DEV_FB_FREE',
  fbReserved: 'DCGM_FI_DEV_FB_RESERVED',
  power: 'DCGM_FI_DEV_POWER_USAGE',
  xid: 'DCGM_FI_DEV_XID_ERRORS',
} as const;

/** Only these are parsed out of a scrape (the rest of an exporter's text is skipped unread). */
export const DCGM_SERIES: ReadonlySet<string> = new Set(Object.values(DCGM));

const MIB = 1024 * 1024;

/** A reading before the history (or Prometheus' window) has said how long it has been low. */
export type FreshReading = Omit<GpuReading, 'lowSince' | 'coveredSince'>;

function label(s: Sample, name: string): string | null {
  const v = s.labels[name];
  return v === undefined || v === '' ? null : v;
}

function finite(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

/**
 * The GPU a sample is about: `node/UUID` (the UUID is unique, the node keeps
 * keys readable and lets a node's GPUs be dropped together), `node/gpu` when
 * an old exporter gives no UUID, `/GPU_I_ID` appended for a MIG instance.
 */
function gpuKey(node: string | null, s: Sample): string | null {
  const id = label(s, 'UUID') ?? (label(s, 'gpu') !== null ? `gpu${label(s, 'gpu')}` : null);
  if (id === null) return null;
  const mig = label(s, 'GPU_I_ID');
  return `${node ?? ''}/${id}${mig !== null ? `/${mig}` : ''}`;
}

/**
 * One reading per GPU from one exporter's samples. `node` is the exporter
 * pod's node (its `Hostname` label is the pod's own name unless NODE_NAME is
 * set, so the pod's spec.nodeName is the one to trust); without it the
 * `Hostname` label is used.
 */
export function readingsFromSamples(
  samples: readonly Sample[],
  at: number,
  node: string | null = null,
): FreshReading[] {
  const byKey = new Map<string, FreshReading & { fbFree: number | null; fbReserved: number | null }>();
  for (const s of samples) {
    if (!DCGM_SERIES.has(s.name)) continue;
    const host = node ?? label(s, 'Hostname');
    const key = gpuKey(host, s);
    if (key === null) continue;
    let r = byKey.get(key);
    if (!r) {
      r = {
        key,
        node: host,
        uuid: label(s, 'UUID'),
        index: label(s, 'gpu'),
        model: label(s, 'modelName'),
        migProfile: label(s, 'GPU_I_PROFILE'),
        migInstance: label(s, 'GPU_I_ID'),
        utilisation: null,
        memoryUsedBytes: null,
        memoryTotalBytes: null,
        powerWatts: null,
        xid: null,
        pods: [],
        at,
        fbFree: null,
        fbReserved: null,
      };
      byKey.set(key, r);
    }
    const ns = label(s, 'namespace');
    const pod = label(s, 'pod');
    if (ns !== null && pod !== null) {
      const ref: GpuPodRef = { namespace: ns, name: pod, container: label(s, 'container') };
      if (!r.pods.some((p) => p.namespace === ref.namespace && p.name === ref.name && p.container === ref.container))
        r.pods.push(ref);
    }
    const v = finite(s.value);
    switch (s.name) {
      case DCGM.util:
        r.utilisation = v === null ? null : Math.min(100, Math.max(0, v));
        break;
      case DCGM.engineActive:
        // GPU_UTIL wins when both are there.
        if (r.utilisation === null && v !== null) r.utilisation = Math.min(100, Math.max(0, v * 100));
        break;
      case DCGM.fbUsed:
        r.memoryUsedBytes = v === null ? null : v * MIB;
        break;
      case DCGM.fbFree:
        r.fbFree = v === null ? null : v * MIB;
        break;
      case DCGM.fbReserved:
        r.fbReserved = v === null ? null : v * MIB;
        break;
      case DCGM.power:
        r.powerWatts = v;
        break;
      case DCGM.xid:
        r.xid = v;
        break;
    }
  }
  const out: FreshReading[] = [];
  for (const { fbFree, fbReserved, ...r } of byKey.values()) {
    if (r.memoryUsedBytes !== null && fbFree !== null)
      r.memoryTotalBytes = r.memoryUsedBytes + fbFree + (fbReserved ?? 0);
    out.push(r);
  }
  return out;
}

export interface GpuHistoryOptions {
  /** Utilisation under this (%) is low (the idle rule's threshold). */
  thresholdPercent: number;
  /** Points kept per GPU (oldest dropped first). */
  maxPoints: number;
  /** A GPU no scrape has named for this long is forgotten (ms). */
  forgetAfterMs: number;
}

export const DEFAULT_GPU_HISTORY: GpuHistoryOptions = {
  thresholdPercent: DEFAULT_IDLE_RULE.thresholdPercent,
  maxPoints: 120,
  forgetAfterMs: 10 * 60_000,
};

interface Track {
  points: { at: number; utilisation: number | null }[];
  lowSince: number | null;
  /** The first scrape of this GPU (points are trimmed, this is not). */
  firstSeen: number;
  lastSeen: number;
}

/**
 * Recent utilisation per GPU, bounded in points and age, and the current
 * readings per exporter. A scrape replaces its exporter's readings; a failed
 * exporter's readings are dropped (shown as unknown, not as stale numbers),
 * while their history stays until forgotten.
 */
export class GpuHistory {
  private readonly opts: GpuHistoryOptions;
  private readonly tracks = new Map<string, Track>();
  private readonly bySource = new Map<string, GpuReading[]>();
  private lastForget = -Infinity;

  constructor(options: Partial<GpuHistoryOptions> = {}) {
    this.opts = { ...DEFAULT_GPU_HISTORY, ...options };
  }

  /** Records one exporter's scrape; returns its readings with `lowSince`. */
  record(source: string, fresh: readonly FreshReading[], at: number): GpuReading[] {
    const readings: GpuReading[] = [];
    for (const f of fresh) {
      let t = this.tracks.get(f.key);
      if (!t) this.tracks.set(f.key, (t = { points: [], lowSince: null, firstSeen: at, lastSeen: at }));
      t.points.push({ at, utilisation: f.utilisation });
      if (t.points.length > this.opts.maxPoints) t.points.splice(0, t.points.length - this.opts.maxPoints);
      t.lastSeen = at;
      const low = f.utilisation !== null && f.utilisation < this.opts.thresholdPercent;
      t.lowSince = low ? (t.lowSince ?? at) : null;
      readings.push({ ...f, lowSince: t.lowSince, coveredSince: t.firstSeen });
    }
    this.bySource.set(source, readings);
    this.forget(at);
    return readings;
  }

  /** An exporter that could not be scraped, or is gone: its GPUs read unknown until it answers again. */
  drop(source: string): void {
    this.bySource.delete(source);
  }

  /** Every current reading, over all exporters. */
  current(): GpuReading[] {
    const out: GpuReading[] = [];
    for (const list of this.bySource.values()) out.push(...list);
    return out;
  }

  /** The points kept for one GPU, oldest first. */
  points(key: string): readonly { at: number; utilisation: number | null }[] {
    return this.tracks.get(key)?.points ?? [];
  }

  /** Mean utilisation of one GPU over the points since `since` (ms); null when none reports. */
  meanSince(key: string, since: number): number | null {
    let sum = 0;
    let n = 0;
    for (const p of this.points(key))
      if (p.at >= since && p.utilisation !== null) {
        sum += p.utilisation;
        n++;
      }
    return n ? sum / n : null;
  }

  get size(): number {
    return this.tracks.size;
  }

  // A walk over every GPU, so at most ten times per forgetting period (one scrape per exporter calls it).
  private forget(now: number): void {
    if (now - this.lastForget < this.opts.forgetAfterMs / 10) return;
    this.lastForget = now;
    for (const [key, t] of this.tracks) if (now - t.lastSeen > this.opts.forgetAfterMs) this.tracks.delete(key);
    for (const t of this.tracks.values()) {
      const old = t.points.findIndex((p) => now - p.at <= this.opts.forgetAfterMs);
      if (old > 0) t.points.splice(0, old);
    }
  }
}
