// The model snapshot, with frame coalescing: the source may publish far more
// often than a terminal can usefully redraw; only the latest snapshot is kept
// and React renders it at most once per `intervalMs` (~15 frames/s).
import { useEffect, useRef, useState } from 'react';
import type { ModelSnapshot, ModelSource } from '../../model/types.js';

export function useModelSnapshot(source: ModelSource, intervalMs = 66): ModelSnapshot {
  const [snapshot, setSnapshot] = useState<ModelSnapshot>(() => source.getSnapshot());
  const latest = useRef<ModelSnapshot>(snapshot);
  const lastRender = useRef(0);
  useEffect(() => {
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      timer = null;
      lastRender.current = Date.now();
      setSnapshot(latest.current);
    };
    const unsubscribe = source.subscribe((next) => {
      latest.current = next;
      if (timer) return;
      const wait = Math.max(0, intervalMs - (Date.now() - lastRender.current));
      timer = setTimeout(flush, wait);
    });
    // A snapshot published between the first render and subscribing.
    const current = source.getSnapshot();
    if (current !== latest.current) {
      latest.current = current;
      timer = setTimeout(flush, 0);
    }
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [source, intervalMs]);
  return snapshot;
}
