// The help view's rows: every key of the view it was opened from, and the commands.
import type { Binding } from '../keymap.js';
import { COMMANDS } from '../state/commands.js';
import type { Column, TableData } from './table.js';

export const HELP_COLUMNS: Column[] = [
  { name: 'KEY', min: 14, max: 24 },
  { name: 'ACTION', min: 20, max: 80, flex: true },
];

export function helpTable(bindings: readonly Binding[]): TableData {
  const rows = bindings.map((b) => ({
    key: `key:${b.label}`,
    cells: [b.label, b.help],
    tone: 'normal' as const,
    createdMs: null,
    sort: { name: b.label, status: '', gpus: 0 },
  }));
  for (const c of COMMANDS) {
    const name = ':' + c.names.join(' :') + (c.arg === 'namespace' ? ' NAME|all' : c.arg === 'context' ? ' NAME' : '');
    rows.push({
      key: `cmd:${c.names[0]}`,
      cells: [name, c.help],
      tone: 'normal',
      createdMs: null,
      sort: { name, status: '', gpus: 0 },
    });
  }
  return { columns: HELP_COLUMNS, rows };
}
