// `wlx demo serve`: runs the simulated GPU cluster (its Kubernetes API on
// loopback) in the foreground until SIGINT/SIGTERM, after writing a kubeconfig
// for it and printing how to use it.
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseCommandArgs, UsageError } from './usage.js';

const HINT = 'wlx demo --help';

const HELP = `Usage: wlx demo serve [options]

Runs the simulated GPU cluster: a Kubernetes API server on 127.0.0.1 that kubectl
and wlx can use. Runs until interrupted (Ctrl-C).

Options:
  --port N                  port to listen on (default: a free port)
  --host 127.0.0.1          listen address; only loopback is allowed
  --kubeconfig-out FILE     where to write the kubeconfig (default: a temp file);
                            contexts wlx-demo (admin) and wlx-demo-restricted
                            (reads namespace training only)
  --scenario default|scale  what the cluster holds (default: default)
  --fleet                   three clusters instead of one: a Kueue MultiKueue
                            manager and two GPU workers (H100; A100 with MIG
                            and DRA), one kubeconfig with contexts
                            wlx-fleet-manager, wlx-fleet-east, wlx-fleet-west
  --seed N                  seed of the simulation's random choices (default 1)
  --speed X                 simulated time runs X times faster (default 1)
  --token T                 require "Authorization: Bearer T" on every request
                            (the restricted context gets a random token of its own)
  --allow-writes            accept DELETE (graceful for pods), POST, PUT, PATCH;
                            read-only (405) otherwise
  --no-protobuf             answer JSON to every Accept header (default: protobuf
                            for pods, nodes and events to clients that ask first)
  --nodes N --workloads M --pods-per-workload K --churn E
                            size of the scale scenario; E pod status events/s
Faults (for reliability tests; also GET/POST /debug/wlx/faults):
  --fault-drop-watches S    cut every open watch every S seconds
  --fault-expire-watches N  answer the next N watches with 410 Expired
  --fault-delay-ms D        delay every response by D ms
  --fault-malformed-watch-lines
                            write an unparsable line before every watch event
  --fault-forbid KIND       KIND (e.g. jobsets.jobset.x-k8s.io, pods) answers 403;
                            repeatable
  --fault-restart-every S   restart the server every S seconds (state kept,
                            resourceVersions bumped, connections cut)
`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'kubeconfig-out': { type: 'string' },
  scenario: { type: 'string' },
  fleet: { type: 'boolean' },
  seed: { type: 'string' },
  speed: { type: 'string' },
  token: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'no-protobuf': { type: 'boolean' },
  nodes: { type: 'string' },
  workloads: { type: 'string' },
  'pods-per-workload': { type: 'string' },
  churn: { type: 'string' },
  'fault-drop-watches': { type: 'string' },
  'fault-expire-watches': { type: 'string' },
  'fault-delay-ms': { type: 'string' },
  'fault-malformed-watch-lines': { type: 'boolean' },
  'fault-forbid': { type: 'string', multiple: true },
  'fault-restart-every': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function isScenario(name: string): name is 'default' | 'scale' {
  return name === 'default' || name === 'scale';
}

function numberOption(
  name: string,
  value: string | undefined,
  opts: { integer?: boolean; min?: number; positive?: boolean } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  const bad =
    value.trim() === '' ||
    !Number.isFinite(n) ||
    (opts.integer && !Number.isInteger(n)) ||
    (opts.min !== undefined && n < opts.min) ||
    (opts.positive && n <= 0);
  if (bad)
    throw new UsageError(
      `--${name} must be ${opts.positive ? 'a positive' : 'a non-negative'} ${opts.integer ? 'integer' : 'number'}, not "${value}"`,
      HINT,
    );
  return n;
}

