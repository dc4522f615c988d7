// The explorer: composes the view state (src/ui/state/view-store.ts), the screen
// model and its draw gate (hooks/useScreen.ts), the keys (hooks/useExplorerKeys.ts)
// and the components that draw one screen: header, detail panel, table or
// incident view, breadcrumbs and the flash / prompt line. It reads the model
// through a ModelSource and never fetches itself.
import type React from 'react';
import { useCallback } from 'react';
import { Box } from 'ink';
import type { ModelSource } from '../../model/source.js';
import { useTerminalSize, type TerminalSize } from '../hooks/useTerminalSize.js';
import { useViewStore } from '../hooks/useViewStore.js';
import { useScreen } from '../hooks/useScreen.js';
import { useExplorerKeys } from '../hooks/useExplorerKeys.js';
import { useSelectionFollow } from '../hooks/useSelectionFollow.js';
import { useFlashTimeout } from '../hooks/useFlashTimeout.js';
import { useQueuePositions } from '../hooks/useQueuePositions.js';
import { useGpuMetrics } from '../hooks/useGpuMetrics.js';
import { useNamespaceAccess } from '../hooks/useNamespaceAccess.js';
import { usePodScope } from '../hooks/usePodScope.js';
import { framePodsHeld } from '../state/pod-scope.js';
import { frameCluster } from '../state/fleet.js';
import { fleetKey } from '../../model/fleet/link.js';
import { servesRows } from '../state/served-rows.js';
import { useServedRows } from '../hooks/useServedRows.js';
import type { WorkCounters } from '../render/row-cache.js';
import { isIncidentKind } from '../state/incident.js';
import { jumpToPods } from '../state/incident-nav.js';
import { Header } from './Header.js';
import { RowList } from './RowList.js';
import { MapView } from './MapView.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { BottomLine } from './BottomLine.js';
import { DetailPanel } from './DetailPanel.js';
import { IncidentView } from './IncidentView.js';
import { useNamespaceList } from '../hooks/useNamespaceList.js';
import { useInitialCommand } from '../hooks/useInitialCommand.js';
import type { ViewStore } from '../state/view-store.js';
import type { TableDump } from '../state/table-dump.js';
import { DEFAULT_SKIN, SkinContext, type Skin } from '../skin.js';
import { NO_USER_BINDINGS, type PluginResult, type PluginRun, type UserBindings } from '../user-config.js';

export interface AppProps {
  source: ModelSource;
  wlxVersion: string;
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  size?: TerminalSize;
  noColor?: boolean;
  /** Frame coalescing interval (ms). */
  frameIntervalMs?: number;
  initialNamespace?: string | null;
  /** Context names for `:ctx` completion. */
  contexts?: readonly string[];
  /** `:ctx NAME`: the CLI reopens the model source on that context; absent = not supported. */
  onSwitchContext?: (context: string) => void;
  onQuit: () => void;
  /** How long a changed workload's row stays highlighted. */
  highlightMs?: number;
  /** Test seam: counts the rows built and cells measured by this explorer's caches. */
  work?: WorkCounters;
  /** Test seam: the clock the screens' time is read from (ages, highlights); default Date.now. */
  clock?: () => number;
  /** `--topology-key` values (most general first); absent: the default keys the nodes carry. */
  topologyKeys?: readonly string[];
  /** The user's aliases, hotkeys and plugins (src/app/config/). */
  bindings?: UserBindings;
  /** The skin's colours; absent: wlx's own. */
  skin?: Skin | null;
  /** `--headless`: no header. */
  headless?: boolean;
  /** `-c/--command`: the `:` command to open with. */
  initialCommand?: string;
  /** Namespaces keys 1–9 start with (the context's, -n). */
  recentNamespaces?: readonly string[];
  /** Runs a plugin; foreground ones with the explorer suspended (run.tsx). Absent: plugins are not offered. */
  runPlugin?: (run: PluginRun) => Promise<PluginResult>;
  /** What plugins get besides the selection ($KUBECONFIG). */
  pluginEnv?: Readonly<Record<string, string>>;
  /** Writes the table (ctrl-s), resolving to the file written. */
  saveTable?: (dump: TableDump) => Promise<string>;
  /** A view state that outlives this App (run.tsx keeps it while a plugin suspends the explorer). */
  store?: ViewStore;
}

const NO_CONTEXTS: readonly string[] = [];

