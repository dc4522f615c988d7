// The help view's rows: every key of the view it was opened from, the
// user's hotkeys and plugins there, and the commands.
import type { Binding } from '../keymap.js';
import { COMMANDS } from '../state/commands.js';
import type { ViewKind } from '../state/ui-state.js';
import { sanitise } from '../../text/sanitise.js';
import type { UserBindings } from '../user-config.js';
import { pluginMayApply } from '../state/plugin-env.js';
import type { Column, Row, TableData } from './table.js';

export const HELP_COLUMNS: Column[] = [
  { name: 'KEY', min: 14, max: 24 },
  { name: 'ACTION', min: 20, max: 80, flex: true },
];

/** The user's hotkeys (every view) and the plugins that may apply in the view, as help rows. */
export function userKeyRows(user: UserBindings, view: ViewKind): Row[] {
  const row = (key: string, label: string, help: string): Row => ({
    key,
    cells: [label, help],
    tone: 'normal',
    createdMs: null,
    sort: { name: label, status: '', gpus: 0 },
  });
  return [
    ...user.hotkeys.map((h) =>
      row(`hotkey:${h.id}`, sanitise(h.shortCut), `${sanitise(h.description)} (hotkey: :${sanitise(h.command)})`),
    ),
    ...user.plugins
      .filter((p) => pluginMayApply(p, view))
      .map((p) =>
        row(
          `plugin:${p.id}`,
          sanitise(p.shortCut),
          `${sanitise(p.description)} (plugin, scopes ${p.scopes.map(sanitise).join(', ')})`,
        ),
      ),
  ];
}

export function helpTable(bindings: readonly Binding[], user: readonly Row[] = []): TableData {
  const rows: Row[] = bindings.map((b) => ({
    key: `key:${b.label}`,
    cells: [b.label, b.help],
    tone: 'normal' as const,
    createdMs: null,
    sort: { name: b.label, status: '', gpus: 0 },
  }));
  rows.push(...user);
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
