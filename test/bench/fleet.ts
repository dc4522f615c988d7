// The fleet benchmark: `npm run bench -- --fleet 8 [--nodes 5000 --pods 100000
// --workloads 2000 --churn 2000] [--sessions 2] [--settle-seconds 10]
// [--engines shared,shared-2,worker,inline,ARM@DIR] [--json FILE]`.
//
// The same pods as the single-cluster benchmark, split over N clusters (each a
// scale scenario in its own process with 1/N of the nodes, workloads, pods and
// churn), against one cluster holding them all. Each figure is the median of
// --sessions explorer sessions (fleet-session.ts: the real App drawn through
// Ink), each on fresh servers, warmed up and churning:
//   single_complete_view_s / single_rss_mb: one cluster as `wlx` opens it;
//   fleet_complete_view_s / fleet_rss_mb: `wlx --context c1,…,cN`, every
//     engine in one shared worker thread (the explorer's way);
//   fleet_worker_per_cluster_*: a worker thread per cluster instead;
//   fleet_inline_*: every engine on the UI thread (no worker at all);
//   the ratios, held to ≤ 1.3 (issue 33).
// The load average is recorded before and after: on a shared machine a figure
// means little without it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dump, load } from 'js-yaml';
import { startBenchServer, type BenchServer, type ScaleSize } from './server.js';
import { BENCH_WIRE_ENV } from './marker.js';

export const FLEET_FIGURE_NAMES = [
  'single_complete_view_s',
  'single_rss_mb',
  'fleet_complete_view_s',
  'fleet_rss_mb',
  'fleet_vs_single_complete_view',
  'fleet_vs_single_rss',
  'fleet_worker_per_cluster_complete_view_s',
  'fleet_worker_per_cluster_rss_mb',
  'fleet_inline_complete_view_s',
  'fleet_inline_rss_mb',
] as const;
export type FleetFigureName = (typeof FLEET_FIGURE_NAMES)[number];

/** Issue 33: a fleet's complete view and RSS within 1.3× the single cluster's with the same pods. */
export const FLEET_TARGETS: Partial<Record<FleetFigureName, number>> = {
  fleet_vs_single_complete_view: 1.3,
  fleet_vs_single_rss: 1.3,
};

export interface FleetBenchResult {
  figures: Record<FleetFigureName, number>;
  setup: Record<string, unknown>;
}

interface SessionLine {
  completeMs: number;
  cpuMs?: number;
  clusters: number;
  workloads: number;
  pods: number;
  rssMb: number;
  peakRssMb: number;
  uiHeapMb: number;
  engine: string;
  memberLiveMs?: number[];
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const log = (s: string) => process.stderr.write(`bench: ${s}\n`);

function median(xs: number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** One fleet-session.js run to its JSON line. */
function runSession(
  kubeconfig: string,
  args: string[],
  settleSeconds: number,
  script = here('./fleet-session.js'),
): Promise<SessionLine> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        // WLX_BENCH_SESSION_NODE_ARGS: Node flags for the session (--cpu-prof, V8 heap settings), as for main.ts's.
        ...(process.env.WLX_BENCH_SESSION_NODE_ARGS ?? '').split(' ').filter(Boolean),
        '--expose-gc',
        script,
        kubeconfig,
        ...args,
        '--settle-seconds',
        String(settleSeconds),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    // Its messages, without the cursor-show code Ink's exit handler writes to the real stderr.
    child.stderr.setEncoding('utf8').on('data', (d: string) => process.stderr.write(d.replaceAll('\u001b[?25h', '')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line) return reject(new Error(`fleet-session exited ${code}`));
      resolve(JSON.parse(line) as SessionLine);
    });
  });
}

/** Every pod of a server listed once in pages, so that no session pays the server's first, cold lists. */
async function warmUp(server: BenchServer): Promise<void> {
  let next = '';
  do {
    const res = await fetch(
      `${server.url}/api/v1/pods?limit=500${next ? `&continue=${encodeURIComponent(next)}` : ''}`,
    );
    const body = (await res.json()) as { metadata?: { continue?: string } };
    next = body.metadata?.continue ?? '';
  } while (next);
}

/** One kubeconfig with a context per server: `bench-1` … `bench-N`. */
function fleetKubeconfig(servers: readonly BenchServer[], path: string): string[] {
  const contexts = servers.map((_, i) => `bench-${i + 1}`);
  const clusters: unknown[] = [];
  const users: unknown[] = [];
  const ctxs: unknown[] = [];
  servers.forEach((s, i) => {
    const kc = load(readFileSync(s.kubeconfigPath, 'utf8')) as {
      'current-context': string;
      contexts: { name: string; context: { cluster: string; user: string } }[];
      clusters: { name: string; cluster: unknown }[];
      users: { name: string; user: unknown }[];
    };
    const current = kc.contexts.find((c) => c.name === kc['current-context'])!;
    const name = contexts[i];
    clusters.push({ name, cluster: kc.clusters.find((c) => c.name === current.context.cluster)!.cluster });
    users.push({ name, user: kc.users.find((u) => u.name === current.context.user)!.user });
    ctxs.push({ name, context: { cluster: name, user: name } });
  });
  writeFileSync(
    path,
    dump({ apiVersion: 'v1', kind: 'Config', clusters, users, contexts: ctxs, 'current-context': contexts[0] }),
    { mode: 0o600 },
  );
  return contexts;
}