export function App(props: AppProps): React.JSX.Element {
  const { source } = props;
  const noColor = props.noColor ?? false;
  const size = useTerminalSize(props.size);
  const bindings = props.bindings ?? NO_USER_BINDINGS;
  const contexts = props.contexts ?? NO_CONTEXTS;
  const [store, state] = useViewStore(props.initialNamespace ?? null, props.recentNamespaces, props.store);
  const { screen, snapshot, driver } = useScreen(source, store, state, size, {
    frameIntervalMs: props.frameIntervalMs ?? 66,
    highlightMs: props.highlightMs,
    work: props.work,
    clock: props.clock,
    noColor,
    topologyKeys: props.topologyKeys,
    headless: props.headless,
    contexts,
    bindings,
    mapPalette: props.skin?.map,
  });
  const keyOptions = {
    source,
    contexts,
    onQuit: props.onQuit,
    onSwitchContext: props.onSwitchContext,
    bindings,
    runPlugin: props.runPlugin,
    pluginEnv: props.pluginEnv,
    saveTable: props.saveTable,
  };
  const setPaneKeys = useExplorerKeys(driver, store, keyOptions);
  useInitialCommand(
    props.initialCommand,
    snapshot,
    store,
    {
      contexts,
      canSwitchContext: props.onSwitchContext !== undefined,
      getNodePods: (n) => driver.nodePods(n),
      bindings,
    },
    bindings,
  );
  useNamespaceList(source, store, state, () => driver.latestSnapshot());
  useSelectionFollow(screen, store);
  useFlashTimeout(state.flash, store);

  const { frame, width } = screen;
  useQueuePositions(source, frame.kind);
  useGpuMetrics(source, frame.kind);
  usePodScope(source, state);
  useNamespaceAccess(source, snapshot, state, store);
  useServedRows(source, screen, state.namespace);
  const incidentKind = isIncidentKind(frame.kind) ? frame.kind : null;
  const incident = incidentKind ? frame.incident : undefined;
  // A fleet's incident views read their cluster's own source (its access, its snapshot).
  const cluster = frameCluster(state, frame);
  const viewSource = (cluster !== null ? source.member?.(cluster) : undefined) ?? source;
  const viewSnapshot = viewSource === source ? snapshot : viewSource.getSnapshot();
  const incidentUid = incident && 'workloadUid' in incident ? incident.workloadUid : undefined;
  const tries =
    incidentUid !== undefined && cluster !== null
      ? snapshot.fleet?.links.tried.get(fleetKey(cluster, incidentUid))
      : undefined;
  const onJumpToPods = useCallback(
    (names: string[]) => {
      if (!incident) return;
      const frames = jumpToPods(driver.latestSnapshot(), incident, names);
      if (frames.length) store.dispatch({ type: 'pushMany', frames });
    },
    [driver, store, incident],
  );

  return (
    <SkinContext.Provider value={props.skin ?? DEFAULT_SKIN}>
      <Box flexDirection="column" width={width} height={size.rows}>
        {screen.headerLines > 0 ? (
          <Header
            model={screen.header}
            wlxVersion={props.wlxVersion}
            width={width}
            lines={screen.headerLines}
            noColor={noColor}
          />
        ) : null}
        {screen.panel.length > 0 ? <DetailPanel lines={screen.panel} width={width} noColor={noColor} /> : null}
        {incidentKind && incident && framePodsHeld(viewSnapshot, frame, servesRows(source)) ? (
          <IncidentView
            key={`${state.stack.length}:${incidentKind}`}
            kind={incidentKind}
            target={incident}
            title={frame.label}
            source={viewSource}
            snapshot={viewSnapshot}
            multiKueueTries={tries}
            clock={props.clock}
            width={width}
            height={screen.page + 1}
            search={frame.filter}
            noColor={noColor}
            setKeyHandler={setPaneKeys}
            onJumpToPods={onJumpToPods}
          />
        ) : screen.map ? (
          <MapView
            title={screen.title}
            map={screen.map}
            height={screen.page + 1}
            width={width}
            noColor={noColor}
            emptyText={screen.emptyText}
          />
        ) : (
          <RowList
            title={screen.title}
            columnHeader={screen.columnHeader}
            lines={screen.lines}
            page={screen.page}
            width={width}
            noColor={noColor}
            emptyText={screen.emptyText}
          />
        )}
        <Breadcrumbs stack={state.stack} width={width} noColor={noColor} />
        <BottomLine screen={screen} width={width} noColor={noColor} />
      </Box>
    </SkinContext.Provider>
  );
}
