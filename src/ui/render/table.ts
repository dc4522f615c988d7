// The generic table model every view renders through: columns, rows of
// already-sanitised cells, and the text layout (widths, truncation, padding).
// Views never build strings from cluster data themselves; their renderers in
// this folder do, through src/text/sanitise.ts.

export type Tone = 'normal' | 'ok' | 'warn' | 'error' | 'dim' | 'group';

export type SortKey = 'name' | 'age' | 'status' | 'gpus' | 'util';

/** Where Enter on a row leads. */
export type NavTarget =
  | { kind: 'workload'; uid: string; label: string }
  /** rolePath: role keys from the workload's top level down; null = all pods; ['(unattributed)'] = unattributed. */
  | { kind: 'pods'; workloadUid: string; rolePath: string[] | null; label: string }
  | { kind: 'node'; name: string; label: string }
  /** A Kueue ClusterQueue: its pending workloads in line. */
  | { kind: 'queue'; name: string; label: string }
  /** A fleet's cluster (`:clusters`): narrow every view to it. */
  | { kind: 'cluster'; context: string; label: string }
  /** A pod listed on a node: jump to it inside its workload. */
  | { kind: 'podInWorkload'; workloadUid: string; podUid: string; label: string }
  /** Picker rows (`:ctx`, `:ns`, ctrl-a): what Enter switches to or runs. */
  | { kind: 'context'; name: string }
  | { kind: 'namespace'; name: string | null }
  | { kind: 'command'; text: string }
  /** Expandable tree row without pods of its own to show. */
  | { kind: 'none' };

export interface Row {
  /** Stable identity across snapshots (uid, or a path). */
  key: string;
  /** Sanitised cell texts, one per column (the AGE column's cell is computed from createdMs at draw time). */
  cells: string[];
  tone: Tone;
  /** Creation time in ms, for the AGE column and age sorting. */
  createdMs: number | null;
  /**
   * gpus: null when unknown (requests not readable); util: GPU utilisation, null or absent when unknown, set by
   * the UTIL overlay (gpu-columns.ts). Unknowns sort apart from real zeros (derive.ts compare).
   */
  sort: { name: string; status: string; gpus: number | null; util?: number | null };
  /** A pod row's `namespace/name` (the DCGM readings' key). */
  pod?: { namespace: string; name: string };
  target?: NavTarget;
  /** Workload uid, to highlight rows whose workload just changed. */
  workloadUid?: string;
  /** Tree rows: key used to expand/collapse and whether it has children. */
  treeKey?: string;
  expandable?: boolean;
  expanded?: boolean;
  /** The first cell spans the whole line (detail rows such as a definition's problems). */
  span?: boolean;
  /** The first cell in a column narrower than it, shortened its own way (a domain header keeps its rack). */
  fitFirst?: (width: number) => string;
  /** A fleet's row: the cluster (context) it is of; Enter opens that cluster's views. */
  cluster?: string;
}

export interface Column {
  name: string;
  /** Minimum width; the column never shrinks below it. */
  min: number;
  /** Cap for content-driven growth while columns compete for width (spare width may go past it). */
  max?: number;
  /** When cut, takes spare width before the other cut columns (at most one per table). */
  flex?: boolean;
  /** Shrinks only once the other columns are at their minimum (the column a row is known by). */
  keep?: boolean;
  align?: 'left' | 'right';
  /** The AGE column: drawn from row.createdMs. */
  age?: boolean;
  /** Shift-key sort that marks this column. */
  sortKey?: SortKey;
  /** Dropped first when the terminal is narrow (higher = dropped earlier; a column with no value goes before any). */
  dropPriority?: number;
  /** Names (pods, nodes): cut in the middle, so the distinguishing suffix survives (`llama-pr…-0-pwkhr`). */
  cut?: 'middle';
}

export interface TableData {
  columns: Column[];
  rows: Row[];
}

/** Display width of a sanitised string: code points, wide East Asian characters count two. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!);
  return w;
}

function charWidth(code: number): number {
  if (code >= 0x300 && code <= 0x36f) return 0; // combining marks
  if (code === 0x200b || code === 0x200d || code === 0xfe0f) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Cut to `width` columns (with an ellipsis when cut) and pad to exactly `width`. */
export function fit(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  let w = displayWidth(s);
  if (w > width) {
    let out = '';
    let used = 0;
    for (const ch of s) {
      const cw = charWidth(ch.codePointAt(0)!);
      if (used + cw > width - 1) break;
      out += ch;
      used += cw;
    }
    s = out + '…';
    w = used + 1;
  }
  const pad = ' '.repeat(Math.max(0, width - w));
  return align === 'right' ? pad + s : s + pad;
}

