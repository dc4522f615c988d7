// The header's figures as text: the connection state of the watches (live /
// syncing / reconnecting since … / forbidden kinds) and workload counts by status.
import type { ConnectionInfo, ClusterTotals, KindState, ModelSnapshot } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';

/** What the header shows, computed once per screen (src/ui/state/screen.ts). */
export interface HeaderModel {
  connection: ConnectionInfo;
  totals: ClusterTotals;
  summary: ConnectionSummary;
  /** workloadCounts for the namespace in scope. */
  workloads: string;
  namespace: string | null;
}

export interface ConnectionSummary {
  text: string;
  level: 'ok' | 'warn' | 'error';
}

function clock(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return sanitise(iso);
  return new Date(t).toISOString().slice(11, 19);
}

/** One phrase for the state of all watched kinds. */
export function summariseConnection(kinds: readonly KindState[]): ConnectionSummary {
  if (!kinds.length) return { text: 'connecting…', level: 'warn' };
  const parts: string[] = [];
  let level: ConnectionSummary['level'] = 'ok';
  const reconnecting = kinds.filter((k) => k.state === 'reconnecting' || k.state === 'error');
  const syncing = kinds.filter((k) => k.state === 'syncing');
  const forbidden = kinds.filter((k) => k.state === 'forbidden');
  if (reconnecting.length) {
    const oldest = reconnecting.reduce((a, b) => (a.since <= b.since ? a : b));
    parts.push(`reconnecting ${reconnecting.map((k) => sanitise(k.resource)).join(',')} since ${clock(oldest.since)}`);
    level = 'warn';
  } else if (syncing.length) {
    parts.push(`syncing ${kinds.length - syncing.length}/${kinds.length}`);
    level = 'warn';
  } else {
    parts.push('live');
  }
  if (forbidden.length) {
    parts.push(`forbidden: ${forbidden.map((k) => sanitise(k.resource)).join(',')}`);
    if (level === 'ok') level = 'warn';
  }
  return { text: parts.join('  '), level };
}

/** `7  4 Running 1 Failed …`: workloads in scope, then each status a workload holds (counted once per workload). */
export function workloadCounts(snapshot: ModelSnapshot, namespace: string | null): string {
  const counts = new Map<string, number>();
  let n = 0;
  for (const w of snapshot.workloads) {
    if (namespace !== null && w.namespace !== namespace) continue;
    n++;
    for (const s of w.status.length ? w.status : ['Undefined']) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const order = [
    'Running',
    'Failed',
    'Degraded',
    'Initializing',
    'Suspended',
    'Suspending',
    'Resuming',
    'Completed',
    'Undefined',
  ];
  const parts = [...counts.entries()]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([s, c]) => `${c} ${s}`);
  return `${n}${parts.length ? '  ' + parts.join(' ') : ''}`;
}
