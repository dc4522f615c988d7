// The long soak of issue 17: `npm run soak -- --minutes N [--nodes --pods
// --workloads --churn] [--json FILE]`. One explorer session (the real engine
// and App, test/bench/tui-session.ts) against the simulated cluster's scale
// scenario under churn, while the soak drops every watch, expires watches
// with 410, restarts the server, applies and removes a Karta whose expression
// is over the jq budget, and adds and removes hostile objects. It reports the
// explorer's RSS slope, event → frame and key → frame latencies, the faults
// injected and, once the simulation has stopped, the model-vs-server diff.
// See README.md for the figures and their bounds.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { percentile } from '../bench/main.js';
import { apiFetch, startSoakCluster, type SoakCluster } from './cluster.js';
import { isEmptyDiff, modelServerDiff, type ModelServerDiff } from './diff.js';
import { createHostile, deleteHostile, hostileObjects, type HostileResult } from './hostile.js';
import { startExplorerSession, type ExplorerSession } from './session.js';

const log = (s: string) => process.stderr.write(`soak: ${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.timeOrigin + performance.now();

/**
 * Expressions over the jq budget, one per Karta cycle in turn: endless
 * recursion, string growth, an endless loop. (`[range(1e9)]` is no test:
 * definitions may not use `range`, so the Karta is refused when loaded.)
 */
export const OVER_BUDGET = ['def f: f; f', '"x" | until(length > 1e9; . + .)', 'until(false; .)'];

export interface KartaCycle {
  expression: string;
  /** Applied → the definition reported broken (NaN: not seen). */
  brokenAfterS: number;
  /** Deleted → the definition and its error gone (NaN: not seen). */
  clearedAfterS: number;
  /** Key → frame of the keys pressed while the Karta was applied. */
  keyMs: number[];
  /** Every key pressed then got a frame within KARTA_KEY_TIMEOUT_MS. */
  keysAnswered: boolean;
  /** The problem line wlx showed; when none, what the definition last showed instead. */
  error: string;
}

export interface HostileCycle {
  objects: HostileResult[];
  /** Problem lines naming one of the objects (what wlx reported of them). */
  reported: string[];
  keysAnswered: boolean;
}

export interface SoakResult {
  figures: {
    rss_slope_mb_per_min: number;
    rss_mb_after_warmup: number;
    rss_mb_end: number;
    /** The highest RSS of the run, transients included (VmHWM). */
    rss_mb_peak: number;
    heap_slope_mb_per_min: number;
    event_to_frame_ms_p50: number;
    event_to_frame_ms_p99: number;
    /** Events made while an over-budget Karta was applied (not in the two above). */
    event_to_frame_ms_p99_karta: number;
    key_to_frame_ms_p99: number;
    key_to_frame_ms_p99_karta: number;
    diff_missing: number;
    diff_extra: number;
    diff_stale: number;
  };
  faults: {
    watchesDropped: number;
    expiriesRequested: number;
    restarts: number;
    kartaCycles: number;
    hostileCycles: number;
  };
  kartaCycles: KartaCycle[];
  hostileCycles: HostileCycle[];
  diff: ModelServerDiff;
  /** Simulation stopped → the diff empty (or the deadline). */
  settleS: number;
  events: { sent: number; missed: number; skipped: number };
  /** After a full GC: [minutes into the run, MB]. */
  rssSamples: [minutes: number, mb: number][];
  heapSamples: [minutes: number, mb: number][];
  setup: Record<string, unknown>;
}

/** Least-squares slope of y over x. */
export function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den ? num / den : NaN;
}

/** The process's peak RSS so far (VmHWM), MB. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? NaN) / 1024;
}

/** A Karta for the scale scenario's PyTorchJobs whose phase expression is over budget. */
function overBudgetKarta(name: string, expression: string): object {
  return {
    apiVersion: 'run.ai/v1alpha1',
    kind: 'Karta',
    metadata: { name },
    spec: {
      structureDefinition: {
        rootComponent: {
          name: 'pytorchjob',
          kind: { group: 'kubeflow.org', version: 'v1', kind: 'PyTorchJob' },
          statusDefinition: {
            phaseDefinition: { path: expression },
            statusMappings: { running: [{ byPhase: 'Running' }] },
          },
        },
      },
    },
  };
}

interface Options {
  minutes: number;
  nodes: number;
  pods: number;
  workloads: number;
  churn: number;
  /** Seconds between Karta + hostile-object cycles. */
  cycleEvery: number;
  /** At most this many cycles (the suite's short run keeps them before the RSS window). */
  cycles: number;
  dropEvery: number;
  expireEvery: number;
  restartEvery: number;
  /** Seconds of RSS samples left out of the slope. */
  warmup: number;
}

export function parseSoakArgs(argv: string[]): Options & { json?: string } {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string', default: '60' },
      nodes: { type: 'string', default: '1000' },
      pods: { type: 'string', default: '20000' },
      workloads: { type: 'string', default: '400' },
      churn: { type: 'string', default: '200' },
      'cycle-every': { type: 'string', default: '180' },
      cycles: { type: 'string', default: 'Infinity' },
      'drop-watches-every': { type: 'string', default: '60' },
      'expire-every': { type: 'string', default: '90' },
      'restart-every': { type: 'string', default: '300' },
      warmup: { type: 'string' },
      json: { type: 'string' },
    },
  });
  const num = (k: keyof typeof values, min: number) => {
    const n = Number(values[k]);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${k} must be a number ≥ ${min}`);
    return n;
  };
  const minutes = num('minutes', 0.5);
  return {
    minutes,
    nodes: num('nodes', 1),
    pods: num('pods', 1),
    workloads: num('workloads', 1),
    churn: num('churn', 0),
    cycleEvery: num('cycle-every', 10),
    cycles: values.cycles === 'Infinity' ? Infinity : num('cycles', 0),
    dropEvery: num('drop-watches-every', 1),
    expireEvery: num('expire-every', 1),
    restartEvery: num('restart-every', 1),
    // The heap grows to its working size in the first minutes; 20 % of the run, at least 30 s, at most 10 min.
    warmup: values.warmup !== undefined ? num('warmup', 0) : Math.min(600, Math.max(30, minutes * 12)),
    json: values.json,
  };
}

