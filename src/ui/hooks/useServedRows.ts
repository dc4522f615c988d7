// Asks the model source's worker for the served view's rows (served-rows.ts)
// whenever the view's namespace, sort, filter, scroll or selection changes,
// and withdraws the request when another view is shown.
import { useEffect, useRef } from 'react';
import type { ModelSource } from '../../model/source.js';
import type { Screen } from '../state/screen.js';
import { isServedFrame, rowRequest, servesRows } from '../state/served-rows.js';

export function useServedRows(source: ModelSource, screen: Screen, namespace: string | null): void {
  const served = servesRows(source) && isServedFrame(screen.frame);
  // By value: a render that changed nothing the worker reads sends nothing.
  const key = served ? JSON.stringify(rowRequest(screen.frame, namespace, screen.page)) : '';
  const nextId = useRef(0);
  useEffect(() => {
    if (!servesRows(source)) return;
    if (!key) {
      source.serveRows(null);
      return;
    }
    nextId.current += 1;
    source.serveRows({ id: nextId.current, ...(JSON.parse(key) as ReturnType<typeof rowRequest>) });
  }, [source, key]);
}
