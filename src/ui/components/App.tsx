// The explorer: composes the view state (src/ui/state/store.ts), the screen
// model and its draw gate (hooks/useScreen.ts), the keys (hooks/useExplorerKeys.ts)
// and the components that draw one screen: header, detail panel, table or
// incident view, breadcrumbs and the flash / prompt line. It reads the model
// through a ModelSource and never fetches itself.
import type React from 'react';
import { useCallback } from 'react';
import { Box } from 'ink';
import type { ModelSource } from '../../model/types.js';
import { useTerminalSize, type TerminalSize } from '../hooks/useTerminalSize.js';
import { useViewStore } from '../hooks/useViewStore.js';
import { useScreen } from '../hooks/useScreen.js';
import { useExplorerKeys } from '../hooks/useExplorerKeys.js';
import { useSelectionFollow } from '../hooks/useSelectionFollow.js';
import { useFlashTimeout } from '../hooks/useFlashTimeout.js';
import { useQueuePositions } from '../hooks/useQueuePositions.js';
import { useGpuMetrics } from '../hooks/useGpuMetrics.js';
import { usePodScope } from '../hooks/usePodScope.js';
import { framePodsHeld } from '../state/pod-scope.js';
import { servesRows } from '../state/served-rows.js';
import { useServedRows } from '../hooks/useServedRows.js';
import type { WorkCounters } from '../render/row-cache.js';
import { isIncidentKind } from '../state/incident.js';
import { jumpToPods } from '../state/incident-nav.js';
import { frameCluster } from '../state/fleet.js';
import { fleetKey } from '../../model/fleet/link.js';
import { Header } from './Header.js';
import { RowList } from './RowList.js';
import { MapView } from './MapView.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { BottomLine } from './BottomLine.js';
import { DetailPanel } from './DetailPanel.js';
import { IncidentView } from './IncidentView.js';

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
  /** `--topology-key` values (most general first); absent: the default keys the nodes carry. */
  topologyKeys?: readonly string[];
}

const NO_CONTEXTS: readonly string[] = [];

export function App(props: AppProps): React.JSX.Element {
  const { source } = props;
  const noColor = props.noColor ?? false;
  const size = useTerminalSize(props.size);
  const [store, state] = useViewStore(props.initialNamespace ?? null);
  const { screen, snapshot, driver } = useScreen(source, store, state, size, {
    frameIntervalMs: props.frameIntervalMs ?? 66,
    highlightMs: props.highlightMs,
    work: props.work,
    noColor,
    topologyKeys: props.topologyKeys,
  });
  const setPaneKeys = useExplorerKeys(driver, store, {
    contexts: props.contexts ?? NO_CONTEXTS,
    onQuit: props.onQuit,
    onSwitchContext: props.onSwitchContext,
  });
  useSelectionFollow(screen, store);
  useFlashTimeout(state.flash, store);

  const { frame, width } = screen;
  useQueuePositions(source, frame.kind);
  useGpuMetrics(source, frame.kind);
  usePodScope(source, state);
  useServedRows(source, screen, state.namespace);
  const incidentKind = isIncidentKind(frame.kind) ? frame.kind : null;
  const incident = incidentKind ? frame.incident : undefined;
  // A fleet's incident views read their cluster's own source (its access, its snapshot).
  const cluster = frameCluster(state, frame);
  const viewSource = (cluster !== null ? source.member?.(cluster) : undefined) ?? source;
  const viewSnapshot = viewSource === source ? snapshot : viewSource.getSnapshot();
  const incidentUid = incident && incident.kind !== 'node' ? incident.workloadUid : undefined;
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
    <Box flexDirection="column" width={width} height={size.rows}>
      <Header
        model={screen.header}
        wlxVersion={props.wlxVersion}
        width={width}
        lines={screen.headerLines}
        noColor={noColor}
      />
      {screen.panel.length > 0 ? <DetailPanel lines={screen.panel} width={width} noColor={noColor} /> : null}
      {incidentKind && incident && framePodsHeld(viewSnapshot, frame, servesRows(viewSource)) ? (
        <IncidentView
          key={`${state.stack.length}:${incidentKind}`}
          kind={incidentKind}
          target={incident}
          title={frame.label}
          source={viewSource}
          snapshot={viewSnapshot}
          multiKueueTries={tries}
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
  );
}
