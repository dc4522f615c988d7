// The view state as an external store: keys are reduced at once, not at the
// next render, because they can arrive faster than React renders (a pasted or
// tmux-sent burst) and each must see the state the previous one left.
import { initialState, reduce, type UiAction, type UiState } from './ui-state.js';

export class ViewStore {
  private state: UiState;
  private readonly listeners = new Set<() => void>();

  constructor(namespace: string | null = null, recentNamespaces: readonly string[] = []) {
    this.state = initialState(namespace, recentNamespaces);
  }

  readonly getState = (): UiState => this.state;

  readonly dispatch = (action: UiAction): void => {
    const next = reduce(this.state, action);
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l();
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
