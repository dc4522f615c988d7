// The screen model: everything the explorer draws for one (snapshot, view
// state, time, terminal size), computed once. The draw gate compares screens'
// signatures to skip snapshots that change nothing visible, and the
// components draw the same screen's lines, so each visible row's text is
// formatted once per screen. One ScreenModel per App: it owns the memoised
// rows, layouts, sort / filter results and change highlights.
import type { ConnectionInfo, ModelSnapshot } from '../../model/types.js';
import type { ModelSource } from '../../model/source.js';
import { KEYMAP } from '../keymap.js';
import { helpTable, userKeyRows } from '../render/help.js';
import type { MapPalette } from '../skin.js';
import { connectionHeadline, fleetHeadline, gpuHeadline, type HeaderModel } from '../render/header.js';
import type { PanelLine } from '../render/panels.js';
import { RowCache, newWorkCounters, type WorkCounters } from '../render/row-cache.js';
import { HeaderMemo } from './header-memo.js';
import { formatAge } from '../render/format.js';
import {
  displayWidth,
  fit,
  formatLine,
  layoutFromLongest,
  LayoutMemo,
  type Column,
  type Layout,
  type Row,
  type Tone,
} from '../render/table.js';
import {
  explorerWorkloads,
  filterRows,
  tableForFrame,
  type FilterResult,
  type PickerInputs,
  type ViewTable,
} from './derive.js';
import { NO_USER_BINDINGS, type UserBindings } from '../user-config.js';
import { ChangeHighlights } from './highlights.js';
import { isIncidentKind } from './incident.js';
import { ViewMemo } from './memo.js';
import { GpuMapMemo, type MapScreen } from '../render/gpu-map/index.js';
import type { HighlightSpec } from '../render/gpu-map/highlight.js';
import { currentFrame, type Flash, type UiState, type ViewFrame } from './ui-state.js';
import { framePodsHeld } from './pod-scope.js';
import {
  clustersTable,
  fleetPanelLines,
  FleetViews,
  frameCluster,
  isFleet,
  isMergedList,
  remoteRun,
  remoteTree,
} from './fleet.js';
import { roleTable } from '../render/roles.js';
import { isServedFrame, servesRows, windowFits, windowRows, type RowWindow } from './served-rows.js';
import { countClusterRows, countNodeRows, viewTitle } from './screen-title.js';
import { panelFor, TopologyMemo } from './screen-panel.js';
import {
  emptyNamespaceText,
  flashFor,
  NAMESPACED_VIEWS,
  notListedYet,
  readNamespaces,
  startedNamespaces,
} from './screen-notices.js';

export interface ScreenSize {
  columns: number;
  rows: number;
}

/** One visible row of the table, as drawn. */
export interface ScreenLine {
  key: string;
  text: string;
  tone: Tone;
  selected: boolean;
  /** Its workload changed a moment ago (highlighted). */
  changed: boolean;
}

/** What a screen shows, as text the draw gate compares: the header's figures apart from the rest. */
export interface ScreenSignature {
  header: string;
  body: string;
}

export interface Screen {
  state: UiState;
  frame: ViewFrame;
  width: number;
  headerLines: number;
  /** Visible data rows of the table (incident views: their height - 1). */
  page: number;
  header: HeaderModel;
  /** Detail lines above the table, cut to what fits. */
  panel: PanelLine[];
  table: ViewTable;
  /** The view's rows, sorted and filtered; a served view (served-rows.ts) has only its window's, the rest undefined. */
  rows: readonly (Row | undefined)[];
  /** Where the selection's key is among the rows, when a served window says and it is outside the window. */
  selectedAt?: number;
  filterError?: string;
  title: string;
  /** The table's column header line. */
  columnHeader: string;
  lines: ScreenLine[];
  /** Shown in place of rows when there are none. */
  emptyText: string | null;
  flash: Flash | null;
  /** null: always drawn (incident views read the cluster in their own ways). */
  signature: ScreenSignature | null;
  /** The GPU map's legend and lines (`:map`), drawn in place of the table. */
  map?: MapScreen;
  /** The view's pods have not arrived from the engine worker yet (src/ui/state/pod-scope.ts). */
  loading: boolean;
}

