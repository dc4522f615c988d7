// What a key does: the filter and command lines take text, other keys go
// through the view's keymap (keymap.ts) to an action, and the action becomes
// view-state actions for the reducer plus at most one effect the App carries
// out (quit, switch context). Pure, so a key's effect is testable without a
// terminal; the rows and page are those of the state the key acts on.
import type { ModelSnapshot, NodePodEntry } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import { bindingFor, type KeyAction } from '../keymap.js';
import { compareNames } from '../render/domains.js';
import { workloadPlacements } from '../../model/workload-nodes.js';
import type { MapDirection } from '../render/gpu-map/layout.js';
import type { Row } from '../render/table.js';
import { completeCommand, parseCommand } from './commands.js';
import { findWorkload, namespacesOf } from './derive.js';
import { framesToPod, incidentNavigation } from './incident-nav.js';
import { currentFrame, type Flash, type UiAction, type UiState } from './viewState.js';

export type KeyEffect = { kind: 'quit' } | { kind: 'switchContext'; context: string };

export interface KeyOutcome {
  actions: UiAction[];
  effect?: KeyEffect;
}

export interface KeyContext {
  state: UiState;
  /** The current view's rows (sorted, filtered) and visible page size. */
  rows: readonly (Row | undefined)[];
  page: number;
  snapshot: ModelSnapshot;
  /** Context names for `:ctx` completion. */
  contexts: readonly string[];
  canSwitchContext: boolean;
  getNodePods: (node: string) => NodePodEntry[];
  /** The GPU map on screen: where a cursor key leads from a node (indices into `rows`). */
  map?: { step: (from: number, dir: MapDirection) => number };
}

const NONE: KeyOutcome = { actions: [] };
const flash = (text: string, level: Flash['level']): UiAction => ({ type: 'flash', flash: { text, level } });
const isText = (input: string) => !!input && !/[\u0000-\u001f\u007f]/.test(input);

/** What key `name` (typed as `input`) does in this context. */
export function keyOutcome(name: string, input: string, ctx: KeyContext): KeyOutcome {
  const { state } = ctx;
  if (state.quit) return NONE;
  if (name === 'ctrl-c') return { actions: [], effect: { kind: 'quit' } };
  if (state.mode === 'filter') {
    if (name === 'esc') return { actions: [{ type: 'cancelInput' }] };
    if (name === 'enter') return { actions: [{ type: 'commitInput' }] };
    if (name === 'backspace') return { actions: [{ type: 'backspace' }] };
    if (name === 'up' || name === 'down') {
      const moved = actionOutcome(name, ctx);
      return { actions: [{ type: 'commitInput' }, ...moved.actions], effect: moved.effect };
    }
    if (name === 'space') return { actions: [{ type: 'input', text: ' ' }] };
    return isText(input) ? { actions: [{ type: 'input', text: input }] } : NONE;
  }
  if (state.mode === 'command') {
    if (name === 'esc') return { actions: [{ type: 'cancelInput' }] };
    if (name === 'enter') return commandOutcome(state.input, ctx);
    if (name === 'backspace') return { actions: [{ type: 'backspace' }] };
    if (name === 'tab') {
      const done = completeCommand(state.input, namespacesOf(ctx.snapshot), ctx.contexts);
      return { actions: [{ type: 'complete', text: done.text, candidates: done.candidates }] };
    }
    if (name === 'space') return { actions: [{ type: 'input', text: ' ' }] };
    return isText(input) ? { actions: [{ type: 'input', text: input }] } : NONE;
  }
  const binding = bindingFor(currentFrame(state).kind, name);
  return binding ? actionOutcome(binding.action, ctx) : NONE;
}

function commandOutcome(text: string, ctx: KeyContext): KeyOutcome {
  const cmd = parseCommand(text);
  const commit: UiAction = { type: 'commitInput' };
  switch (cmd.kind) {
    case 'view':
      return {
        actions: [
          commit,
          { type: 'root', frame: { kind: cmd.view, label: cmd.view === 'defs' ? 'definitions' : cmd.view } },
        ],
      };
    case 'namespace':
      return {
        actions: [
          commit,
          { type: 'namespace', namespace: cmd.namespace },
          flash(`namespace: ${cmd.namespace === null ? 'all' : sanitise(cmd.namespace)}`, 'info'),
        ],
      };
    case 'context':
      return ctx.canSwitchContext
        ? { actions: [commit], effect: { kind: 'switchContext', context: cmd.context } }
        : { actions: [commit, flash('switching context is not available here; restart with --context NAME', 'warn')] };
    case 'quit':
      return { actions: [commit], effect: { kind: 'quit' } };
    case 'help':
      return { actions: [commit, { type: 'push', frame: { kind: 'help', label: 'help' } }] };
    case 'error':
      return { actions: [commit, flash(cmd.message, 'error')] };
  }
}

/** Enter on a row: where its target leads (a fleet's row: in its cluster). */
function drill(row: Row | undefined, ctx: KeyContext): UiAction[] {
  const actions = drillTo(row, ctx);
  const cluster = row?.cluster;
  if (cluster === undefined) return actions;
  return actions.map((a) =>
    a.type === 'push'
      ? { ...a, frame: { ...a.frame, cluster } }
      : a.type === 'pushMany'
        ? { ...a, frames: a.frames.map((f) => ({ ...f, cluster })) }
        : a,
  );
}

