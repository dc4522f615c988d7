// `wlx demo serve` in a child process, for the tests that must stop the server
// as a whole (SIGSTOP: a laptop asleep, a frozen API server) or run wlx as a
// separate program against it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { HttpKubeTransport } from '../../src/kube/client.js';
import { ROOT, WLX } from './tmux.js';

export interface DemoProcess {
  child: ChildProcess;
  server: string;
  kubeconfigPath: string;
  /** Everything the server printed (stdout and stderr). */
  output(): string;
  transport(): HttpKubeTransport;
  stop(): Promise<void>;
}

export async function startDemoProcess(args: string[]): Promise<DemoProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-demo-proc-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const child = spawn(process.execPath, [WLX, 'demo', 'serve', '--kubeconfig-out', kubeconfigPath, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (out += b.toString('utf8')));
  const server = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`demo serve did not start:\n${out}`)), 30_000);
    const check = () => {
      const m = /serving at (\S+)/.exec(out);
      if (m && out.includes('kubeconfig:')) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', check);
    child.on('exit', (code) => reject(new Error(`demo serve exited (${code}):\n${out}`)));
  });
  const transports: HttpKubeTransport[] = [];
  return {
    child,
    server,
    kubeconfigPath,
    output: () => out,
    transport() {
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfigPath);
      const t = new HttpKubeTransport(kc, server, kc.getCurrentContext());
      transports.push(t);
      return t;
    },
    async stop() {
      for (const t of transports) t.close();
      if (child.exitCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