export interface DerivedView {
  table: ViewTable;
  filtered: FilterResult;
  /** A served view: its window, in place of `filtered`'s rows. */
  served?: RowWindow;
}

const HEADER_LINES = 4;

const LOADING: ViewTable = { columns: [], rows: [], sortable: false };
const LOADING_TEXT = 'loading pods…';

/** The text of one data row at the given layout (AGE cells from createdMs at `now`). */
export function rowText(row: Row, columns: Column[], layout: Layout, inner: number, now: number): string {
  if (row.span) return fit(row.cells[0] ?? '', inner);
  let cells = columns.some((c) => c.age)
    ? columns.map((c, ci) => (c.age ? formatAge(row.createdMs, now) : (row.cells[ci] ?? '')))
    : row.cells;
  const first = layout.shown.indexOf(0);
  if (row.fitFirst && first >= 0 && displayWidth(cells[0] ?? '') > layout.widths[first])
    cells = [row.fitFirst(layout.widths[first]), ...cells.slice(1)];
  return formatLine(cells, columns, layout);
}

function sameConnection(a: ConnectionInfo, b: ConnectionInfo): boolean {
  return a.context === b.context && a.cluster === b.cluster && a.user === b.user && a.serverVersion === b.serverVersion;
}

interface ScreenKey {
  snapshot: ModelSnapshot;
  state: UiState;
  nowMs: number;
  columns: number;
  rows: number;
  source: ModelSource;
  connection: ConnectionInfo;
}

export class ScreenModel {
  readonly rows: RowCache;
  /** Sort and filter results of the last derivation (tests count sorts with views.sortStats). */
  readonly views = new ViewMemo();
  private readonly layouts: LayoutMemo;
  private readonly highlights: ChangeHighlights;
  private last: { key: ScreenKey; screen: Screen } | null = null;
  private readonly header: HeaderMemo;

  private readonly gpuMap: GpuMapMemo;
  private readonly fleet: FleetViews;
  private readonly topology = new TopologyMemo();
  /** The served window's rows at their indices, for the last window (windowRows). */
  private windowed: { window: RowWindow; rows: readonly (Row | undefined)[] } | null = null;
  private readonly noColor: boolean;
  private readonly topologyKeys: readonly string[] | undefined;
  private readonly headless: boolean;
  private readonly contexts: readonly string[];
  private readonly bindings: UserBindings;

  constructor(
    options: {
      highlightMs?: number;
      counters?: WorkCounters;
      /** The map draws glyphs instead of colours. */
      noColor?: boolean;
      /** `--topology-key` values; absent: the default keys the nodes carry. */
      topologyKeys?: readonly string[];
      /** `--headless`: no header. */
      headless?: boolean;
      /** Context names (`:ctx`). */
      contexts?: readonly string[];
      /** The user's aliases, hotkeys and plugins (ctrl-a, `?`). */
      bindings?: UserBindings;
      /** The GPU map's colours (a skin's). */
      mapPalette?: Partial<MapPalette>;
    } = {},
  ) {
    const counters = options.counters ?? newWorkCounters();
    this.noColor = options.noColor ?? false;
    this.topologyKeys = options.topologyKeys;
    this.headless = options.headless ?? false;
    this.contexts = options.contexts ?? [];
    this.bindings = options.bindings ?? NO_USER_BINDINGS;
    this.gpuMap = new GpuMapMemo(options.topologyKeys, options.mapPalette);
    this.rows = new RowCache(counters);
    this.header = new HeaderMemo(this.rows.trouble);
    this.fleet = new FleetViews(this.rows, options.topologyKeys, options.mapPalette);
    this.layouts = new LayoutMemo(counters);
    this.highlights = new ChangeHighlights(options.highlightMs ?? 1500);
  }