/** Cut to `width` columns at the start (an ellipsis, then the tail: `…1-a`) and pad to exactly `width`. */
export function fitStart(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  if (displayWidth(s) > width) {
    let tail = '';
    for (const ch of [...s].reverse()) {
      if (displayWidth(ch + tail) > width - 1) break;
      tail = ch + tail;
    }
    s = '…' + tail;
  }
  const pad = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return align === 'right' ? pad + s : s + pad;
}

/**
 * Cut to `width` columns in the middle (the head and the tail kept, an
 * ellipsis between) and pad to exactly `width`: names that share a prefix
 * stay distinguishable (`llama-pretrain-worker-0-0-hvrl9` → `llama…0-hvrl9`).
 */
export function fitMiddle(s: string, width: number, align: 'left' | 'right' = 'left', ellipsis = '…'): string {
  if (width <= 0) return '';
  const w = displayWidth(s);
  if (w > width) {
    const room = width - displayWidth(ellipsis);
    if (room <= 0) return fit(s, width, align);
    const chars = [...s];
    const headWidth = Math.floor(room * 0.45);
    let head = '';
    for (const ch of chars) {
      if (displayWidth(head + ch) > headWidth) break;
      head += ch;
    }
    let tail = '';
    for (let i = chars.length - 1; i >= 0 && displayWidth(chars[i] + tail) <= room - displayWidth(head); i--)
      tail = chars[i] + tail;
    s = head + ellipsis + tail;
  }
  const pad = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return align === 'right' ? pad + s : s + pad;
}

export interface Layout {
  /** Indices into the table's columns that are shown. */
  shown: number[];
  widths: number[];
  /** The width laid out for: lines are padded to it after the last column. */
  width: number;
}

const GAP = 1;

/** The display width of each of a row's cells. */
export function cellWidths(r: Row): number[] {
  return r.cells.map(displayWidth);
}

/**
 * Column widths for a given inner width. Each column first gets its longest
 * value (or its header, or its minimum), capped at `max`; when even the
 * minimums do not fit, columns with a drop priority go first, then the widest
 * columns shrink. Spare width then goes to the columns still cut (the flex
 * column first), up to their longest value: no column is wider than its
 * longest value (the rest of the line stays blank after the last column).
 * `widthsOf` measures a row's cells (LayoutMemo remembers them per row).
 */
export function layoutColumns(
  columns: Column[],
  rows: readonly Row[],
  width: number,
  widthsOf: (r: Row) => number[] = cellWidths,
): Layout {
  return layoutFromLongest(columns, longestCells(columns, rows, widthsOf), width);
}

/** A cell that says nothing: empty, or the `-` of an unknown value. */
function blank(cell: string | undefined): boolean {
  return cell === undefined || cell === '' || cell === '-';
}

/**
 * Each column's longest value (at least its header and minimum): what a
 * layout needs of the rows, whatever the width; 0 for a column no row has a
 * value in (it gives way first when the width is short). Huge lists:
 * measured on a sample (head and tail) rather than every row.
 */
export function longestCells(
  columns: Column[],
  rows: readonly Row[],
  widthsOf: (r: Row) => number[] = cellWidths,
): number[] {
  const sample = rows.length > 2000 ? [...rows.slice(0, 1000), ...rows.slice(-1000)] : rows;
  // The age column's cells are drawn at frame time, so it keeps its header width.
  const longest = columns.map((c) => Math.max(c.min, displayWidth(c.name) + (c.sortKey ? 1 : 0)));
  const filled = columns.map((c) => !!c.age);
  for (const r of sample) {
    if (r.span) continue;
    const cw = widthsOf(r);
    for (let i = 0; i < longest.length; i++) {
      const v = cw[i] ?? 0;
      if (v > longest[i] && !columns[i].age) longest[i] = v;
      if (!filled[i] && !blank(r.cells[i])) filled[i] = true;
    }
  }
  return sample.length ? longest.map((l, i) => (filled[i] ? l : 0)) : longest;
}