export async function runDemo(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    (sub === undefined ? process.stderr : process.stdout).write(HELP);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'serve') throw new UsageError(`unknown demo command "${sub}"`, HINT);
  const { values, positionals } = parseCommandArgs(rest, OPTIONS, HINT);
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`, HINT);
  const host = values.host ?? '127.0.0.1';
  if (host !== '127.0.0.1' && host !== 'localhost') {
    throw new UsageError(`--host must be 127.0.0.1: the demo cluster listens on loopback only, not on "${host}"`, HINT);
  }
  const scenario = values.scenario ?? 'default';
  if (!isScenario(scenario)) throw new UsageError(`--scenario must be default or scale, not "${scenario}"`, HINT);
  const port = numberOption('port', values.port, { integer: true, min: 0 });
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be at most 65535`, HINT);
  const restartEvery = numberOption('fault-restart-every', values['fault-restart-every'], { positive: true });
  const options = {
    port: port ?? 0,
    host: '127.0.0.1',
    token: values.token,
    allowWrites: values['allow-writes'] ?? false,
    protobuf: !values['no-protobuf'],
    scenario: scenario,
    seed: numberOption('seed', values.seed, { integer: true, min: 0 }),
    speed: numberOption('speed', values.speed, { positive: true }),
    nodes: numberOption('nodes', values.nodes, { integer: true, positive: true }),
    workloads: numberOption('workloads', values.workloads, { integer: true, min: 0 }),
    podsPerWorkload: numberOption('pods-per-workload', values['pods-per-workload'], { integer: true, positive: true }),
    churn: numberOption('churn', values.churn, { min: 0 }),
    faults: {
      dropWatchesEverySeconds:
        numberOption('fault-drop-watches', values['fault-drop-watches'], { positive: true }) ?? 0,
      expireNextWatches:
        numberOption('fault-expire-watches', values['fault-expire-watches'], { integer: true, min: 0 }) ?? 0,
      delayMs: numberOption('fault-delay-ms', values['fault-delay-ms'], { min: 0 }) ?? 0,
      malformedWatchLines: values['fault-malformed-watch-lines'] ?? false,
      forbid: values['fault-forbid'] ?? [],
    },
  };
  if (values.token !== undefined && !values.token) throw new UsageError('--token must not be empty', HINT);
  if (values.fleet) {
    const sizing = ['scenario', 'nodes', 'workloads', 'pods-per-workload', 'churn', 'port'] as const;
    const clash = sizing.find((k) => values[k] !== undefined);
    if (clash) throw new UsageError(`--fleet cannot be combined with --${clash}`, HINT);
    return serveFleet(options, values['kubeconfig-out'], restartEvery);
  }

  const { startDemoCluster } = await import('../../demo/index.js');
  const started = Date.now();
  const cluster = await startDemoCluster(options);
  const chosenPath = values['kubeconfig-out'];
  const kubeconfigPath = chosenPath ? resolve(chosenPath) : join(tmpdir(), `wlx-demo-${cluster.port}.kubeconfig`);
  const { writeDemoKubeconfig } = await import('../../demo/server/kubeconfig.js');
  await writeDemoKubeconfig(kubeconfigPath, {
    server: cluster.server,
    token: values.token,
    restrictedToken: cluster.api.restrictedToken,
  });
  process.stdout.write(
    `wlx demo: simulated cluster (${scenario} scenario) serving at ${cluster.server} (started in ${Date.now() - started} ms)\n` +
      `kubeconfig: ${kubeconfigPath}\n` +
      `export KUBECONFIG=${kubeconfigPath}\n` +
      'contexts: wlx-demo (admin, current), wlx-demo-restricted (reads namespace training only)\n' +
      (options.allowWrites ? '' : 'read-only: writes answer 405 (use --allow-writes to change that)\n') +
      'Press Ctrl-C to stop.\n',
  );
  const restartTimer = restartEvery ? setInterval(() => void cluster.restart(), restartEvery * 1000) : undefined;
  await untilSignal();
  if (restartTimer) clearInterval(restartTimer);
  await cluster.stop();
  if (!chosenPath) await rm(kubeconfigPath, { force: true });
  process.stdout.write('wlx demo: stopped\n');
  return 0;
}

/** Waits for SIGINT or SIGTERM. */
function untilSignal(): Promise<void> {
  return new Promise<void>((resolveSignal) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolveSignal();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** `wlx demo serve --fleet`: the three clusters of demo/fleet.ts until interrupted. */
async function serveFleet(
  options: { token?: string; protobuf: boolean; seed?: number; speed?: number; faults: object },
  chosenPath: string | undefined,
  restartEvery: number | undefined,
): Promise<number> {
  const { startDemoFleet, FLEET_CONTEXTS } = await import('../../demo/fleet.js');
  const started = Date.now();
  const kubeconfigPath = chosenPath ? resolve(chosenPath) : join(tmpdir(), `wlx-demo-fleet-${process.pid}.kubeconfig`);
  const fleet = await startDemoFleet({ ...options, kubeconfigPath });
  const lines = (Object.keys(FLEET_CONTEXTS) as (keyof typeof FLEET_CONTEXTS)[]).map(
    (m) => `  ${FLEET_CONTEXTS[m].padEnd(18)} ${fleet.members[m].server}\n`,
  );
  process.stdout.write(
    `wlx demo: simulated fleet of 3 clusters (started in ${Date.now() - started} ms)\n` +
      lines.join('') +
      `kubeconfig: ${kubeconfigPath}\n` +
      `export KUBECONFIG=${kubeconfigPath}\n` +
      'explore it: wlx --all-contexts\n' +
      'Press Ctrl-C to stop.\n',
  );
  const restartTimer = restartEvery
    ? setInterval(() => void Promise.all(Object.values(fleet.members).map((c) => c.restart())), restartEvery * 1000)
    : undefined;
  await untilSignal();
  if (restartTimer) clearInterval(restartTimer);
  await fleet.stop();
  if (!chosenPath) await rm(kubeconfigPath, { force: true });
  process.stdout.write('wlx demo: stopped\n');
  return 0;
}
