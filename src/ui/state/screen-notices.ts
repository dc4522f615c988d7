// What the screen says instead of, or above, its rows: the flash line, a view not listed yet, a namespace not read.
import type { ConnectionInfo, ModelSnapshot } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import { connectionFlash, fleetFlash } from '../render/header.js';
import { namespaceViewText } from '../render/namespace-access.js';
import type { ViewTable } from './derive.js';
import { isFleet } from './fleet.js';
import type { Flash, UiState, ViewFrame } from './ui-state.js';

/** Explicit messages win; otherwise a vanished object, then model problems. */
export function flashFor(
  state: UiState,
  table: ViewTable,
  snapshot: ModelSnapshot,
  nowMs: number,
  mapCursor: string | null,
  server: string,
): Flash | null {
  if (state.flash) return state.flash;
  if (table.missing) return { text: table.missing + ' (Esc goes back)', level: 'warn' };
  // A failing connection outranks the problems: it explains them (and most of the screen).
  const connection = isFleet(snapshot)
    ? fleetFlash(
        snapshot.fleet!.members.map((m) => m.summary),
        snapshot.connection,
        nowMs,
      )
    : connectionFlash(snapshot.connection, nowMs, server);
  if (connection) return connection;
  // On the map the flash line is where the cursor's node is named.
  if (mapCursor !== null) return { text: mapCursor, level: 'info' };
  const problems = snapshot.problems;
  if (!problems.length) return null;
  // :problems has each with its time and source (and the ones after the first).
  return {
    text: `${problems.length} problem${problems.length === 1 ? '' : 's'}: ${sanitise(problems[0])} (see :problems)`,
    level: 'warn',
  };
}

/** An empty view before the first lists are complete says so (the header's Conn: says how far), naming the server. */
export function notListedYet(snapshot: ModelSnapshot, server: string): string | null {
  const c = snapshot.connection;
  const at = sanitise(server);
  if (c.state === 'connecting') return `connecting to ${at}…`;
  if (c.state === 'syncing') return `syncing: listing the cluster at ${at} (${c.synced}/${c.total} kinds listed)…`;
  if (c.state === 'retrying' && c.cause && !c.failing.length && !snapshot.totals.nodes && !snapshot.totals.pods)
    return `nothing read yet from ${at}: ${sanitise(c.cause.text)}`;
  return null;
}

/** The namespaces read one by one, less those that proved unreadable. */
export function readNamespaces(snapshot: ModelSnapshot): string[] | undefined {
  const access = snapshot.access;
  return access?.namespaces.filter((n) => !access.unreadable?.includes(n));
}

/** Views that list a namespace's objects: empty, they say when the namespace is not read. */
export const NAMESPACED_VIEWS: ReadonlySet<ViewFrame['kind']> = new Set(['workloads', 'pods']);

/** Why a namespaced view of `state.namespace` is empty when the model does not read that namespace. */
export function emptyNamespaceText(snapshot: ModelSnapshot, state: UiState, connection: ConnectionInfo): string | null {
  return namespaceViewText(snapshot, state.namespace, startedNamespaces(snapshot, connection), state.namespaceAccess);
}

/** The `-n` namespaces wlx was started with (empty: all): several are listed in `access`, one is the connection's. */
export function startedNamespaces(snapshot: ModelSnapshot, connection: ConnectionInfo): readonly string[] {
  const access = snapshot.access;
  const started = access && !snapshot.accessNotice && access.namespaces.length ? access.namespaces : [];
  return started.length ? started : connection.namespace !== null ? [connection.namespace] : [];
}
