// The namespaces `:ns` offers: read from the cluster each time the picker
// opens (GET /api/v1/namespaces through the source's read access). When the
// user may not list namespaces, the ones wlx knows it reads: those it reads
// one by one (a namespace-scoped user's, or -n), the context's, the recent
// ones and those holding workloads, with the reason shown above the list.
import { useEffect } from 'react';
import type { ModelSnapshot } from '../../model/types.js';
import type { ModelSource } from '../../model/source.js';
import { sanitise } from '../../text/sanitise.js';
import { namespacesOf } from '../state/derive.js';
import type { ViewStore } from '../state/view-store.js';
import type { NamespaceList, UiState } from '../state/ui-state.js';

function knownNamespaces(snapshot: ModelSnapshot, source: ModelSource, state: UiState): string[] {
  const scoped = snapshot.access && !snapshot.access.clusterWide ? snapshot.access.namespaces : [];
  const context = source.getConnectionInfo().namespace;
  return [
    ...new Set([...scoped, ...(context ? [context] : []), ...state.recentNamespaces, ...namespacesOf(snapshot)]),
  ].sort();
}

export function useNamespaceList(
  source: ModelSource,
  store: ViewStore,
  state: UiState,
  snapshot: () => ModelSnapshot,
): void {
  const open = state.stack.findIndex((f) => f.kind === 'namespaces');
  useEffect(() => {
    if (open < 0) return;
    let cancelled = false;
    store.dispatch({ type: 'namespaceList', list: null });
    const fallback = (why: string): NamespaceList => ({
      namespaces: knownNamespaces(snapshot(), source, store.getState()).map((name) => ({ name })),
      note: why,
    });
    const list = source.access?.listNamespaces;
    if (!list) {
      store.dispatch({
        type: 'namespaceList',
        list: fallback('the namespaces wlx reads: this source cannot list namespaces'),
      });
      return;
    }
    list
      .call(source.access)
      .then((items) => {
        if (cancelled) return;
        store.dispatch({
          type: 'namespaceList',
          list: {
            namespaces: items
              .map((o) => ({
                name: o.metadata.name,
                status: (o.status as { phase?: string } | undefined)?.phase,
                createdMs: o.metadata.creationTimestamp ? Date.parse(o.metadata.creationTimestamp) : null,
              }))
              .sort((a, b) => (a.name < b.name ? -1 : 1)),
          },
        });
      })
      .catch((err: Error & { status?: number; reason?: string | null }) => {
        if (cancelled) return;
        // The API server's answer in short (its whole sentence names the user, the resource and the scope).
        const why =
          err.status === 403
            ? 'forbidden'
            : err.status !== undefined
              ? `${err.status}${err.reason ? ` ${err.reason}` : ''}`
              : err.message;
        store.dispatch({
          type: 'namespaceList',
          list: fallback(`the namespaces wlx knows you read: listing them was refused (${sanitise(why)})`),
        });
      });
    return () => {
      cancelled = true;
    };
    // Read again each time the picker opens (at its place on the stack).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, source]);
}
