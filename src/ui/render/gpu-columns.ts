// The UTIL (and, for pods, MEM) columns: the DCGM overlay laid over a table
// already built (row-cache.ts keeps its rows), one new row per row and scrape.
// `-` where no reading is known: no exporter, forbidden, failed, or no GPU;
// no columns at all before the first scrape (offline dumps, other views).
import type { GpuMetrics, WorkloadTree, GroupGpu } from '../../model/types.js';
import { podGpuRollup, workloadGpu } from '../../model/gpu-overlay.js';
import type { Column, Row, TableData } from './table.js';

export const UTIL_COLUMN: Column = { name: 'UTIL', min: 4, max: 11, align: 'right', sortKey: 'util', dropPriority: 5 };
export const MEM_COLUMN: Column = { name: 'MEM', min: 3, max: 9, align: 'right', dropPriority: 5 };

export function utilText(u: number | null): string {
  return u === null ? '-' : `${Math.round(u)}%`;
}

/** `69/80G`: used over total, in GiB. */
export function memText(used: number | null, total: number | null): string {
  if (used === null) return '-';
  const g = (b: number) => String(Math.round(b / 2 ** 30));
  return total === null ? `${g(used)}G` : `${g(used)}/${g(total)}G`;
}

/** A group's cell: its mean, with `idle` or `slow` (a straggler) marked in text for NO_COLOR. */
export function groupUtilText(g: GroupGpu): string {
  const mark = (g.idle ?? 0) > 0 ? ' idle' : g.stragglers.length ? ' slow' : '';
  return utilText(g.utilisation) + mark;
}

/** The last overlay of each column set: a table whose rows mostly did not change is overlaid by a walk, not per row. */
interface LastOverlay {
  rows: readonly Row[];
  metrics: GpuMetrics;
  out: Row[];
}

/** The overlaid rows of one explorer (its RowCache holds one): each row remade once per scrape. */
export class GpuOverlayMemo {
  readonly overlaid = new WeakMap<Row, { metrics: GpuMetrics | undefined; row: Row }>();
  readonly lastOverlays = new WeakMap<readonly Column[], LastOverlay>();
}

/** `table` with extra cells after its GPUS column, each row remade once per scrape. */
function insertAfterGpus(
  table: TableData,
  metrics: GpuMetrics | undefined,
  columns: readonly Column[],
  cellsOf: (row: Row) => { cells: string[]; util: number | null; warn: boolean },
  memo: GpuOverlayMemo,
  after = 'GPUS',
): TableData {
  const { overlaid, lastOverlays } = memo;
  const at = table.columns.findIndex((c) => c.name === after) + 1;
  // Never scraped (offline, or before the first round): no columns rather than a column of `-`.
  if (at === 0 || !metrics) return table;
  const overlay = (row: Row): Row => {
    const hit = overlaid.get(row);
    if (hit && hit.metrics === metrics) return hit.row;
    const extra = cellsOf(row);
    const next: Row = {
      ...row,
      cells: [...row.cells.slice(0, at), ...extra.cells, ...row.cells.slice(at)],
      sort: { ...row.sort, util: extra.util },
      tone: extra.warn && row.tone !== 'error' ? 'warn' : row.tone,
    };
    overlaid.set(row, { metrics, row: next });
    return next;
  };
  // A 100,000-row :pods list under churn: the same rows array (nothing changed) keeps its overlaid array, so the
  // sort and filter memos downstream hit; a patched copy reuses every row still at its place.
  const last = lastOverlays.get(columns);
  let out: Row[];
  if (last && last.metrics === metrics && last.rows === table.rows) out = last.out;
  else if (last && last.metrics === metrics && last.rows.length === table.rows.length) {
    const prevIn = last.rows;
    const prevOut = last.out;
    out = new Array<Row>(table.rows.length);
    for (let i = 0; i < out.length; i++) {
      const row = table.rows[i];
      out[i] = row === prevIn[i] ? prevOut[i] : overlay(row);
    }
  } else out = table.rows.map(overlay);
  lastOverlays.set(columns, { rows: table.rows, metrics, out });
  return { ...table, columns: [...table.columns.slice(0, at), ...columns, ...table.columns.slice(at)], rows: out };
}

const WORKLOAD_UTIL_COLUMNS: readonly Column[] = [UTIL_COLUMN];
const POD_UTIL_COLUMNS: readonly Column[] = [UTIL_COLUMN, MEM_COLUMN];

/** The workloads view with UTIL. */
export function withWorkloadUtil(
  table: TableData,
  workloads: readonly WorkloadTree[],
  metrics: GpuMetrics | undefined,
  memo = new GpuOverlayMemo(),
): TableData {
  const byUid = new Map(workloads.map((w) => [w.uid, w]));
  return insertAfterGpus(
    table,
    metrics,
    WORKLOAD_UTIL_COLUMNS,
    (row) => {
      const w = row.workloadUid !== undefined ? byUid.get(row.workloadUid) : undefined;
      if (!w) return { cells: ['-'], util: null, warn: false };
      const g = workloadGpu(metrics, w);
      return { cells: [groupUtilText(g)], util: g.utilisation, warn: (g.idle ?? 0) > 0 || g.stragglers.length > 0 };
    },
    memo,
  );
}

/** A pods table with UTIL and MEM after NODE (rows carry their pod's `namespace/name`). */
export function withPodUtil(table: TableData, metrics: GpuMetrics | undefined, memo = new GpuOverlayMemo()): TableData {
  return insertAfterGpus(
    table,
    metrics,
    POD_UTIL_COLUMNS,
    (row) => {
      const r = row.pod ? podGpuRollup(metrics, row.pod) : null;
      if (!r) return { cells: ['-', '-'], util: null, warn: false };
      const idle = r.idle > 0;
      return {
        cells: [utilText(r.utilisation) + (idle ? ' idle' : ''), memText(r.memoryUsedBytes, r.memoryTotalBytes)],
        util: r.utilisation,
        warn: idle,
      };
    },
    memo,
    'NODE',
  );
}
