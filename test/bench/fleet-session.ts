// One explorer session over a fleet, driven in-process as tui-session.ts
// drives one cluster: the fleet opened as `wlx --context a,b,…` opens it
// (src/app/fleet.ts;
// --engine shared: the engines in shared worker threads, the explorer's way
// (shared-N: over N of them);
// worker: a worker thread per cluster; inline: every engine on the UI thread)
// and the real App rendered by Ink into a fake
// terminal. Run by the harness (fleet.ts) as a child process:
//   node --expose-gc fleet-session.js KUBECONFIG (--contexts a,b,… | --single) [--engine shared|worker|inline]
//        [--settle-seconds S]
// --single: one cluster as `wlx` opens it (the baseline the fleet is held to).
// Prints one JSON line: completeMs (start → the first frame of the complete
// fleet workloads view: every cluster live, every tree with its roles, the
// title counting every workload), workloads, pods, rssMb (after S seconds on
// that view under churn), peakRssMb, and the UI thread's heap after a GC.
import { parseArgs } from 'node:util';
import type { ModelSnapshot } from '../../src/model/types.js';
import { benchOpenOptions } from './marker.js';
import { loadExplorerDraw } from './fake-terminal.js';

process.env.NODE_ENV ??= 'production';
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TIMEOUT_MS = 10 * 60_000;

/** Every cluster live and every workload with its roles: the workloads view is complete (one cluster: --single). */
function complete(s: ModelSnapshot, clusters: number, single: boolean): boolean {
  if (single)
    return s.connection.state === 'live' && s.workloads.length > 0 && s.workloads.every((w) => w.roles.length);
  const members = s.fleet?.members ?? [];
  return (
    members.length === clusters &&
    members.every((m) => m.snapshot?.connection.state === 'live') &&
    s.workloads.length > 0 &&
    s.workloads.every((w) => w.roles.length > 0)
  );
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      contexts: { type: 'string' },
      engine: { type: 'string', default: 'shared' },
      'settle-seconds': { type: 'string', default: '10' },
      // One cluster as `wlx` opens it (src/app/open.ts), not as a fleet: the baseline.
      single: { type: 'boolean', default: false },
    },
  });
  const single = values.single === true;
  const kubeconfig = positionals[0];
  const contexts = values.contexts?.split(',').filter(Boolean) ?? [];
  if (!kubeconfig || (!single && contexts.length < 1))
    throw new Error('usage: fleet-session.js KUBECONFIG (--contexts a,b,… | --single)');
  const engine = values.engine;
  // shared-N: the engines spread over N shared workers (shared: the explorer's default number).
  const sharedWorkers = /^shared(?:-(\d+))?$/.exec(engine);
  if (!sharedWorkers && engine !== 'worker' && engine !== 'inline')
    throw new Error('--engine must be shared, shared-N, worker or inline');
  const draw = await loadExplorerDraw();
  const { openFleetSource } = await import('../../src/app/fleet.js');
  const { openModelSource } = await import('../../src/app/open.js');

  const t0 = performance.now();
  const options = { ...benchOpenOptions(kubeconfig), engineThread: engine === 'inline' ? 'inline' : 'worker' } as const;
  const source = single
    ? await openModelSource(options)
    : await openFleetSource({
        ...options,
        contexts,
        sharedWorker: !!sharedWorkers,
        ...(sharedWorkers?.[1] ? { engineWorkers: Number(sharedWorkers[1]) } : {}),
      });
  const instance = draw(source);
  const { stdout } = instance;

  // The first complete fleet view on screen (its title counts every workload of every cluster).
  let completeMs = NaN;
  // The process's CPU (every thread) by then: less dependent on the machine's load than the time.
  let cpuMs = NaN;
  // When each member went live (start → its engine synced, as the UI thread sees it): serial or together.
  const liveMs = new Map<string, number>();
  const end = Date.now() + TIMEOUT_MS;
  while (Date.now() < end) {
    const s = source.getSnapshot();
    for (const m of s.fleet?.members ?? [])
      if (!liveMs.has(m.context) && m.snapshot?.connection.state === 'live')
        liveMs.set(m.context, Math.round(performance.now() - t0));
    if (complete(s, contexts.length, single) && stdout.last.includes(`workloads(all)[${s.workloads.length}]`)) {
      completeMs = performance.now() - t0;
      const cpu = process.cpuUsage();
      cpuMs = (cpu.user + cpu.system) / 1000;
      break;
    }
    await sleep(10);
  }
  const s = source.getSnapshot();
  // On that view under churn, then RSS (every thread of the process) and the UI thread's heap.
  await sleep(Number(values['settle-seconds']) * 1000);
  globalThis.gc?.();
  const line = {
    completeMs,
    cpuMs,
    clusters: single ? 1 : contexts.length,
    workloads: s.workloads.length,
    pods: s.totals.pods,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    uiHeapMb: process.memoryUsage().heapUsed / 2 ** 20,
    engine,
    memberLiveMs: [...liveMs.values()].sort((a, b) => a - b),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  instance.unmount();
  await source.stop();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`fleet-session: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