  /**
   * The table of a state's current view, sorted and filtered; memoised per
   * step (table: snapshot + the frame's fields; sort; filter), so moving the
   * cursor recomputes nothing and typing a filter only re-filters.
   */
  view(fleetSnapshot: ModelSnapshot, state: UiState, fleetSource: ModelSource): DerivedView {
    const f = currentFrame(state);
    // A fleet's view of one cluster reads that cluster's snapshot and source; the lists of all, the fleet's.
    const scope = this.fleet.scope(fleetSnapshot, fleetSource, frameCluster(state, f));
    const { snapshot, source } = scope;
    const merged = scope.cluster === null && isFleet(fleetSnapshot) && (isMergedList(f) || f.kind === 'map');
    const loading: DerivedView = { table: LOADING, filtered: { rows: LOADING.rows, inverted: false } };
    // Rows are served to the source the explorer asks (useServedRows): a fleet's are derived here, its members' too.
    const served = servesRows(fleetSource);
    if (served && isServedFrame(f)) {
      // Rows derived by the engine worker: drawn from its window once it is for this view.
      const w = fleetSource.rowWindow();
      if (!w || !windowFits(w, f, state.namespace)) return loading;
      return {
        table: { columns: w.columns, rows: [], sortable: true },
        filtered: { rows: [], error: w.filterError, inverted: w.inverted },
        served: w,
      };
    }
    if (!framePodsHeld(snapshot, f, served)) return loading;
    const prev = state.stack.length > 1 ? state.stack[state.stack.length - 2].kind : 'workloads';
    const table = this.views.table(
      [
        fleetSnapshot,
        snapshot,
        scope.cluster,
        f.kind,
        f.workloadUid,
        f.rolePath,
        f.nodeName,
        f.queueName,
        f.collapsed,
        f.workloadType,
        state.namespace,
        prev,
        source,
        // The pickers' inputs (only their views read them).
        f.kind === 'namespaces' ? state.namespaceList : null,
        f.kind === 'namespaces' ? state.recentNamespaces : null,
        // `:nodes` by domain sorts within its groups (the table's own order).
        f.kind === 'nodes' ? f.sort : null,
      ],
      () => {
        if (f.kind === 'help')
          return { ...helpTable(KEYMAP[prev], userKeyRows(this.bindings, prev), prev), sortable: false };
        if (f.kind === 'clusters') return clustersTable(fleetSnapshot, fleetSource);
        if (f.kind === 'map')
          return merged
            ? { columns: [], rows: this.fleet.mapRows(fleetSnapshot, fleetSource), sortable: false }
            : { columns: [], rows: this.gpuMap.rows(snapshot), sortable: false };
        // A fleet's lists, unnarrowed: every cluster's rows under CLUSTER.
        if (merged)
          return this.fleet.mergedTable(fleetSnapshot, fleetSource, f.collapsed, (m, collapsed) =>
            tableForFrame(
              m.snapshot,
              { ...f, collapsed },
              state.namespace,
              (n) => m.source.getNodePods(n),
              this.rows,
              this.topologyKeys,
              this.pickers(state, m.source, m.snapshot),
            ),
          );
        // A MultiKueue job on its manager: the tree of its copy in the worker.
        const remote =
          f.kind === 'workload'
            ? remoteTree(fleetSnapshot, fleetSource, remoteRun(fleetSnapshot, scope.cluster, f.workloadUid))
            : null;
        if (remote) {
          const t = { ...roleTable(remote.tree, new Set(f.collapsed)), sortable: false };
          return { ...t, rows: t.rows.map((r) => ({ ...r, cluster: remote.cluster })) };
        }
        return tableForFrame(
          snapshot,
          f,
          state.namespace,
          (n) => source.getNodePods(n),
          this.rows,
          this.topologyKeys,
          this.pickers(state, source, snapshot),
        );
      },
    );
    const sorted = this.views.sortedRows(table.rows, table.sortable, f.sort);
    // The map's regex highlights nodes rather than filtering them.
    const filter = f.kind === 'map' ? '' : f.filter;
    const filtered = this.views.filtered([sorted, filter], () => filterRows(sorted, filter, this.rows.searchText));
    return { table, filtered };
  }

  private pickers(state: UiState, source: ModelSource, snapshot: ModelSnapshot): PickerInputs {
    const connection = source.getConnectionInfo();
    return {
      contexts: this.contexts,
      currentContext: connection.context,
      namespaceList: state.namespaceList,
      recentNamespaces: state.recentNamespaces,
      startedNamespaces: startedNamespaces(snapshot, connection),
      bindings: this.bindings,
    };
  }

