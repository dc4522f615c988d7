// The engine worker's side of served rows (src/ui/state/served-rows.ts): the
// `:pods` view derived here from the engine's whole snapshot, by the UI's
// own pure derivation (render/, state/derive.ts: rows, UTIL overlay, sort,
// filter, column widths), and answered as a window around what the UI draws.
// The rows stay here between answers, memoised per pod as on the UI side.
import { treePodCount, treePods } from '../../model/tree-pods.js';
import type { ModelSnapshot, WorkloadTree } from '../../model/types.js';
import { withPodUtil } from '../render/gpu-columns.js';
import { ALL_POD_COLUMNS } from '../render/pods.js';
import { RowCache } from '../render/row-cache.js';
import { LayoutMemo, type Row } from '../render/table.js';
import { explorerWorkloads, filterRows, tableForFrame } from './derive.js';
import { ViewMemo } from './memo.js';
import { WINDOW_MARGIN_PAGES, type RowWindow, type RowWindowRequest } from './served-rows.js';
import type { SortState, ViewFrame } from './ui-state.js';

const NO_NODE_PODS = () => [];
const ALL_PODS: Pick<ViewFrame, 'kind' | 'collapsed'> = { kind: 'pods', collapsed: [] };

/** The natural `:pods` list as runs of rows: each workload's pod count (0 when another namespace is shown). */
interface Segments {
  workloads: readonly WorkloadTree[];
  namespace: string | null;
  counts: readonly number[];
  total: number;
}

/** Calls `visit` with each workload whose rows overlap [from, to), and the part inside (workload-relative). */
function forSegmentsIn(
  segments: Segments,
  from: number,
  to: number,
  visit: (w: WorkloadTree, lo: number, hi: number) => void,
): void {
  let start = 0;
  for (let i = 0; i < segments.workloads.length && start < to; i++) {
    const count = segments.counts[i];
    const end = start + count;
    if (count && end > from) visit(segments.workloads[i], Math.max(0, from - start), Math.min(count, to - start));
    start = end;
  }
}

export class RowServer {
  private readonly rows = new RowCache();
  private readonly views = new ViewMemo();
  private readonly layouts = new LayoutMemo();
  /** One object per sort (the sort memo compares by identity; each request is a fresh clone). */
  private sort: SortState | null = null;
  private longestMemo: { rows: readonly unknown[]; longest: number[] } | null = null;
  private segments: Segments | null = null;
  private sampleMemo: {
    workloads: readonly WorkloadTree[];
    total: number;
    metrics: ModelSnapshot['gpuMetrics'];
    longest: number[];
  } | null = null;

  window(snapshot: ModelSnapshot, request: RowWindowRequest): RowWindow {
    if (!request.sort && !request.filter) return this.naturalWindow(snapshot, request);
    const s = request.sort;
    if (!s) this.sort = null;
    else if (!this.sort || this.sort.key !== s.key || this.sort.desc !== s.desc) this.sort = { ...s };
    const table = tableForFrame(snapshot, ALL_PODS, request.namespace, NO_NODE_PODS, this.rows);
    const sorted = this.views.sortedRows(table.rows, true, this.sort);
    const filtered = this.views.filtered([sorted, request.filter], () =>
      filterRows(sorted, request.filter, this.rows.searchText),
    );
    const rows = filtered.rows;
    const total = rows.length;
    let selectedAt = -1;
    if (request.selectedKey !== null) {
      if (rows[request.selected]?.key === request.selectedKey) selectedAt = request.selected;
      else selectedAt = rows.findIndex((r) => r.key === request.selectedKey);
    }
    // Around the visible page, and the selection's when the key moved (the UI follows it there).
    const page = Math.max(1, request.page);
    const around =
      selectedAt >= 0 && (selectedAt < request.top || selectedAt >= request.top + page) ? selectedAt : request.top;
    const from = Math.max(0, Math.min(around, total) - WINDOW_MARGIN_PAGES * page);
    const to = Math.min(total, around + (WINDOW_MARGIN_PAGES + 1) * page);
    if (this.longestMemo?.rows !== rows)
      this.longestMemo = { rows, longest: this.layouts.longest(table.columns, rows) };
    return {
      request,
      columns: table.columns,
      total,
      unfiltered: table.rows.length,
      longest: this.longestMemo.longest,
      from,
      rows: rows.slice(from, to),
      selectedAt,
      ...(filtered.error ? { filterError: filtered.error } : {}),
      inverted: filtered.inverted,
    };
  }

