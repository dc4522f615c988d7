// The explorer: reads the model through a ModelSource (never fetches itself),
// keeps view state in a reducer, derives the current view's rows with
// memoisation, and lays out header, detail panel, table, breadcrumbs and the
// flash / prompt line to the terminal size.
import type React from 'react';
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Box } from 'ink';
import type { ModelSnapshot, ModelSource } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import { useModelSnapshot } from '../hooks/useModelSnapshot.js';
import { useTerminalSize, type TerminalSize } from '../hooks/useTerminalSize.js';
import { useKeymap } from '../hooks/useKeymap.js';
import { bindingFor, KEYMAP, type KeyAction } from '../keymap.js';
import {
  currentFrame,
  initialState,
  reduce,
  type Flash as FlashMessage,
  type UiAction,
  type UiState,
  type ViewFrame,
} from '../state/viewState.js';
import { tableForFrame, filterRows, findWorkload, findNode, namespacesOf, type ViewTable } from '../state/derive.js';
import { parseCommand, completeCommand } from '../state/commands.js';
import { ChangeHighlights } from '../state/highlights.js';
import { ViewMemo } from '../state/memo.js';
import { helpTable } from '../render/help.js';
import { workloadPanel, nodePanel, type PanelLine } from '../render/panels.js';
import { layoutColumns, type Row } from '../render/table.js';
import { Header, summariseConnection, workloadCounts } from './Header.js';
import { RowList, rowText } from './RowList.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { Flash } from './Flash.js';
import { FilterLine } from './FilterLine.js';
import { CommandLine } from './CommandLine.js';
import { DetailPanel } from './DetailPanel.js';
import { IncidentView, type PaneKeyHandler } from './IncidentView.js';
import { isIncidentKind } from '../state/incident.js';
import { framesToPod, incidentNavigation, jumpToPods, whyPanelLines } from '../state/incident-nav.js';

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
}

const HEADER_LINES = 4;

/** A change to the header's figures alone is drawn at most this often (rows and everything else at once). */
const HEADER_REFRESH_MS = 500;
const BODY_MARK = '\u0001';
const bodyOf = (signature: string): string => signature.slice(signature.indexOf(BODY_MARK));

function viewTitle(
  frame: ViewFrame,
  snapshot: ModelSnapshot,
  namespace: string | null,
  count: number,
  total: number,
): string {
  const ns = namespace === null ? 'all' : sanitise(namespace);
  const n = count === total ? `[${count}]` : `[${count}/${total}]`;
  let t = frame.kind as string;
  switch (frame.kind) {
    case 'workloads':
      t = `workloads(${ns})${n}`;
      break;
    case 'workload': {
      const w = findWorkload(snapshot, frame.workloadUid);
      t = w ? `${sanitise(w.kind).toLowerCase()}(${sanitise(w.namespace)}/${sanitise(w.name)})${n}` : `workload${n}`;
      break;
    }
    case 'pods':
      t = frame.workloadUid === undefined ? `pods(${ns})${n}` : `pods(${frame.label})${n}`;
      break;
    case 'node':
      t = `node(${frame.label})${n}`;
      break;
    case 'nodes':
      t = `nodes${n}`;
      break;
    case 'defs':
      t = `definitions${n}`;
      break;
    case 'help':
      t = 'help';
      break;
    default:
      t = frame.label;
  }
  if (frame.filter) t += ` </${sanitise(frame.filter)}>`;
  return ` ${t} `;
}

function panelFor(snapshot: ModelSnapshot, frame: ViewFrame): PanelLine[] {
  if (frame.kind === 'workload') {
    const w = findWorkload(snapshot, frame.workloadUid);
    return w
      ? [...workloadPanel(w), ...whyPanelLines(w, Date.now())]
      : [{ text: 'workload no longer exists', tone: 'error' }];
  }
  if (frame.kind === 'node') {
    const n = findNode(snapshot, frame.nodeName);
    return n ? nodePanel(n) : [{ text: 'node no longer exists', tone: 'error' }];
  }
  return [];
}

