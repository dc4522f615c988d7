// The soak's simulated cluster in its own process (cluster-process.ts), and
// the fault switches it is driven with over HTTP (`POST /debug/wlx/faults`,
// demo/server/faults.ts): drop every watch now, expire the next watches with
// 410, restart the server (state kept, resourceVersions bumped).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SoakClusterOptions } from './cluster-process.js';

export interface SoakCluster {
  /** http://127.0.0.1:PORT */
  url: string;
  kubeconfigPath: string;
  pid: number;
  /** Stops the simulation (churn, controllers); the server keeps answering. */
  stopSimulation(): Promise<void>;
  fault(request: FaultRequest): Promise<void>;
  stop(): Promise<void>;
}

/**
 * fetch() that waits out the restart fault: a connection refused or cut is
 * tried again for up to `patienceMs` (HTTP errors are answers, returned).
 */
export async function apiFetch(url: string, init: RequestInit = {}, patienceMs = 20_000): Promise<Response> {
  const deadline = Date.now() + patienceMs;
  for (;;) {
    try {
      return await fetch(url, init);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export type FaultRequest = { dropWatchesNow: true } | { expireNextWatches: number } | { restart: true };

export async function startSoakCluster(size: Omit<SoakClusterOptions, 'kubeconfigPath'>): Promise<SoakCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-soak-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./cluster-process.js', import.meta.url)),
    [JSON.stringify({ ...size, kubeconfigPath })],
    { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let alive = true;
  void exited.then(() => (alive = false));
  const nextMessage = (type: string) =>
    new Promise<Record<string, string>>((resolve, reject) => {
      const onMessage = (m: Record<string, string>) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        resolve(m);
      };
      child.on('message', onMessage);
      void exited.then(() => reject(new Error(`the soak cluster exited while waiting for '${type}'`)));
    });
  const stop = async () => {
    if (alive) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { server } = await nextMessage('ready');
    return {
      url: server,
      kubeconfigPath,
      pid: child.pid!,
      async stopSimulation() {
        const stopped = nextMessage('stopped-simulation');
        child.send({ type: 'stop-simulation' });
        await stopped;
      },
      async fault(request) {
        const res = await apiFetch(`${server}/debug/wlx/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request),
        });
        if (!res.ok) throw new Error(`POST /debug/wlx/faults ${JSON.stringify(request)}: HTTP ${res.status}`);
        await res.arrayBuffer();
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