function drillTo(row: Row | undefined, ctx: KeyContext): UiAction[] {
  const target = row?.target;
  if (!row || !target || target.kind === 'none') {
    return row && currentFrame(ctx.state).kind === 'pods' ? [flash('the pod is not bound to a node yet', 'info')] : [];
  }
  switch (target.kind) {
    case 'workload':
      return [{ type: 'push', frame: { kind: 'workload', workloadUid: target.uid, label: target.label } }];
    case 'pods':
      return [
        {
          type: 'push',
          frame: { kind: 'pods', workloadUid: target.workloadUid, rolePath: target.rolePath, label: target.label },
        },
      ];
    case 'node':
      return [{ type: 'push', frame: { kind: 'node', nodeName: target.name, label: target.label } }];
    case 'queue':
      return [{ type: 'push', frame: { kind: 'queue', queueName: target.name, label: target.label } }];
    case 'podInWorkload': {
      const w = findWorkload(ctx.snapshot, target.workloadUid);
      if (!w) return [flash('that workload no longer exists', 'warn')];
      return [{ type: 'pushMany', frames: framesToPod(w, target.podUid) }];
    }
    case 'cluster':
      return [
        { type: 'cluster', cluster: target.context },
        flash(`cluster: ${sanitise(target.context)} (Esc: all clusters)`, 'info'),
      ];
  }
}

/** `m`: the map with the workload's nodes highlighted, the cursor on the first of them. */
function mapOutcome(uid: string | undefined, ctx: KeyContext): KeyOutcome {
  const w = findWorkload(ctx.snapshot, uid);
  if (!w) return NONE;
  // A tree sent without its pods names their nodes.
  const nodes = [...new Set(w.podsElided?.nodes ?? workloadPlacements(w).map((p) => p.node))].sort(compareNames);
  const frame = {
    kind: 'map' as const,
    label: `map ${sanitise(w.name)}`,
    workloadUid: w.uid,
    selectedKey: nodes[0] ?? null,
  };
  const actions: UiAction[] = [{ type: 'push', frame }];
  if (!nodes.length) actions.push(flash(`${sanitise(w.name)} has no pods on a node`, 'info'));
  return { actions };
}

function actionOutcome(action: KeyAction, ctx: KeyContext): KeyOutcome {
  const { rows, page } = ctx;
  const frame = currentFrame(ctx.state);
  const count = rows.length;
  const selected = rows[frame.selected];
  const one = (a: UiAction): KeyOutcome => ({ actions: [a] });
  switch (action) {
    case 'up':
      return one({ type: 'move', delta: -1, count, page });
    case 'down':
      return one({ type: 'move', delta: 1, count, page });
    case 'pageUp':
      return one({ type: 'move', delta: -page, count, page });
    case 'pageDown':
      return one({ type: 'move', delta: page, count, page });
    case 'top':
      return one({ type: 'moveTo', where: 'first', count, page });
    case 'bottom':
      return one({ type: 'moveTo', where: 'last', count, page });
    case 'enter':
      return { actions: drill(selected, ctx) };
    case 'back':
      return one({ type: 'back' });
    case 'filter':
      return one({ type: 'startFilter' });
    case 'command':
      return one({ type: 'startCommand' });
    case 'allNamespaces':
      return { actions: [{ type: 'namespace', namespace: null }, flash('namespace: all', 'info')] };
    case 'help':
      return frame.kind === 'help' ? NONE : one({ type: 'push', frame: { kind: 'help', label: 'help' } });
    case 'quit':
      return { actions: [], effect: { kind: 'quit' } };
    case 'sortName':
      return one({ type: 'sort', key: 'name' });
    case 'sortAge':
      return one({ type: 'sort', key: 'age' });
    case 'sortStatus':
      return one({ type: 'sort', key: 'status' });
    case 'sortGpus':
      return one({ type: 'sort', key: 'gpus' });
    case 'sortUtil':
      return one({ type: 'sort', key: 'util' });
    case 'expand':
    case 'collapse':
    case 'toggle': {
      if (!selected?.treeKey || !selected.expandable) return NONE;
      const collapsed = action === 'expand' ? false : action === 'collapse' ? true : 'toggle';
      return one({ type: 'setCollapsed', treeKey: selected.treeKey, collapsed });
    }
    case 'allPods': {
      const w = findWorkload(ctx.snapshot, frame.workloadUid);
      if (!w) return NONE;
      return one({
        type: 'push',
        frame: { kind: 'pods', workloadUid: w.uid, rolePath: null, label: `${sanitise(w.name)} pods` },
      });
    }
    case 'cellUp':
    case 'cellDown':
    case 'cellLeft':
    case 'cellRight': {
      if (!ctx.map || !count) return NONE;
      const dir = ({ cellUp: 'up', cellDown: 'down', cellLeft: 'left', cellRight: 'right' } as const)[action];
      const to = ctx.map.step(frame.selected, dir);
      return to === frame.selected ? NONE : one({ type: 'move', delta: to - frame.selected, count, page: count });
    }
    case 'map': {
      const outcome = mapOutcome(frame.kind === 'workload' ? frame.workloadUid : selected?.workloadUid, ctx);
      // From a fleet's merged list: the map of that workload's cluster.
      const cluster = frame.kind === 'workload' ? undefined : selected?.cluster;
      if (cluster === undefined) return outcome;
      return {
        actions: outcome.actions.map((a) => (a.type === 'push' ? { ...a, frame: { ...a.frame, cluster } } : a)),
      };
    }
    case 'why':
    case 'timeline':
    case 'describe':
    case 'yaml':
    case 'events':
    case 'logs':
    case 'owner':
    case 'node': {
      const nav = incidentNavigation(action, frame, selected, ctx.snapshot, ctx.getNodePods);
      if ('flash' in nav) return one(flash(nav.flash, 'info'));
      // A fleet's merged row: its cluster's views.
      const cluster = selected?.cluster;
      const frames = cluster === undefined ? nav.frames : nav.frames.map((f) => ({ ...f, cluster }));
      return one({ type: 'pushMany', frames });
    }
  }
}