  /**
   * Unsorted and unfiltered (the view as it opens): the rows in tree order,
   * read from each workload's memoised rows, so only the window (and the
   * head and tail the column widths are measured on) is assembled and
   * overlaid, never the 100,000-row list. The same rows as the derivation above.
   */
  private naturalWindow(snapshot: ModelSnapshot, request: RowWindowRequest): RowWindow {
    // Each workload's pod count only; rows are built (or read from the cache) for the workloads a slice reaches.
    const segments = this.segmentsOf(explorerWorkloads(snapshot, this.rows), request.namespace);
    const total = segments.total;
    const slice = (from: number, to: number): Row[] => {
      const out: Row[] = [];
      forSegmentsIn(segments, from, to, (w, lo, hi) => out.push(...this.rows.workloadPodRows(w).slice(lo, hi)));
      return out;
    };
    let selectedAt = -1;
    const key = request.selectedKey;
    if (key !== null) {
      if (slice(request.selected, request.selected + 1)[0]?.key === key) selectedAt = request.selected;
      else {
        // A row's key is its pod's uid (render/pods.ts), so the search reads pods, not rows.
        let start = 0;
        for (let k = 0; k < segments.workloads.length; k++) {
          const i = segments.counts[k] ? treePods(segments.workloads[k]).findIndex((p) => p.uid === key) : -1;
          if (i >= 0) {
            selectedAt = start + i;
            break;
          }
          start += segments.counts[k];
        }
      }
    }
    const page = Math.max(1, request.page);
    const around =
      selectedAt >= 0 && (selectedAt < request.top || selectedAt >= request.top + page) ? selectedAt : request.top;
    const from = Math.max(0, Math.min(around, total) - WINDOW_MARGIN_PAGES * page);
    const to = Math.min(total, around + (WINDOW_MARGIN_PAGES + 1) * page);
    const overlaid = (rows: Row[]) =>
      withPodUtil({ columns: ALL_POD_COLUMNS, rows }, snapshot.gpuMetrics, this.rows.gpuOverlays);
    const window = overlaid(slice(from, to));
    return {
      request,
      columns: window.columns,
      total,
      unfiltered: total,
      longest: this.sampleLongest(segments, snapshot.gpuMetrics, (rows) =>
        this.layouts.longest(window.columns, overlaid(rows).rows),
      ),
      from,
      rows: window.rows,
      selectedAt,
      inverted: false,
    };
  }

  /** Pod counts per workload, kept for the workloads that are the same objects as in the last call (most, under churn). */
  private segmentsOf(workloads: readonly WorkloadTree[], namespace: string | null): Segments {
    const last = this.segments;
    if (last && last.workloads === workloads && last.namespace === namespace) return last;
    const same = last && last.namespace === namespace && last.workloads.length === workloads.length ? last : null;
    const counts = new Array<number>(workloads.length);
    let total = 0;
    for (let i = 0; i < workloads.length; i++) {
      const w = workloads[i];
      const count =
        same && same.workloads[i] === w
          ? same.counts[i]
          : namespace !== null && w.namespace !== namespace
            ? 0
            : treePodCount(w);
      counts[i] = count;
      total += count;
    }
    this.segments = { workloads, namespace, counts, total };
    return this.segments;
  }

  /**
   * The widths layoutColumns would measure: the head and tail of a long list,
   * else every row. Under churn the sampled workloads rarely change, so the
   * widths are kept while they and the metrics are the same objects.
   */
  private sampleLongest(
    segments: Segments,
    metrics: ModelSnapshot['gpuMetrics'],
    measure: (sample: Row[]) => number[],
  ): number[] {
    const total = segments.total;
    const sampled: WorkloadTree[] = [];
    const ranges: [number, number][] =
      total > 2000
        ? [
            [0, 1000],
            [total - 1000, total],
          ]
        : [[0, total]];
    for (const [from, to] of ranges) forSegmentsIn(segments, from, to, (w) => sampled.push(w));
    const last = this.sampleMemo;
    if (
      last &&
      last.metrics === metrics &&
      last.total === total &&
      last.workloads.length === sampled.length &&
      last.workloads.every((w, i) => w === sampled[i])
    )
      return last.longest;
    const sample: Row[] = [];
    for (const [from, to] of ranges)
      forSegmentsIn(segments, from, to, (w, lo, hi) => sample.push(...this.rows.workloadPodRows(w).slice(lo, hi)));
    const longest = measure(sample);
    this.sampleMemo = { workloads: sampled, total, metrics, longest };
    return longest;
  }
}
