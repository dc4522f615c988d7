// `-c/--command VIEW` (and config.yaml's `command:`): the `:` command the
// explorer opens with, run once the first snapshot knows the workload types
// (their names are commands too) or the connection has settled.
import { useEffect, useRef } from 'react';
import type { ModelSnapshot } from '../../model/types.js';
import { parseCommand } from '../state/commands.js';
import { commandOutcome, type KeyContext } from '../state/keys.js';
import type { ViewStore } from '../state/view-store.js';
import type { UserBindings } from '../user-config.js';
import { workloadTypes } from '../state/workload-types.js';

export function useInitialCommand(
  command: string | undefined,
  snapshot: ModelSnapshot,
  store: ViewStore,
  context: Omit<KeyContext, 'state' | 'rows' | 'page' | 'snapshot'>,
  bindings: UserBindings,
): void {
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !command) return;
    const known = parseCommand(command, { aliases: bindings.aliases, types: workloadTypes(snapshot) }).kind !== 'error';
    if (!known && snapshot.connection.state !== 'live' && snapshot.connection.state !== 'retrying') return;
    done.current = true;
    const outcome = commandOutcome(command, {
      ...context,
      state: store.getState(),
      rows: [],
      page: 1,
      snapshot,
      bindings,
    });
    for (const a of outcome.actions) store.dispatch(a);
  });
}
