// Kueue's queue positions are asked (a GET per ClusterQueue) only while a
// view that shows them is open: the workload view, why, timeline and the
// queue views. The model source refreshes them; this hook holds and releases.
import { useEffect } from 'react';
import type { ModelSource } from '../../model/source.js';
import type { ViewKind } from '../state/ui-state.js';

const SHOWS_POSITIONS: ReadonlySet<ViewKind> = new Set(['workload', 'why', 'timeline', 'queues', 'queue']);

export function useQueuePositions(source: ModelSource, kind: ViewKind): void {
  const shows = SHOWS_POSITIONS.has(kind);
  useEffect(() => {
    if (!shows) return undefined;
    return source.holdQueuePositions();
  }, [source, shows]);
}
