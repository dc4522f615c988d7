// Runs the explorer on the real terminal until the user quits (or asks for
// another context), owning the screen meanwhile (see terminal.ts). A
// foreground plugin suspends it: the screen and the keyboard go back to the
// terminal while the caller runs the program, then the explorer is drawn
// again where it was (its view state outlives the suspension).
import './interactive.js';
import './ink-frame-memo.js';
import { render } from 'ink';
import type { ModelSource } from '../model/source.js';
import { App } from './components/App.js';
import { guardTerminal, type TerminalGuard } from './terminal.js';
import { noColorRequested } from './components/theme.js';
import { MAX_FPS } from './frame-rate.js';
import { ViewStore } from './state/view-store.js';
import type { Flash } from './state/ui-state.js';
import type { TableDump } from './state/table-dump.js';
import type { Skin } from './skin.js';
import type { PluginResult, PluginRun, UserBindings } from './user-config.js';

export interface ExplorerOptions {
  source: ModelSource;
  wlxVersion: string;
  initialNamespace?: string | null;
  contexts?: readonly string[];
  /** Offer `:ctx NAME` (the caller reopens the source and runs again). */
  canSwitchContext?: boolean;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  stderr?: NodeJS.WriteStream;
  bindings?: UserBindings;
  skin?: Skin | null;
  headless?: boolean;
  initialCommand?: string;
  recentNamespaces?: readonly string[];
  /** Told each change of the namespaces keys 1–9 reach (to keep them); what it returns is flashed as a warning. */
  onRecentNamespaces?: (namespaces: readonly string[]) => string | void;
  /** Shown in the flash line at start (config problems). */
  initialFlash?: Flash;
  /** Starts a plugin's program and resolves when it ends (foreground ones are given the terminal). */
  runPlugin?: (run: PluginRun) => Promise<PluginResult>;
  pluginEnv?: Readonly<Record<string, string>>;
  saveTable?: (dump: TableDump) => Promise<string>;
}

export type ExplorerExit =
  | { kind: 'quit' }
  | { kind: 'switchContext'; context: string; recentNamespaces: readonly string[] }
  | { kind: 'signal'; signal: NodeJS.Signals }
  | { kind: 'crash'; error: unknown };

export async function runExplorer(opts: ExplorerOptions): Promise<ExplorerExit> {
  const stdout = opts.stdout ?? process.stdout;
  const stdin = opts.stdin ?? process.stdin;
  const stderr = opts.stderr ?? process.stderr;
  const store = new ViewStore(opts.initialNamespace ?? null, opts.recentNamespaces);
  if (opts.initialFlash) store.dispatch({ type: 'flash', flash: opts.initialFlash });
  const keepRecent = opts.onRecentNamespaces;
  let recent = store.getState().recentNamespaces;
  const unsubscribe = keepRecent
    ? store.subscribe(() => {
        const now = store.getState().recentNamespaces;
        if (now === recent) return;
        recent = now;
        const problem = keepRecent(now);
        if (problem) store.dispatch({ type: 'flash', flash: { text: problem, level: 'warn' } });
      })
    : undefined;
  return new Promise<ExplorerExit>((resolve) => {
    let settled = false;
    let suspended = false;
    let instance: ReturnType<typeof render> | null = null;
    let guard: TerminalGuard | null = null;
    const release = () => {
      try {
        instance?.unmount();
      } catch {
        // unmounting a crashed tree may throw; the screen is restored below anyway
      }
      instance = null;
      guard?.restore();
      guard?.dispose();
      guard = null;
    };
    const finish = (exit: ExplorerExit) => {
      if (settled) return;
      settled = true;
      unsubscribe?.();
      release();
      resolve(exit);
    };
    const runner = opts.runPlugin;
    const runPlugin = runner
      ? async (run: PluginRun): Promise<PluginResult> => {
          if (run.plugin.background) return runner(run);
          // Foreground: the terminal is the program's until it ends.
          suspended = true;
          release();
          // Ink leaves stdin readable: paused, it keeps no keystroke meant for the program.
          stdin.pause();
          const ignore = () => undefined;
          process.on('SIGINT', ignore);
          try {
            return await runner(run);
          } finally {
            process.off('SIGINT', ignore);
            suspended = false;
            if (!settled) mount();
          }
        }
      : undefined;
    // Run once: a remount after a plugin keeps the view the user left.
    let initialCommand = opts.initialCommand;
    const mount = () => {
      guard = guardTerminal({
        stdout,
        stdin,
        altScreen: Boolean(stdout.isTTY),
        onSignal: (signal) => finish({ kind: 'signal', signal }),
        onCrash: (error) => finish({ kind: 'crash', error }),
      });
      const app = render(
        <App
          source={opts.source}
          wlxVersion={opts.wlxVersion}
          initialNamespace={opts.initialNamespace ?? null}
          contexts={opts.contexts}
          noColor={noColorRequested()}
          onQuit={() => setImmediate(() => finish({ kind: 'quit' }))}
          onSwitchContext={
            opts.canSwitchContext
              ? (context) =>
                  setImmediate(() =>
                    finish({ kind: 'switchContext', context, recentNamespaces: store.getState().recentNamespaces }),
                  )
              : undefined
          }
          bindings={opts.bindings}
          skin={opts.skin}
          headless={opts.headless}
          initialCommand={initialCommand}
          recentNamespaces={opts.recentNamespaces}
          runPlugin={runPlugin}
          pluginEnv={opts.pluginEnv}
          saveTable={opts.saveTable}
          store={store}
        />,
        { stdout, stdin, stderr, exitOnCtrlC: false, patchConsole: true, maxFps: MAX_FPS },
      );
      instance = app;
      initialCommand = undefined;
      app.waitUntilExit().then(
        () => {
          if (!suspended && instance === app) finish({ kind: 'quit' });
        },
        (error: unknown) => finish({ kind: 'crash', error }),
      );
    };
    mount();
  });
}
