// The GPU map (`:map`): every node a cell, bands per topology domain, coloured by GPU allocation (or
// utilisation once DCGM is scraped), problem nodes marked, workloads' nodes highlighted. Pure functions
// from the snapshot to laid-out lines (text with SGR colour codes, so a line is one Ink text node);
// `GpuMapMemo` keeps each step per snapshot / size / highlight so a cursor move redraws one line.
import type { GpuMetrics, ModelSnapshot, NodeSummary, WorkloadTree } from '../../../model/types.js';
import { nodeShares, workloadPlacements, type NodeShare, type Placement } from '../../../model/workload-nodes.js';
import { sanitise } from '../../../text/sanitise.js';
import { nodeRequestsUnknown } from '../../../model/pods-readable.js';
import type { Row } from '../table.js';
import { mapBase, type MapBase, type MapTopology } from './cells.js';
import { mapHighlight, type Highlight, type HighlightSpec } from './highlight.js';
import { layoutMap, stepCursor, type MapDirection, type MapLayout } from './layout.js';
import { charGrid, lineText, withCursor, type CharCell } from './draw.js';
import { mapLegend, cursorText } from './legend.js';
import { DEFAULT_PALETTE, type MapPalette } from './colours.js';

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
  /** One per colouring (the rows read the plain one, the screen the one shown). */
  private readonly baseMemo = new Map<
    boolean,
    {
      nodes: readonly NodeSummary[];
      metrics: GpuMetrics | undefined;
      access: ModelSnapshot['access'];
      fleet: ModelSnapshot['fleet'];
      base: MapBase;
    }
  >();
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
    /** A skin's colours (src/ui/skin.ts); absent: the map's own. */
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

  /** `byIdle`: coloured by the allocated GPUs that sit idle (`i`). */
  base(snapshot: ModelSnapshot, byIdle = false): MapBase {
    const m = this.baseMemo.get(byIdle);
    if (
      m &&
      m.nodes === snapshot.nodes &&
      m.metrics === snapshot.gpuMetrics &&
      m.access === snapshot.access &&
      m.fleet === snapshot.fleet
    )
      return m.base;
    const keys = snapshot.topologyKeys ?? this.configuredKeys;
    const previous = m?.base.topology ?? this.baseMemo.get(!byIdle)?.base.topology;
    const unknown = nodeRequestsUnknown(snapshot);
    const base = mapBase(snapshot.nodes, snapshot.gpuMetrics, keys, previous, byIdle, unknown);
    const { nodes, gpuMetrics: metrics, access, fleet } = snapshot;
    this.baseMemo.set(byIdle, { nodes, metrics, access, fleet, base });
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
    byIdle = false,
  ): MapScreen {
    const base = this.base(snapshot, byIdle);
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
