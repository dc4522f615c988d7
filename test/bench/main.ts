// The performance harness: `npm run bench -- [--nodes 5000 --pods 100000
// --workloads 2000 --churn 2000] [--runs 3] [--json FILE]`.
//
// Starts the simulated cluster's scale scenario in its own process and
// measures wlx against it, each timing the median of --runs runs:
//   phase 1, no churn: the floor (raw_list_s: fetch + JSON.parse every page),
//     kubectl get pods -A -o name, the headless engine to complete trees
//     (first_tree_s, retained heap per pod), `wlx get -A -o json`;
//   phase 2, churn of --churn pod status events/s: --sessions explorer sessions
//     (tui-session.ts, Ink driven in-process through its stdin), each on a
//     fresh server: start → complete workloads view, catch-up after the lists,
//     key → frame, pod status PATCHed at the server → the changed row in a
//     frame, and the session's CPU and RSS read from /proc; each figure is the
//     worst session's (setup.sessions keeps them all);
//   then the jq fast path (test/bench/jq.ts) and `wlx --version` start-up.
// Each figure is printed beside its target from issue 15 (TARGETS), met or missed.
// `--small`: the everyday cluster instead (small.ts), the explorer in tmux.
// `--wire json|protobuf` (default json): the wire format of wlx's engines
// (first tree, get -o json, sessions); the raw list and kubectl are unchanged.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startBenchServer, WLX_BIN, type BenchServer, type ScaleSize } from './server.js';
import { benchJq } from './jq.js';
import { printSmall, smallMain } from './small.js';
import { BENCH_WIRE_ENV, EVENT_PROBE_ENV } from './marker.js';
import { compile } from '../../src/jq/index.js';
import type { ThreadFigures } from './tui-session.js';

export const FIGURE_NAMES = [
  'first_tree_s',
  'raw_list_s',
  'kubectl_list_pods_s',
  'first_tree_vs_raw_list',
  'first_tree_vs_kubectl',
  'get_json_s',
  'rss_mb_steady',
  'rss_mb_peak',
  'retained_bytes_per_pod',
  'event_to_frame_ms_p50',
  'event_to_frame_ms_p99',
  'cpu_percent_churn',
  'key_to_frame_ms_p99',
  'jq_fast_path_evals_per_s',
  'startup_ms_cli',
  'catch_up_s',
  'first_tree_churn_s',
  'first_tree_churn_vs_first_tree',
] as const;
export type FigureName = (typeof FIGURE_NAMES)[number];

/** A figure's target: at most `max`, or at least `min`. */
export type Target = { max: number } | { min: number };

/** Issue 15's targets (100,000 pods, 5,000 nodes, 2,000 workloads, 2,000 events/s, a 2-core machine). */
export const TARGETS: Partial<Record<FigureName, Target>> = {
  // ≤ 1.0 once protobuf is adopted (faster than the JSON floor).
  first_tree_vs_raw_list: { max: 1.5 },
  first_tree_vs_kubectl: { max: 0.15 },
  rss_mb_steady: { max: 600 },
  retained_bytes_per_pod: { max: 2_048 },
  event_to_frame_ms_p99: { max: 250 },
  cpu_percent_churn: { max: 60 },
  key_to_frame_ms_p99: { max: 50 },
  jq_fast_path_evals_per_s: { min: 2_000_000 },
  startup_ms_cli: { max: 300 },
  catch_up_s: { max: 5 },
  first_tree_churn_vs_first_tree: { max: 1.3 },
};

/** Whether a figure meets its target; undefined when it has none. */
export function targetMet(name: FigureName, value: number): boolean | undefined {
  const target = TARGETS[name];
  if (!target) return undefined;
  return 'max' in target ? value <= target.max : value >= target.min;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (s: string) => process.stderr.write(`bench: ${s}\n`);

export function median(xs: number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Nearest-rank percentile. */
export function percentile(xs: number[], p: number): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

interface Timed {
  ms: number;
  code: number | null;
  stdout: string;
}

/** Runs a process to its end; stdout is kept ('pipe') or discarded to /dev/null. */
function timeProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv, stdout: 'pipe' | 'null'): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const fd = stdout === 'null' ? openSync('/dev/null', 'w') : undefined;
    const t0 = performance.now();
    const child = spawn(cmd, args, { env, stdio: ['ignore', fd ?? 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (fd !== undefined) closeSync(fd);
      if (code !== 0) log(`${cmd} ${args.join(' ')} exited ${code}: ${err.trim()}`);
      resolve({ ms, code, stdout: out });
    });
  });
}

