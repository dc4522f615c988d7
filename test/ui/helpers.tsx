// Test helpers: render the App with ink-testing-library and drive it by keys.
import './no-ci.js';
import { render } from 'ink-testing-library';
import { App, type AppProps } from '../../src/ui/components/App.js';
import { FakeSource } from './fixtures.js';

export const KEY = {
  enter: '\r',
  esc: '\u001b',
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  tab: '\t',
  backspace: '\u007f',
  ctrlF: '\u0006',
  ctrlB: '\u0002',
  ctrlC: '\u0003',
} as const;

export const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

export interface Harness {
  source: FakeSource;
  frame(): string;
  press(...keys: string[]): Promise<void>;
  /** Write raw input without waiting. */
  stdin(data: string): void;
  waitFor(test: (frame: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  quits: number;
  frames: string[];
  unmount(): void;
}

export async function mountApp(opts: Partial<AppProps> & { source?: FakeSource } = {}): Promise<Harness> {
  const source = opts.source ?? new FakeSource();
  const h = { quits: 0 } as Harness;
  const r = render(
    <App
      source={source}
      wlxVersion="0.1.0"
      size={{ columns: 100, rows: 30 }}
      frameIntervalMs={10}
      {...opts}
      onQuit={() => (h.quits += 1)}
    />,
  );
  h.source = source;
  h.frames = r.frames;
  h.frame = () => r.lastFrame() ?? '';
  h.waitFor = async (test, what, timeoutMs = 2000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const f = h.frame();
      if (test(f)) return f;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last frame:\n${f}`);
      await sleep(10);
    }
  };
  h.press = async (...keys) => {
    for (const k of keys) {
      r.stdin.write(k);
      // Ink parses escape sequences and throttles renders: let it settle.
      await sleep(k === KEY.esc ? 80 : 25);
    }
    await sleep(40);
  };
  h.stdin = (data) => r.stdin.write(data);
  h.unmount = () => r.unmount();
  await h.waitFor((f) => f.includes('workloads('), 'first frame', 10_000);
  return h;
}