/** Runs `body` every `seconds` until `running()` is false; the first run after `firstAfter` seconds. */
async function every(seconds: number, firstAfter: number, running: () => boolean, body: () => Promise<void>) {
  const start = Date.now();
  let next = firstAfter;
  while (running()) {
    const wait = start + next * 1000 - Date.now();
    if (wait > 0) {
      await sleep(Math.min(wait, 500));
      continue;
    }
    await body();
    next += seconds;
  }
}

/** How long a key may wait for its frame while a Karta is applied: twice the jq deadline (see README.md). */
export const KARTA_KEY_TIMEOUT_MS = 10_000;

async function kartaCycle(
  cluster: SoakCluster,
  session: ExplorerSession,
  n: number,
  pressKey: (timeoutMs?: number) => Promise<number>,
): Promise<KartaCycle> {
  const expression = OVER_BUDGET[n % OVER_BUDGET.length];
  const name = `soak-over-budget-${n}`;
  const url = `${cluster.url}/apis/run.ai/v1alpha1/kartas`;
  const cycle: KartaCycle = {
    expression,
    brokenAfterS: NaN,
    clearedAfterS: NaN,
    keyMs: [],
    keysAnswered: false,
    error: '',
  };
  // Keys are pressed every 250 ms from before the Karta is applied until its error has cleared.
  let pressing = true;
  const keys = (async () => {
    while (pressing) {
      cycle.keyMs.push(await pressKey(KARTA_KEY_TIMEOUT_MS));
      await sleep(250);
    }
  })();
  try {
    const posted = await apiFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(overBudgetKarta(name, expression)),
    });
    if (posted.status !== 201) throw new Error(`POST Karta ${name}: HTTP ${posted.status} ${await posted.text()}`);
    const t0 = now();
    while (now() - t0 < 90_000) {
      const view = await session.view(false);
      const def = view.definitions.find((d) => d.name === name);
      const error = def && !def.valid ? def.problems.find((p) => /exceeded the evaluation budget/.test(p)) : undefined;
      if (error) {
        cycle.brokenAfterS = (now() - t0) / 1000;
        cycle.error = error;
        break;
      }
      cycle.error = def ? `not broken: ${def.problems.join('; ') || 'no problems'}` : 'the definition not loaded';
      await sleep(250);
    }
    const deleted = await apiFetch(`${url}/${name}`, { method: 'DELETE' });
    if (!deleted.ok) throw new Error(`DELETE Karta ${name}: HTTP ${deleted.status}`);
    await deleted.arrayBuffer();
    const t1 = now();
    while (now() - t1 < 60_000) {
      const view = await session.view(false);
      if (!view.definitions.some((d) => d.name === name) && !view.problems.some((p) => p.includes(name))) {
        cycle.clearedAfterS = (now() - t1) / 1000;
        break;
      }
      await sleep(250);
    }
  } finally {
    pressing = false;
    await keys;
  }
  cycle.keysAnswered = cycle.keyMs.every(Number.isFinite);
  return cycle;
}