const CLK_TCK = 100; // Linux USER_HZ
/** How long the harness waits for a PATCHed pod's row to be drawn. */
const EVENT_TIMEOUT_MS = 10_000;
/** How long a session is given to catch up after its lists (tui-session.ts reports NaN after it). */
const CATCH_UP_TIMEOUT_MS = 10 * 60_000;
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14, 15)
}
function memoryKb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function measureRawList(server: BenchServer): Promise<{ ms: number; pods: number; cpuS: number }> {
  const r = await timeProcess(process.execPath, [here('./raw-list.js'), server.url], process.env, 'pipe');
  const [pods, cpuS] = r.stdout.trim().split(' ').map(Number);
  return { ms: r.code === 0 ? r.ms : NaN, pods: pods ?? NaN, cpuS: cpuS ?? NaN };
}

async function measureKubectl(server: BenchServer): Promise<number> {
  const cache = mkdtempSync(join(tmpdir(), 'wlx-bench-kubecache-'));
  try {
    const env = { ...process.env, KUBECONFIG: server.kubeconfigPath, KUBECACHEDIR: cache };
    const r = await timeProcess('kubectl', ['get', 'pods', '-A', '-o', 'name'], env, 'null');
    return r.code === 0 ? r.ms : NaN;
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

interface FirstTree {
  ms: number;
  /** CPU seconds of the process until the trees were complete. */
  cpuS: number;
  pods: number;
  workloads: number;
  workloadsWithRoles: number;
  retainedBytesPerPod: number;
  rssMb: number;
  peakRssMb: number;
}

function measureFirstTree(server: BenchServer): Promise<FirstTree> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--expose-gc', here('./first-tree.js'), server.kubeconfigPath], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const result: Partial<FirstTree> = {};
    let buf = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const msg = JSON.parse(line) as Record<string, number | string>;
        if (msg.type === 'synced')
          Object.assign(result, {
            ms: performance.now() - t0,
            cpuS: msg.cpuS,
            pods: msg.pods,
            workloads: msg.workloads,
            workloadsWithRoles: msg.workloadsWithRoles,
          });
        else if (msg.type === 'memory')
          Object.assign(result, {
            retainedBytesPerPod: msg.retainedBytesPerPod,
            rssMb: msg.rssMb,
            peakRssMb: msg.peakRssMb,
          });
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0 || result.ms === undefined) return reject(new Error(`first-tree exited ${code}`));
      resolve(result as FirstTree);
    });
  });
}

async function measureGetJson(server: BenchServer): Promise<number> {
  const r = await timeProcess(
    process.execPath,
    [
      WLX_BIN,
      'get',
      '-A',
      '-o',
      'json',
      '--kubeconfig',
      server.kubeconfigPath,
      ...(process.env[BENCH_WIRE_ENV] === 'protobuf' ? ['--protobuf'] : []),
    ],
    process.env,
    'null',
  );
  return r.code === 0 ? r.ms : NaN;
}

interface SessionFigures {
  syncMs: number;
  /** Spawn → the first complete, live workloads view drawn. */
  firstTreeChurnMs: number;
  /** Lists complete → the marker PATCHed then is in the UI's model; CATCH_UP_TIMEOUT_MS when never. */
  catchUpMs: number;
  catchUpMissed: boolean;
  keyMs: number[];
  keyCpuMs: number[];
  eventMs: number[];
  /** Per event, PATCH sent → the server's answer: the server's part of eventMs (it sends the watch event first). */
  eventPatchMs: number[];
  /** Per event, PATCH sent → the UI thread receives the snapshot whose engine model holds it (NaN: not probed, or not seen; EVENT_PROBE_ENV). */
  eventModelMs: number[];
  eventsMissed: number;
  cpuPercent: number;
  rssMb: number;
  peakRssMb: number;
  /** The UI thread and the engine worker apart, over the CPU phase (null: the session could not say). */
  threads: ThreadFigures | null;
  /** The UI thread's heap after a full GC on the workloads view (its pods left in the worker), MB. */
  workloadsViewHeapMb: number;
}