/** Explicit messages win; otherwise a vanished object, then model problems. */
function flashFor(state: UiState, table: ViewTable, snapshot: ModelSnapshot): FlashMessage | null {
  return (
    state.flash ??
    (table.missing
      ? { text: table.missing + ' (Esc goes back)', level: 'warn' as const }
      : snapshot.problems.length
        ? {
            text: `${snapshot.problems.length} problem${snapshot.problems.length === 1 ? '' : 's'}: ${sanitise(snapshot.problems[0])}${snapshot.problems.length > 1 ? ' (see :defs)' : ''}`,
            level: 'warn' as const,
          }
        : null)
  );
}

export function App(props: AppProps): React.JSX.Element {
  const { source } = props;
  const noColor = props.noColor ?? false;
  // Snapshots that change nothing on screen are not rendered (see screenSignature below).
  const gate = useRef<(next: ModelSnapshot) => boolean>(() => true);
  const snapshot = useModelSnapshot(source, props.frameIntervalMs ?? 66, (next) => gate.current(next));
  const size = useTerminalSize(props.size);
  // The view state lives in a ref reduced eagerly, and a counter re-renders:
  // keys can arrive faster than React renders (a pasted or tmux-sent burst),
  // and each must see the state the previous one left, not a stale render's.
  const stateRef = useRef<UiState | null>(null);
  if (stateRef.current === null) stateRef.current = initialState(props.initialNamespace ?? null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const dispatch = (action: UiAction) => {
    const next = reduce(stateRef.current!, action);
    if (next === stateRef.current) return;
    stateRef.current = next;
    rerender();
  };
  const state = stateRef.current;
  const frame = currentFrame(state);
  const [now, setNow] = useState(() => Date.now());
  const nowRef = useRef(now);
  nowRef.current = now;
  const [candidates, setCandidates] = useState<string[]>([]);
  const connection = source.getConnectionInfo();

  // Ages and highlights move with the clock: one tick a second (drawn only
  // when a visible age or highlight actually changed).
  useEffect(() => {
    const t = setInterval(() => {
      const at = Date.now();
      if (drawNowRef.current(signatureRef.current(latestSnapshot.current, stateRef.current!, at))) setNow(at);
    }, 1000);
    return () => clearInterval(t);
  }, []);

  // Recently changed workloads: their rows are highlighted for a moment.
  const highlights = useRef<ChangeHighlights | null>(null);
  highlights.current ??= new ChangeHighlights(props.highlightMs ?? 1500);
  highlights.current.note(snapshot.version, snapshot.changedWorkloads, Date.now());
  // eslint-disable-next-line react-hooks/exhaustive-deps -- recomputed per snapshot and clock tick, which the ref cannot signal
  const changed = useMemo(() => highlights.current!.active(Date.now()), [snapshot.version, now]);
  const latestSnapshot = useRef(snapshot);
  latestSnapshot.current = snapshot;

  // Derivation, memoised per step: table (snapshot + frame identity), sort, filter.
  // The derivation is also run by key handlers on the live (eagerly reduced)
  // state: a burst of keys (`:no⏎⏎` pasted or sent at once) must act on the
  // rows of the view each previous key produced, not on the last render's.
  const memo = useRef<ViewMemo | null>(null);
  memo.current ??= new ViewMemo();
  // Key handlers derive from the newest snapshot the gate has seen (the one
  // the memo holds), not the last drawn one: no re-derivation ping-pong.
  const deriveView = (st: UiState, snap: ModelSnapshot = latestSnapshot.current) => {
    const f = currentFrame(st);
    const prev = st.stack.length > 1 ? st.stack[st.stack.length - 2].kind : 'workloads';
    const t = memo.current!.table(
      [snap, f.kind, f.workloadUid, f.rolePath, f.nodeName, f.collapsed, st.namespace, prev, source],
      () =>
        f.kind === 'help'
          ? { ...helpTable(KEYMAP[prev]), sortable: false }
          : tableForFrame(snap, f, st.namespace, (n) => source.getNodePods(n)),
    );
    const sortedRows = memo.current!.sortedRows(t.rows, t.sortable, f.sort);
    const filteredRows = memo.current!.filtered([sortedRows, f.filter], () => filterRows(sortedRows, f.filter));
    return { table: t, filtered: filteredRows };
  };
  const { table, filtered } = deriveView(state);
  const rows = filtered.rows;

  // Detail panel.
  const panel: PanelLine[] = useMemo(
    () => panelFor(snapshot, frame),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only these fields of the frame choose the panel
    [snapshot, frame.kind, frame.workloadUid, frame.nodeName],
  );

  // Layout.
  const width = Math.max(20, size.columns);
  const headerLines = size.rows >= 20 ? HEADER_LINES : 1;
  const panelLines = Math.min(panel.length, Math.max(0, size.rows - headerLines - 8));
  const page = Math.max(1, size.rows - headerLines - panelLines - 5);

  // What a snapshot (or the clock) can change on screen, as one string: the
  // header's figures, the title, the flash, the panel, the column layout and
  // the text, tone and highlight of each visible row. A snapshot whose
  // signature equals the last drawn one is not rendered: with 100,000 pods
  // and thousands of status events a second, most snapshots change only
  // rows that are off screen, and every render costs Ink a whole frame.
  // Incident views read the snapshot in their own ways: always rendered.
  // The header's figures come first, then BODY_MARK, then the rest: under
  // churn the cluster totals change with nearly every snapshot, so a change
  // to them alone is drawn at most every HEADER_REFRESH_MS (rows, title,
  // flash and panel changes are drawn at once).
  const screenSignature = (snap: ModelSnapshot, st: UiState, nowMs: number): string | null => {
    const f = currentFrame(st);
    if (isIncidentKind(f.kind) || st.quit) return null;
    const hl = highlights.current!;
    hl.note(snap.version, snap.changedWorkloads, Date.now());
    const active = hl.active(Date.now());
    const { table: t, filtered: fr } = deriveView(st, snap);
    const rs = fr.rows;
    const pl = f.kind === 'workload' || f.kind === 'node' ? panelFor(snap, f) : [];
    const pg = Math.max(1, size.rows - headerLines - Math.min(pl.length, Math.max(0, size.rows - headerLines - 8)) - 5);
    const inner = Math.max(10, width - 2);
    const lay = layoutColumns(t.columns, rs, inner);
    const conn = source.getConnectionInfo();
    const parts: string[] = [
      JSON.stringify(snap.totals),
      JSON.stringify(summariseConnection(snap.kinds)),
      workloadCounts(snap, st.namespace),
      JSON.stringify([conn.context, conn.cluster, conn.user, conn.serverVersion]),
      BODY_MARK,
      viewTitle(f, snap, st.namespace, rs.length, t.rows.length),
      flashFor(st, t, snap)?.text ?? '',
      String(t.missing),
      pl.map((l) => `${l.tone}:${l.text}`).join('\n'),
      `${lay.shown.join(',')}|${lay.widths.join(',')}|${rs.length}|${rs[f.selected]?.key === f.selectedKey}`,
    ];
    const end = Math.min(rs.length, f.top + pg);
    for (let i = f.top; i < end; i++) {
      const r = rs[i];
      const hot = i !== f.selected && r.workloadUid !== undefined && active.has(r.workloadUid);
      parts.push(`${r.key}|${r.tone}|${i === f.selected}|${hot}|${rowText(r, t.columns, lay, inner, nowMs)}`);
    }
    return parts.join('\u0000');
  };
  const signatureRef = useRef(screenSignature);
  signatureRef.current = screenSignature;
  const lastSignature = useRef<string | null>(null);
  lastSignature.current = screenSignature(snapshot, state, now);
  const lastDrawAt = useRef(0);
  lastDrawAt.current = Date.now();
  const headerTimer = useRef<NodeJS.Timeout | null>(null);
  useEffect(
    () => () => {
      if (headerTimer.current) clearTimeout(headerTimer.current);
    },
    [],
  );
  // Whether a screen with this signature must be drawn now (false: nothing
  // changed, or only the header's figures, which a timer draws shortly).
  const drawNow = (sig: string | null): boolean => {
    const last = lastSignature.current;
    if (sig === null || last === null) return true;
    if (sig === last) return false;
    const wait = HEADER_REFRESH_MS - (Date.now() - lastDrawAt.current);
    if (wait > 0 && bodyOf(sig) === bodyOf(last)) {
      // Only the header's figures changed: drawn with the next frame, at the latest in `wait` ms.
      headerTimer.current ??= setTimeout(() => {
        headerTimer.current = null;
        if (signatureRef.current(latestSnapshot.current, stateRef.current!, nowRef.current) !== lastSignature.current)
          rerender();
      }, wait);
      return false;
    }
    return true;
  };
  const drawNowRef = useRef(drawNow);
  drawNowRef.current = drawNow;
  gate.current = (next) => {
    latestSnapshot.current = next;
    return drawNow(screenSignature(next, stateRef.current!, nowRef.current));
  };

  // Keep the selection on the same row (by key) when rows move, and in range.
  const keyAt = (i: number): string | null => rows[i]?.key ?? null;
  useEffect(() => {
    // Keys handled since this render changed the view: the next render reconciles.
    if (currentFrame(stateRef.current!) !== frame) return;
    let index = frame.selected;
    if (frame.selectedKey !== null && keyAt(index) !== frame.selectedKey) {
      const found = rows.findIndex((r) => r.key === frame.selectedKey);
      if (found >= 0) index = found;
    }
    index = Math.max(0, Math.min(index, rows.length - 1));
    const key = keyAt(index);
    if (
      index !== frame.selected ||
      key !== frame.selectedKey ||
      frame.top > Math.max(0, rows.length - page) ||
      index >= frame.top + page
    ) {
      dispatch({ type: 'reconcile', index, key: key ?? frame.selectedKey, count: rows.length, page });
    }
  });

  // Flash: explicit messages win; otherwise model problems and missing objects.
  const flash = flashFor(state, table, snapshot);

  // Auto-clear explicit flash messages.
  useEffect(() => {
    if (!state.flash) return;
    const t = setTimeout(() => dispatch({ type: 'flash', flash: null }), 4000);
    return () => clearTimeout(t);
  }, [state.flash]);

  const quitRequested = useRef(false);
  const quit = () => {
    if (quitRequested.current) return;
    quitRequested.current = true;
    dispatch({ type: 'quit' });
    props.onQuit();
  };

  const live = () => stateRef.current!;
  const liveFrame = () => currentFrame(stateRef.current!);
  const liveRows = () => deriveView(live()).filtered.rows;
  const selectedRow = (): Row | undefined => liveRows()[liveFrame().selected];

  const drill = (row: Row | undefined) => {
    const target = row?.target;
    if (!row || !target || target.kind === 'none') {
      if (row && liveFrame().kind === 'pods')
        dispatch({ type: 'flash', flash: { text: 'the pod is not bound to a node yet', level: 'info' } });
      return;
    }
    switch (target.kind) {
      case 'workload':
        dispatch({ type: 'push', frame: { kind: 'workload', workloadUid: target.uid, label: target.label } });
        return;
      case 'pods':
        dispatch({
          type: 'push',
          frame: { kind: 'pods', workloadUid: target.workloadUid, rolePath: target.rolePath, label: target.label },
        });
        return;
      case 'node':
        dispatch({ type: 'push', frame: { kind: 'node', nodeName: target.name, label: target.label } });
        return;
      case 'podInWorkload': {
        const w = findWorkload(snapshot, target.workloadUid);
        if (!w) {
          dispatch({ type: 'flash', flash: { text: 'that workload no longer exists', level: 'warn' } });
          return;
        }
        dispatch({ type: 'pushMany', frames: framesToPod(w, target.podUid) });
        return;
      }
    }
  };

  const runCommand = (text: string) => {
    const cmd = parseCommand(text);
    dispatch({ type: 'commitInput' });
    setCandidates([]);
    switch (cmd.kind) {
      case 'view':
        dispatch({ type: 'root', frame: { kind: cmd.view, label: cmd.view === 'defs' ? 'definitions' : cmd.view } });
        return;
      case 'namespace':
        dispatch({ type: 'namespace', namespace: cmd.namespace });
        dispatch({
          type: 'flash',
          flash: { text: `namespace: ${cmd.namespace === null ? 'all' : sanitise(cmd.namespace)}`, level: 'info' },
        });
        return;
      case 'context':
        if (props.onSwitchContext) props.onSwitchContext(cmd.context);
        else
          dispatch({
            type: 'flash',
            flash: { text: 'switching context is not available here; restart with --context NAME', level: 'warn' },
          });
        return;
      case 'quit':
        quit();
        return;
      case 'help':
        dispatch({ type: 'push', frame: { kind: 'help', label: 'help' } });
        return;
      case 'error':
        dispatch({ type: 'flash', flash: { text: cmd.message, level: 'error' } });
        return;
    }
  };

  const act = (action: KeyAction) => {
    const count = liveRows().length;
    switch (action) {
      case 'up':
        return dispatch({ type: 'move', delta: -1, count, page });
      case 'down':
        return dispatch({ type: 'move', delta: 1, count, page });
      case 'pageUp':
        return dispatch({ type: 'move', delta: -page, count, page });
      case 'pageDown':
        return dispatch({ type: 'move', delta: page, count, page });
      case 'top':
        return dispatch({ type: 'moveTo', where: 'first', count, page });
      case 'bottom':
        return dispatch({ type: 'moveTo', where: 'last', count, page });
      case 'enter':
        return drill(selectedRow());
      case 'back':
        return dispatch({ type: 'back' });
      case 'filter':
        return dispatch({ type: 'startFilter' });
      case 'command':
        setCandidates([]);
        return dispatch({ type: 'startCommand' });
      case 'allNamespaces':
        dispatch({ type: 'namespace', namespace: null });
        return dispatch({ type: 'flash', flash: { text: 'namespace: all', level: 'info' } });
      case 'help':
        if (liveFrame().kind === 'help') return;
        return dispatch({ type: 'push', frame: { kind: 'help', label: 'help' } });
      case 'quit':
        return quit();
      case 'sortName':
        return dispatch({ type: 'sort', key: 'name' });
      case 'sortAge':
        return dispatch({ type: 'sort', key: 'age' });
      case 'sortStatus':
        return dispatch({ type: 'sort', key: 'status' });
      case 'sortGpus':
        return dispatch({ type: 'sort', key: 'gpus' });
      case 'expand':
      case 'collapse':
      case 'toggle': {
        const row = selectedRow();
        if (!row?.treeKey || !row.expandable) return;
        return dispatch({
          type: 'setCollapsed',
          treeKey: row.treeKey,
          collapsed: action === 'expand' ? false : action === 'collapse' ? true : 'toggle',
        });
      }
      case 'allPods': {
        const w = findWorkload(snapshot, liveFrame().workloadUid);
        if (!w) return;
        return dispatch({
          type: 'push',
          frame: { kind: 'pods', workloadUid: w.uid, rolePath: null, label: `${sanitise(w.name)} pods` },
        });
      }
      case 'why':
      case 'timeline':
      case 'describe':
      case 'yaml':
      case 'events':
      case 'logs':
      case 'owner':
      case 'node': {
        const nav = incidentNavigation(action, liveFrame(), selectedRow(), snapshot, (n) => source.getNodePods(n));
        if ('flash' in nav) return dispatch({ type: 'flash', flash: { text: nav.flash, level: 'info' } });
        return dispatch({ type: 'pushMany', frames: nav.frames });
      }
    }
  };
  // Incident views handle their own scrolling keys first (see IncidentView).
  const paneKeys = useRef<PaneKeyHandler | null>(null);
  const setPaneKeys = useRef((h: PaneKeyHandler | null) => {
    paneKeys.current = h;
  }).current;

  // The latest handler in a ref: Ink's input listener is long-lived.
  const onKey = (name: string, input: string) => {
    if (quitRequested.current) return;
    if (name === 'ctrl-c') return quit();
    const state = live();
    if (state.mode === 'filter') {
      if (name === 'esc') return dispatch({ type: 'cancelInput' });
      if (name === 'enter') return dispatch({ type: 'commitInput' });
      if (name === 'backspace') return dispatch({ type: 'backspace' });
      if (name === 'up' || name === 'down') {
        dispatch({ type: 'commitInput' });
        return act(name);
      }
      if (name === 'space') return dispatch({ type: 'input', text: ' ' });
      if (input && !/[\u0000-\u001f\u007f]/.test(input)) return dispatch({ type: 'input', text: input });
      return;
    }
    if (state.mode === 'command') {
      if (name === 'esc') {
        setCandidates([]);
        return dispatch({ type: 'cancelInput' });
      }
      if (name === 'enter') return runCommand(state.input);
      if (name === 'backspace') return dispatch({ type: 'backspace' });
      if (name === 'tab') {
        const done = completeCommand(state.input, namespacesOf(snapshot), props.contexts ?? []);
        setCandidates(done.candidates);
        return dispatch({ type: 'setInput', text: done.text });
      }
      if (name === 'space') return dispatch({ type: 'input', text: ' ' });
      if (input && !/[\u0000-\u001f\u007f]/.test(input)) return dispatch({ type: 'input', text: input });
      return;
    }
    if (isIncidentKind(currentFrame(state).kind) && paneKeys.current?.(name, input)) return;
    const binding = bindingFor(currentFrame(state).kind, name);
    if (binding) act(binding.action);
  };
  const onKeyRef = useRef(onKey);
  onKeyRef.current = onKey;
  useKeymap((name, input) => onKeyRef.current(name, input));

  const title = viewTitle(frame, snapshot, state.namespace, rows.length, table.rows.length);
  let bottom: React.JSX.Element;
  if (state.mode === 'filter')
    bottom = <FilterLine filter={frame.filter} error={filtered.error} width={width} noColor={noColor} />;
  else if (state.mode === 'command')
    bottom = <CommandLine input={state.input} candidates={candidates} width={width} noColor={noColor} />;
  else bottom = <Flash flash={flash} width={width} noColor={noColor} />;

  return (
    <Box flexDirection="column" width={width} height={size.rows}>
      <Header
        snapshot={snapshot}
        connection={connection}
        namespace={state.namespace}
        wlxVersion={props.wlxVersion}
        width={width}
        lines={headerLines}
        noColor={noColor}
      />
      {panelLines > 0 ? <DetailPanel lines={panel.slice(0, panelLines)} width={width} noColor={noColor} /> : null}
      {isIncidentKind(frame.kind) && frame.incident ? (
        <IncidentView
          key={`${state.stack.length}:${frame.kind}`}
          kind={frame.kind}
          target={frame.incident}
          title={frame.label}
          source={source}
          snapshot={snapshot}
          width={width}
          height={page + 1}
          search={frame.filter}
          noColor={noColor}
          setKeyHandler={setPaneKeys}
          onJumpToPods={(names) => {
            const frames = jumpToPods(snapshot, frame.incident!, names);
            if (frames.length) dispatch({ type: 'pushMany', frames });
          }}
        />
      ) : (
        <RowList
          title={title}
          columns={table.columns}
          rows={rows}
          selected={frame.selected}
          top={frame.top}
          page={page}
          width={width}
          now={now}
          sort={table.sortable ? frame.sort : null}
          changed={changed}
          noColor={noColor}
          emptyText={table.missing ?? (frame.filter ? 'no row matches the filter' : 'nothing to show')}
        />
      )}
      <Breadcrumbs stack={state.stack} width={width} noColor={noColor} />
      {bottom}
    </Box>
  );
}

export type { UiState };
