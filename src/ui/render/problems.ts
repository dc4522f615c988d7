// Problems (`:problems`): every problem the model knows — connection, access,
// GPU metrics, kinds not readable, definitions, watches — with when it was
// first seen and where it comes from, then the facts worth knowing that are
// not problems (a kind watched at an older served version).
import type { ProblemEntry } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import type { Column, Row, TableData } from './table.js';

export const PROBLEM_COLUMNS: Column[] = [
  { name: 'SINCE', min: 8 },
  { name: 'SOURCE', min: 6, max: 16 },
  { name: 'PROBLEM', min: 20, flex: true },
];

/** `07:31:02`: the clock time (UTC, as the header's). */
function clock(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? sanitise(iso) : new Date(t).toISOString().slice(11, 19);
}

export function problemTable(entries: readonly ProblemEntry[]): TableData {
  // Problems first, facts after; each group newest first.
  const ordered = [...entries].sort(
    (a, b) => (a.level === b.level ? 0 : a.level === 'problem' ? -1 : 1) || b.since.localeCompare(a.since),
  );
  const rows: Row[] = ordered.map((e, i) => ({
    key: `problem:${i}:${e.source}:${e.text}`,
    cells: [clock(e.since), sanitise(e.source), sanitise(e.text)],
    tone: e.level === 'fact' ? 'normal' : 'warn',
    createdMs: Date.parse(e.since) || null,
    sort: { name: e.text, status: e.source, gpus: 0 },
  }));
  return { columns: PROBLEM_COLUMNS, rows };
}
