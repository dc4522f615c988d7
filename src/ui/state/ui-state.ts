// View state of the explorer: a stack of views (k9s-style), each with its own
// selection, scroll offset, filter and sort; the input mode (filter / command);
// the namespace scope and the flash line. A pure reducer, so every key's
// effect is unit-testable without a terminal.
import type { NamespaceReadable } from '../../model/types.js';
import type { SortKey } from '../render/table.js';
import type { IncidentKind, IncidentTarget } from './incident.js';
import type { PluginRun } from '../user-config.js';

export type ViewKind =
  | 'workloads'
  | 'workload'
  | 'pods'
  | 'node'
  | 'nodes'
  | 'map'
  | 'queues'
  | 'queue'
  | 'defs'
  | 'problems'
  | 'help'
  | 'contexts'
  | 'namespaces'
  | 'aliases'
  | IncidentKind;

export interface SortState {
  key: SortKey;
  desc: boolean;
}

export interface ViewFrame {
  kind: ViewKind;
  /** Breadcrumb label (sanitised). */
  label: string;
  /** Workload, pods views: the workload; map: the workload whose nodes are highlighted (`m`). */
  workloadUid?: string;
  /** Pods view: role path (keys) inside the workload; null = all pods of the workload (or of all workloads without workloadUid). */
  rolePath?: string[] | null;
  nodeName?: string;
  /** Queue view: the ClusterQueue whose pending workloads are listed. */
  queueName?: string;
  /** Workloads view listing one type only (`:jobset`): its name and `group/Kind` keys (workload-types.ts). */
  workloadType?: { label: string; keys: readonly string[] };
  selected: number;
  /** Row key of the selection, so a live update that moves rows keeps the same row selected. */
  selectedKey: string | null;
  top: number;
  /** Regex filter; a leading `!` inverts it (the map: highlights the nodes of the workloads it matches). */
  filter: string;
  sort: SortState | null;
  /** Workload view: tree keys of collapsed roles. */
  collapsed: string[];
  /** Incident views (why, timeline, describe, yaml, events, logs): what they are about. */
  incident?: IncidentTarget;
  /** Map: coloured by the allocated GPUs that sit idle (`i`); absent: by allocation, or utilisation once read. */
  mapIdle?: boolean;
}

/** confirm: a plugin with `confirm: true` waits for y / n. */
export type InputMode = 'normal' | 'filter' | 'command' | 'confirm';

export interface Flash {
  text: string;
  level: 'info' | 'warn' | 'error';
  /** Stays until another message or view replaces it (what wlx says at start, e.g. config problems). */
  sticky?: boolean;
}

export interface UiState {
  stack: ViewFrame[];
  mode: InputMode;
  /** Text of the command line while in command mode. */
  input: string;
  /** Command-line completions offered by the last Tab. */
  candidates: string[];
  /** Filter text before `/` was pressed, restored when the filter is cancelled. */
  filterBefore: string;
  /** Namespace scope: a name, or null for all. */
  namespace: string | null;
  /** Whether the user may read `namespace` when the model does not say (hooks/useNamespaceAccess.ts); null: not asked. */
  namespaceAccess: ({ namespace: string } & NamespaceReadable) | null;
  flash: Flash | null;
  quit: boolean;
  /** Namespaces used lately, the newest first, each keeping its place once there (k9s's favourites: keys 1–9). */
  recentNamespaces: string[];
  /** The namespaces `:ns` offers, once read (null: not asked yet). */
  namespaceList: NamespaceList | null;
  /** The plugin run asked about in confirm mode. */
  confirm: PluginRun | null;
}

export interface NamespaceList {
  namespaces: Array<{ name: string; status?: string; createdMs?: number | null }>;
  /** Why the list is only the namespaces wlx knows it reads (listing was refused). */
  note?: string;
}

/** How many recent namespaces keys 1–9 reach. */
export const MAX_RECENT_NAMESPACES = 9;

