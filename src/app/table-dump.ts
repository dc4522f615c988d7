// ctrl-s: the explorer's table written as CSV (RFC 4180), as k9s saves one:
// `<screenDumpDir>/<cluster>/<context>/<view>-<namespace>-<unix ms>.csv`,
// readable by the user only.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TableDump } from '../ui/state/table-dump.js';
import { pathSegment as segment } from './config/paths.js';

function csvField(text: string): string {
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function tableCsv(dump: Pick<TableDump, 'columns' | 'rows'>): string {
  return [dump.columns, ...dump.rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

export function writeTableDump(
  dir: string,
  where: { cluster: string; context: string },
  dump: TableDump,
  nowMs = Date.now(),
): string {
  const folder = join(dir, segment(where.cluster), segment(where.context));
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, `${segment(dump.view)}-${segment(dump.namespace ?? 'all')}-${nowMs}.csv`.toLowerCase());
  writeFileSync(file, tableCsv(dump), { mode: 0o600, flag: 'wx' });
  return file;
}