async function hostileCycle(
  cluster: SoakCluster,
  session: ExplorerSession,
  n: number,
  pressKey: () => Promise<number>,
): Promise<HostileCycle> {
  const objects = hostileObjects(n);
  const created = await createHostile(cluster.url, objects);
  const keyMs: number[] = [];
  for (let i = 0; i < 10; i++) {
    keyMs.push(await pressKey());
    await sleep(500);
  }
  const names = objects.map((o) => o.name);
  const reported = (await session.view(false)).problems.filter((p) => names.some((name) => p.includes(name)));
  await deleteHostile(cluster.url, objects);
  return { objects: created, reported, keysAnswered: keyMs.every(Number.isFinite) };
}

export async function runSoak(argv: string[]): Promise<SoakResult> {
  const o = parseSoakArgs(argv);
  const workloads = Math.max(1, o.workloads);
  const podsPerWorkload = Math.max(1, Math.round(o.pods / workloads));
  const started = new Date().toISOString();
  log(`${o.nodes} nodes, ${workloads} workloads × ${podsPerWorkload} pods, churn ${o.churn}/s, ${o.minutes} min`);
  const cluster = await startSoakCluster({ nodes: o.nodes, workloads, podsPerWorkload, churn: o.churn });
  let session: ExplorerSession | undefined;
  try {
    session = await startExplorerSession(cluster.kubeconfigPath);
    const s = session;
    log(`explorer ready in ${(s.syncMs / 1000).toFixed(1)} s; ${s.visible.length} pods on screen`);
    const t0 = Date.now();
    const end = t0 + o.minutes * 60_000;
    const running = () => Date.now() < end && !s.exited();
    const minutes = () => (Date.now() - t0) / 60_000;

    // Keys are pressed by one loop at a time (a key's frame is told apart from the next one's by order).
    let keyTurn: Promise<unknown> = Promise.resolve();
    let keyCount = 0;
    const pressKey = (timeoutMs?: number) => {
      const press = keyTurn.then(() => s.key(keyCount++ % 2 ? 'k' : 'j', timeoutMs));
      keyTurn = press.catch(() => undefined);
      return press;
    };

    const rssSamples: [number, number][] = [];
    const heapSamples: [number, number][] = [];
    const keyMs: number[] = [];
    const eventMs: number[] = [];
    // Events made while an over-budget Karta was applied: its evaluations hold back the flushes they are part of.
    const eventMsKarta: number[] = [];
    let kartaApplied = false;
    const events = { sent: 0, missed: 0, skipped: 0 };
    const faults = { watchesDropped: 0, expiriesRequested: 0, restarts: 0, kartaCycles: 0, hostileCycles: 0 };
    const kartaCycles: KartaCycle[] = [];
    const hostileCycles: HostileCycle[] = [];
    const fault = async (what: keyof typeof faults, request: Parameters<SoakCluster['fault']>[0], count = 1) => {
      try {
        await cluster.fault(request);
        faults[what] += count;
      } catch (err) {
        log(`fault ${JSON.stringify(request)} not injected: ${(err as Error).message}`); // e.g. mid-restart
      }
    };
    const loops = [
      // After a full GC (a pause of the explorer: every 10 s at the hour's scale, every 2 s in short runs).
      every(o.minutes >= 10 ? 10 : 2, 0, running, async () => {
        const m = await s.memory();
        rssSamples.push([minutes(), m.rssMb]);
        heapSamples.push([minutes(), m.heapMb]);
      }),
      every(1, 1, running, async () => {
        keyMs.push(await pressKey());
      }),
      every(2, 2, running, async () => {
        // A visible pod's restart count PATCHed to a unique marker → the row drawn with it.
        const pod = s.visible[events.sent % s.visible.length];
        const path = `/api/v1/namespaces/${pod.namespace}/pods/${pod.name}`;
        try {
          const current = (await (await fetch(cluster.url + path)).json()) as {
            status?: { containerStatuses?: { restartCount: number }[] };
          };
          const statuses = current.status?.containerStatuses;
          if (!statuses?.length) return void events.skipped++;
          const marker = String(900_000 + events.sent++);
          const { seen } = await s.expect(pod, marker, 10_000);
          const sent = now();
          const res = await fetch(`${cluster.url}${path}/status`, {
            method: 'PATCH',
            headers: { 'content-type': 'application/merge-patch+json' },
            body: JSON.stringify({
              status: { containerStatuses: [{ ...statuses[0], restartCount: Number(marker) }, ...statuses.slice(1)] },
            }),
          });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`HTTP ${res.status}`);
          const during = kartaApplied;
          const t = await seen;
          // Not drawn: counted at the timeout, a lower bound, so the percentiles stay honest.
          if (t === undefined) events.missed++;
          (during || kartaApplied ? eventMsKarta : eventMs).push(t === undefined ? 10_000 : t - sent);
        } catch {
          events.skipped++; // the server restarting: no event was made
        }
      }),
      every(o.dropEvery, o.dropEvery, running, () => fault('watchesDropped', { dropWatchesNow: true })),
      every(o.expireEvery, o.expireEvery, running, () => fault('expiriesRequested', { expireNextWatches: 3 }, 3)),
      every(o.restartEvery, o.restartEvery, running, () => fault('restarts', { restart: true })),
      every(o.cycleEvery, Math.min(20, o.cycleEvery), running, async () => {
        if (faults.kartaCycles >= o.cycles) return;
        const n = faults.kartaCycles++;
        kartaApplied = true;
        const k = await kartaCycle(cluster, s, n, pressKey);
        kartaApplied = false;
        kartaCycles.push(k);
        log(
          `Karta \`${k.expression}\`: broken after ${k.brokenAfterS.toFixed(1)} s, cleared after ${k.clearedAfterS.toFixed(1)} s, keys p99 ${percentile(k.keyMs, 99).toFixed(0)} ms${Number.isFinite(k.brokenAfterS) ? '' : `; ${k.error}`}`,
        );
        faults.hostileCycles++;
        const h = await hostileCycle(cluster, s, n, pressKey);
        hostileCycles.push(h);
        log(
          `hostile objects: ${h.objects.map((x) => `${x.name} ${x.status}`).join(', ')}; ${h.reported.length} problem lines`,
        );
      }),
    ];
    await Promise.all(loops);
    if (s.exited()) throw new Error('the explorer session exited during the soak');

    log('simulation stopped; waiting for the model to settle');
    await cluster.stopSimulation();
    const t1 = now();
    let diff: ModelServerDiff;
    do {
      await sleep(2000);
      diff = await modelServerDiff(await s.view(true), cluster.url);
    } while (!isEmptyDiff(diff) && now() - t1 < 60_000);
    const settleS = (now() - t1) / 1000;

    const steady = rssSamples.filter(([m]) => m * 60 >= o.warmup);
    const rssPeak = peakRssMb(s.pid);
    const kartaKeys = kartaCycles.flatMap((k) => k.keyMs);
    return {
      figures: {
        rss_slope_mb_per_min: slope(steady),
        rss_mb_after_warmup: steady[0]?.[1] ?? NaN,
        rss_mb_end: rssSamples.at(-1)?.[1] ?? NaN,
        rss_mb_peak: rssPeak,
        heap_slope_mb_per_min: slope(heapSamples.filter(([m]) => m * 60 >= o.warmup)),
        event_to_frame_ms_p50: percentile(eventMs, 50),
        event_to_frame_ms_p99: percentile(eventMs, 99),
        event_to_frame_ms_p99_karta: percentile(eventMsKarta, 99),
        key_to_frame_ms_p99: percentile([...keyMs, ...kartaKeys], 99),
        key_to_frame_ms_p99_karta: percentile(kartaKeys, 99),
        diff_missing: diff.missing.length,
        diff_extra: diff.extra.length,
        diff_stale: diff.stale.length,
      },
      faults,
      kartaCycles,
      hostileCycles,
      diff,
      settleS,
      events,
      rssSamples,
      heapSamples,
      setup: {
        started,
        command: `npm run soak -- ${argv.join(' ')}`.trim(),
        ...o,
        podsPerWorkload,
        sessionSyncS: s.syncMs / 1000,
        keysPressed: keyMs.length + kartaKeys.length,
        keysUnanswered: [...keyMs, ...kartaKeys].filter((ms) => !Number.isFinite(ms)).length,
        machine: { cpus: availableParallelism(), model: cpus()[0]?.model, node: process.version },
        loadAverage: loadavg(),
      },
    };
  } finally {
    await session?.stop();
    await cluster.stop();
  }
}

