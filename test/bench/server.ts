// The simulated cluster for the benchmark: `wlx demo serve --scenario scale`
// in its own process (it shares the machine's cores with wlx, as a real API
// server would not; raw_list_s measures what it costs), ready when its
// kubeconfig appears.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WLX_BIN = fileURLToPath(new URL('../../../bin/wlx.js', import.meta.url));

export interface ScaleSize {
  nodes: number;
  workloads: number;
  podsPerWorkload: number;
  /** Pod status events per second made by the simulation. */
  churn: number;
}

export interface BenchServer {
  kubeconfigPath: string;
  /** http://127.0.0.1:PORT */
  url: string;
  pid: number;
  /** Spawn → kubeconfig written (the simulation built and listening). */
  startMs: number;
  stop(): Promise<void>;
}

export async function startBenchServer(size: ScaleSize, opts: { allowWrites?: boolean } = {}): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-bench-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const t0 = performance.now();
  const args = [
    WLX_BIN,
    'demo',
    'serve',
    '--scenario',
    'scale',
    '--nodes',
    String(size.nodes),
    '--workloads',
    String(size.workloads),
    '--pods-per-workload',
    String(size.podsPerWorkload),
    '--churn',
    String(size.churn),
    '--kubeconfig-out',
    kubeconfigPath,
  ];
  if (opts.allowWrites) args.push('--allow-writes');
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  const exitPromise = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exitPromise;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    while (!existsSync(kubeconfigPath)) {
      if (exited) throw new Error('wlx demo serve exited before it was ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    // The file is written in one go, but give the writer a moment to finish.
    let url = '';
    for (let i = 0; i < 50 && !url; i++) {
      url = /server:\s*(\S+)/.exec(readFileSync(kubeconfigPath, 'utf8'))?.[1] ?? '';
      if (!url) await new Promise((r) => setTimeout(r, 20));
    }
    if (!url) throw new Error('no server in the demo kubeconfig');
    return {
      kubeconfigPath,
      url: url.replace(/^['"]|['"]$/g, ''),
      pid: child.pid!,
      startMs: performance.now() - t0,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