type SessionMessage =
  | {
      type: 'ready';
      syncMs: number;
      podCount: number;
      visible: { namespace: string; name: string }[];
      keyMs: number[];
      keyCpuMs: number[];
      workloadsViewHeapMb: number;
    }
  | { type: 'expecting'; marker: string }
  | { type: 'seen'; marker: string; t: number }
  | { type: 'modelled'; marker: string; t: number }
  | { type: 'tree'; t: number; workloads: number }
  | { type: 'caught-up'; ms: number }
  | { type: 'threads'; id: number; figures?: ThreadFigures };

export type EngineThread = 'worker' | 'inline';

export async function measureSession(
  server: BenchServer,
  opts: { keys: number; events: number; cpuSeconds: number; engine: EngineThread },
): Promise<SessionFigures> {
  const spawnedAt = now();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.WLX_BENCH_SESSION_NODE_ARGS ?? '').split(' ').filter(Boolean),
      // The per-thread heaps are read after a full GC.
      '--expose-gc',
      here('./tui-session.js'),
      server.kubeconfigPath,
      '--keys',
      String(opts.keys),
      '--engine',
      opts.engine,
      '--measure-start',
    ],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const waiters = new Map<string, (m: SessionMessage) => void>();
  let ready: Extract<SessionMessage, { type: 'ready' }> | undefined;
  let tree: Extract<SessionMessage, { type: 'tree' }> | undefined;
  let caughtUp: Extract<SessionMessage, { type: 'caught-up' }> | undefined;
  let exited = false;
  const exit = new Promise<void>((r) =>
    child.once('exit', () => {
      exited = true;
      r();
    }),
  );
  let threadsAnswer: ((m: Extract<SessionMessage, { type: 'threads' }>) => void) | undefined;
  const askThreads = (phase: 'start' | 'end') =>
    new Promise<Extract<SessionMessage, { type: 'threads' }> | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), 30_000);
      threadsAnswer = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
      child.send({ type: 'threads', id: 1, phase });
    });
  child.on('message', (m: SessionMessage) => {
    if (m.type === 'threads') threadsAnswer?.(m);
    else if (m.type === 'ready') ready = m;
    else if (m.type === 'tree') tree = m;
    else if (m.type === 'caught-up') caughtUp = m;
    else waiters.get(`${m.type}:${m.marker}`)?.(m);
  });
  const waitMessage = (key: string, ms: number) =>
    new Promise<SessionMessage | undefined>((resolve) => {
      const timer = setTimeout(() => {
        waiters.delete(key);
        resolve(undefined);
      }, ms);
      waiters.set(key, (m) => {
        clearTimeout(timer);
        waiters.delete(key);
        resolve(m);
      });
    });
  try {
    while (!ready) {
      if (exited) throw new Error('the explorer session exited before it was ready');
      await sleep(50);
    }
    if (!ready.visible.length) throw new Error('no pod rows visible in the explorer');

    // Events are measured live, once the model has caught up (until then an event waits behind the replay,
    // which catch_up_s measures); the keys above ran during the catch-up.
    while (!caughtUp) {
      if (exited) throw new Error('the explorer session exited before it caught up');
      await sleep(50);
    }
    const catchUpMissed = !Number.isFinite(caughtUp.ms);

    // Pod status change at the server → the changed row in a frame: the
    // restart count of a visible pod set to a unique number by a status PATCH.
    const eventMs: number[] = [];
    const eventPatchMs: number[] = [];
    const eventModelMs: number[] = [];
    let missed = 0;
    for (let i = 0; i < opts.events; i++) {
      const pod = ready.visible[i % ready.visible.length];
      const path = `/api/v1/namespaces/${encodeURIComponent(pod.namespace)}/pods/${encodeURIComponent(pod.name)}`;
      const current = (await (await fetch(server.url + path)).json()) as {
        status?: { containerStatuses?: { restartCount: number }[] };
      };
      const statuses = current.status?.containerStatuses;
      if (!statuses?.length) {
        missed++;
        continue;
      }
      const marker = String(70000 + i);
      const body = JSON.stringify({
        status: { containerStatuses: [{ ...statuses[0], restartCount: Number(marker) }, ...statuses.slice(1)] },
      });
      child.send({ type: 'expect', namespace: pod.namespace, name: pod.name, marker });
      await waitMessage(`expecting:${marker}`, 5000);
      const seen = waitMessage(`seen:${marker}`, EVENT_TIMEOUT_MS);
      // Only a worker engine is probed, and only when asked (tui-session.ts probeEvent).
      const modelled =
        opts.engine === 'worker' && process.env[EVENT_PROBE_ENV] === '1'
          ? waitMessage(`modelled:${marker}`, EVENT_TIMEOUT_MS)
          : Promise.resolve(undefined);
      const t0 = now();
      const res = await fetch(`${server.url}${path}/status`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body,
      });
      if (!res.ok) throw new Error(`PATCH ${path}/status: HTTP ${res.status}`);
      await res.arrayBuffer();
      const answered = now();
      const m = await seen;
      eventPatchMs.push(answered - t0);
      const inModel = await modelled;
      eventModelMs.push(inModel?.type === 'modelled' ? inModel.t - t0 : NaN);
      if (m?.type === 'seen') eventMs.push(m.t - t0);
      else {
        // Not drawn within the timeout: counted at the timeout, a lower bound
        // (setup.eventsMissed says how many), so the percentiles stay honest.
        missed++;
        eventMs.push(EVENT_TIMEOUT_MS);
      }
      await sleep(150 + Math.random() * 150);
    }

    // CPU and memory of the session under churn, nothing else asked of it.
    await askThreads('start');
    const c0 = cpuTicks(child.pid!);
    const w0 = performance.now();
    await sleep(opts.cpuSeconds * 1000);
    const cpuPercent = (((cpuTicks(child.pid!) - c0) / CLK_TCK) * 100_000) / (performance.now() - w0);
    const mem = memoryKb(child.pid!);
    const threads = (await askThreads('end'))?.figures ?? null;
    return {
      syncMs: ready.syncMs,
      firstTreeChurnMs: tree ? tree.t - spawnedAt : NaN,
      catchUpMs: catchUpMissed ? CATCH_UP_TIMEOUT_MS : caughtUp.ms,
      catchUpMissed,
      keyMs: ready.keyMs,
      keyCpuMs: ready.keyCpuMs,
      eventMs,
      eventPatchMs,
      eventModelMs,
      eventsMissed: missed,
      cpuPercent,
      rssMb: mem.rss / 1024,
      peakRssMb: mem.hwm / 1024,
      threads,
      workloadsViewHeapMb: ready.workloadsViewHeapMb,
    };
  } finally {
    if (!exited) {
      child.send({ type: 'quit' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
    }
  }
}

/** The fast-path figure of benchJq() alone: a label lookup over 100,000 pod-like objects, best of 3. */
function quickJqFastPath(): number {
  const lookup = compile('.metadata.labels["k"]');
  const objects = Array.from({ length: 100_000 }, (_, i) => ({
    metadata: { name: `pod-${i}`, labels: { app: `a${i % 7}`, k: `v${i}` } },
  }));
  let sink = 0;
  let best = Infinity;
  for (let pass = 0; pass < 4; pass++) {
    const t0 = performance.now();
    for (const o of objects) sink += (lookup.first(o) as string).length;
    if (pass) best = Math.min(best, performance.now() - t0);
  }
  if (sink < 0) throw new Error('unreachable');
  return Math.round(objects.length / (best / 1000));
}

async function measureStartup(times: number): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++)
    ms.push((await timeProcess(process.execPath, [WLX_BIN, '--version'], process.env, 'pipe')).ms);
  return median(ms);
}

