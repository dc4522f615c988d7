// The explorer's view state (src/ui/state/view-store.ts), re-rendering on change.
// A plain re-render rather than useSyncExternalStore: that renders
// synchronously at each dispatch, which doubled the time from a key to its
// frame with 100,000 rows (a key and the selection it moves are two dispatches).
import { useEffect, useReducer, useState } from 'react';
import { ViewStore } from '../state/view-store.js';
import type { UiState } from '../state/ui-state.js';

/** `given`: a store that outlives the component (kept while a plugin suspends the explorer). */
export function useViewStore(
  initialNamespace: string | null,
  recentNamespaces: readonly string[] = [],
  given?: ViewStore,
): [ViewStore, UiState] {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  // Subscribed at creation, so no dispatch between the first render and an effect is missed;
  // the subscription ends with the component.
  const [store] = useState(() => given ?? new ViewStore(initialNamespace, recentNamespaces));
  const [unsubscribe] = useState(() => store.subscribe(rerender));
  useEffect(() => unsubscribe, [unsubscribe]);
  return [store, store.getState()];
}
