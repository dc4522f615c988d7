// Drawing the map: each node's colour and glyph, two nodes a character (half blocks), as SGR-coded text.
import type { MapBase, MapCell } from './cells.js';
import {
  FG,
  LEVEL_GLYPHS,
  MARK_COLOURS,
  MARK_GLYPHS,
  MATCH_GLYPH,
  NO_GPU_GLYPH,
  RESET,
  roleColour,
  roleGlyph,
  sgr,
  type MapColour,
  type MapPalette,
} from './colours.js';
import type { Highlight } from './highlight.js';
import type { MapLayout } from './layout.js';

interface Paint {
  colour: MapColour;
  glyph: string;
}

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

export interface CharCell {
  text: string;
  fg?: MapColour;
  bg?: MapColour;
  inverse?: boolean;
}

/** Lines as character cells (labels, nodes, blanks). */
export function charGrid(
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

function sgrOf(inverse: boolean, bottomOnly: boolean, fg: MapColour | undefined, bg: MapColour | undefined): string {
  if (!inverse && !fg && !bg) return '';
  const codes: number[] = [];
  if (inverse) codes.push(7);
  // A bottom-only character draws its node in the foreground (the top stays the terminal's background).
  if (bottomOnly && bg) codes.push(FG[bg]);
  else {
    if (fg) codes.push(FG[fg]);
    if (bg) codes.push(FG[bg] + 10);
  }
  return sgr(codes);
}

const COLOURS: readonly (MapColour | undefined)[] = [undefined, ...(Object.keys(FG) as MapColour[])];

/** Every cell look's SGR, keyed as sgrKey: an immutable table built once from the 16 colours, not a cache. */
const SGR_TABLE: ReadonlyMap<string, string> = new Map(
  [false, true].flatMap((inverse) =>
    [false, true].flatMap((bottomOnly) =>
      COLOURS.flatMap((fg) =>
        COLOURS.map((bg) => [sgrKey(inverse, bottomOnly, fg, bg), sgrOf(inverse, bottomOnly, fg, bg)] as const),
      ),
    ),
  ),
);

function sgrKey(inverse: boolean, bottomOnly: boolean, fg: MapColour | undefined, bg: MapColour | undefined): string {
  return `${inverse ? 1 : 0}${bottomOnly ? 1 : 0}${fg ?? ''}/${bg ?? ''}`;
}

/** The SGR sequence that starts a cell's look ('' for plain). */
function cellSgr(c: CharCell): string {
  if (!c.inverse && !c.fg && !c.bg) return '';
  const bottomOnly = c.text === '▄';
  return SGR_TABLE.get(sgrKey(!!c.inverse, bottomOnly, c.fg, c.bg)) ?? sgrOf(!!c.inverse, bottomOnly, c.fg, c.bg);
}

export function lineText(cells: readonly CharCell[]): string {
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

/** The cursor's node: its half drawn in the cursor's colour (colour), its character inverted (NO_COLOR). */
export function withCursor(
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
