// The explorer over a fleet (src/app/fleet.ts): which cluster a view reads
// (a frame's own, else the one the explorer is narrowed to, else all), the
// merged lists (workloads, pods, nodes: each cluster's rows under a CLUSTER
// column, first), `:clusters`, and a MultiKueue job's tree drawn from its
// copy in the worker. One FleetViews per ScreenModel owns the caches.
import type { ModelSnapshot, WorkloadTree } from '../../model/types.js';
import type { ModelSource } from '../../model/source.js';
import type { RemoteRun } from '../../model/fleet/types.js';
import { fleetKey } from '../../model/fleet/link.js';
import { summariseCluster } from '../../model/fleet/summary.js';
import { originText, remoteRunText, waitingText, workerTryLines } from '../../model/fleet/words.js';
import { sanitise } from '../../text/sanitise.js';
import { clusterTable } from '../render/clusters.js';
import type { PanelLine } from '../render/panels.js';
import { fit, type Column, type Row } from '../render/table.js';
import { GpuMapMemo, type MapScreen } from '../render/gpu-map/index.js';
import type { MapPalette } from '../render/gpu-map/colours.js';
import type { HighlightSpec } from '../render/gpu-map/highlight.js';
import type { MapDirection } from '../render/gpu-map/layout.js';
import type { RowCache } from '../render/row-cache.js';
import { explorerWorkloads } from './derive.js';
import type { UiState, ViewFrame } from './ui-state.js';
import type { ViewTable } from './derive.js';

/** The cluster a frame reads: its own, else the one the explorer is narrowed to; null: every cluster (or not a fleet). */
export function frameCluster(state: Pick<UiState, 'cluster'>, frame: Pick<ViewFrame, 'cluster'>): string | null {
  return frame.cluster ?? state.cluster;
}

/** Whether the snapshot is a fleet of more than one cluster (the merged lists then gain CLUSTER). */
export function isFleet(snapshot: ModelSnapshot): boolean {
  return (snapshot.fleet?.members.length ?? 0) > 1;
}

export interface FleetScope {
  snapshot: ModelSnapshot;
  source: ModelSource;
  /** The cluster read, or null: the whole fleet (or not a fleet). */
  cluster: string | null;
}

const CLUSTER_COLUMN: Column = { name: 'CLUSTER', min: 7, max: 24, keep: true };

/** The kinds whose unnarrowed view lists every cluster's rows. */
export function isMergedList(frame: Pick<ViewFrame, 'kind' | 'workloadUid'>): boolean {
  return (
    frame.kind === 'workloads' || frame.kind === 'nodes' || (frame.kind === 'pods' && frame.workloadUid === undefined)
  );
}

export class FleetViews {
  /** A member's row under CLUSTER, per original row (a row belongs to one member). */
  private readonly prefixed = new WeakMap<Row, { layout: string; row: Row }>();
  /**
   * The last merged table and its members' parts: a member still listing sends a snapshot per page, and while
   * every member's rows are the same the merged rows keep their identity (sorting, filtering and layout with them).
   */
  private lastMerged: { parts: { context: string; columns: string; rows: readonly Row[] }[]; table: ViewTable } | null =
    null;
  /** Each cluster's GPU map (its own memo: layouts and grids are kept per cluster). */
  private readonly maps = new Map<string, GpuMapMemo>();

  constructor(
    /** The explorer's row cache (its workloads list per member snapshot). */
    private readonly rows: RowCache,
    private readonly topologyKeys?: readonly string[],
    private readonly mapPalette?: Partial<MapPalette>,
  ) {}

  private mapOf(context: string): GpuMapMemo {
    let m = this.maps.get(context);
    if (!m) this.maps.set(context, (m = new GpuMapMemo(this.topologyKeys, this.mapPalette)));
    return m;
  }

  /** The live members of a fleet snapshot, with their sources. */
  private live(snapshot: ModelSnapshot, source: ModelSource): { context: string; snapshot: ModelSnapshot }[] {
    return (snapshot.fleet?.members ?? []).flatMap((m) =>
      m.snapshot && source.member?.(m.context) ? [{ context: m.context, snapshot: m.snapshot }] : [],
    );
  }

  /** The fleet map's rows: each cluster's nodes in its map order, one cluster after the other. */
  mapRows(snapshot: ModelSnapshot, source: ModelSource): Row[] {
    return this.live(snapshot, source).flatMap((m) =>
      this.mapOf(m.context)
        .rows(m.snapshot)
        .map((r) => this.prefix(r, m.context)),
    );
  }