export type UiAction =
  | { type: 'move'; delta: number; count: number; page: number }
  | { type: 'moveTo'; where: 'first' | 'last'; count: number; page: number }
  | { type: 'reconcile'; index: number; key: string | null; count: number; page: number }
  | { type: 'push'; frame: Partial<ViewFrame> & Pick<ViewFrame, 'kind' | 'label'> }
  | { type: 'pushMany'; frames: Array<Partial<ViewFrame> & Pick<ViewFrame, 'kind' | 'label'>> }
  | { type: 'root'; frame: Partial<ViewFrame> & Pick<ViewFrame, 'kind' | 'label'> }
  | { type: 'back' }
  | { type: 'startFilter' }
  | { type: 'startCommand' }
  | { type: 'input'; text: string }
  | { type: 'setInput'; text: string }
  | { type: 'complete'; text: string; candidates: string[] }
  | { type: 'backspace' }
  | { type: 'commitInput' }
  | { type: 'cancelInput' }
  | { type: 'sort'; key: SortKey }
  | { type: 'setCollapsed'; treeKey: string; collapsed: boolean | 'toggle' }
  | { type: 'namespace'; namespace: string | null }
  | { type: 'namespaceAccess'; namespace: string; answer: NamespaceReadable }
  | { type: 'namespaceList'; list: NamespaceList | null }
  | { type: 'confirm'; run: PluginRun | null }
  | { type: 'flash'; flash: Flash | null }
  | { type: 'mapIdle'; on: boolean }
  | { type: 'quit' };

export function newFrame(init: Partial<ViewFrame> & Pick<ViewFrame, 'kind' | 'label'>): ViewFrame {
  return { selected: 0, selectedKey: null, top: 0, filter: '', sort: null, collapsed: [], ...init };
}

export function initialState(namespace: string | null = null, recentNamespaces: readonly string[] = []): UiState {
  const recent = [...new Set(namespace === null ? recentNamespaces : [namespace, ...recentNamespaces])];
  return {
    stack: [newFrame({ kind: 'workloads', label: 'workloads' })],
    mode: 'normal',
    input: '',
    candidates: [],
    filterBefore: '',
    namespace,
    namespaceAccess: null,
    flash: null,
    quit: false,
    recentNamespaces: recent.slice(0, MAX_RECENT_NAMESPACES),
    namespaceList: null,
    confirm: null,
  };
}

export function currentFrame(state: UiState): ViewFrame {
  return state.stack[state.stack.length - 1];
}

function withTop(frame: ViewFrame, selected: number, count: number, page: number): ViewFrame {
  const sel = count <= 0 ? 0 : Math.max(0, Math.min(count - 1, selected));
  const p = Math.max(1, page);
  let top = frame.top;
  if (sel < top) top = sel;
  if (sel >= top + p) top = sel - p + 1;
  top = Math.max(0, Math.min(top, Math.max(0, count - p)));
  return { ...frame, selected: sel, top };
}

/** A new filter starts at the first row; the map's highlight regex leaves its cursor where it is. */
function filtered(frame: ViewFrame, filter: string): ViewFrame {
  return frame.kind === 'map' ? { ...frame, filter } : { ...frame, filter, selected: 0, top: 0, selectedKey: null };
}

function replaceTop(state: UiState, frame: ViewFrame): UiState {
  return { ...state, stack: [...state.stack.slice(0, -1), frame] };
}

