// The GPU map (`:map`): every node a cell, bands per topology domain, coloured by GPU allocation (or
// utilisation once DCGM is scraped), problem nodes marked, workloads' nodes highlighted. Pure functions
// from the snapshot to laid-out lines (text with SGR colour codes, so a line is one Ink text node);
// `GpuMapMemo` keeps each step per snapshot / size / highlight so a cursor move redraws one line.
import type { GpuMetrics, ModelSnapshot, NodeSummary, PodSummary, RoleTree, WorkloadTree } from '../../model/types.js';
import { nodeGpuUtilisation } from '../../model/gpu-overlay.js';
import { roleName } from '../../model/role-name.js';
import { shortDomainValue, topologyKeysInEffect } from '../../model/topology.js';
import { sanitise } from '../../text/sanitise.js';
import { domainLabel, nodeStatus } from './nodes.js';
import { groupByDomain, groupingKeys } from './domains.js';
import { regexFilter } from './regex-filter.js';
import { utilText } from './gpu-columns.js';
import { displayWidth, fit, type Row } from './table.js';
import type { MapPalette } from '../skin.js';

// ---- colours and glyphs ------------------------------------------------------------------------------

/** The 16 ANSI colours only, so a 16-colour terminal draws the map as a 256-colour one does. */
export type MapColour =
  | 'gray'
  | 'blue'
  | 'cyan'
  | 'green'
  | 'yellow'
  | 'red'
  | 'magenta'
  | 'white'
  | 'whiteBright'
  | 'magentaBright'
  | 'greenBright'
  | 'yellowBright'
  | 'cyanBright'
  | 'redBright'
  | 'blueBright';

const FG: Record<MapColour, number> = {
  gray: 90,
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  white: 37,
  redBright: 91,
  greenBright: 92,
  yellowBright: 93,
  blueBright: 94,
  magentaBright: 95,
  cyanBright: 96,
  whiteBright: 97,
};

const sgr = (codes: readonly number[]) => `\u001b[${codes.join(';')}m`;
const RESET = '\u001b[0m';

/** Free → full: five steps of allocation (or utilisation). */
export const LEVEL_COLOURS: readonly MapColour[] = ['blue', 'cyan', 'green', 'yellow', 'red'];
/** NO_COLOR: glyph density instead of colour. */
export const LEVEL_GLYPHS = ['·', '░', '▒', '▓', '█'] as const;
export const NO_GPU_COLOUR: MapColour = 'gray';
export const NO_GPU_GLYPH = '-';
/** Role colours and NO_COLOR glyphs of a highlighted workload (cycled past the last). */
export const ROLE_COLOURS: readonly MapColour[] = [
  'greenBright',
  'yellowBright',
  'cyanBright',
  'redBright',
  'blueBright',
];
export const MATCH_GLYPH = '*';
export const CURSOR_COLOUR: MapColour = 'whiteBright';

export type NodeMark = 'NotReady' | 'cordoned' | 'pressure';
export const MARK_COLOURS: Record<NodeMark, MapColour> = {
  NotReady: 'magenta',
  cordoned: 'white',
  pressure: 'magentaBright',
};
export const MARK_GLYPHS: Record<NodeMark, string> = { NotReady: 'X', cordoned: 'C', pressure: 'P' };

const roleGlyph = (i: number) => String((i % 9) + 1);
const roleColour = (i: number) => ROLE_COLOURS[i % ROLE_COLOURS.length];

// ---- per-snapshot cells ------------------------------------------------------------------------------

export interface MapCell {
  node: NodeSummary;
  /** Index of its band in `MapBase.bands`. */
  group: number;
  /** 0 (free / idle) … 4 (full / busy); null: no GPU, or no reading when coloured by utilisation. */
  level: number | null;
  mark: NodeMark | null;
  util: number | null;
}

/** A topology domain of the most specific key in effect: one band of the map. */
export interface MapBand {
  path: (string | null)[];
  size: number;
}

/**
 * Which node goes where: the keys in effect, the bands and the nodes' order. Kept across snapshots while no
 * node comes, goes or changes domain, so a live update neither sorts nor lays out again.
 */
