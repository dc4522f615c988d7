// The explorer's view state (src/ui/state/store.ts), re-rendering on change.
import { useState, useSyncExternalStore } from 'react';
import { ViewStore } from '../state/store.js';
import type { UiState } from '../state/viewState.js';

export function useViewStore(initialNamespace: string | null): [ViewStore, UiState] {
  const [store] = useState(() => new ViewStore(initialNamespace));
  const state = useSyncExternalStore(store.subscribe, store.getState);
  return [store, state];
}
