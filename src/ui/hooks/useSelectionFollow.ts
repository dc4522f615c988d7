// Keeps the selection on the same row (by key) when rows move, and in range.
import { useEffect } from 'react';
import type { Screen } from '../state/screen.js';
import type { ViewStore } from '../state/view-store.js';
import { currentFrame, followSelection } from '../state/ui-state.js';

export function useSelectionFollow(screen: Screen, store: ViewStore): void {
  useEffect(() => {
    // Keys handled since this render changed the view: the next render follows.
    if (currentFrame(store.getState()) !== screen.frame) return;
    // No rows yet (the view's pods are on their way): the selection waits for them.
    if (screen.loading) return;
    const action = followSelection(screen.frame, screen.rows, screen.page, screen.selectedAt);
    if (action) store.dispatch(action);
  }, [screen, store]);
}
