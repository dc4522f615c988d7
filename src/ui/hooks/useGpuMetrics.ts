// GPU metrics are scraped (through the pods proxy, every 10 s) only while a
// view that shows them is open; this hook holds the scraper and lets it go.
import { useEffect } from 'react';
import type { ModelSource } from '../../model/source.js';
import type { ViewKind } from '../state/ui-state.js';

const SHOWS_GPU_METRICS: ReadonlySet<ViewKind> = new Set([
  'workloads',
  'workload',
  'pods',
  'nodes',
  'node',
  'why',
  'map',
]);

export function useGpuMetrics(source: ModelSource, kind: ViewKind): void {
  const shows = SHOWS_GPU_METRICS.has(kind);
  useEffect(() => {
    if (!shows) return undefined;
    return source.holdGpuMetrics();
  }, [source, shows]);
}
