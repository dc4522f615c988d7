// The simulated GPU cluster as one object: the object store, the simulation
// (controllers, scheduler, kubelets from demo/sim) and the Kubernetes API
// server on loopback. `startDemoCluster` runs all of it in this process;
// `startDemoInBackground` runs it in a child process so the simulation never
// stalls the caller's event loop (the TUI's).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Socket } from 'node:net';
import { ObjectStore } from './object-store.js';
import { ApiServer, LOOPBACK } from './server/api-server.js';
import type { FaultConfig, Faults } from './server/faults.js';
import type { LogProvider } from './server/logs.js';
import type { RequestRecord } from './server/request-log.js';
import { demoKubeconfig, writeDemoKubeconfig } from './server/kubeconfig.js';
import { startSimulation, type Simulation } from './sim/index.js';

export type { FaultConfig } from './server/faults.js';
export type { LogLine, LogProvider } from './server/logs.js';
export type { RequestRecord } from './server/request-log.js';

export type Scenario = 'default' | 'scale';

export interface DemoClusterOptions {
  /** 0 (default): a free port. */
  port?: number;
  /** Loopback only; anything else is refused. */
  host?: string;
  token?: string;
  allowWrites?: boolean;
  /** Run the simulation (default true). false: an empty store the caller fills (fixtures). */
  simulate?: boolean;
  scenario?: Scenario;
  seed?: number;
  speed?: number;
  nodes?: number;
  workloads?: number;
  podsPerWorkload?: number;
  churn?: number;
  faults?: Partial<FaultConfig>;
  /** Use this store instead of a new one. */
  store?: ObjectStore;
  /** Logs to serve when not simulating (fixtures). */
  logs?: LogProvider;
  /** Also write a kubeconfig for the cluster here. */
  kubeconfigPath?: string;
  bookmarkIntervalMs?: number;
  maxWatchSeconds?: number;
  /** Answer protobuf to clients that ask for it first (default true; ApiServerOptions.protobuf). */
  protobuf?: boolean;
}

export interface DemoCluster {
  /** `http://127.0.0.1:PORT` */
  readonly server: string;
  readonly port: number;
  readonly store: ObjectStore;
  readonly api: ApiServer;
  /** Fault switches: `faults.set({ expireNextWatches: 1 })`, `faults.get()`, `faults.clear()`. */
  readonly faults: Faults;
  /** The kubeconfig path, when one was written. */
  readonly kubeconfigPath: string | undefined;
  /** The kubeconfig text for this cluster: contexts `wlx-demo` (admin, current) and `wlx-demo-restricted`. */
  kubeconfig(): string;
  /** Every request seen so far (bounded ring), oldest first. */
  requests(): RequestRecord[];
  /** Restart fault: stop listening, cut connections, bump resourceVersions, listen again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startDemoCluster(options: DemoClusterOptions = {}): Promise<DemoCluster> {
  // 75 s of events at least, as kube-apiserver's watch cache keeps (its event
  // freshness window): at thousands of events/s a watch resuming after a long
  // list must not be expired into an endless relist.
  const store = options.store ?? new ObjectStore(10_000, undefined, 75_000);
  const api = new ApiServer({
    store,
    host: options.host ?? LOOPBACK,
    port: options.port ?? 0,
    token: options.token,
    allowWrites: options.allowWrites,
    faults: options.faults,
    logs: options.logs,
    bookmarkIntervalMs: options.bookmarkIntervalMs,
    maxWatchSeconds: options.maxWatchSeconds,
    speed: options.speed,
    protobuf: options.protobuf,
  });
  let sim: Simulation | undefined;
  if (options.simulate !== false) {
    sim = startSimulation(store, {
      scenario: options.scenario ?? 'default',
      seed: options.seed ?? 1,
      speed: options.speed ?? 1,
      nodes: options.nodes,
      workloads: options.workloads,
      podsPerWorkload: options.podsPerWorkload,
      churn: options.churn,
    });
    api.setLogProvider(sim.logs);
    api.setPodProxyBackend(sim.podProxy);
    api.setServiceProxyBackend(sim.serviceProxy);
  }
  try {
    await api.listen();
  } catch (err) {
    sim?.stop();
    await api.close();
    throw err;
  }
  const server = api.url;
  const kubeconfigOptions = { server, token: options.token, restrictedToken: api.restrictedToken };
  if (options.kubeconfigPath) await writeDemoKubeconfig(options.kubeconfigPath, kubeconfigOptions);
  let stopped: Promise<void> | undefined;
  return {
    server,
    port: api.port,
    store,
    api,
    faults: api.faults,
    kubeconfigPath: options.kubeconfigPath,
    kubeconfig: () => demoKubeconfig(kubeconfigOptions),
    requests: () => api.requests.records(),
    restart: () => api.restart(),
    stop: () => {
      stopped ??= (async () => {
        sim?.stop();
        await api.close();
      })();
      return stopped;
    },
  };
}

export interface BackgroundDemo {
  server: string;
  kubeconfigPath: string;
  /** Stops the child process and removes the kubeconfig it wrote (when wlx chose its path). */
  stop(): Promise<void>;
}

