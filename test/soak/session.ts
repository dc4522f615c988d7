// The parent side of one explorer session (test/bench/tui-session.ts: the
// real engine over HTTP and the real App rendered by Ink into a timestamping
// fake terminal, in a child process): keys, views of its model, and
// event → frame markers, each a request answered over IPC.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SessionView } from '../bench/tui-session.js';

interface Ready {
  type: 'ready';
  syncMs: number;
  visible: { namespace: string; name: string }[];
}
type Reply =
  | Ready
  | { type: 'key'; id: number; ms: number | null }
  | { type: 'view'; id: number; view: SessionView }
  | { type: 'memory'; id: number; rss: number; heapUsed: number }
  | { type: 'expecting'; marker: string }
  | { type: 'seen'; marker: string; t: number };

export interface ExplorerSession {
  pid: number;
  syncMs: number;
  /** Pods on the explorer's screen when it was ready (the event → frame targets). */
  visible: { namespace: string; name: string }[];
  /** Key sent → its frame drawn, in ms; NaN when no frame came within timeoutMs (default 5 s). */
  key(key: string, timeoutMs?: number): Promise<number>;
  view(withPods: boolean): Promise<SessionView>;
  /** RSS and heap in MB after a full garbage collection (the session runs with --expose-gc). */
  memory(): Promise<{ rssMb: number; heapMb: number }>;
  /** Registers a marker; `seen` resolves with the time (epoch ms) the marker's row is drawn, or undefined after timeoutMs. */
  expect(
    pod: { namespace: string; name: string },
    marker: string,
    timeoutMs: number,
  ): Promise<{ seen: Promise<number | undefined> }>;
  exited(): boolean;
  stop(): Promise<void>;
}

export async function startExplorerSession(kubeconfigPath: string): Promise<ExplorerSession> {
  const script = fileURLToPath(new URL('../bench/tui-session.js', import.meta.url));
  const child = spawn(process.execPath, ['--expose-gc', script, kubeconfigPath], {
    // Its stdout is Ink's terminal restore on exit, nothing to show.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let alive = true;
  const exit = new Promise<void>((r) =>
    child.once('exit', () => {
      alive = false;
      r();
    }),
  );
  const waiters = new Map<string, (m: Reply) => void>();
  let ready: Ready | undefined;
  child.on('message', (m: Reply) => {
    if (m.type === 'ready') ready = m;
    else waiters.get(`${m.type}:${'id' in m ? m.id : m.marker}`)?.(m);
  });
  const reply = <T extends Reply>(key: string, timeoutMs: number) =>
    new Promise<T | undefined>((resolve) => {
      const timer = setTimeout(() => {
        waiters.delete(key);
        resolve(undefined);
      }, timeoutMs);
      waiters.set(key, (m) => {
        clearTimeout(timer);
        waiters.delete(key);
        resolve(m as T);
      });
    });
  const stop = async () => {
    if (!alive) return;
    child.send({ type: 'quit' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(timer);
  };
  while (!ready) {
    if (!alive) throw new Error('the explorer session exited before it was ready');
    await new Promise((r) => setTimeout(r, 50));
  }
  let nextId = 0;
  const ask = async <T extends Reply>(request: Record<string, unknown>, timeoutMs: number): Promise<T> => {
    const id = ++nextId;
    const answer = reply<T>(`${String(request.type)}:${id}`, timeoutMs);
    child.send({ ...request, id });
    const m = await answer;
    if (!m) throw new Error(`the explorer did not answer '${String(request.type)}' within ${timeoutMs / 1000} s`);
    return m;
  };
  return {
    pid: child.pid!,
    syncMs: ready.syncMs,
    visible: ready.visible,
    async key(key, timeoutMs = 5000) {
      // Timed here, not in the child: a child whose event loop is blocked reads the request late, as it
      // would read a keystroke from its terminal late.
      const sent = performance.now();
      const m = await ask<Extract<Reply, { type: 'key' }>>({ type: 'key', key, timeoutMs }, timeoutMs + 30_000);
      const ms = performance.now() - sent;
      return m.ms === null || ms > timeoutMs ? NaN : ms;
    },
    async memory() {
      const m = await ask<Extract<Reply, { type: 'memory' }>>({ type: 'memory' }, 30_000);
      return { rssMb: m.rss / 1048576, heapMb: m.heapUsed / 1048576 };
    },
    async view(withPods) {
      return (await ask<Extract<Reply, { type: 'view' }>>({ type: 'view', pods: withPods }, 60_000)).view;
    },
    async expect(pod, marker, timeoutMs) {
      const expecting = reply(`expecting:${marker}`, 5000);
      child.send({ type: 'expect', namespace: pod.namespace, name: pod.name, marker });
      await expecting;
      return { seen: reply<Extract<Reply, { type: 'seen' }>>(`seen:${marker}`, timeoutMs).then((m) => m?.t) };
    },
    exited: () => !alive,
    stop,
  };
}
