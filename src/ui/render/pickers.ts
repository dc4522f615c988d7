// The pickers k9s users reach for: `:ctx` (kubeconfig contexts), `:ns` (the
// namespaces you can read, with the 0–9 keys that switch to them), and ctrl-a
// (every command: wlx's, the workload types', the user's aliases). Enter on
// a row switches or runs it.
import { sanitise } from '../../text/sanitise.js';
import type { UserBindings } from '../user-config.js';
import { COMMANDS } from '../state/commands.js';
import type { NamespaceList } from '../state/ui-state.js';
import type { WorkloadType } from '../state/workload-types.js';
import type { Column, Row, TableData } from './table.js';

const row = (key: string, cells: string[], target: Row['target'], tone: Row['tone'] = 'normal'): Row => ({
  key,
  cells,
  tone,
  createdMs: null,
  sort: { name: cells[1] ?? cells[0], status: '', gpus: 0 },
  target,
});

export const CONTEXT_COLUMNS: Column[] = [
  { name: 'CURRENT', min: 7 },
  { name: 'NAME', min: 12, max: 60, flex: true, keep: true },
];

export function contextTable(contexts: readonly string[], current: string): TableData {
  return {
    columns: CONTEXT_COLUMNS,
    rows: contexts.map((c) =>
      row(
        `ctx:${c}`,
        [c === current ? '*' : '', sanitise(c)],
        { kind: 'context', name: c },
        c === current ? 'ok' : 'normal',
      ),
    ),
  };
}

export const NAMESPACE_COLUMNS: Column[] = [
  { name: 'KEY', min: 3 },
  { name: 'NAME', min: 12, max: 63, flex: true, keep: true },
  { name: 'STATUS', min: 6, max: 12 },
  { name: 'WORKLOADS', min: 9, align: 'right' },
  { name: 'AGE', min: 4, age: true, sortKey: 'age' },
];

/**
 * `all` (key 0), then the namespaces; a recent one shows the digit that
 * switches to it. `workloadsIn`: the workloads by namespace, null while they
 * are still being listed (`…`, not 0); a namespace wlx does not read says so.
 */
export function namespaceTable(
  list: NamespaceList,
  recent: readonly string[],
  workloadsIn: ReadonlyMap<string, number> | null,
  current: string | null,
  isRead: (namespace: string) => boolean = () => true,
): TableData {
  const total = workloadsIn ? String([...workloadsIn.values()].reduce((a, b) => a + b, 0)) : '…';
  const rows: Row[] = [
    row('ns:(all)', ['0', 'all', '', total, ''], { kind: 'namespace', name: null }, current === null ? 'ok' : 'normal'),
  ];
  for (const ns of list.namespaces) {
    const i = recent.indexOf(ns.name);
    const workloads = !workloadsIn ? '…' : isRead(ns.name) ? String(workloadsIn.get(ns.name) ?? 0) : 'not read';
    const r = row(
      `ns:${ns.name}`,
      [i >= 0 ? String(i + 1) : '', sanitise(ns.name), sanitise(ns.status ?? ''), workloads, ''],
      { kind: 'namespace', name: ns.name },
      ns.name === current ? 'ok' : ns.status && ns.status !== 'Active' ? 'dim' : 'normal',
    );
    r.createdMs = ns.createdMs ?? null;
    rows.push(r);
  }
  return { columns: NAMESPACE_COLUMNS, rows };
}

export const ALIAS_COLUMNS: Column[] = [
  { name: 'COMMAND', min: 10, max: 40, keep: true },
  { name: 'RUNS', min: 12, max: 80, flex: true },
  { name: 'FROM', min: 4, max: 16 },
];

/** Every command: the user's aliases first (they win over the rest), then wlx's, then the workload types. */
export function aliasTable(bindings: UserBindings, types: ReadonlyMap<string, WorkloadType>): TableData {
  const rows: Row[] = [];
  for (const [name, command] of bindings.aliases)
    rows.push(
      row(`alias:${name}`, [`:${sanitise(name)}`, `:${sanitise(command)}`, 'aliases.yaml'], {
        kind: 'command',
        text: name,
      }),
    );
  for (const c of COMMANDS)
    rows.push(
      row(`cmd:${c.names[0]}`, [`:${c.names.join(' :')}`, c.help, 'wlx'], { kind: 'command', text: c.names[0] }),
    );
  for (const type of new Set(types.values()))
    rows.push(
      row(
        `type:${type.label}`,
        [`:${type.names.map(sanitise).join(' :')}`, `the ${sanitise(type.label)} only`, 'definitions'],
        { kind: 'command', text: type.label },
      ),
    );
  return { columns: ALIAS_COLUMNS, rows };
}
