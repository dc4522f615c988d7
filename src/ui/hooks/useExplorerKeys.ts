// Keys to view-state actions (src/ui/state/keys.ts), against the live state:
// each key of a burst acts on the view the previous key left. Incident views
// see their scrolling keys first (IncidentView registers a handler).
import { useCallback, useRef } from 'react';
import type { PaneKeyHandler } from '../components/IncidentView.js';
import { isIncidentKind } from '../state/incident.js';
import { keyOutcome } from '../state/keys.js';
import type { ViewStore } from '../state/store.js';
import { currentFrame } from '../state/viewState.js';
import type { ScreenDriver } from './useScreen.js';
import { useKeymap } from './useKeymap.js';

export interface ExplorerKeyOptions {
  contexts: readonly string[];
  onQuit: () => void;
  onSwitchContext?: (context: string) => void;
}

/** Handles the explorer's keys; returns the setter incident views register their pane handler with. */
export function useExplorerKeys(
  driver: ScreenDriver,
  store: ViewStore,
  options: ExplorerKeyOptions,
): (handler: PaneKeyHandler | null) => void {
  const pane = useRef<PaneKeyHandler | null>(null);
  const setPaneKeys = useCallback((handler: PaneKeyHandler | null) => {
    pane.current = handler;
  }, []);
  useKeymap((name, input) => {
    const state = store.getState();
    if (state.quit) return;
    if (name !== 'ctrl-c' && state.mode === 'normal' && isIncidentKind(currentFrame(state).kind)) {
      if (pane.current?.(name, input)) return;
    }
    const screen = driver.live();
    const snapshot = driver.latestSnapshot();
    const outcome = keyOutcome(name, input, {
      state,
      rows: screen.rows,
      page: screen.page,
      snapshot,
      contexts: options.contexts,
      canSwitchContext: options.onSwitchContext !== undefined,
      getNodePods: (node) => driver.nodePods(node),
      map: screen.map,
    });
    for (const action of outcome.actions) store.dispatch(action);
    if (outcome.effect?.kind === 'quit') {
      store.dispatch({ type: 'quit' });
      options.onQuit();
    } else if (outcome.effect?.kind === 'switchContext') {
      options.onSwitchContext?.(outcome.effect.context);
    }
  });
  return setPaneKeys;
}
