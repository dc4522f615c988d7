// The model snapshot, with frame coalescing: the source may publish far more
// often than a terminal can usefully redraw; only the latest snapshot is kept
// and React renders it at most once per `intervalMs` (~15 frames/s).
//
// `shouldRender` (optional) is asked at each coalesced flush whether the
// latest snapshot changes anything on screen; when it says no, nothing is
// rendered (every React commit costs Ink a whole frame). The hook always
// returns the latest snapshot, so the next render (a key, the clock) uses it.
// `clock` (App's, default Date.now) times the coalescing.
import { useEffect, useReducer, useRef } from 'react';
import type { ModelSnapshot } from '../../model/types.js';
import type { ModelSource } from '../../model/source.js';

export function useModelSnapshot(
  source: ModelSource,
  intervalMs = 66,
  shouldRender?: (next: ModelSnapshot) => boolean,
  clock: () => number = Date.now,
): ModelSnapshot {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const latest = useRef<ModelSnapshot | null>(null);
  if (latest.current === null) latest.current = source.getSnapshot();
  const gate = useRef(shouldRender);
  gate.current = shouldRender;
  const clockRef = useRef(clock);
  clockRef.current = clock;
  const lastRender = useRef(0);
  useEffect(() => {
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      timer = null;
      lastRender.current = clockRef.current();
      if (gate.current && !gate.current(latest.current!)) return;
      bump();
    };
    const unsubscribe = source.subscribe((next) => {
      latest.current = next;
      if (timer) return;
      const wait = Math.max(0, intervalMs - (clockRef.current() - lastRender.current));
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
  return latest.current;
}