export function reduce(state: UiState, action: UiAction): UiState {
  const frame = currentFrame(state);
  switch (action.type) {
    case 'move':
      return replaceTop(state, {
        ...withTop(frame, frame.selected + action.delta, action.count, action.page),
        selectedKey: null,
      });
    case 'moveTo':
      return replaceTop(state, {
        ...withTop(frame, action.where === 'first' ? 0 : action.count - 1, action.count, action.page),
        selectedKey: null,
      });
    case 'reconcile': {
      // The rows changed under the selection: follow the row (by key) or clamp.
      const next = withTop(frame, action.index, action.count, action.page);
      next.selectedKey = action.key;
      if (next.selected === frame.selected && next.top === frame.top && next.selectedKey === frame.selectedKey)
        return state;
      return replaceTop(state, next);
    }
    case 'push':
      return { ...state, stack: [...state.stack, newFrame(action.frame)], mode: 'normal', flash: null };
    case 'pushMany':
      return { ...state, stack: [...state.stack, ...action.frames.map(newFrame)], mode: 'normal', flash: null };
    case 'root':
      return { ...state, stack: [newFrame(action.frame)], mode: 'normal', input: '' };
    case 'back':
      if (state.mode === 'filter') return reduce(state, { type: 'cancelInput' });
      if (state.mode === 'command') return reduce(state, { type: 'cancelInput' });
      if (frame.filter) return replaceTop(state, filtered(frame, ''));
      if (state.stack.length > 1) return { ...state, stack: state.stack.slice(0, -1), flash: null };
      return state;
    case 'startFilter':
      // `/` starts a new filter (k9s): the previous text is not reopened.
      return {
        ...replaceTop(state, filtered(frame, '')),
        mode: 'filter',
        filterBefore: frame.filter,
      };
    case 'startCommand':
      return { ...state, mode: 'command', input: '', candidates: [] };
    case 'input':
      if (state.mode === 'filter') return replaceTop(state, filtered(frame, frame.filter + action.text));
      if (state.mode === 'command') return { ...state, input: state.input + action.text };
      return state;
    case 'setInput':
      if (state.mode === 'filter') return replaceTop(state, filtered(frame, action.text));
      return { ...state, input: action.text };
    case 'complete':
      return { ...state, input: action.text, candidates: action.candidates };
    case 'backspace':
      if (state.mode === 'filter') return replaceTop(state, filtered(frame, [...frame.filter].slice(0, -1).join('')));
      if (state.mode === 'command') return { ...state, input: [...state.input].slice(0, -1).join('') };
      return state;
    case 'commitInput':
      return { ...state, mode: 'normal', input: '', candidates: [] };
    case 'cancelInput':
      // Esc in the filter line clears the filter (k9s behaviour).
      if (state.mode === 'filter')
        return {
          ...replaceTop(state, filtered(frame, '')),
          mode: 'normal',
        };
      return { ...state, mode: 'normal', input: '', candidates: [] };
    case 'sort': {
      const sort: SortState =
        frame.sort?.key === action.key
          ? { key: action.key, desc: !frame.sort.desc }
          : { key: action.key, desc: action.key === 'gpus' || action.key === 'util' };
      return replaceTop(state, { ...frame, sort, selected: 0, top: 0, selectedKey: null });
    }
    case 'setCollapsed': {
      const has = frame.collapsed.includes(action.treeKey);
      const want = action.collapsed === 'toggle' ? !has : action.collapsed;
      if (want === has) return state;
      const collapsed = want
        ? [...frame.collapsed, action.treeKey]
        : frame.collapsed.filter((k) => k !== action.treeKey);
      return replaceTop(state, { ...frame, collapsed });
    }
    case 'namespaceAccess':
      return action.namespace === state.namespace
        ? { ...state, namespaceAccess: { namespace: action.namespace, ...action.answer } }
        : state;
    case 'namespace':
      return {
        ...state,
        namespace: action.namespace,
        namespaceAccess: state.namespaceAccess?.namespace === action.namespace ? state.namespaceAccess : null,
        stack: state.stack.map((f) => ({ ...f, selected: 0, top: 0, selectedKey: null })),
        // As k9s's favourites: a new namespace goes first, one already there keeps its key.
        recentNamespaces:
          action.namespace === null || state.recentNamespaces.includes(action.namespace)
            ? state.recentNamespaces
            : [action.namespace, ...state.recentNamespaces].slice(0, MAX_RECENT_NAMESPACES),
      };
    case 'namespaceList':
      return { ...state, namespaceList: action.list };
    case 'confirm':
      return { ...state, confirm: action.run, mode: action.run ? 'confirm' : 'normal' };
    case 'flash':
      return { ...state, flash: action.flash };
    case 'mapIdle':
      return frame.kind === 'map' ? replaceTop(state, { ...frame, mapIdle: action.on || undefined }) : state;
    case 'quit':
      return { ...state, quit: true };
  }
}

/**
 * Keeps the selection on the same row (by key) when the rows under it move,
 * and selection and scroll in range: the action to dispatch, or null.
 */
export function followSelection(
  frame: ViewFrame,
  /** A served view's rows are present only around what is drawn (src/ui/state/served-rows.ts). */
  rows: readonly ({ key: string } | undefined)[],
  page: number,
  /** Where the selection's key is, when the rows at hand cannot say (a served view's, outside its window). */
  keyAt?: number,
): Extract<UiAction, { type: 'reconcile' }> | null {
  let index = frame.selected;
  if (frame.selectedKey !== null && rows[index]?.key !== frame.selectedKey) {
    const found = rows.findIndex((r) => r?.key === frame.selectedKey);
    if (found >= 0) index = found;
    else if (keyAt !== undefined) index = keyAt;
  }
  index = Math.max(0, Math.min(index, rows.length - 1));
  const key = rows[index]?.key ?? null;
  if (
    index === frame.selected &&
    key === frame.selectedKey &&
    frame.top <= Math.max(0, rows.length - page) &&
    index < frame.top + page
  )
    return null;
  return { type: 'reconcile', index, key: key ?? frame.selectedKey, count: rows.length, page };
}
