// When the namespace in scope is one the model does not read (a
// namespace-scoped user typed `:ns research`), asks once whether the user may
// read it (one GET of at most one pod, through the model source's reads) so
// the empty view can say why it is empty.
import { useEffect } from 'react';
import type { ModelSource } from '../../model/source.js';
import type { ModelSnapshot } from '../../model/types.js';
import type { ViewStore } from '../state/view-store.js';
import type { UiState } from '../state/ui-state.js';
import { namespaceNeedsAsking } from '../render/namespace-access.js';

export function useNamespaceAccess(
  source: ModelSource,
  snapshot: ModelSnapshot,
  state: UiState,
  store: ViewStore,
): void {
  const namespace = state.namespace;
  const ask = namespaceNeedsAsking(snapshot, namespace) && state.namespaceAccess?.namespace !== namespace;
  const probe = source.access?.namespaceReadable?.bind(source.access);
  useEffect(() => {
    if (!ask || namespace === null || !probe) return undefined;
    let live = true;
    void probe(namespace).then(
      (answer) => live && store.dispatch({ type: 'namespaceAccess', namespace, answer }),
      () => live && store.dispatch({ type: 'namespaceAccess', namespace, answer: { readable: null, user: null } }),
    );
    return () => {
      live = false;
    };
  }, [ask, namespace, probe, store]);
}