/** What demo/main.ts reads from its one argument. */
export interface BackgroundChildOptions extends DemoClusterOptions {
  /** A directory the child removes when it exits (the kubeconfig's, when the parent chose it). */
  removeOnExit?: string;
  /** Run the fleet of three clusters (demo/fleet.ts) instead of one; the kubeconfig has a context per cluster. */
  fleet?: boolean;
}

/** The message demo/main.ts sends its parent once it listens. */
export interface DemoReadyMessage {
  type: 'ready';
  server: string;
  kubeconfigPath: string;
}

/**
 * Runs the demo cluster in a child process (`node dist/demo/main.js`). The
 * child exits when `stop()` is called or when this process goes away (its IPC
 * channel closes), so no simulated cluster outlives its caller.
 */
export async function startDemoInBackground(
  options: Omit<BackgroundChildOptions, 'store' | 'logs' | 'removeOnExit'> = {},
): Promise<BackgroundDemo> {
  let dir: string | undefined;
  let kubeconfigPath = options.kubeconfigPath;
  if (!kubeconfigPath) {
    dir = await mkdtemp(join(tmpdir(), 'wlx-demo-'));
    kubeconfigPath = join(dir, 'kubeconfig');
  }
  const entry = fileURLToPath(new URL('./main.js', import.meta.url));
  const child: ChildProcess = fork(entry, [JSON.stringify({ ...options, kubeconfigPath, removeOnExit: dir })], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    execArgv: [],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < 8192) stderr += d.toString();
  });
  const cleanupDir = async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  let ready: DemoReadyMessage;
  try {
    ready = await new Promise<DemoReadyMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the demo cluster did not start within 20 s')), 20_000);
      child.once('message', (m) => {
        clearTimeout(timer);
        const msg = m as DemoReadyMessage;
        if (msg && msg.type === 'ready') resolve(msg);
        else reject(new Error(`unexpected message from the demo cluster: ${JSON.stringify(m)}`));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(
            `the demo cluster exited (${signal ?? code}) before it was ready${stderr ? `: ${stderr.trim()}` : ''}`,
          ),
        );
      });
    });
  } catch (err) {
    child.kill('SIGKILL');
    await cleanupDir();
    throw err;
  }
  // The caller may exit without stop(): the child then sees its IPC channel close and exits.
  child.unref();
  child.channel?.unref();
  (child.stderr as Socket | null)?.unref();
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  let stopping: Promise<void> | undefined;
  return {
    server: ready.server,
    kubeconfigPath: ready.kubeconfigPath,
    stop: () => {
      stopping ??= (async () => {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killer);
        await cleanupDir();
      })();
      return stopping;
    },
  };
}