/** Runs `run` on fresh servers of these sizes, warmed up; stops them after, also when it throws. */
async function onFreshServers<T>(sizes: readonly ScaleSize[], run: (servers: BenchServer[]) => Promise<T>): Promise<T> {
  const started = await Promise.allSettled(sizes.map((size) => startBenchServer(size)));
  const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  try {
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    await Promise.all(servers.map(warmUp));
    return await run(servers);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

export async function runFleetBench(argv: string[]): Promise<FleetBenchResult> {
  const { values } = parseArgs({
    args: argv,
    options: {
      fleet: { type: 'string', default: '8' },
      nodes: { type: 'string', default: '5000' },
      pods: { type: 'string', default: '100000' },
      workloads: { type: 'string', default: '2000' },
      churn: { type: 'string', default: '2000' },
      sessions: { type: 'string', default: '2' },
      'settle-seconds': { type: 'string', default: '10' },
      engines: { type: 'string', default: 'shared,worker,inline' },
      wire: { type: 'string', default: 'json' },
      json: { type: 'string' },
    },
  });
  const num = (k: keyof typeof values) => {
    const v = Number(values[k]);
    if (!Number.isFinite(v) || v < 0) throw new Error(`--${k} must be a number`);
    return v;
  };
  const clusters = Math.max(1, Math.round(num('fleet')));
  const workloads = Math.max(clusters, num('workloads'));
  const podsPerWorkload = Math.max(1, Math.round(num('pods') / workloads));
  const total: ScaleSize = { nodes: num('nodes'), workloads, podsPerWorkload, churn: num('churn') };
  const each: ScaleSize = {
    nodes: Math.max(1, Math.round(total.nodes / clusters)),
    workloads: Math.max(1, Math.round(workloads / clusters)),
    podsPerWorkload,
    churn: total.churn / clusters,
  };
  const count = Math.max(1, num('sessions'));
  const settle = num('settle-seconds');
  // An arm: shared (the explorer's default), shared-N (N shared workers),
  // worker (one per cluster), inline;
  // `ARM@DIR` runs it from another build's dist/test/bench (a commit to compare with, run in turn with these).
  const engines = [...new Set((values.engines ?? '').split(',').filter(Boolean))];
  for (const e of engines)
    if (!/^(shared(-\d+)?|worker|inline)(@.+)?$/.test(e))
      throw new Error(`--engines: ${e}: expected shared, shared-N, worker or inline, optionally @DIR`);
  if (!engines.includes('shared')) engines.unshift('shared');
  process.env[BENCH_WIRE_ENV] = values.wire === 'protobuf' ? 'protobuf' : 'json';
  const loadBefore = loadavg();
  const started = new Date().toISOString();

  log(
    `single cluster: ${total.nodes} nodes, ${total.workloads} workloads × ${podsPerWorkload} pods, churn ${total.churn}/s`,
  );
  log(
    `fleet: ${clusters} clusters × (${each.nodes} nodes, ${each.workloads} workloads × ${podsPerWorkload} pods, churn ${each.churn}/s)`,
  );
  const singleRuns: SessionLine[] = [];
  const byEngine = new Map<string, SessionLine[]>();
  const dir = mkdtempSync(join(tmpdir(), 'wlx-bench-fleet-'));
  try {
    // Every session on fresh servers (a simulated server slows over successive sessions: its single cluster took
    // 25 s, then 31, 41 and 45 s), and the arms in turn, session by session, so the machine's drift spreads over all.
    for (let i = 0; i < count; i++) {
      const single = await onFreshServers([total], ([server]) =>
        runSession(server.kubeconfigPath, ['--single'], settle),
      );
      singleRuns.push(single);
      log(
        `single ${i + 1}/${count}: complete view ${(single.completeMs / 1000).toFixed(2)} s (cpu ${((single.cpuMs ?? NaN) / 1000).toFixed(1)} s), rss ${Math.round(single.rssMb)} MB, load ${loadavg()[0].toFixed(1)}`,
      );
      for (const arm of engines) {
        const [engine, armDir] = arm.split('@');
        const script = armDir ? join(armDir, 'fleet-session.js') : undefined;
        const runs = byEngine.get(arm) ?? [];
        byEngine.set(arm, runs);
        const s = await onFreshServers(
          Array.from({ length: clusters }, () => each),
          (servers) => {
            const kubeconfig = join(dir, 'kubeconfig');
            const contexts = fleetKubeconfig(servers, kubeconfig);
            return runSession(kubeconfig, ['--contexts', contexts.join(','), '--engine', engine], settle, script);
          },
        );
        runs.push(s);
        const live = s.memberLiveMs?.map((ms) => (ms / 1000).toFixed(1)).join(' ') ?? '';
        log(
          `fleet (${arm}) ${i + 1}/${count}: complete view ${(s.completeMs / 1000).toFixed(2)} s (cpu ${((s.cpuMs ?? NaN) / 1000).toFixed(1)} s), rss ${Math.round(s.rssMb)} MB, members live at ${live} s, load ${loadavg()[0].toFixed(1)}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const med = (runs: SessionLine[] | undefined, f: (s: SessionLine) => number) => median((runs ?? []).map(f));
  const shared = byEngine.get('shared');
  const perCluster = byEngine.get('worker');
  const inline = byEngine.get('inline');
  const figures: Record<FleetFigureName, number> = {
    single_complete_view_s: med(singleRuns, (s) => s.completeMs) / 1000,
    single_rss_mb: med(singleRuns, (s) => s.rssMb),
    fleet_complete_view_s: med(shared, (s) => s.completeMs) / 1000,
    fleet_rss_mb: med(shared, (s) => s.rssMb),
    fleet_vs_single_complete_view: NaN,
    fleet_vs_single_rss: NaN,
    fleet_worker_per_cluster_complete_view_s: med(perCluster, (s) => s.completeMs) / 1000,
    fleet_worker_per_cluster_rss_mb: med(perCluster, (s) => s.rssMb),
    fleet_inline_complete_view_s: med(inline, (s) => s.completeMs) / 1000,
    fleet_inline_rss_mb: med(inline, (s) => s.rssMb),
  };
  figures.fleet_vs_single_complete_view = figures.fleet_complete_view_s / figures.single_complete_view_s;
  figures.fleet_vs_single_rss = figures.fleet_rss_mb / figures.single_rss_mb;
  const setup = {
    started,
    command: `npm run bench -- ${argv.join(' ')}`.trim(),
    clusters,
    perCluster: each,
    total,
    pods: { single: singleRuns[0]?.pods, fleet: shared?.[0]?.pods },
    workloads: { single: singleRuns[0]?.workloads, fleet: shared?.[0]?.workloads },
    sessions: { single: singleRuns, ...Object.fromEntries(byEngine) },
    // Every arm's medians and its ratios to the single cluster (the figures above are the default arms').
    arms: Object.fromEntries(
      [...byEngine].map(([arm, runs]) => {
        const view = med(runs, (r) => r.completeMs) / 1000;
        const rss = med(runs, (r) => r.rssMb);
        return [
          arm,
          {
            complete_view_s: view,
            cpu_s: med(runs, (r) => r.cpuMs ?? NaN) / 1000,
            rss_mb: rss,
            vs_single_complete_view: view / figures.single_complete_view_s,
            vs_single_rss: rss / figures.single_rss_mb,
          },
        ];
      }),
    ),
    settleSeconds: settle,
    machine: { cpus: availableParallelism(), model: cpus()[0]?.model, node: process.version },
    loadAverage: { before: loadBefore, after: loadavg() },
    targets: Object.fromEntries(
      Object.entries(FLEET_TARGETS).map(([k, max]) => [k, figures[k as FleetFigureName] <= max ? 'met' : 'missed']),
    ),
  };
  return { figures, setup };
}

export function printFleetTable(result: FleetBenchResult): void {
  const width = Math.max(...FLEET_FIGURE_NAMES.map((n) => n.length));
  const s = result.setup as { clusters: number; total: ScaleSize; loadAverage: { before: number[]; after: number[] } };
  const lines = [
    '',
    `wlx fleet benchmark (${s.clusters} clusters; ${s.total.workloads * s.total.podsPerWorkload} pods in all, ${s.total.churn} events/s)`,
  ];
  for (const name of FLEET_FIGURE_NAMES) {
    const v = result.figures[name];
    const max = FLEET_TARGETS[name];
    const goal = max === undefined ? '' : `≤ ${max}`;
    const met = max === undefined ? '' : v <= max ? 'met' : 'missed';
    lines.push(
      `  ${name.padEnd(width)}  ${(Number.isNaN(v) ? '-' : Number(v.toPrecision(3)).toString()).padStart(10)}  ${goal.padEnd(6)}  ${met}`.trimEnd(),
    );
  }
  const arms = (result.setup.arms ?? {}) as Record<string, Record<string, number>>;
  for (const [arm, a] of Object.entries(arms))
    lines.push(
      `  arm ${arm}: complete view ${a.complete_view_s.toFixed(2)} s (${a.vs_single_complete_view.toFixed(2)}×; cpu ${a.cpu_s.toFixed(1)} s), rss ${Math.round(a.rss_mb)} MB (${a.vs_single_rss.toFixed(2)}×)`,
    );
  const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  lines.push(`  load average: ${la(s.loadAverage.before)} before, ${la(s.loadAverage.after)} after`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
