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

/** What the words in a view's cells mean, below its keys (the rules are model/utilisation.ts's and workload-word.ts's). */
const STATUS_WORDS: [string, string][] = [
  ['STATUS (cause)', "pods' worst trouble beside the status; Degraded: a pod crash-loops or restarted < 10 min ago"],
];
const UTIL_WORDS: [string, string][] = [
  ['UTIL', 'mean utilisation of its GPUs (dcgm-exporters or Prometheus)'],
  ['UTIL … idle', 'an allocated GPU stayed under 5 % for the idle window (--idle-after, default 60 s)'],
  ['UTIL … slow', "a straggler: a pod under half its role's median utilisation, 20+ points below it"],
  ['UTIL -', 'not known (no exporter, reading or permission; no GPU; idle window not over): never 0'],
];
const WORDS: Partial<Record<ViewKind, [string, string][]>> = {
  workloads: [...STATUS_WORDS, ...UTIL_WORDS],
  workload: [...STATUS_WORDS, ...UTIL_WORDS],
  pods: [...UTIL_WORDS.filter(([k]) => k !== 'UTIL … slow'), ['MEM', 'GPU memory used / total']],
  node: [...UTIL_WORDS.filter(([k]) => k !== 'UTIL … slow'), ['MEM', 'GPU memory used / total']],
  nodes: [['UTIL', "mean GPU utilisation of the node's GPUs"], UTIL_WORDS[3]],
};

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

export function helpTable(bindings: readonly Binding[], user: readonly Row[] = [], view?: ViewKind): TableData {
  const rows: Row[] = bindings.map((b) => ({
    key: `key:${b.label}`,
    cells: [b.label, b.help],
    tone: 'normal' as const,
    createdMs: null,
    sort: { name: b.label, status: '', gpus: 0 },
  }));
  rows.push(...user);
  for (const [word, meaning] of (view && WORDS[view]) ?? [])
    rows.push({
      key: `word:${word}`,
      cells: [word, meaning],
      tone: 'normal',
      createdMs: null,
      sort: { name: word, status: '', gpus: 0 },
    });
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
