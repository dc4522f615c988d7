// The explorer's view state (src/ui/state/store.ts), re-rendering on change.
// A plain re-render rather than useSyncExternalStore: that renders
// synchronously at each dispatch, which doubled the time from a key to its
// frame with 100,000 rows (a key and the selection it moves are two dispatches).
import { useReducer, useState } from 'react';
import { ViewStore } from '../state/store.js';
import type { UiState } from '../state/viewState.js';

export function useViewStore(initialNamespace: string | null): [ViewStore, UiState] {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  // Subscribed at creation, so no dispatch between the first render and an effect is missed;
  // the store lives exactly as long as the component.
  const [store] = useState(() => {
    const s = new ViewStore(initialNamespace);
    s.subscribe(rerender);
    return s;
  });
  return [store, store.getState()];
}
