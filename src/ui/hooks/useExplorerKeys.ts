// Keys to view-state actions (src/ui/state/keys.ts), against the live state:
// each key of a burst acts on the view the previous key left. Incident views
// see their scrolling keys first (IncidentView registers a handler). The
// effects that leave the view state (a plugin, a saved table) are carried
// out through the caller's callbacks: the UI itself never starts a process
// or writes a file.
import { useCallback, useRef } from 'react';
import type { ModelSource } from '../../model/source.js';
import { sanitise } from '../../text/sanitise.js';
import type { PaneKeyHandler } from '../components/IncidentView.js';
import { isIncidentKind, podContainers } from '../state/incident.js';
import { keyOutcome, type KeyEffect } from '../state/keys.js';
import { pluginRun } from '../state/plugin-env.js';
import type { ViewStore } from '../state/view-store.js';
import { tableDump, type TableDump } from '../state/table-dump.js';
import { currentFrame, type Flash } from '../state/ui-state.js';
import type { PluginResult, PluginRun, UserBindings } from '../user-config.js';
import type { ScreenDriver } from './useScreen.js';
import { useKeymap } from './useKeymap.js';

export interface ExplorerKeyOptions {
  source: ModelSource;
  contexts: readonly string[];
  onQuit: () => void;
  onSwitchContext?: (context: string) => void;
  bindings: UserBindings;
  /** Runs a plugin (foreground ones with the explorer suspended); absent: plugins are not offered. */
  runPlugin?: (run: PluginRun) => Promise<PluginResult>;
  /** What plugins get besides the selection ($KUBECONFIG). */
  pluginEnv?: Readonly<Record<string, string>>;
  /** Writes a table (ctrl-s) and resolves to the file; absent: not offered. */
  saveTable?: (dump: TableDump) => Promise<string>;
}

function resultFlash(run: PluginRun, r: PluginResult): Flash {
  const name = sanitise(run.plugin.description);
  if (r.error) return { text: `plugin ${name}: ${sanitise(r.error)}`, level: 'error' };
  if (r.code === 0) return { text: `plugin ${name}: exit status 0`, level: 'info' };
  if (r.code === null) return { text: `plugin ${name}: ended by ${r.signal ?? 'a signal'}`, level: 'warn' };
  return { text: `plugin ${name}: exit status ${r.code}`, level: 'error' };
}

/** Handles the explorer's keys; returns the setter incident views register their pane handler with. */
export function useExplorerKeys(
  driver: ScreenDriver,
  store: ViewStore,
  options: ExplorerKeyOptions,
): (handler: PaneKeyHandler | null) => void {
  const pane = useRef<PaneKeyHandler | null>(null);
  const setPaneKeys = useCallback((handler: PaneKeyHandler | null) => {
    pane.current = handler;
  }, []);
  const flash = (text: string, level: Flash['level']) => store.dispatch({ type: 'flash', flash: { text, level } });

  const start = (run: PluginRun) => {
    const runner = options.runPlugin;
    if (!runner) return;
    if (run.plugin.background) flash(`plugin ${sanitise(run.plugin.description)} running…`, 'info');
    runner(run).then(
      (r) => store.dispatch({ type: 'flash', flash: resultFlash(run, r) }),
      (err: Error) => flash(`plugin ${sanitise(run.plugin.description)}: ${sanitise(err.message)}`, 'error'),
    );
  };

  const effect = (e: KeyEffect) => {
    switch (e.kind) {
      case 'quit':
        store.dispatch({ type: 'quit' });
        options.onQuit();
        return;
      case 'switchContext':
        options.onSwitchContext?.(e.context);
        return;
      case 'plugin': {
        const prepare = async (): Promise<PluginRun> => {
          const env = { ...options.pluginEnv, ...e.env };
          // $CONTAINER: the pod's default container (kubectl's annotation, else the first), read fresh.
          if (e.pod && options.source.access) {
            const pod = await options.source.access
              .getObject({ apiVersion: 'v1', kind: 'Pod', namespace: e.pod.namespace, name: e.pod.name })
              .catch(() => null);
            const container = pod ? podContainers(pod)[0] : undefined;
            if (container) env.CONTAINER = container;
          }
          return pluginRun(e.plugin, env);
        };
        void prepare().then((run) => {
          if (run.plugin.confirm) store.dispatch({ type: 'confirm', run });
          else start(run);
        });
        return;
      }
      case 'runPlugin':
        start(e.run);
        return;
      case 'saveTable': {
        if (!options.saveTable) {
          flash('saving tables is not available here', 'warn');
          return;
        }
        const dump = tableDump(driver.live(), driver.now);
        if ('reason' in dump) {
          flash(dump.reason, 'info');
          return;
        }
        const partial =
          dump.rows.length < dump.total
            ? ` (${dump.rows.length} of ${dump.total} rows: the rest are with the engine)`
            : '';
        options.saveTable(dump).then(
          (file) => flash(`saved ${sanitise(file)}${partial}`, 'info'),
          (err: Error) => flash(`could not save the table: ${sanitise(err.message)}`, 'error'),
        );
        return;
      }
    }
  };

  const handle = (name: string, input: string): void => {
    const state = store.getState();
    if (state.quit) return;
    if (name !== 'ctrl-c' && state.mode === 'normal' && isIncidentKind(currentFrame(state).kind)) {
      if (pane.current?.(name, input)) return;
    }
    // Alt-x nobody binds is an Escape typed just before x (they arrive as one sequence).
    const { hotkeys, plugins } = options.bindings;
    if (name.startsWith('alt-') && !hotkeys.some((h) => h.key === name) && !plugins.some((p) => p.key === name)) {
      handle('esc', '');
      handle(name.slice(4), name.slice(4));
      return;
    }
    const screen = driver.live();
    const snapshot = driver.latestSnapshot();
    const outcome = keyOutcome(name, input, {
      state,
      rows: screen.rows,
      page: screen.page,
      snapshot,
      contexts: options.contexts,
      canSwitchContext: options.onSwitchContext !== undefined,
      getNodePods: (node) => driver.nodePods(node),
      map: screen.map,
      bindings: options.bindings,
      canRunPlugins: options.runPlugin !== undefined,
      connection: options.source.getConnectionInfo(),
    });
    for (const action of outcome.actions) store.dispatch(action);
    if (outcome.effect) effect(outcome.effect);
  };
  useKeymap(handle);
  return setPaneKeys;
}
