// The real CLI as a user runs it (`node bin/wlx.js …`), and a demo cluster in
// this process with a kubeconfig written for it, removed when the test ends.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoCluster, type DemoCluster } from '../../demo/index.js';
import { WLX } from './tmux.js';

export interface WlxResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs wlx with `env` over this process's environment; never rejects (the exit code is in the result). */
export function runWlx(args: string[], env: NodeJS.ProcessEnv = {}): Promise<WlxResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [WLX, ...args],
      { env: { ...process.env, ...env }, maxBuffer: 64 << 20, timeout: 90_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as unknown as { code: number }).code) || 1 : 0, stdout, stderr }),
    );
  });
}

/** The default scenario at speed 4 (seed 3), with its kubeconfig in a temporary directory. */
export async function demoWithKubeconfig(
  t: { after(fn: () => unknown): void },
  prefix: string,
): Promise<{ cluster: DemoCluster; kubeconfig: string }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const kubeconfig = join(dir, 'kubeconfig');
  const cluster = await startDemoCluster({ speed: 4, seed: 3, kubeconfigPath: kubeconfig });
  t.after(async () => {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return { cluster, kubeconfig };
}

/** Every pod of a `wlx get -o json` workload: the unattributed ones and its roles' at any depth. */
export function jsonPodsOf<P, R extends { pods: P[]; roles: R[] }>(w: { roles: R[]; unattributedPods: P[] }): P[] {
  const out = [...w.unattributedPods];
  const walk = (r: R) => {
    out.push(...r.pods);
    r.roles.forEach(walk);
  };
  w.roles.forEach(walk);
  return out;
}