/** Column widths for `width` from each column's longest value (longestCells). */
export function layoutFromLongest(columns: Column[], given: readonly number[], width: number): Layout {
  let shown = columns.map((_, i) => i);
  const minOf = (i: number) => Math.max(columns[i].min, displayWidth(columns[i].name));
  // A column with no value (longestCells' 0) goes before any other, then by drop priority.
  const dropRank = (i: number) => (given[i] === 0 ? Infinity : (columns[i].dropPriority ?? 0));
  const longest = given.map((l, i) => (l === 0 ? minOf(i) : l));
  const minTotal = (idx: number[]) => idx.reduce((s, i) => s + minOf(i), 0) + GAP * (idx.length - 1);
  while (minTotal(shown) > width) {
    let drop = -1;
    let best = 0;
    for (const i of shown) {
      const p = dropRank(i);
      if (p > best) {
        best = p;
        drop = i;
      }
    }
    if (drop < 0) break;
    shown = shown.filter((i) => i !== drop);
  }
  const want = (i: number) => Math.min(longest[i], Math.max(columns[i].max ?? 60, columns[i].min));
  const wantTotal = (idx: number[]) => idx.reduce((s, i) => s + want(i), 0) + GAP * (idx.length - 1);
  // Columns with no value give way before any other is cut (a REASON column of running pods).
  for (const i of [...shown]) if (given[i] === 0 && wantTotal(shown) > width) shown = shown.filter((k) => k !== i);
  const full = shown.map((i) => longest[i]);
  const widths = shown.map(want);
  const total = () => widths.reduce((s, w) => s + w, 0) + GAP * (widths.length - 1);
  // Shrink the widest non-minimal columns until it fits (kept columns last).
  let used = total();
  const widestAboveMin = (kept: boolean) => {
    let widest = -1;
    for (let k = 0; k < widths.length; k++) {
      const c = columns[shown[k]];
      if (!!c.keep !== kept) continue;
      if (widths[k] > Math.max(c.min, 1) && (widest < 0 || widths[k] > widths[widest])) widest = k;
    }
    return widest;
  };
  while (used > width) {
    let widest = widestAboveMin(false);
    if (widest < 0) widest = widestAboveMin(true);
    if (widest < 0) break;
    widths[widest] = widths[widest] - 1;
    used--;
  }
  // Spare width to the cut columns: the flex column first, then the others evenly.
  let spare = width - used;
  const flexAt = shown.findIndex((i) => columns[i].flex);
  if (flexAt >= 0 && widths[flexAt] < full[flexAt]) {
    const grow = Math.min(spare, full[flexAt] - widths[flexAt]);
    widths[flexAt] += grow;
    spare -= grow;
  }
  while (spare > 0) {
    let grew = false;
    for (let k = 0; k < widths.length && spare > 0; k++) {
      if (widths[k] < full[k]) {
        widths[k]++;
        spare--;
        grew = true;
      }
    }
    if (!grew) break;
  }
  return { shown, widths, width };
}

/** One table line (header or row) laid out to the given widths, padded to the layout's width. */
export function formatLine(cells: readonly string[], columns: Column[], layout: Layout): string {
  const parts: string[] = [];
  let used = 0;
  layout.shown.forEach((ci, k) => {
    const cut = columns[ci].cut === 'middle' ? fitMiddle : fit;
    parts.push(cut(cells[ci] ?? '', layout.widths[k], columns[ci].align));
    used += layout.widths[k] + (k ? GAP : 0);
  });
  const line = parts.join(' '.repeat(GAP));
  return used < layout.width ? line + ' '.repeat(layout.width - used) : line;
}

/**
 * One explorer's layouts. Rows are immutable and keep their identity while
 * their pod or workload is unchanged, so each row's cells are measured once: a
 * snapshot that changed a few rows re-measures only those. The last layout is
 * kept, as a frame asks for the same one until its rows or width change.
 */
export class LayoutMemo {
  private readonly widths = new WeakMap<Row, number[]>();
  private last: { columns: Column[]; rows: readonly Row[]; width: number; layout: Layout } | null = null;

  /** `counters.cellMeasures` counts the cells measured (tests count work with it). */
  constructor(private readonly counters: { cellMeasures: number } = { cellMeasures: 0 }) {}

  private readonly widthsOf = (r: Row): number[] => {
    let w = this.widths.get(r);
    if (w === undefined) {
      w = cellWidths(r);
      this.counters.cellMeasures += w.length;
      this.widths.set(r, w);
    }
    return w;
  };

  layout(columns: Column[], rows: readonly Row[], width: number): Layout {
    const last = this.last;
    if (last && last.columns === columns && last.rows === rows && last.width === width) return last.layout;
    const layout = layoutColumns(columns, rows, width, this.widthsOf);
    this.last = { columns, rows, width, layout };
    return layout;
  }

  /** longestCells with each row measured once (the engine worker's served rows). */
  longest(columns: Column[], rows: readonly Row[]): number[] {
    return longestCells(columns, rows, this.widthsOf);
  }
}