export interface MapTopology {
  keys: string[];
  bands: MapBand[];
  /** Node names in map order (band by band, by name). */
  names: string[];
  bandOf: number[];
  indexOf: Map<string, number>;
}

export interface MapBase {
  topology: MapTopology;
  keys: string[];
  bands: MapBand[];
  /** Every node in map order. */
  cells: MapCell[];
  indexOf: Map<string, number>;
  /** Coloured by utilisation (some node reports a reading) rather than allocation. */
  byUtil: boolean;
}

const PRESSURE = new Set(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable']);

export function nodeMark(n: NodeSummary): NodeMark | null {
  if (!n.ready) return 'NotReady';
  if (n.unschedulable) return 'cordoned';
  if (n.conditions.some((c) => PRESSURE.has(c.type) && c.status === 'True')) return 'pressure';
  return null;
}

/** 0 for nothing, 4 for all, the rest in thirds between. */
export function fillLevel(fraction: number): number {
  if (fraction <= 0) return 0;
  if (fraction >= 1) return 4;
  return 1 + Math.min(2, Math.floor(fraction * 3));
}

export function mapTopology(nodes: readonly NodeSummary[], keys: string[]): MapTopology {
  const groups = groupByDomain(nodes, keys);
  const names: string[] = [];
  const bandOf: number[] = [];
  groups.forEach((g, gi) => {
    for (const n of g.nodes) {
      names.push(n.name);
      bandOf.push(gi);
    }
  });
  return {
    keys,
    bands: groups.map((g) => ({ path: g.path, size: g.nodes.length })),
    names,
    bandOf,
    indexOf: new Map(names.map((n, i) => [n, i])),
  };
}

/** The same nodes in the same domains (any order). */
function sameTopology(t: MapTopology, nodes: readonly NodeSummary[], keys: readonly string[]): boolean {
  if (t.names.length !== nodes.length || t.keys.length !== keys.length || t.keys.some((k, i) => k !== keys[i]))
    return false;
  for (const n of nodes) {
    const at = t.indexOf.get(n.name);
    if (at === undefined) return false;
    const path = t.bands[t.bandOf[at]].path;
    for (let k = 0; k < keys.length; k++) if ((n.labels[keys[k]] ?? null) !== path[k]) return false;
  }
  return true;
}

/** The cells of a snapshot; `previous` is reused when the topology did not change. */
export function mapBase(
  nodes: readonly NodeSummary[],
  metrics: GpuMetrics | undefined,
  configuredKeys: readonly string[] | undefined,
  previous?: MapTopology,
): MapBase {
  const keys = groupingKeys(nodes, topologyKeysInEffect(configuredKeys, nodes));
  const topology = previous && sameTopology(previous, nodes, keys) ? previous : mapTopology(nodes, keys);
  const cells: MapCell[] = new Array<MapCell>(nodes.length);
  let byUtil = false;
  for (const node of nodes) {
    const at = topology.indexOf.get(node.name)!;
    const util = nodeGpuUtilisation(metrics, node);
    if (util !== null) byUtil = true;
    cells[at] = { node, group: topology.bandOf[at], level: null, mark: nodeMark(node), util };
  }
  for (const c of cells) {
    const n = c.node;
    if (byUtil) c.level = c.util === null ? null : fillLevel(c.util / 100);
    else c.level = n.gpuAllocatable > 0 ? fillLevel(n.gpuRequested / n.gpuAllocatable) : null;
  }
  return { topology, keys, bands: topology.bands, cells, indexOf: topology.indexOf, byUtil };
}

// ---- where each workload's pods are --------------------------------------------------------------------

/** A workload's GPUs on one node: `role` is the index of the top-level role (roles.length: unattributed). */
export interface Placement {
  node: string;
  gpus: number;
  role: number;
}

function live(p: PodSummary): boolean {
  return !!p.node && p.phase !== 'Succeeded' && p.phase !== 'Failed';
}

function addPods(pods: readonly PodSummary[], role: number, out: Placement[]): void {
  for (const p of pods) if (live(p)) out.push({ node: p.node!, gpus: p.gpus, role });
}

function addRole(r: RoleTree, role: number, out: Placement[]): void {
  addPods(r.pods, role, out);
  for (const c of r.roles) addRole(c, role, out);
}

export function workloadPlacements(w: WorkloadTree): Placement[] {
  const out: Placement[] = [];
  w.roles.forEach((r, i) => addRole(r, i, out));
  addPods(w.unattributedPods, w.roles.length, out);
  return out;
}

export interface NodeShare {
  workload: WorkloadTree;
  gpus: number;
}

/** Per node, the workloads on it with their GPUs there, most GPUs first. */
export function nodeShares(
  workloads: readonly WorkloadTree[],
  placementsOf: (w: WorkloadTree) => Placement[] = workloadPlacements,
): Map<string, NodeShare[]> {
  const out = new Map<string, NodeShare[]>();
  for (const w of workloads) {
    const onNode = new Map<string, number>();
    for (const p of placementsOf(w)) onNode.set(p.node, (onNode.get(p.node) ?? 0) + p.gpus);
    for (const [node, gpus] of onNode) {
      const list = out.get(node);
      if (list) list.push({ workload: w, gpus });
      else out.set(node, [{ workload: w, gpus }]);
    }
  }
  for (const list of out.values()) list.sort((a, b) => b.gpus - a.gpus);
  return out;
}

// ---- highlights ------------------------------------------------------------------------------------------

export type HighlightSpec = { kind: 'none' } | { kind: 'regex'; filter: string } | { kind: 'workload'; uid: string };

export interface Highlight {
  /** Node name → role index (workload) or 0 (regex match). */
  nodes: Map<string, number>;
  /** Workload: its roles' names (sanitised), in role order; regex: empty. */
  roles: string[];
  kind: HighlightSpec['kind'];
  /** The regex did not compile (matched literally). */
  error?: string;
  /** What the legend names: `/re/` or `namespace/name`. */
  label: string;
}

const NO_HIGHLIGHT: Highlight = { nodes: new Map(), roles: [], kind: 'none', label: '' };

/** `/re` matches workloads by `namespace/name` (case-insensitive; an invalid regex matches literally, `!re` inverts). */
export function mapHighlight(
  spec: HighlightSpec,
  workloads: readonly WorkloadTree[],
  placementsOf: (w: WorkloadTree) => Placement[] = workloadPlacements,
): Highlight {
  if (spec.kind === 'none') return NO_HIGHLIGHT;
  if (spec.kind === 'workload') {
    const w = workloads.find((x) => x.uid === spec.uid);
    if (!w) return { ...NO_HIGHLIGHT, kind: 'workload', label: '(workload gone)' };
    // A node with pods of several roles shows the role with most GPUs (pods count as a tie-break).
    const weight = new Map<string, Map<number, number>>();
    for (const p of placementsOf(w)) {
      const m = weight.get(p.node) ?? new Map<number, number>();
      m.set(p.role, (m.get(p.role) ?? 0) + p.gpus + 0.001);
      weight.set(p.node, m);
    }
    const nodes = new Map<string, number>();
    for (const [node, m] of weight) {
      let best = -1;
      let most = -1;
      for (const [role, v] of m) if (v > most || (v === most && role < best)) [best, most] = [role, v];
      nodes.set(node, best);
    }
    const roles = w.roles.map((r) => sanitise(roleName(r)));
    if (w.unattributedPods.length) roles.push('(unattributed)');
    return { nodes, roles, kind: 'workload', label: `${sanitise(w.namespace)}/${sanitise(w.name)}` };
  }
  const f = regexFilter(spec.filter);
  if (f.empty) return NO_HIGHLIGHT;
  const nodes = new Map<string, number>();
  for (const w of workloads) {
    if (!f.keeps(`${w.namespace}/${w.name}`)) continue;
    for (const p of placementsOf(w)) nodes.set(p.node, 0);
  }
  return { nodes, roles: [], kind: 'regex', error: f.error, label: `/${sanitise(spec.filter)}/` };
}

// ---- layout ------------------------------------------------------------------------------------------------

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
  let line = 0;
  let col = 0;
  let i = 0;
  base.bands.forEach((g, gi) => {
    const chars = Math.ceil(g.size / perChar);
    let label = '';
    // A cut label keeps one blank before the cells.
    if (mode === 'path') label = fit(pathLabels[gi], labelWidth - 1) + ' ';
    else if (mode === 'inline') {
      const last = g.path.length ? g.path[g.path.length - 1] : null;
      const text = last === null ? '-' : sanitise(shortDomainValue(last));
      label = fit(text, Math.min(12, displayWidth(text))) + ' ';
    }
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

// ---- drawing -------------------------------------------------------------------------------------------------

interface Paint {
  colour: MapColour;
  glyph: string;
}

/** The map's own colours (a skin may change them: src/ui/skin.ts MapPalette). */
const DEFAULT_PALETTE: MapPalette = {
  levels: LEVEL_COLOURS as MapPalette['levels'],
  noGpu: NO_GPU_COLOUR,
  cursor: CURSOR_COLOUR,
};

function paint(cell: MapCell, hl: Highlight, palette: MapPalette): Paint {
  const role = hl.nodes.get(cell.node.name);
  const levelGlyph = cell.level === null ? NO_GPU_GLYPH : LEVEL_GLYPHS[cell.level];
  if (hl.kind !== 'none') {
    if (role === undefined) return { colour: 'gray', glyph: cell.mark ? MARK_GLYPHS[cell.mark] : levelGlyph };
    if (hl.kind === 'workload') return { colour: roleColour(role), glyph: roleGlyph(role) };
  }
  if (cell.mark) return { colour: MARK_COLOURS[cell.mark], glyph: MARK_GLYPHS[cell.mark] };
  const colour = cell.level === null ? palette.noGpu : palette.levels[cell.level];
  // A regex match keeps its allocation colour (a free one shows as the first step) and takes `*` without colour.
  if (role !== undefined)
    return { colour: cell.level === null || cell.level === 0 ? 'cyan' : colour, glyph: MATCH_GLYPH };
  return { colour, glyph: levelGlyph };
}

interface CharCell {
  text: string;
  fg?: MapColour;
  bg?: MapColour;
  inverse?: boolean;
}

/** Lines as character cells (labels, nodes, blanks). */
function charGrid(
  base: MapBase,
  layout: MapLayout,
  hl: Highlight,
  noColor: boolean,
  palette: MapPalette,
): CharCell[][] {
  const grid: CharCell[][] = [];
  for (let l = 0; l < layout.lines; l++) grid.push(Array.from({ length: layout.width }, () => ({ text: ' ' })));
  for (const lab of layout.labels) {
    let c = lab.col;
    for (const ch of lab.text) if (c < layout.width) grid[lab.line][c++] = { text: ch };
  }
  base.cells.forEach((cell, k) => {
    const p = paint(cell, hl, palette);
    const at = grid[layout.line[k]][layout.col[k]];
    if (noColor) {
      at.text = p.glyph;
      return;
    }
    at.text = '▀';
    if (layout.half[k] === 0) at.fg = p.colour;
    else at.bg = p.colour;
  });
  if (!noColor) for (const line of grid) for (const c of line) if (c.text === '▀' && !c.fg) c.text = '▄'; // bottom only
  return grid;
}

const sgrCache = new Map<string, string>();

/** The SGR sequence that starts a cell's look ('' for plain). */
function cellSgr(c: CharCell): string {
  if (!c.inverse && !c.fg && !c.bg) return '';
  const key = `${c.inverse ? 1 : 0}${c.text === '▄' ? 1 : 0}${c.fg ?? ''}/${c.bg ?? ''}`;
  let s = sgrCache.get(key);
  if (s === undefined) {
    const codes: number[] = [];
    if (c.inverse) codes.push(7);
    // A bottom-only character draws its node in the foreground (the top stays the terminal's background).
    if (c.text === '▄' && c.bg) codes.push(FG[c.bg]);
    else {
      if (c.fg) codes.push(FG[c.fg]);
      if (c.bg) codes.push(FG[c.bg] + 10);
    }
    s = sgr(codes);
    sgrCache.set(key, s);
  }
  return s;
}

function lineText(cells: readonly CharCell[]): string {
  let out = '';
  let open = '';
  for (const c of cells) {
    const want = cellSgr(c);
    if (want !== open) {
      out += open ? RESET + want : want;
      open = want;
    }
    out += c.text;
  }
  return open ? out + RESET : out;
}

/** The cursor's node: its half drawn in CURSOR_COLOUR (colour), its character inverted (NO_COLOR). */
function withCursor(
  cells: readonly CharCell[],
  layout: MapLayout,
  cursor: number,
  noColor: boolean,
  colour: MapColour,
): CharCell[] {
  const out = cells.slice();
  const c = layout.col[cursor];
  const at = { ...out[c] };
  if (noColor) at.inverse = true;
  else {
    if (at.text === '▄') {
      // A bottom-only character: the top is empty.
      at.text = '▀';
      at.fg = undefined;
    }
    if (layout.half[cursor] === 0) at.fg = colour;
    else at.bg = colour;
  }
  out[c] = at;
  return out;
}

// ---- legend and the cursor's line ------------------------------------------------------------------------

interface LegendItem {
  colour: MapColour;
  glyph: string;
  text: string;
}

function swatch(item: LegendItem, noColor: boolean): { text: string; width: number } {
  const mark = noColor ? item.glyph : `${sgr([FG[item.colour]])}█${RESET}`;
  return { text: `${mark} ${item.text}`, width: 2 + displayWidth(item.text) };
}

/**
 * The legend as lines of at most `width` columns (items are never split): the colour steps and marks, or a
 * highlighted workload's roles; the rest of the nodes are grey while a highlight is on.
 */
export function mapLegend(
  base: MapBase,
  hl: Highlight,
  perChar: 1 | 2,
  width: number,
  noColor: boolean,
  palette: MapPalette = DEFAULT_PALETTE,
): string[] {
  const levels = palette.levels;
  const what = base.byUtil ? 'GPU util' : 'GPUs allocated';
  const items: LegendItem[] = [];
  if (hl.kind === 'workload')
    hl.roles.forEach((r, i) => items.push({ colour: roleColour(i), glyph: roleGlyph(i), text: r }));
  else {
    items.push(
      { colour: levels[0], glyph: LEVEL_GLYPHS[0], text: base.byUtil ? 'idle' : 'free' },
      { colour: levels[1], glyph: LEVEL_GLYPHS[1], text: '<⅓' },
      { colour: levels[2], glyph: LEVEL_GLYPHS[2], text: '<⅔' },
      { colour: levels[3], glyph: LEVEL_GLYPHS[3], text: base.byUtil ? '<100%' : '<full' },
      { colour: levels[4], glyph: LEVEL_GLYPHS[4], text: base.byUtil ? '100%' : 'full' },
      { colour: palette.noGpu, glyph: NO_GPU_GLYPH, text: base.byUtil ? 'no reading' : 'no GPU' },
      ...(['NotReady', 'cordoned', 'pressure'] as const).map((m) => ({
        colour: MARK_COLOURS[m],
        glyph: MARK_GLYPHS[m],
        text: m,
      })),
    );
    // Without colour a match is its own glyph; with colour the others turn grey.
    if (hl.kind === 'regex' && noColor) items.push({ colour: 'cyan', glyph: MATCH_GLYPH, text: 'match' });
  }
  if (hl.kind !== 'none' && !noColor) items.push({ colour: 'gray', glyph: '', text: 'other nodes' });
  const count = `${hl.nodes.size} node${hl.nodes.size === 1 ? '' : 's'}`;
  const head =
    `${perChar} node${perChar === 1 ? '' : 's'}/char · ` +
    (hl.kind === 'workload'
      ? `${hl.label} on ${count}, by role:`
      : hl.kind === 'regex'
        ? `${what}, workloads ${hl.label} on ${count}:`
        : `${what}:`);
  const lines: string[] = [];
  let text = fit(head, Math.min(width, displayWidth(head)));
  let used = displayWidth(text);
  for (const item of items) {
    const s = swatch(item, noColor);
    if (used + 2 + s.width > width && used > 0) {
      lines.push(text + ' '.repeat(Math.max(0, width - used)));
      text = '';
      used = 0;
    }
    text += (used ? '  ' : '') + s.text;
    used += (used ? 2 : 0) + s.width;
  }
  lines.push(text + ' '.repeat(Math.max(0, width - used)));
  return lines;
}

/** The flash line for the cursor's node: name, domain path, GPUs, utilisation, problems, top workloads. */
export function cursorText(cell: MapCell, base: MapBase, shares: readonly NodeShare[] | undefined): string {
  const n = cell.node;
  const parts = [sanitise(n.name)];
  if (base.keys.length) parts.push(domainLabel(base.bands[cell.group].path));
  parts.push(
    n.gpuAllocatable > 0
      ? `GPUs ${n.gpuRequested}/${n.gpuAllocatable} used (${Math.max(0, n.gpuAllocatable - n.gpuRequested)} free)`
      : 'no GPUs',
  );
  if (cell.util !== null) parts.push(`util ${utilText(cell.util)}`);
  if (cell.mark) parts.push(cell.mark === 'pressure' ? `${nodeStatus(n)}, pressure` : nodeStatus(n));
  const top = (shares ?? [])
    .slice(0, 3)
    .map((s) => `${sanitise(s.workload.namespace)}/${sanitise(s.workload.name)} ${s.gpus}`);
  if (top.length) parts.push(top.join(', ') + ((shares?.length ?? 0) > 3 ? ` +${shares!.length - 3}` : ''));
  else parts.push('no workload');
  return parts.join(' · ') + ' — Enter: the node';
}

// ---- one explorer's map, memoised ----------------------------------------------------------------------

export interface MapScreen {
  /** Legend lines then map lines, each exactly `width` columns (SGR codes aside). */
  legend: string[];
  lines: string[];
  /** The node under the cursor, described (the flash line). */
  cursorText: string | null;
  /** Where cursor keys lead (node indices in map order). */
  step: (from: number, dir: MapDirection) => number;
  nodes: number;
  /** Of the regex highlight. */
  error?: string;
  /** Text for the draw gate: what changes the picture. */
  signature: string;
}

/** Per explorer (ScreenModel owns one): each step is kept until its inputs change. */
export class GpuMapMemo {
  private readonly placements = new WeakMap<WorkloadTree, Placement[]>();
  private baseMemo: { nodes: readonly NodeSummary[]; metrics: GpuMetrics | undefined; base: MapBase } | null = null;
  private sharesMemo: { workloads: readonly WorkloadTree[]; shares: Map<string, NodeShare[]> } | null = null;
  private hlMemo: { workloads: readonly WorkloadTree[]; spec: string; hl: Highlight } | null = null;
  private layoutMemo: {
    topology: MapTopology;
    width: number;
    height: number;
    perChar: 1 | 2;
    layout: MapLayout;
  } | null = null;
  private gridMemo: {
    base: MapBase;
    layout: MapLayout;
    hl: Highlight;
    noColor: boolean;
    grid: CharCell[][];
    text: string[];
  } | null = null;
  private rowsMemo: { base: MapBase; rows: Row[] } | null = null;

  private readonly palette: MapPalette;

  constructor(
    private readonly configuredKeys?: readonly string[],
    palette?: Partial<MapPalette>,
  ) {
    this.palette = { ...DEFAULT_PALETTE, ...palette };
  }

  readonly placementsOf = (w: WorkloadTree): Placement[] => {
    let p = this.placements.get(w);
    if (!p) {
      p = workloadPlacements(w);
      this.placements.set(w, p);
    }
    return p;
  };

  base(snapshot: ModelSnapshot): MapBase {
    const m = this.baseMemo;
    if (m && m.nodes === snapshot.nodes && m.metrics === snapshot.gpuMetrics) return m.base;
    const keys = snapshot.topologyKeys ?? this.configuredKeys;
    const base = mapBase(snapshot.nodes, snapshot.gpuMetrics, keys, m?.base.topology);
    this.baseMemo = { nodes: snapshot.nodes, metrics: snapshot.gpuMetrics, base };
    return base;
  }

  /** One row per node in map order: the cursor is the selection, Enter opens the node. */
  rows(snapshot: ModelSnapshot): Row[] {
    const base = this.base(snapshot);
    if (this.rowsMemo?.base === base) return this.rowsMemo.rows;
    const rows: Row[] = base.cells.map(({ node }) => {
      const name = sanitise(node.name);
      return {
        key: node.name,
        cells: [name],
        tone: 'normal',
        createdMs: null,
        sort: { name: node.name, status: '', gpus: node.gpuRequested },
        target: { kind: 'node', name: node.name, label: name },
      };
    });
    this.rowsMemo = { base, rows };
    return rows;
  }

  private shares(workloads: readonly WorkloadTree[]): Map<string, NodeShare[]> {
    if (this.sharesMemo?.workloads === workloads) return this.sharesMemo.shares;
    const shares = nodeShares(workloads, this.placementsOf);
    this.sharesMemo = { workloads, shares };
    return shares;
  }

  private highlight(workloads: readonly WorkloadTree[], spec: HighlightSpec): Highlight {
    const key = JSON.stringify(spec);
    if (this.hlMemo && this.hlMemo.workloads === workloads && this.hlMemo.spec === key) return this.hlMemo.hl;
    const hl = mapHighlight(spec, workloads, this.placementsOf);
    this.hlMemo = { workloads, spec: key, hl };
    return hl;
  }

  screen(
    snapshot: ModelSnapshot,
    workloads: readonly WorkloadTree[],
    spec: HighlightSpec,
    cursor: number,
    width: number,
    height: number,
    noColor: boolean,
  ): MapScreen {
    const base = this.base(snapshot);
    const hl = this.highlight(workloads, spec);
    const perChar = noColor ? 1 : 2;
    const legend = mapLegend(base, hl, perChar, width, noColor, this.palette);
    const bodyHeight = Math.max(1, height - legend.length);
    const lm = this.layoutMemo;
    let layout: MapLayout;
    const { topology } = base;
    if (lm && lm.topology === topology && lm.width === width && lm.height === bodyHeight && lm.perChar === perChar)
      layout = lm.layout;
    else {
      layout = layoutMap(base, width, bodyHeight, perChar);
      this.layoutMemo = { topology, width, height: bodyHeight, perChar, layout };
    }
    const gm = this.gridMemo;
    let grid: CharCell[][];
    let text: string[];
    if (gm && gm.base === base && gm.layout === layout && gm.hl === hl && gm.noColor === noColor) ({ grid, text } = gm);
    else {
      grid = charGrid(base, layout, hl, noColor, this.palette);
      text = grid.map(lineText);
      this.gridMemo = { base, layout, hl, noColor, grid, text };
    }
    const has = cursor >= 0 && cursor < base.cells.length;
    const cursorLine = has ? layout.line[cursor] : 0;
    // Taller than the screen: the window follows the cursor.
    const top = Math.max(0, Math.min(cursorLine - Math.floor(bodyHeight / 2), layout.lines - bodyHeight));
    const lines: string[] = [];
    for (let l = top; l < Math.min(layout.lines, top + bodyHeight); l++)
      lines.push(
        has && l === cursorLine ? lineText(withCursor(grid[l], layout, cursor, noColor, this.palette.cursor)) : text[l],
      );
    const cell = has ? base.cells[cursor] : undefined;
    const flash = cell ? cursorText(cell, base, this.shares(workloads).get(cell.node.name)) : null;
    return {
      legend,
      lines,
      cursorText: flash,
      step: (from, dir) => stepCursor(layout, from, dir),
      nodes: base.cells.length,
      error: hl.error,
      signature: [...legend, ...lines].join('\n'),
    };
  }
}