  /** The screen for these inputs (the last one is kept: the gate and the render ask for the same). */
  screen(snapshot: ModelSnapshot, state: UiState, nowMs: number, size: ScreenSize, source: ModelSource): Screen {
    const connection = source.getConnectionInfo();
    const key: ScreenKey = { snapshot, state, nowMs, columns: size.columns, rows: size.rows, source, connection };
    const l = this.last?.key;
    if (
      l &&
      l.snapshot === snapshot &&
      l.state === state &&
      l.nowMs === nowMs &&
      l.columns === size.columns &&
      l.rows === size.rows &&
      l.source === source &&
      sameConnection(l.connection, connection)
    )
      return this.last!.screen;
    const screen = this.build(key);
    this.last = { key, screen };
    return screen;
  }

  private windowRows(window: RowWindow): readonly (Row | undefined)[] {
    if (this.windowed?.window !== window) this.windowed = { window, rows: windowRows(window) };
    return this.windowed.rows;
  }

  private build(key: ScreenKey): Screen {
    const { state, nowMs, columns, rows: height } = key;
    const frame = currentFrame(state);
    // A fleet's view of one cluster reads that cluster's snapshot and source; the lists of all, the fleet's.
    const scope = this.fleet.scope(key.snapshot, key.source, frameCluster(state, frame));
    const { snapshot } = scope;
    const connection = scope.cluster === null ? key.connection : scope.source.getConnectionInfo();
    const mergedMap = frame.kind === 'map' && scope.cluster === null && isFleet(key.snapshot);
    this.highlights.note(key.snapshot.version, key.snapshot.changedWorkloads, nowMs);
    const active = this.highlights.active(nowMs);
    const { table, filtered, served } = this.view(key.snapshot, state, key.source);
    const loading = table === LOADING;
    const rows: readonly (Row | undefined)[] = served ? this.windowRows(served) : filtered.rows;

    const width = Math.max(20, columns);
    const headerLines = this.headless ? 0 : height >= 20 ? HEADER_LINES : 1;
    // A node's panel reads its summary alone; a workload's reads its pods.
    const allPanel =
      loading && frame.kind !== 'node'
        ? []
        : [
            ...(frame.kind === 'workload' && frame.workloadUid !== undefined
              ? fleetPanelLines(key.snapshot, scope.cluster, frame.workloadUid)
              : []),
            ...panelFor(snapshot, frame, nowMs, state, this.topology, this.rows.trouble),
          ];
    const panel = allPanel.slice(0, Math.min(allPanel.length, Math.max(0, height - headerLines - 8)));
    const page = Math.max(1, height - headerLines - panel.length - 5);
    const inner = Math.max(10, width - 2);

    const header: HeaderModel = {
      connection,
      totals: snapshot.totals,
      // The whole fleet: each cluster's state, as :clusters says it; one cluster (or one narrowed to): its watches'.
      summary:
        scope.cluster === null && isFleet(key.snapshot)
          ? fleetHeadline(
              key.snapshot.fleet!.members.map((m) => m.summary),
              key.snapshot.connection.forbidden,
            )
          : connectionHeadline(snapshot.connection, snapshot.accessNotice ? readNamespaces(snapshot) : undefined),
      workloads: this.header.workloadCounts(snapshot, state.namespace).text,
      workloadsCompact: this.header.workloadCounts(snapshot, state.namespace).compact,
      gpus: gpuHeadline(snapshot, width, () => this.header.gpuKindTotals(snapshot)),
      nodes: snapshot.podNodes ? 'not readable' : String(snapshot.totals.nodes),
      // A namespace-scoped user's "all" is the namespaces read.
      namespace: state.namespace ?? (snapshot.accessNotice ? readNamespaces(snapshot)?.join(',') || null : null),
    };
    const incident = isIncidentKind(frame.kind);
    const layout = served
      ? layoutFromLongest(table.columns, served.longest, inner)
      : this.layouts.layout(table.columns, filtered.rows, inner);
    const sort = table.sortable || table.sortedWithin ? frame.sort : null;
    const columnHeader = incident
      ? ''
      : formatLine(
          table.columns.map((c) => c.name + (sort && c.sortKey === sort.key ? (sort.desc ? '↓' : '↑') : '')),
          table.columns,
          layout,
        );
    let map: MapScreen | undefined;
    if (frame.kind === 'map' && !loading) {
      const spec: HighlightSpec = frame.filter
        ? { kind: 'regex', filter: frame.filter }
        : frame.workloadUid !== undefined
          ? { kind: 'workload', uid: frame.workloadUid }
          : { kind: 'none' };
      // The legend takes the column header's line: the map has page + 1 lines.
      // Until the selection follows its key (`m` names the workload's first node), the key is the cursor.
      const nodeRows = filtered.rows;
      const keyed = frame.selectedKey !== null && nodeRows[frame.selected]?.key !== frame.selectedKey;
      const cursor = keyed ? nodeRows.findIndex((r) => r.key === frame.selectedKey) : frame.selected;
      map = mergedMap
        ? this.fleet.mapScreen(
            key.snapshot,
            key.source,
            spec,
            cursor,
            inner,
            page + 1,
            this.noColor,
            frame.mapIdle === true,
          )
        : this.gpuMap.screen(
            snapshot,
            explorerWorkloads(snapshot, this.rows),
            spec,
            cursor,
            inner,
            page + 1,
            this.noColor,
            frame.mapIdle === true,
          );
    }
    const lines: ScreenLine[] = [];
    const end = incident || map ? 0 : Math.min(rows.length, frame.top + page);
    for (let i = frame.top; i < end; i++) {
      const r = rows[i];
      const selected = i === frame.selected;
      if (!r) {
        // Scrolled past the served window: a blank line until the worker's next one.
        lines.push({ key: `…${i}`, text: fit('', inner), tone: 'dim', selected, changed: false });
        continue;
      }
      lines.push({
        key: r.key,
        text: rowText(r, table.columns, layout, inner, nowMs),
        tone: r.tone,
        selected,
        changed: !selected && r.workloadUid !== undefined && active.has(r.workloadUid),
      });
    }
    // `:nodes` by domain counts nodes, not its domain rows (a collapsed domain's nodes are in the total).
    const title =
      frame.kind === 'clusters'
        ? viewTitle(frame, snapshot, state.namespace, countClusterRows(rows), countClusterRows(table.rows))
        : table.sortedWithin && frame.kind === 'nodes'
          ? viewTitle(
              frame,
              snapshot,
              state.namespace,
              countNodeRows(filtered.rows),
              snapshot.nodes.length,
              false,
              scope.cluster,
            )
          : viewTitle(
              frame,
              snapshot,
              state.namespace,
              rows.length,
              served?.unfiltered ?? table.rows.length,
              loading,
              scope.cluster,
            );
    const flash = flashFor(state, table, snapshot, nowMs, map?.cursorText ?? null, connection.server);
    const emptyText = rows.length
      ? null
      : loading
        ? LOADING_TEXT
        : (table.missing ??
          (map
            ? 'no nodes (not readable, or none yet)'
            : frame.filter
              ? 'no row matches the filter'
              : (notListedYet(snapshot, connection.server) ??
                (NAMESPACED_VIEWS.has(frame.kind) ? emptyNamespaceText(snapshot, state, connection) : null) ??
                'nothing to show')));

    let signature: ScreenSignature | null = null;
    if ((!incident || loading) && !state.quit) {
      const c = connection;
      const body = [
        title,
        emptyText ?? '',
        flash?.text ?? '',
        String(table.missing),
        panel.map((p) => `${p.tone}:${p.text}`).join('\n'),
        columnHeader,
        `${layout.shown.join(',')}|${layout.widths.join(',')}|${rows.length}|${rows[frame.selected]?.key === frame.selectedKey}`,
        ...lines.map((x) => `${x.key}|${x.tone}|${x.selected}|${x.changed}|${x.text}`),
        map?.signature ?? '',
      ];
      signature = {
        header: [
          header.gpus,
          header.nodes,
          JSON.stringify(header.summary),
          header.workloads,
          JSON.stringify([c.context, c.cluster, c.user, c.serverVersion]),
        ].join('\u0000'),
        body: body.join('\u0000'),
      };
    }
    return {
      state,
      frame,
      width,
      headerLines,
      page,
      header,
      panel,
      table,
      rows,
      ...(served && served.request.selectedKey === frame.selectedKey && served.selectedAt >= 0
        ? { selectedAt: served.selectedAt }
        : {}),
      filterError: filtered.error ?? map?.error,
      title,
      columnHeader,
      lines,
      emptyText,
      flash,
      signature,
      map,
      loading,
    };
  }
}
