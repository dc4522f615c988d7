// Terminal ownership for the explorer: the alternate screen while it runs,
// and restoring the user's screen (main buffer, cursor, no raw mode) on quit,
// SIGINT, SIGTERM, SIGHUP and crashes, exactly once.

export const ENTER_ALT_SCREEN = '\u001b[?1049h\u001b[2J\u001b[H';
export const LEAVE_ALT_SCREEN = '\u001b[?1049l';
export const SHOW_CURSOR = '\u001b[?25h';
export const RESET_ATTRS = '\u001b[0m';

export interface TerminalGuard {
  /** Leave the alternate screen and show the cursor (idempotent). */
  restore(): void;
  /** Remove the process handlers (after a normal restore). */
  dispose(): void;
}

export interface TerminalGuardOptions {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  /** Called on SIGINT/SIGTERM/SIGHUP after the terminal is restored. */
  onSignal: (signal: NodeJS.Signals) => void;
  /** Called on an uncaught error after the terminal is restored. */
  onCrash: (error: unknown) => void;
  altScreen: boolean;
}

export function guardTerminal(opts: TerminalGuardOptions): TerminalGuard {
  let restored = false;
  const { stdout, stdin } = opts;
  if (opts.altScreen) stdout.write(ENTER_ALT_SCREEN);
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      if (stdin.isTTY && typeof stdin.setRawMode === 'function') stdin.setRawMode(false);
    } catch {
      // stdin may already be closed
    }
    try {
      stdout.write(RESET_ATTRS + SHOW_CURSOR + (opts.altScreen ? LEAVE_ALT_SCREEN : ''));
    } catch {
      // stdout may already be closed
    }
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    opts.onSignal(signal);
  };
  const onCrash = (error: unknown) => {
    restore();
    opts.onCrash(error);
  };
  for (const s of signals) process.on(s, onSignal);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  // Last resort: whatever ends the process, leave the screen usable.
  process.on('exit', restore);
  return {
    restore,
    dispose() {
      for (const s of signals) process.off(s, onSignal);
      process.off('uncaughtException', onCrash);
      process.off('unhandledRejection', onCrash);
      process.off('exit', restore);
    },
  };
}