/** The worst of the sessions' values (the largest: every phase-2 figure is better smaller). */
export function worst(values: number[]): number {
  const finite = values.filter(Number.isFinite);
  return finite.length ? Math.max(...finite) : NaN;
}

/** One session's phase-2 figures, as setup.sessions keeps them. */
function sessionSummary(s: SessionFigures) {
  return {
    first_tree_churn_s: s.firstTreeChurnMs / 1000,
    catch_up_s: s.catchUpMs / 1000,
    catchUpMissed: s.catchUpMissed,
    event_to_frame_ms_p50: percentile(s.eventMs, 50),
    event_to_frame_ms_p99: percentile(s.eventMs, 99),
    eventsMissed: s.eventsMissed,
    key_to_frame_ms_p50: percentile(s.keyMs, 50),
    key_to_frame_ms_p99: percentile(s.keyMs, 99),
    keyToFrameCpuMsP99: percentile(s.keyCpuMs, 99),
    cpu_percent_churn: s.cpuPercent,
    rss_mb_steady: s.rssMb,
    rss_mb_peak: s.peakRssMb,
    // Over the CPU phase: each thread's event-loop busy share (% of a core) and heap after a full GC.
    ui_busy_percent: s.threads?.uiBusyPercent ?? NaN,
    engine_busy_percent: s.threads?.engineBusyPercent ?? NaN,
    ui_heap_mb: s.threads?.uiHeapMb ?? NaN,
    engine_heap_mb: s.threads?.engineHeapMb ?? NaN,
    ui_heap_total_mb: s.threads?.uiHeapTotalMb ?? NaN,
    engine_heap_total_mb: s.threads?.engineHeapTotalMb ?? NaN,
    ui_heap_mb_workloads_view: s.workloadsViewHeapMb,
    syncS: s.syncMs / 1000,
    key_to_frame_ms: s.keyMs,
    event_to_frame_ms: s.eventMs,
    event_patch_ms: s.eventPatchMs,
    event_model_ms: s.eventModelMs,
  };
}