  /**
   * The fleet map: one band group per cluster, each under a line naming it,
   * the screen's height shared among them; the cursor (an index into
   * mapRows) moves within a cluster's map and on to the next one's.
   */
  mapScreen(
    snapshot: ModelSnapshot,
    source: ModelSource,
    spec: HighlightSpec,
    cursor: number,
    width: number,
    height: number,
    noColor: boolean,
    idle = false,
  ): MapScreen {
    const members = this.live(snapshot, source);
    const counts = members.map((m) => this.mapOf(m.context).rows(m.snapshot).length);
    const offsets = counts.map((_, i) => counts.slice(0, i).reduce((a, b) => a + b, 0));
    const total = counts.reduce((a, b) => a + b, 0);
    const share = Math.max(3, Math.floor(height / Math.max(1, members.length)));
    let legend: string[] = [];
    const lines: string[] = [];
    let cursorText: string | null = null;
    let error: string | undefined;
    const screens = members.map((m, i) => {
      const local = cursor - offsets[i];
      const s = this.mapOf(m.context).screen(
        m.snapshot,
        explorerWorkloads(m.snapshot, this.rows),
        spec,
        local >= 0 && local < counts[i] ? local : -1,
        width,
        share,
        noColor,
        idle,
      );
      if (i === 0) legend = s.legend;
      // The legend once, on top: each group its title line and map lines.
      const title = `── ${sanitise(m.context)} `;
      lines.push(title.length >= width ? fit(title, width) : title + '─'.repeat(width - title.length), ...s.lines);
      if (local >= 0 && local < counts[i] && s.cursorText) cursorText = `${sanitise(m.context)}: ${s.cursorText}`;
      error ??= s.error;
      return s;
    });
    const step = (from: number, dir: MapDirection): number => {
      const i = offsets.findIndex((o, k) => from >= o && from < o + counts[k]);
      if (i < 0) return from;
      const to = screens[i].step(from - offsets[i], dir) + offsets[i];
      if (to !== from) return to;
      // At a group's edge, up and down cross to the neighbouring cluster.
      if (dir === 'down' && i + 1 < members.length && counts[i + 1]) return offsets[i + 1];
      if (dir === 'up' && i > 0 && counts[i - 1]) return offsets[i - 1] + counts[i - 1] - 1;
      return from;
    };
    return {
      legend,
      lines,
      cursorText,
      step,
      nodes: total,
      ...(error ? { error } : {}),
      signature: [...legend, ...lines].join('\n'),
    };
  }
  /** A cluster that has no snapshot yet: the fleet's snapshot with nothing in it. */
  private readonly empty = new WeakMap<ModelSnapshot, ModelSnapshot>();

  /** The snapshot and source of `cluster` (null: the fleet's own). */
  scope(snapshot: ModelSnapshot, source: ModelSource, cluster: string | null): FleetScope {
    if (cluster === null || !snapshot.fleet) return { snapshot, source, cluster: null };
    const member = source.member?.(cluster);
    if (member) return { snapshot: member.getSnapshot(), source: member, cluster };
    let empty = this.empty.get(snapshot);
    if (!empty) {
      empty = { ...snapshot, workloads: [], nodes: [], orphanPods: [], changedWorkloads: [], fleet: undefined };
      this.empty.set(snapshot, empty);
    }
    return { snapshot: empty, source, cluster };
  }

  /** A member's row under CLUSTER; `at`: where each of its cells goes among `width` columns (null: as they are). */
  private prefix(row: Row, context: string, at: readonly number[] | null = null, width = 0): Row {
    const layout = at === null ? '' : `${width}:${at.join(',')}`;
    const memo = this.prefixed.get(row);
    if (memo?.layout === layout) return memo.row;
    const cells = at === null ? row.cells : placeCells(row.cells, at, width);
    const p: Row = {
      ...row,
      key: `${context}\u0000${row.key}`,
      cells: [sanitise(context), ...cells],
      cluster: context,
      ...(row.treeKey !== undefined ? { treeKey: `${context}\u0000${row.treeKey}` } : {}),
    };
    this.prefixed.set(row, { layout, row: p });
    return p;
  }

