// An explicit flash message (a notice, an error) clears itself after a while,
// unless it is sticky (told at start: it must not pass while the cluster loads).
import { useEffect } from 'react';
import type { ViewStore } from '../state/view-store.js';
import type { Flash } from '../state/ui-state.js';

export function useFlashTimeout(flash: Flash | null, store: ViewStore, ms = 4000): void {
  useEffect(() => {
    if (!flash || flash.sticky) return;
    const timer = setTimeout(() => store.dispatch({ type: 'flash', flash: null }), ms);
    return () => clearTimeout(timer);
  }, [flash, store, ms]);
}
