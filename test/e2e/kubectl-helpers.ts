// Runs the real /usr/bin/kubectl against a demo cluster: a kubeconfig in a tmp
// file and a fresh discovery cache directory per cluster.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { TestContext } from 'node:test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixture, type Fixture } from '../demo/server-watch-helpers.js';
import { startDemoCluster, type DemoCluster } from '../../demo/index.js';

export interface KubectlEnv {
  env: NodeJS.ProcessEnv;
  kubeconfigPath: string;
  cleanup(): Promise<void>;
}

export async function kubectlEnv(): Promise<KubectlEnv> {
  const dir = await mkdtemp(join(tmpdir(), 'wlx-kubectl-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const env = {
    ...process.env,
    KUBECONFIG: kubeconfigPath,
    KUBECACHEDIR: join(dir, 'cache'),
    HOME: dir,
    NO_COLOR: '1',
  };
  return { env, kubeconfigPath, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A fixture cluster with a kubeconfig and discovery cache of its own, both removed when the test ends. */
export async function kubectlFixture(
  t: TestContext,
  options: Parameters<typeof startFixture>[0] = {},
): Promise<{ f: Fixture; env: NodeJS.ProcessEnv }> {
  const f = await startFixture(options);
  const k = await kubectlEnv();
  await writeFile(k.kubeconfigPath, f.cluster.kubeconfig());
  t.after(async () => {
    await f.cluster.stop();
    await k.cleanup();
  });
  return { f, env: k.env };
}

/** A demo cluster with a kubeconfig and discovery cache of its own, both removed when the test ends. */
export async function kubectlDemoCluster(
  t: TestContext,
  options: Parameters<typeof startDemoCluster>[0] = {},
): Promise<{ c: DemoCluster; env: NodeJS.ProcessEnv }> {
  const c = await startDemoCluster(options);
  const k = await kubectlEnv();
  await writeFile(k.kubeconfigPath, c.kubeconfig());
  t.after(async () => {
    await c.stop();
    await k.cleanup();
  });
  return { c, env: k.env };
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function kubectl(env: NodeJS.ProcessEnv, args: string[], timeoutMs = 20_000): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/kubectl',
      args,
      { env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A long-running kubectl (get -w, logs -f) whose output the test waits on. */
export interface KubectlStream {
  child: ChildProcess;
  output(): string;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

export function kubectlStream(env: NodeJS.ProcessEnv, args: string[]): KubectlStream {
  const child = spawn('/usr/bin/kubectl', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const l of listeners) l();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => out,
    waitForOutput(pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(out)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(out);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`kubectl ${args.join(' ')}: no ${pattern} within ${timeoutMs} ms; output:\n${out}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
