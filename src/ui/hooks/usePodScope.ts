// Tells the model source whose pods the views on the stack draw
// (src/ui/state/pod-scope.ts); sent again only when that changes.
import { useEffect } from 'react';
import type { ModelSource } from '../../model/source.js';
import { podScopeOf } from '../state/pod-scope.js';
import { servesRows } from '../state/served-rows.js';
import type { UiState } from '../state/ui-state.js';

export function usePodScope(source: ModelSource, state: UiState): void {
  const scope = podScopeOf(state, servesRows(source));
  // By value: each render makes a new scope object, and only a change is sent.
  const key = scope === 'all' ? 'all' : JSON.stringify(scope.workloads);
  useEffect(() => {
    source.setPodScope(key === 'all' ? 'all' : { workloads: JSON.parse(key) as string[] });
  }, [source, key]);
}
