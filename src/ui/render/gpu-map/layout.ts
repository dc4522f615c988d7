// The map's layout: bands placed on lines (labelled as the height allows), and where cursor keys lead.
import { shortDomainValue } from '../../../model/topology.js';
import { sanitise } from '../../../text/sanitise.js';
import { domainLabel, fitDomainLabel } from '../nodes.js';
import { displayWidth, fit, fitMiddle } from '../table.js';
import type { MapBase } from './cells.js';

/** How bands are labelled: the first mode whose lines fit is used (the smallest clusters get full paths). */
export type BandMode = 'path' | 'inline' | 'bare' | 'dense';

export interface MapLayout {
  /** Nodes per character: 2 (half blocks, colour) or 1 (NO_COLOR glyphs). */
  perChar: 1 | 2;
  width: number;
  lines: number;
  mode: BandMode;
  /** Per node (map order): its line, column and half (0 top, 1 bottom). */
  line: Int32Array;
  col: Int32Array;
  half: Uint8Array;
  labels: { line: number; col: number; text: string }[];
  /** Per sub-row (line × perChar + half): node indices left to right (cursor moves). */
  rows: number[][];
}

function placeBands(base: MapBase, width: number, perChar: 1 | 2, mode: BandMode): MapLayout {
  const n = base.cells.length;
  const layout: MapLayout = {
    perChar,
    width,
    lines: 0,
    mode,
    line: new Int32Array(n),
    col: new Int32Array(n),
    half: new Uint8Array(n),
    labels: [],
    rows: [],
  };
  const pathLabels = base.bands.map((g) => domainLabel(g.path));
  const labelWidth =
    mode === 'path' ? Math.min(Math.floor(width / 3), Math.max(...pathLabels.map(displayWidth)) + 1) : 0;
  const cutLabels =
    mode === 'path'
      ? distinctCuts(
          base.bands.map((g) => g.path),
          labelWidth - 1,
        )
      : [];
  const inlineLabels = mode === 'inline' ? inlineNames(base.bands.map((g) => g.path)) : [];
  let line = 0;
  let col = 0;
  let i = 0;
  base.bands.forEach((g, gi) => {
    const chars = Math.ceil(g.size / perChar);
    let label = '';
    // A cut label keeps one blank before the cells.
    if (mode === 'path') label = cutLabels[gi] + ' ';
    else if (mode === 'inline') label = inlineLabels[gi] + ' ';
    const gap = mode === 'dense' || col === 0 ? 0 : 1;
    const need = gap + displayWidth(label) + chars;
    if (mode === 'path' || (col > 0 && col + need > width)) {
      if (col > 0) line++;
      col = 0;
    } else col += gap;
    if (label) {
      layout.labels.push({ line, col, text: label });
      col += displayWidth(label);
    }
    // Wrapped lines of a band start under its first cell (path mode) or at the margin.
    const start = mode === 'path' ? labelWidth : 0;
    if (col >= width) {
      line++;
      col = start;
    }
    for (let j = 0; j < g.size; j++, i++) {
      const half = j % perChar;
      if (half === 0 && j > 0) col++;
      if (col >= width) {
        line++;
        col = start;
      }
      layout.line[i] = line;
      layout.col[i] = col;
      layout.half[i] = half;
    }
    col++;
  });
  layout.lines = n ? line + 1 : 0;
  for (let k = 0; k < n; k++) {
    const y = layout.line[k] * perChar + layout.half[k];
    (layout.rows[y] ??= []).push(k);
  }
  return layout;
}

/**
 * Domain labels in `width`, each distinct: shortened from the general end, so the rack and NVLink domain
 * stay (`…1-a / rack-07 / 2df6….0`); where that leaves two alike, the general levels keep their heads
 * instead (`east… / rack-1`), and where even that does, the whole label is cut in the middle.
 */
export function distinctCuts(paths: readonly (readonly (string | null)[])[], width: number): string[] {
  const ways: ((path: readonly (string | null)[]) => string)[] = [
    (p) => fitDomainLabel(p, width),
    (p) => fitDomainLabel(p, width, 'head'),
    (p) => fitMiddle(domainLabel(p), width),
  ];
  const cuts = paths.map(ways[0]);
  for (const way of ways.slice(1)) {
    const seen = new Map<string, number>();
    for (const c of cuts) seen.set(c, (seen.get(c) ?? 0) + 1);
    paths.forEach((p, i) => {
      if ((seen.get(cuts[i]) ?? 0) > 1) cuts[i] = way(p);
    });
  }
  return cuts.map((c) => fit(c, width));
}

/**
 * A band's short label: its most specific domain (`00a6….2`), with as many
 * general ones before it as it takes to tell it from the others (`rack-1` in
 * two zones: `us-east-1a / rack-1`).
 */
function inlineNames(paths: readonly (readonly (string | null)[])[]): string[] {
  const name = (path: readonly (string | null)[], parts: number) => {
    const tail = path.slice(Math.max(0, path.length - parts));
    return tail.length ? tail.map((v) => (v === null ? '-' : sanitise(shortDomainValue(v)))).join(' / ') : '-';
  };
  return paths.map((path) => {
    let parts = 1;
    const clash = (p: number) => paths.some((o) => o !== path && name(o, p) === name(path, p));
    while (parts < path.length && clash(parts)) parts++;
    const text = name(path, parts);
    return fit(text, Math.min(12 * parts, displayWidth(text)));
  });
}

/** The most readable band layout whose lines fit `height` (the densest when none does: the map then scrolls). */
export function layoutMap(base: MapBase, width: number, height: number, perChar: 1 | 2): MapLayout {
  let layout: MapLayout | null = null;
  for (const mode of ['path', 'inline', 'bare', 'dense'] as const) {
    layout = placeBands(base, width, perChar, mode);
    if (layout.lines <= height) return layout;
  }
  return layout!;
}

export type MapDirection = 'up' | 'down' | 'left' | 'right';

/** The node a cursor move lands on: the neighbour on the same sub-row, or the nearest column on the next one. */
export function stepCursor(layout: MapLayout, from: number, dir: MapDirection): number {
  if (from < 0 || from >= layout.line.length) return 0;
  const y = layout.line[from] * layout.perChar + layout.half[from];
  const row = layout.rows[y];
  if (dir === 'left' || dir === 'right') {
    const at = row.indexOf(from);
    const next = row[at + (dir === 'left' ? -1 : 1)];
    return next ?? from;
  }
  const x = layout.col[from];
  for (let yy = dir === 'up' ? y - 1 : y + 1; yy >= 0 && yy < layout.rows.length; yy += dir === 'up' ? -1 : 1) {
    const r = layout.rows[yy];
    if (!r?.length) continue;
    let best = r[0];
    for (const k of r) if (Math.abs(layout.col[k] - x) < Math.abs(layout.col[best] - x)) best = k;
    return best;
  }
  return from;
}