  /**
   * A merged list: each live member's table (built by `build` from its own
   * snapshot and source, with the frame's collapsed keys of that member) one
   * after the other, CLUSTER first.
   */
  mergedTable(
    snapshot: ModelSnapshot,
    source: ModelSource,
    collapsed: readonly string[],
    build: (scope: FleetScope, collapsed: string[]) => ViewTable,
  ): ViewTable {
    const parts: { context: string; table: ViewTable }[] = [];
    for (const m of snapshot.fleet?.members ?? []) {
      const member = source.member?.(m.context);
      if (!member || !m.snapshot) continue;
      const mine = collapsed
        .filter((k) => k.startsWith(`${m.context}\u0000`))
        .map((k) => k.slice(m.context.length + 1));
      parts.push({
        context: m.context,
        table: build({ snapshot: m.snapshot, source: member, cluster: m.context }, mine),
      });
    }
    const keys = parts.map((p) => ({
      context: p.context,
      columns: JSON.stringify([p.table.columns, p.table.sortable, p.table.sortedWithin ?? false]),
      rows: p.table.rows,
    }));
    const last = this.lastMerged;
    if (
      last &&
      last.parts.length === keys.length &&
      last.parts.every(
        (k, i) =>
          k.context === keys[i].context &&
          k.columns === keys[i].columns &&
          k.rows.length === keys[i].rows.length &&
          k.rows.every((r, j) => r === keys[i].rows[j]),
      )
    )
      return last.table;
    const table = this.joinTables(parts);
    this.lastMerged = { parts: keys, table };
    return table;
  }

  /** The members' tables one after the other under CLUSTER, each member's cells placed under the union's columns. */
  private joinTables(parts: readonly { context: string; table: ViewTable }[]): ViewTable {
    const first = parts.find((p) => p.table.columns.length)?.table;
    // Members differ in optional columns (QUEUE, UTIL): the union, each member's cells placed under theirs.
    const columns: Column[] = [];
    for (const p of parts)
      for (const c of p.table.columns) if (!columns.some((x) => x.name === c.name)) columns.push(c);
    const order = new Map(columns.map((c, i) => [c.name, i]));
    return {
      columns: columns.length ? [CLUSTER_COLUMN, ...columns] : [],
      rows: parts.flatMap((p) => {
        const at = p.table.columns.map((c) => order.get(c.name)!);
        const same = at.length === columns.length && at.every((x, i) => x === i);
        return p.table.rows.map((r) => this.prefix(r, p.context, same ? null : at, columns.length));
      }),
      sortable: first?.sortable ?? true,
      ...(first?.sortedWithin ? { sortedWithin: true } : {}),
    };
  }
}

function placeCells(cells: readonly string[], at: readonly number[], width: number): string[] {
  const out = new Array<string>(width).fill('');
  cells.forEach((c, i) => (out[at[i]] = c));
  return out;
}

/** `:clusters`: the fleet's clusters, or the one cluster explored (its line from its snapshot). */
export function clustersTable(snapshot: ModelSnapshot, source: ModelSource): ViewTable {
  const clusters = snapshot.fleet
    ? snapshot.fleet.members.map((m) => m.summary)
    : [
        summariseCluster(
          {
            context: source.getConnectionInfo().context,
            server: source.getConnectionInfo().server || null,
            version: source.getConnectionInfo().serverVersion,
          },
          snapshot,
        ),
      ];
  return { ...clusterTable(clusters), sortable: false };
}

/** Where a manager's job runs, when it is a MultiKueue job of a fleet (the fleet's snapshot holds the links). */
export function remoteRun(fleet: ModelSnapshot, cluster: string | null, uid: string | undefined): RemoteRun | null {
  if (!fleet.fleet || cluster === null || uid === undefined) return null;
  return fleet.fleet.links.remote.get(fleetKey(cluster, uid)) ?? null;
}

/** The copy in the worker a manager's job runs as, when that worker is in the fleet and its copy is there. */
export function remoteTree(
  fleet: ModelSnapshot,
  source: ModelSource,
  run: RemoteRun | null,
): { tree: WorkloadTree; cluster: string } | null {
  if (!run || run.cluster === null || run.uid === null) return null;
  const member = source.member?.(run.cluster);
  const tree = member?.getSnapshot().workloads.find((w) => w.uid === run.uid);
  return tree ? { tree, cluster: run.cluster } : null;
}

/** The workload panel's MultiKueue lines: where it runs, where it came from, or which workers were tried. */
export function fleetPanelLines(fleet: ModelSnapshot, cluster: string | null, uid: string): PanelLine[] {
  const links = fleet.fleet?.links;
  if (!links || cluster === null) return [];
  const key = fleetKey(cluster, uid);
  const run = links.remote.get(key);
  const tried = links.tried.get(key);
  const origin = links.origin.get(key);
  return [
    ...(run
      ? [
          {
            text: `${sanitise(remoteRunText(run))}${run.uid !== null ? ' — its roles and pods below' : ''}`,
            tone: 'ok' as const,
          },
        ]
      : []),
    ...(tried
      ? [
          { text: sanitise(waitingText(tried)), tone: 'warn' as const },
          ...workerTryLines(tried).map((l) => ({ text: `  ${sanitise(l)}`, tone: 'warn' as const })),
        ]
      : []),
    ...(origin ? [{ text: sanitise(originText(origin)), tone: 'normal' as const }] : []),
  ];
}
