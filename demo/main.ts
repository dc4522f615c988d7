// Child-process entry of startDemoInBackground: runs a demo cluster with the
// options given as one JSON argument, tells the parent over IPC where it
// listens, and exits on SIGTERM/SIGINT or when the parent goes away.
import { rmSync } from 'node:fs';
import { startDemoCluster, type BackgroundChildOptions, type DemoReadyMessage } from './index.js';
import { startDemoFleet } from './fleet.js';

async function run(): Promise<void> {
  const { removeOnExit, fleet, ...options } = JSON.parse(process.argv[2] ?? '{}') as BackgroundChildOptions;
  // The parent may exit without stop(): then this process removes what the parent created for it.
  if (removeOnExit) process.on('exit', () => rmSync(removeOnExit, { recursive: true, force: true }));
  const cluster = fleet ? await startFleet(options) : await startDemoCluster(options);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  const ready: DemoReadyMessage = {
    type: 'ready',
    server: cluster.server,
    kubeconfigPath: cluster.kubeconfigPath ?? '',
  };
  if (process.send) process.send(ready);
  else process.stdout.write(`${JSON.stringify(ready)}\n`);
}

/** The fleet as demo/main.ts reports it: the manager's server, the one kubeconfig. */
async function startFleet(options: BackgroundChildOptions) {
  const f = await startDemoFleet({
    seed: options.seed,
    speed: options.speed,
    token: options.token,
    protobuf: options.protobuf,
    faults: options.faults,
    kubeconfigPath: options.kubeconfigPath,
  });
  return { server: f.members.manager.server, kubeconfigPath: f.kubeconfigPath, stop: () => f.stop() };
}

run().catch((err: unknown) => {
  process.stderr.write(`wlx demo: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
