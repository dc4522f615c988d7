// The tmux driver shared by the end-to-end tests that run the real explorer in
// a real terminal: its own tmux server per instance (-L), send-keys to type,
// capture-pane to read, and a poll that waits for text with a timeout.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const WLX = join(ROOT, 'bin', 'wlx.js');
export const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A pane command that runs wlx, then reports its exit status and stays open for capture. */
export function wlxCommand(args: string): string {
  return `cd ${shellQuote(ROOT)} && node ${shellQuote(WLX)} ${args}; echo "WLX-EXITED $?"; exec sleep 600`;
}

let sessionCounter = 0;
/** Servers not yet killed: a test that throws before its `finally` must not leave one running wlx. */
const live = new Set<Tmux>();
process.once('exit', () => {
  for (const t of live) t.kill();
});

export class Tmux {
  readonly socket: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(command: string, cols: number, rows: number, name = 'wlx') {
    this.socket = `${name}-${process.pid}-${++sessionCounter}`;
    // The explorer must see an ordinary interactive terminal: no CI markers, no outer tmux, colours on.
    this.env = { ...process.env };
    for (const k of ['CI', 'CONTINUOUS_INTEGRATION', 'TMUX', 'NO_COLOR']) delete this.env[k];
    this.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', String(cols), '-y', String(rows), command);
    live.add(this);
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { env: this.env, encoding: 'utf8' });
  }

  capture(escapes = false): string {
    return this.tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 'main');
  }

  /** Keys sent in one burst (as a fast typist or a paste would). */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys);
  }

  /** One key at a time: an Escape sent together with the next key would read as Alt+key. */
  async press(...keys: string[]): Promise<void> {
    for (const k of keys) {
      this.tmux('send-keys', '-t', 'main', k);
      await sleep(k === 'Escape' ? 150 : 60);
    }
  }

  /** Literal text (no key-name lookup). */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  display(format: string): string {
    return this.tmux('display-message', '-p', '-t', 'main', format).trim();
  }

  async waitFor(test: RegExp | ((screen: string) => boolean), what: string, timeoutMs = 15_000): Promise<string> {
    const check = typeof test === 'function' ? test : (s: string) => test.test(s);
    const end = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.capture();
      // A capture can land while a frame is half written (seen in CI: the rows after the tenth still blank), so
      // a screen counts only when the next capture shows the same: the callers assert more than they waited for.
      if (check(screen) && this.capture() === screen) return screen;
      if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; screen:\n${screen}`);
      await sleep(150);
    }
  }

  kill(): void {
    live.delete(this);
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
    // tmux leaves the socket file behind.
    rmSync(join(this.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, this.socket), { force: true });
  }
}
