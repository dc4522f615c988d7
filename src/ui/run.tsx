// Runs the explorer on the real terminal until the user quits (or asks for
// another context), owning the screen meanwhile (see terminal.ts).
import './interactive.js';
import { render } from 'ink';
import type { ModelSource } from '../model/source.js';
import { App } from './components/App.js';
import { guardTerminal } from './terminal.js';
import { noColorRequested } from './components/theme.js';
import { MAX_FPS } from './frame-rate.js';

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
}

export type ExplorerExit =
  | { kind: 'quit' }
  | { kind: 'switchContext'; context: string }
  | { kind: 'signal'; signal: NodeJS.Signals }
  | { kind: 'crash'; error: unknown };

export async function runExplorer(opts: ExplorerOptions): Promise<ExplorerExit> {
  const stdout = opts.stdout ?? process.stdout;
  const stdin = opts.stdin ?? process.stdin;
  const stderr = opts.stderr ?? process.stderr;
  return new Promise<ExplorerExit>((resolve) => {
    let settled = false;
    let instance: ReturnType<typeof render> | null = null;
    const finish = (exit: ExplorerExit) => {
      if (settled) return;
      settled = true;
      try {
        instance?.unmount();
      } catch {
        // unmounting a crashed tree may throw; the screen is restored below anyway
      }
      guard.restore();
      guard.dispose();
      resolve(exit);
    };
    const guard = guardTerminal({
      stdout,
      stdin,
      altScreen: Boolean(stdout.isTTY),
      onSignal: (signal) => finish({ kind: 'signal', signal }),
      onCrash: (error) => finish({ kind: 'crash', error }),
    });
    instance = render(
      <App
        source={opts.source}
        wlxVersion={opts.wlxVersion}
        initialNamespace={opts.initialNamespace ?? null}
        contexts={opts.contexts}
        noColor={noColorRequested()}
        onQuit={() => setImmediate(() => finish({ kind: 'quit' }))}
        onSwitchContext={
          opts.canSwitchContext
            ? (context) => setImmediate(() => finish({ kind: 'switchContext', context }))
            : undefined
        }
      />,
      { stdout, stdin, stderr, exitOnCtrlC: false, patchConsole: true, maxFps: MAX_FPS },
    );
    instance.waitUntilExit().then(
      () => finish({ kind: 'quit' }),
      (error: unknown) => finish({ kind: 'crash', error }),
    );
  });
}
