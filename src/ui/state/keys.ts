// What a key does: the filter and command lines take text, other keys go
// through the user's hotkeys and plugins (hotkeys.yaml, plugins.yaml), then
// the view's keymap (keymap.ts), to an action, and the action becomes
// view-state actions for the reducer plus at most one effect the App carries
// out (quit, switch context, run a plugin, save the table). Pure, so a key's
// effect is testable without a terminal; the rows and page are those of the
// state the key acts on.
import type { ConnectionInfo, ModelSnapshot, NodePodEntry } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import { bindingFor, READ_ONLY_KEYS, type KeyAction } from '../keymap.js';
import { NO_USER_BINDINGS, type PluginBinding, type PluginRun, type UserBindings } from '../user-config.js';
import { compareNames } from '../render/domains.js';
import { workloadPlacements } from '../../model/workload-nodes.js';
import type { MapDirection } from '../render/gpu-map/layout.js';
import type { Row } from '../render/table.js';
import { completeCommand, parseCommand, type Command } from './commands.js';
import { findWorkload, namespacesOf } from './derive.js';
import { framesToPod, incidentNavigation } from './incident-nav.js';
import { pluginInScope, pluginSelection, runText } from './plugin-env.js';
import { currentFrame, type Flash, type UiAction, type UiState, type ViewFrame } from './ui-state.js';
import { typeCommandNames, workloadTypes } from './workload-types.js';

export type KeyEffect =
  | { kind: 'quit' }
  | { kind: 'switchContext'; context: string }
  /** A plugin on the selection: the caller resolves $CONTAINER (it reads the pod), then confirms or runs. */
  | { kind: 'plugin'; plugin: PluginBinding; env: Record<string, string>; pod?: { namespace: string; name: string } }
  /** A confirmed plugin run. */
  | { kind: 'runPlugin'; run: PluginRun }
  /** ctrl-s: the caller writes the current table. */
  | { kind: 'saveTable' };

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
  /** The user's aliases, hotkeys and plugins. */
  bindings?: UserBindings;
  /** Plugins can run (the caller gave a runner). */
  canRunPlugins?: boolean;
  /** For plugins' $CONTEXT $CLUSTER $USER. */
  connection?: ConnectionInfo;
  /** The key that triggered the action (1–9 pick a recent namespace). */
  key?: string;
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
      const names = [...typeCommandNames(workloadTypes(ctx.snapshot)), ...(ctx.bindings?.aliases.keys() ?? [])];
      const done = completeCommand(state.input, namespacesOf(ctx.snapshot), ctx.contexts, names);
      return { actions: [{ type: 'complete', text: done.text, candidates: done.candidates }] };
    }
    if (name === 'space') return { actions: [{ type: 'input', text: ' ' }] };
    return isText(input) ? { actions: [{ type: 'input', text: input }] } : NONE;
  }
  if (state.mode === 'confirm') {
    const run = state.confirm;
    if (name === 'y' && run) return { actions: [{ type: 'confirm', run: null }], effect: { kind: 'runPlugin', run } };
    if (name === 'n' || name === 'esc' || name === 'enter')
      return { actions: [{ type: 'confirm', run: null }, flash('not run', 'info')] };
    return NONE;
  }
  const frame = currentFrame(state);
  const user = userOutcome(name, frame, ctx);
  if (user) return user;
  const binding = bindingFor(frame.kind, name);
  if (binding?.action === 'readOnly')
    return { actions: [flash(`wlx is read-only: ${name} (${READ_ONLY_KEYS[name]} in k9s) does nothing`, 'warn')] };
  return binding ? actionOutcome(binding.action, { ...ctx, key: name }) : NONE;
}

/** A hotkey (anywhere) or a plugin (in its scopes) on this key. */
function userOutcome(name: string, frame: ViewFrame, ctx: KeyContext): KeyOutcome | null {
  const bindings = ctx.bindings ?? NO_USER_BINDINGS;
  const hotkey = bindings.hotkeys.find((h) => h.key === name);
  if (hotkey) return commandOutcome(hotkey.command, ctx);
  const candidates = bindings.plugins.filter((p) => p.key === name);
  if (!candidates.length) return null;
  const row = ctx.rows[frame.selected];
  const connection = ctx.connection ?? {
    context: '',
    cluster: '',
    user: '',
    server: '',
    serverVersion: null,
    namespace: null,
  };
  // A fleet narrowed to one cluster: its rows are that cluster's.
  const inCluster = frame.cluster ?? ctx.state.cluster ?? undefined;
  const selection = pluginSelection({ ...frame, cluster: inCluster }, row, ctx.snapshot, connection, ctx.getNodePods);
  const plugin = candidates.find((p) => pluginInScope(p, frame.kind, selection?.workload ?? null, ctx.snapshot));
  if (!plugin) return null;
  if (!ctx.canRunPlugins) return { actions: [flash('plugins are not available here', 'warn')] };
  if (!selection) return { actions: [flash(`${sanitise(plugin.description)}: nothing selected`, 'info')] };
  return { actions: [], effect: { kind: 'plugin', plugin, env: selection.env, pod: selection.pod } };
}

