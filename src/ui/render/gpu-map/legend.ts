// The map's legend and the flash line that describes the cursor's node.
import type { NodeShare } from '../../../model/workload-nodes.js';
import { sanitise } from '../../../text/sanitise.js';
import { utilText } from '../gpu-columns.js';
import { domainLabel, nodeStatus } from '../nodes.js';
import { displayWidth, fit } from '../table.js';
import type { MapBase, MapCell } from './cells.js';
import {
  DEFAULT_PALETTE,
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
  const what = base.colouring === 'idle' ? 'allocated GPUs idle' : base.byUtil ? 'GPU util' : 'GPUs allocated';
  const items: LegendItem[] = [];
  if (hl.kind === 'workload')
    hl.roles.forEach((r, i) => items.push({ colour: roleColour(i), glyph: roleGlyph(i), text: r }));
  else if (base.colouring === 'idle') {
    items.push(
      { colour: levels[0], glyph: LEVEL_GLYPHS[0], text: 'none' },
      { colour: levels[3], glyph: LEVEL_GLYPHS[3], text: 'some' },
      { colour: levels[4], glyph: LEVEL_GLYPHS[4], text: '⅓+ of the node' },
      { colour: palette.noGpu, glyph: NO_GPU_GLYPH, text: 'none allocated / not known yet' },
      ...(['NotReady', 'cordoned', 'pressure'] as const).map((m) => ({
        colour: MARK_COLOURS[m],
        glyph: MARK_GLYPHS[m],
        text: m,
      })),
    );
    if (hl.kind === 'regex' && noColor) items.push({ colour: 'cyan', glyph: MATCH_GLYPH, text: 'match' });
  } else {
    items.push(
      { colour: levels[0], glyph: LEVEL_GLYPHS[0], text: base.byUtil ? 'idle' : 'free' },
      { colour: levels[1], glyph: LEVEL_GLYPHS[1], text: '<⅓' },
      { colour: levels[2], glyph: LEVEL_GLYPHS[2], text: '<⅔' },
      { colour: levels[3], glyph: LEVEL_GLYPHS[3], text: base.byUtil ? '<100%' : '<full' },
      { colour: levels[4], glyph: LEVEL_GLYPHS[4], text: base.byUtil ? '100%' : 'full' },
      {
        colour: palette.noGpu,
        glyph: NO_GPU_GLYPH,
        text: base.byUtil
          ? 'no reading'
          : base.cells.some((c) => c.requestsUnknown)
            ? 'no GPU / pods not readable'
            : 'no GPU',
      },
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
    n.gpuAllocatable <= 0
      ? 'no GPUs'
      : cell.requestsUnknown
        ? `GPUs ?/${n.gpuAllocatable} used (pods not readable)`
        : `GPUs ${n.gpuRequested}/${n.gpuAllocatable} used (${Math.max(0, n.gpuAllocatable - n.gpuRequested)} free)`,
  );
  if (cell.util !== null) parts.push(`util ${utilText(cell.util)}`);
  if (base.colouring === 'idle')
    parts.push(
      cell.idle !== null
        ? `${cell.idle} of ${n.gpuRequested} allocated GPU${n.gpuRequested === 1 ? '' : 's'} idle`
        : n.gpuRequested > 0 || cell.requestsUnknown
          ? 'idle GPUs not known yet'
          : 'no GPU allocated',
    );
  if (cell.mark) parts.push(cell.mark === 'pressure' ? `${nodeStatus(n)}, pressure` : nodeStatus(n));
  const top = (shares ?? [])
    .slice(0, 3)
    .map((s) => `${sanitise(s.workload.namespace)}/${sanitise(s.workload.name)} ${s.gpus}`);
  if (top.length) parts.push(top.join(', ') + ((shares?.length ?? 0) > 3 ? ` +${shares!.length - 3}` : ''));
  else parts.push(cell.requestsUnknown ? 'workloads unknown' : 'no workload');
  return parts.join(' · ') + ' — Enter: the node';
}
