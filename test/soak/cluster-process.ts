// Child-process entry of startSoakCluster: the demo API server with writes
// allowed and the scale scenario's simulation (controllers, kubelets, churn),
// as `wlx demo serve --scenario scale --allow-writes` runs it, plus one thing
// the soak needs and the CLI does not offer: stopping the simulation over IPC,
// so that the final model-vs-server diff compares against a cluster at rest.
//   node cluster-process.js '{"kubeconfigPath":…,"nodes":…,"workloads":…,"podsPerWorkload":…,"churn":…}'
// child → parent: {type:'ready', server}, {type:'stopped-simulation'}
// parent → child: {type:'stop-simulation'}
import { startDemoCluster } from '../../demo/index.js';
import { startSimulation } from '../../demo/sim/index.js';

export interface SoakClusterOptions {
  kubeconfigPath: string;
  nodes: number;
  workloads: number;
  podsPerWorkload: number;
  churn: number;
}

async function run(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as SoakClusterOptions;
  const cluster = await startDemoCluster({
    simulate: false,
    allowWrites: true,
    kubeconfigPath: options.kubeconfigPath,
  });
  const simulation = startSimulation(cluster.store, {
    scenario: 'scale',
    seed: 1,
    speed: 1,
    nodes: options.nodes,
    workloads: options.workloads,
    podsPerWorkload: options.podsPerWorkload,
    churn: options.churn,
  });
  cluster.api.setLogProvider(simulation.logs);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    simulation.stop();
    void cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
  process.on('message', (msg: { type: string }) => {
    if (msg.type === 'stop-simulation') {
      simulation.stop();
      process.send!({ type: 'stopped-simulation' });
    }
  });
  process.send!({ type: 'ready', server: cluster.server });
}

run().catch((err: unknown) => {
  process.stderr.write(`soak cluster: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