/** The prompt for a plugin with `confirm: true`. */
export function confirmText(run: PluginRun): string {
  return `run ${sanitise(runText(run))}? (y/n)`;
}

/** The frame a view command opens. */
function viewFrame(cmd: Extract<Command, { kind: 'view' | 'type' }>, namespace: string | null) {
  if (cmd.kind === 'type') return { kind: 'workloads' as const, label: cmd.type.label, workloadType: cmd.type };
  switch (cmd.view) {
    case 'defs':
      return { kind: 'defs' as const, label: 'definitions' };
    case 'events':
      return { kind: 'events' as const, label: 'events', incident: { kind: 'namespace' as const, namespace } };
    default:
      return { kind: cmd.view, label: cmd.view };
  }
}

/** What a `:` command line does (also a hotkey's command, `-c`, and Enter in the aliases view). */
export function commandOutcome(text: string, ctx: KeyContext): KeyOutcome {
  const cmd = parseCommand(text, { aliases: ctx.bindings?.aliases, types: workloadTypes(ctx.snapshot) });
  const commit: UiAction = { type: 'commitInput' };
  switch (cmd.kind) {
    case 'view':
    case 'type': {
      const actions: UiAction[] = [commit];
      let namespace = ctx.state.namespace;
      if (cmd.namespace !== undefined) {
        namespace = cmd.namespace;
        actions.push({ type: 'namespace', namespace });
      }
      // The pickers sit on top of the view they pick for; the others start a new stack.
      if (cmd.kind === 'view' && (cmd.view === 'contexts' || cmd.view === 'namespaces' || cmd.view === 'aliases'))
        return { actions: [...actions, { type: 'push', frame: viewFrame(cmd, namespace) }] };
      return { actions: [...actions, { type: 'root', frame: viewFrame(cmd, namespace) }] };
    }
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
    default:
      // Picker rows are handled by the enter action itself.
      return [];
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
    case 'enter': {
      const t = selected?.target;
      if (t?.kind === 'context') return commandOutcome(`ctx ${t.name}`, ctx);
      if (t?.kind === 'namespace')
        return {
          actions: [
            { type: 'back' },
            { type: 'namespace', namespace: t.name },
            flash(`namespace: ${t.name === null ? 'all' : sanitise(t.name)}`, 'info'),
          ],
        };
      if (t?.kind === 'command') return commandOutcome(t.text, ctx);
      return { actions: drill(selected, ctx) };
    }
    case 'back':
      return one({ type: 'back' });
    case 'filter':
      return one({ type: 'startFilter' });
    case 'command':
      return one({ type: 'startCommand' });
    case 'allNamespaces':
      return { actions: [{ type: 'namespace', namespace: null }, flash('namespace: all', 'info')] };
    case 'recentNamespace': {
      // Keys 1–9: the recent namespaces as they stood when the key was pressed.
      const ns = ctx.state.recentNamespaces[Number(ctx.key) - 1];
      if (ns === undefined)
        return one(flash(`no namespace on ${ctx.key} yet: 1–9 are the namespaces used lately (:ns picks one)`, 'info'));
      return { actions: [{ type: 'namespace', namespace: ns }, flash(`namespace: ${sanitise(ns)}`, 'info')] };
    }
    case 'saveTable':
      return { actions: [], effect: { kind: 'saveTable' } };
    case 'aliases':
      return frame.kind === 'aliases' ? NONE : one({ type: 'push', frame: { kind: 'aliases', label: 'aliases' } });
    case 'readOnly':
      return NONE;
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
    case 'mapIdle':
      return frame.kind === 'map' ? one({ type: 'mapIdle', on: !frame.mapIdle }) : NONE;
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