async function repeat<T>(n: number, what: string, f: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) {
    out.push(await f());
    log(`${what} ${i + 1}/${n} done`);
  }
  return out;
}

export interface BenchResult {
  figures: Record<FigureName, number>;
  setup: Record<string, unknown>;
}

export async function runBench(argv: string[]): Promise<BenchResult> {
  const { values } = parseArgs({
    args: argv,
    options: {
      nodes: { type: 'string', default: '5000' },
      pods: { type: 'string', default: '100000' },
      workloads: { type: 'string', default: '2000' },
      churn: { type: 'string', default: '2000' },
      runs: { type: 'string', default: '3' },
      'kubectl-runs': { type: 'string' },
      keys: { type: 'string', default: '60' },
      events: { type: 'string', default: '40' },
      sessions: { type: 'string', default: '3' },
      // How the sessions run the engine: in a worker thread (the explorer's default) or on the UI thread.
      engine: { type: 'string', default: 'worker' },
      'cpu-seconds': { type: 'string', default: '10' },
      json: { type: 'string' },
      // quick: only the fast-path lookups (the smoke test); full: benchJq(), with its wasm fallback runs.
      jq: { type: 'string', default: 'full' },
      wire: { type: 'string', default: 'json' },
    },
  });
  const num = (k: keyof typeof values) => {
    const n = Number(values[k]);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${k} must be a number`);
    return n;
  };
  const workloads = Math.max(1, num('workloads'));
  const size: ScaleSize = {
    nodes: num('nodes'),
    workloads,
    podsPerWorkload: Math.max(1, Math.round(num('pods') / workloads)),
    churn: num('churn'),
  };
  const runs = Math.max(1, num('runs'));
  const kubectlRuns = values['kubectl-runs'] !== undefined ? Math.max(1, num('kubectl-runs')) : runs;
  const sessionCount = Math.max(1, num('sessions'));
  const engine = values.engine;
  if (engine !== 'worker' && engine !== 'inline') throw new Error('--engine must be worker or inline');
  const wire = values.wire;
  if (wire !== 'json' && wire !== 'protobuf') throw new Error('--wire must be json or protobuf');
  // Read by benchOpenOptions in the child processes (and by the get -o json run above).
  process.env[BENCH_WIRE_ENV] = wire;
  const started = new Date().toISOString();

  log(`phase 1: ${size.nodes} nodes, ${size.workloads} workloads × ${size.podsPerWorkload} pods, no churn`);
  let server = await startBenchServer({ ...size, churn: 0 });
  let raw: { ms: number; pods: number; cpuS: number }[];
  let trees: FirstTree[];
  let kubectl: number[];
  let getJson: number[];
  const serverStartS: number[] = [server.startMs / 1000];
  try {
    // Interleaved, so that a slow moment of the shared machine hits each alike.
    raw = [];
    trees = [];
    for (let i = 0; i < runs; i++) {
      raw.push(await measureRawList(server));
      trees.push(await measureFirstTree(server));
      log(
        `raw list / first tree ${i + 1}/${runs}: ${(raw.at(-1)!.ms / 1000).toFixed(2)} s / ${(trees.at(-1)!.ms / 1000).toFixed(2)} s`,
      );
    }
    getJson = await repeat(runs, 'wlx get -A -o json', () => measureGetJson(server));
    kubectl = await repeat(kubectlRuns, 'kubectl get pods -A -o name', () => measureKubectl(server));
  } finally {
    await server.stop();
  }

  log(`phase 2: churn ${size.churn} pod status events/s; ${sessionCount} explorer sessions (engine: ${engine})`);
  const sessions: SessionFigures[] = [];
  for (let i = 0; i < sessionCount; i++) {
    server = await startBenchServer(size, { allowWrites: true });
    serverStartS.push(server.startMs / 1000);
    try {
      const s = await measureSession(server, {
        keys: num('keys'),
        events: num('events'),
        cpuSeconds: num('cpu-seconds'),
        engine,
      });
      sessions.push(s);
      log(
        `session ${i + 1}/${sessionCount}: complete view ${(s.firstTreeChurnMs / 1000).toFixed(2)} s, catch-up ${(s.catchUpMs / 1000).toFixed(2)} s`,
      );
    } finally {
      await server.stop();
    }
  }
  const summaries = sessions.map(sessionSummary);
  const worstOf = (k: keyof ReturnType<typeof sessionSummary>) => worst(summaries.map((x) => Number(x[k])));

  log('jq fast path and CLI start-up');
  const jqFastPath =
    values.jq === 'quick' ? quickJqFastPath() : ((await benchJq())['label lookups evaluations/s'] ?? NaN);
  const startup = await measureStartup(10);

  const firstTreeS = median(trees.map((t) => t.ms)) / 1000;
  const rawS = median(raw.map((r) => r.ms)) / 1000;
  const kubectlS = median(kubectl) / 1000;
  const firstTreeChurnS = worstOf('first_tree_churn_s');
  const figures: Record<FigureName, number> = {
    first_tree_s: firstTreeS,
    raw_list_s: rawS,
    kubectl_list_pods_s: kubectlS,
    first_tree_vs_raw_list: firstTreeS / rawS,
    first_tree_vs_kubectl: firstTreeS / kubectlS,
    get_json_s: median(getJson) / 1000,
    rss_mb_steady: worstOf('rss_mb_steady'),
    rss_mb_peak: worstOf('rss_mb_peak'),
    retained_bytes_per_pod: median(trees.map((t) => t.retainedBytesPerPod)),
    event_to_frame_ms_p50: worstOf('event_to_frame_ms_p50'),
    event_to_frame_ms_p99: worstOf('event_to_frame_ms_p99'),
    cpu_percent_churn: worstOf('cpu_percent_churn'),
    key_to_frame_ms_p99: worstOf('key_to_frame_ms_p99'),
    jq_fast_path_evals_per_s: jqFastPath,
    startup_ms_cli: startup,
    catch_up_s: worstOf('catch_up_s'),
    first_tree_churn_s: firstTreeChurnS,
    first_tree_churn_vs_first_tree: firstTreeChurnS / firstTreeS,
  };
  const setup = {
    started,
    command: `npm run bench -- ${argv.join(' ')}`.trim(),
    nodes: size.nodes,
    workloads: size.workloads,
    podsPerWorkload: size.podsPerWorkload,
    pods: trees[0]?.pods,
    podsListedRaw: raw[0]?.pods,
    churnEventsPerSecond: size.churn,
    runs,
    kubectlRuns,
    wire,
    machine: { cpus: availableParallelism(), model: cpus()[0]?.model, node: process.version },
    serverStartS,
    samples: {
      first_tree_s: trees.map((t) => t.ms / 1000),
      raw_list_s: raw.map((r) => r.ms / 1000),
      kubectl_list_pods_s: kubectl.map((k) => k / 1000),
      get_json_s: getJson.map((g) => g / 1000),
    },
    keyDriving:
      'in-process: Ink render() with the explorer options (maxFps 30, production React) into a fake TTY; keys written to its stdin',
    engine,
    // Every phase-2 figure above is the worst of these sessions.
    sessions: summaries,
    eventsMissed: worstOf('eventsMissed'),
    headless: {
      workloads: trees[0]?.workloads,
      workloadsWithRoles: trees[0]?.workloadsWithRoles,
      rssMb: median(trees.map((t) => t.rssMb)),
      peakRssMb: median(trees.map((t) => t.peakRssMb)),
    },
    sessionSyncS: worstOf('syncS'),
    threads: {
      ui_busy_percent: worstOf('ui_busy_percent'),
      engine_busy_percent: worstOf('engine_busy_percent'),
      ui_heap_mb: worstOf('ui_heap_mb'),
      engine_heap_mb: worstOf('engine_heap_mb'),
      ui_heap_total_mb: worstOf('ui_heap_total_mb'),
      engine_heap_total_mb: worstOf('engine_heap_total_mb'),
      ui_heap_mb_workloads_view: worstOf('ui_heap_mb_workloads_view'),
    },
    // CPU (not wall) time: what the figures would be on an idle machine.
    cpuSeconds: { first_tree: median(trees.map((t) => t.cpuS)), raw_list: median(raw.map((r) => r.cpuS)) },
    keyToFrameCpuMsP99: worstOf('keyToFrameCpuMsP99'),
    loadAverage: loadavg(),
    keyToFrameMsP50: worstOf('key_to_frame_ms_p50'),
    targets: Object.fromEntries(
      FIGURE_NAMES.filter((n) => TARGETS[n]).map((n) => [n, targetMet(n, figures[n]) ? 'met' : 'missed']),
    ),
  };
  return { figures, setup };
}

function printTable(result: BenchResult): void {
  const width = Math.max(...FIGURE_NAMES.map((n) => n.length));
  const lines = [
    '',
    `wlx benchmark (${result.setup.pods} pods, ${result.setup.nodes} nodes, ${result.setup.workloads} workloads, ${result.setup.churnEventsPerSecond} events/s)`,
  ];
  const format = (v: number) =>
    Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : Number(v.toPrecision(3)).toString();
  for (const name of FIGURE_NAMES) {
    const v = result.figures[name];
    const target = TARGETS[name];
    const goal = !target ? '' : 'max' in target ? `≤ ${format(target.max)}` : `≥ ${format(target.min)}`;
    const met = target ? (targetMet(name, v) ? 'met' : 'missed') : '';
    lines.push(`  ${name.padEnd(width)}  ${format(v).padStart(12)}  ${goal.padEnd(12)}  ${met}`.trimEnd());
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes('--small')) {
  smallMain(process.argv.slice(2)).then(
    (figures) => {
      printSmall(figures);
      const jsonPath = parseArgs({ args: process.argv.slice(2), options: { json: { type: 'string' } }, strict: false })
        .values.json;
      if (typeof jsonPath === 'string') writeFileSync(jsonPath, `${JSON.stringify(figures, null, 2)}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBench(process.argv.slice(2)).then(
    (result) => {
      printTable(result);
      const jsonPath = parseArgs({ args: process.argv.slice(2), options: { json: { type: 'string' } }, strict: false })
        .values.json;
      if (typeof jsonPath === 'string') writeFileSync(jsonPath, `${JSON.stringify(result, null, 2)}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
