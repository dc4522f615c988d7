// Snapshots as they cross the thread boundary. Structured clone keeps plain
// data, Arrays and Maps but drops prototypes and shared references between
// messages, so the one part that is not plain data (gpuMetrics' ReadingIndex:
// two Maps sharing their readings) crosses as its readings and is rebuilt on
// the UI side by the model's own indexReadings.
import type { GpuMetrics, ModelSnapshot, GpuReading, ReadingIndex } from '../../model/types.js';
import { indexReadings } from '../../model/utilisation.js';
import { applyDelta, encodeDelta, type Delta } from './delta.js';

/** GpuMetrics with its readings as a list. */
export interface WireGpuMetrics extends Omit<GpuMetrics, 'readings'> {
  readings: GpuReading[];
}

export type WireSnapshot = Omit<ModelSnapshot, 'gpuMetrics'> & { gpuMetrics?: WireGpuMetrics };

/** Every reading an index holds, once (indexReadings of it gives the same index). */
function readingsOf(index: ReadingIndex): GpuReading[] {
  const seen = new Set<GpuReading>();
  for (const list of index.byNode.values()) for (const r of list) seen.add(r);
  for (const list of index.byPod.values()) for (const r of list) seen.add(r);
  return [...seen];
}

/** The worker's side: each snapshot as a delta against the one sent before. */
export class SnapshotEncoder {
  private sent: WireSnapshot | undefined;
  private readonly wireMetrics = new WeakMap<GpuMetrics, WireGpuMetrics>();

  /** The next message's delta; the first one (and the first after reset) carries the whole snapshot. */
  encode(snapshot: ModelSnapshot): Delta {
    const wire = this.toWire(snapshot);
    const delta = encodeDelta(wire, this.sent);
    this.sent = wire;
    return delta;
  }

  private toWire(snapshot: ModelSnapshot): WireSnapshot {
    const metrics = snapshot.gpuMetrics;
    if (!metrics) return snapshot as WireSnapshot;
    let wire = this.wireMetrics.get(metrics);
    if (!wire) {
      wire = { ...metrics, readings: readingsOf(metrics.readings) };
      this.wireMetrics.set(metrics, wire);
    }
    return { ...snapshot, gpuMetrics: wire };
  }
}

/** The UI thread's side: the mirror of the worker's snapshot, rebuilt from each delta in order. */
export class SnapshotMirror {
  private wire: WireSnapshot | undefined;
  private current: ModelSnapshot | undefined;
  private readonly metrics = new WeakMap<WireGpuMetrics, GpuMetrics>();

  /** The mirror after `delta`; unchanged parts are the previous mirror's objects. */
  apply(delta: Delta): ModelSnapshot {
    const wire = applyDelta(delta, this.wire) as WireSnapshot;
    this.wire = wire;
    const m = wire.gpuMetrics;
    let gpuMetrics: GpuMetrics | undefined;
    if (m) {
      gpuMetrics = this.metrics.get(m);
      if (!gpuMetrics) {
        gpuMetrics = { ...m, readings: indexReadings(m.readings) };
        this.metrics.set(m, gpuMetrics);
      }
    }
    this.current = Object.freeze(m ? { ...wire, gpuMetrics } : wire) as ModelSnapshot;
    return this.current;
  }

  /** The last snapshot applied (undefined before the first). */
  snapshot(): ModelSnapshot | undefined {
    return this.current;
  }

  /** A new worker: its first message is whole and replaces everything. */
  reset(): void {
    this.wire = undefined;
  }
}