const fmt = (v: number) =>
  Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : Number(v.toPrecision(3)).toString();

export function soakTable(r: SoakResult): string {
  const rows: [string, string][] = Object.entries(r.figures).map(([k, v]) => [k, fmt(v)]);
  rows.push(
    ['faults: watches dropped', String(r.faults.watchesDropped)],
    ['faults: 410 Expired requested', String(r.faults.expiriesRequested)],
    ['faults: server restarts', String(r.faults.restarts)],
    [
      'over-budget Karta cycles (broken seen / cleared)',
      `${r.kartaCycles.length} (${r.kartaCycles.filter((k) => Number.isFinite(k.brokenAfterS)).length} / ${r.kartaCycles.filter((k) => Number.isFinite(k.clearedAfterS)).length})`,
    ],
    ['hostile-object cycles', String(r.hostileCycles.length)],
    ['events sent / missed / skipped', `${r.events.sent} / ${r.events.missed} / ${r.events.skipped}`],
    ['settle after the simulation stopped, s', fmt(r.settleS)],
  );
  const width = Math.max(...rows.map(([k]) => k.length));
  const s = r.setup;
  return [
    '',
    `wlx soak (${String(s.minutes)} min; ${String(s.nodes)} nodes, ${String(s.workloads)} workloads × ${String(s.podsPerWorkload)} pods, ${String(s.churn)} events/s)`,
    ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
    ...[...r.diff.missing, ...r.diff.extra, ...r.diff.stale].slice(0, 20).map((d) => `  diff: ${d}`),
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runSoak(process.argv.slice(2)).then(
    (result) => {
      process.stdout.write(soakTable(result));
      const json = parseSoakArgs(process.argv.slice(2)).json;
      if (json) writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`soak: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
