// Definitions (`:defs`): which Workload Map definitions are loaded, from
// where, whether they are valid, and their problems as rows under them.
import type { DefinitionInfo } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import { formatProblem } from '../../definitions/problem.js';
import type { Column, Row, TableData } from './table.js';

export const DEFINITION_COLUMNS: Column[] = [
  { name: 'NAME', min: 12, max: 44, flex: true },
  { name: 'KIND', min: 8, max: 44 },
  { name: 'SOURCE', min: 7, max: 40, dropPriority: 1 },
  { name: 'VALID', min: 5 },
  { name: 'WORKLOADS', min: 9, align: 'right' },
];

export function definitionTable(defs: readonly DefinitionInfo[]): TableData {
  const rows: Row[] = [];
  for (const d of defs) {
    const name = sanitise(d.name);
    const errors = d.problems.filter((p) => p.severity === 'error').length;
    rows.push({
      key: `def:${d.source}:${d.name}:${d.kind}`,
      cells: [
        name,
        sanitise(d.kind),
        `${d.source}${d.location ? ' ' + sanitise(d.location) : ''}`,
        d.valid ? 'yes' : 'NO',
        String(d.workloads),
      ],
      tone: !d.valid || errors ? 'error' : d.problems.length ? 'warn' : 'normal',
      createdMs: null,
      sort: { name: d.name, status: d.valid ? '1' : '0', gpus: d.workloads },
    });
    d.problems.forEach((p, i) => {
      rows.push({
        key: `def:${d.source}:${d.name}:${d.kind}:problem:${i}`,
        cells: [`  ${p.severity === 'error' ? '✗' : '!'} ${sanitise(formatProblem(p))}`, '', '', '', ''],
        span: true,
        tone: p.severity === 'error' ? 'error' : 'warn',
        createdMs: null,
        sort: { name: d.name, status: d.valid ? '1' : '0', gpus: d.workloads },
      });
    });
  }
  return { columns: DEFINITION_COLUMNS, rows };
}
