// One explorer session, driven in-process through Ink's stdin (no terminal):
// the real engine over HTTP (openModelSource, as `wlx` runs it) and the real
// App rendered by Ink with the explorer's options (MAX_FPS, production
// React, ink-frame-memo.ts), into a fake terminal that timestamps every frame written.
// Run by the harness as a child process with an IPC channel:
//   node tui-session.js KUBECONFIG [--keys N] [--engine worker|inline] [--measure-start]
// --engine is passed to openModelSource as `engineThread` (absent: its default).
// --measure-start (the bench; the server must allow writes): the first complete
// workloads view and the catch-up after the lists (test/bench/README.md).
// child → parent: {type:'caught-up', ms}         (lists complete → the catch-up marker in the model; --measure-start)
//                 {type:'tree', t, workloads}    (t: epoch ms of the first complete, live workloads view; --measure-start)
//                 {type:'ready', syncMs, podCount, visible:[{namespace,name}], keyMs:[...]}
//                 {type:'seen', marker, t}    (t: epoch ms with fractions)
// parent → child: {type:'expect', namespace, name, marker}, {type:'quit'}
// and for the soak (test/soak): {type:'key', id, key, timeoutMs} → {type:'key', id, ms}
// (key → next frame, NaN after timeoutMs, default 5 s); {type:'view', id, pods} → {type:'view', id, view};
// {type:'memory', id} → {type:'memory', id, rss, heapUsed} (bytes, after a full GC under --expose-gc).
// {type:'threads', id, phase:'start'} → {type:'threads', id}, then {type:'threads', id, phase:'end'} →
// {type:'threads', id, figures: ThreadFigures}: each thread's busy share since 'start' and its heap after a GC.
// WLX_BENCH_EVENT_PROBE=1, with the engine in a worker: each 'expect' also probes that pod in the engine's model,
// child → parent {type:'modelled', marker, t} when the UI thread receives the snapshot whose model holds the marker.
// Off by default: the probe looks the pod up in the whole model on every flush, which slows the engine.
// WLX_BENCH_KEY_PROFILE=FILE: the UI thread's CPU profile over the key phase (key-profile.ts).
import { parseArgs } from 'node:util';
import type { EventLoopUtilization } from 'node:perf_hooks';
import type { WorkerSource } from '../../src/app/worker/worker-source.js';
import type { ModelSnapshot, PodSummary } from '../../src/model/types.js';
import type { ModelSource } from '../../src/model/source.js';
import { startKeyProfile, type KeyMark } from './key-profile.js';
import { loadExplorerDraw } from './fake-terminal.js';
import {
  EVENT_PROBE_ENV,
  benchOpenOptions,
  prepareRestartMarker,
  serverUrlOf,
  somePod,
  watchForMarker,
  type PodRef,
  type RestartMarker,
} from './marker.js';

/** What the model holds, for the soak's model-vs-server diff and its checks. */
export interface SessionView {
  /** Every pod the model shows (in workload trees and orphans); empty unless asked for. */
  pods: Pick<
    PodSummary,
    'uid' | 'namespace' | 'name' | 'status' | 'phase' | 'ready' | 'restarts' | 'readyContainers' | 'node'
  >[];
  workloads: { uid: string; apiVersion: string; kind: string; namespace: string; name: string }[];
  nodes: string[];
  kinds: { resource: string; group: string; version: string; kind: string; state: string; count: number }[];
  definitions: { name: string; valid: boolean; problems: string[] }[];
  problems: string[];
  connection: string;
  totalPods: number;
}

/** The UI thread and the engine's worker (null when the engine runs on the UI thread) measured apart. */
export interface ThreadFigures {
  /** Event-loop utilisation since 'start', in % of one core. */
  uiBusyPercent: number;
  engineBusyPercent: number | null;
  /** Heap in use after a full GC (--expose-gc), MB. */
  uiHeapMb: number;
  engineHeapMb: number | null;
  /** Heap the isolate holds from the system (V8's total heap size) after that GC, MB: what RSS counts of it. */
  uiHeapTotalMb: number;
  engineHeapTotalMb: number | null;
}

function sessionView(snapshot: ModelSnapshot, withPods: boolean): SessionView {
  const pods: SessionView['pods'] = [];
  const add = (list: readonly PodSummary[]) => {
    for (const p of list) {
      const { uid, namespace, name, status, phase, ready, restarts, readyContainers, node } = p;
      pods.push({ uid, namespace, name, status, phase, ready, restarts, readyContainers, node });
    }
  };
  if (withPods) {
    const walk = (roles: ModelSnapshot['workloads'][number]['roles']): void => {
      for (const r of roles) {
        add(r.pods);
        walk(r.roles);
      }
    };
    for (const w of snapshot.workloads) {
      walk(w.roles);
      add(w.unattributedPods);
    }
    add(snapshot.orphanPods);
  }
  return {
    pods,
    workloads: snapshot.workloads.map(({ uid, apiVersion, kind, namespace, name }) => ({
      uid,
      apiVersion,
      kind,
      namespace,
      name,
    })),
    nodes: snapshot.nodes.map((n) => n.name),
    kinds: snapshot.kinds.map((k) => ({ ...k.gvk, resource: k.resource, state: k.state, count: k.count })),
    definitions: snapshot.definitions.map((d) => ({
      name: d.name,
      valid: d.valid,
      problems: d.problems.map((p) => `${p.field ?? ''}: ${p.message}`),
    })),
    problems: snapshot.problems,
    connection: snapshot.connection.state,
    totalPods: snapshot.totals.pods,
  };
}

process.env.NODE_ENV ??= 'production';
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;

const now = () => performance.timeOrigin + performance.now();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every workload has its roles and every kind is live: what the workloads view shows is complete. */
function completeTrees(s: ModelSnapshot): boolean {
  return s.connection.state === 'live' && s.workloads.length > 0 && s.workloads.every((w) => w.roles.length > 0);
}

const MEASURE_TIMEOUT_MS = 10 * 60_000;

/**
 * Catch-up: a restart-count marker PATCHed at the server the moment the lists
 * are complete (whenSynced) → the first snapshot the UI holds that has it. Watch
 * events arrive in order, so by then every event that piled up during the
 * lists has been applied. Reported when seen (NaN after MEASURE_TIMEOUT_MS).
 */
async function measureCatchUp(
  source: ModelSource,
  prepared: Promise<{ pod: PodRef; marker: RestartMarker | null }>,
): Promise<Promise<unknown>> {
  const synced = performance.now();
  const { pod: target, marker } = await prepared;
  if (!marker) throw new Error(`${target.namespace}/${target.name} has no container status`);
  // The workloads view leaves the pods in the engine worker: there the marker is read by a probe, reported with
  // the snapshot that carries the model holding it (in-thread, the model is read directly).
  const worker = source as Partial<WorkerSource>;
  const { sent, seen } = worker.probePod
    ? watchProbe(worker as WorkerSource, target, marker, MEASURE_TIMEOUT_MS)
    : watchForMarker(source, target, marker, MEASURE_TIMEOUT_MS);
  const reported = seen.then((t) => process.send!({ type: 'caught-up', ms: t === undefined ? NaN : t - synced }));
  await sent;
  return reported;
}

/** watchForMarker through the engine worker's probe. */
function watchProbe(
  source: WorkerSource,
  pod: PodRef,
  marker: RestartMarker,
  timeoutMs: number,
): { sent: Promise<void>; seen: Promise<number | undefined> } {
  const { seen } = probeForMarker(source, pod, marker.marker, timeoutMs);
  return { sent: marker.send(), seen: seen.finally(() => source.probePod(null)) };
}

/**
 * Probes `pod` in the engine worker's model until it holds a restart count of at least `marker`. `answered`: the
 * probe has answered for this pod; `seen`: performance.now() when the UI thread received the snapshot whose model
 * holds it (undefined after timeoutMs). The probe stays set.
 */
function probeForMarker(
  source: WorkerSource,
  pod: PodRef,
  marker: number,
  timeoutMs: number,
): { answered: Promise<void>; seen: Promise<number | undefined> } {
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const seen = new Promise<number | undefined>((resolve) => {
    const done = (t: number | undefined) => {
      unsubscribe();
      clearTimeout(timer);
      answer();
      resolve(t);
    };
    const unsubscribe = source.subscribe(() => {
      const p = source.lastProbe();
      if (!p || p.namespace !== pod.namespace || p.name !== pod.name) return;
      answer();
      if ((p.restarts ?? 0) >= marker) done(performance.now());
    });
    const timer = setTimeout(() => done(undefined), timeoutMs);
  });
  source.probePod(pod);
  return { answered, seen };
}

/**
 * An event's marker in the engine's model (probeForMarker): resolves once the probe answers for this pod, so its
 * extra snapshot is not part of the event's time; `modelled` gets the epoch ms of the snapshot that holds it.
 * No worker: resolves at once.
 */
async function probeEvent(
  source: Partial<WorkerSource>,
  pod: PodRef,
  marker: number,
  modelled: (t: number) => void,
): Promise<void> {
  if (!source.probePod) return;
  const { answered, seen } = probeForMarker(source as WorkerSource, pod, marker, EVENT_PROBE_TIMEOUT_MS);
  void seen.then((t) => {
    if (t !== undefined) modelled(performance.timeOrigin + t);
  });
  await answered;
}

const EVENT_PROBE_TIMEOUT_MS = 30_000;

async function until(test: () => boolean, ms = MEASURE_TIMEOUT_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error('timed out waiting for the engine worker to answer a pod scope');
    await sleep(10);
  }
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      keys: { type: 'string', default: '60' },
      engine: { type: 'string' },
      'measure-start': { type: 'boolean', default: false },
    },
  });
  const kubeconfig = positionals[0];
  if (!kubeconfig || !process.send)
    throw new Error(
      'usage: tui-session.js KUBECONFIG [--keys N] [--engine worker|inline] [--measure-start] (with an IPC channel)',
    );
  const keys = Number(values.keys);
  const measureStart = values['measure-start'] === true;
  const draw = await loadExplorerDraw();
  const { openModelSource } = await import('../../src/app/open.js');
  const { servesRows } = await import('../../src/ui/state/served-rows.js');

  const t0 = now();
  const options = benchOpenOptions(kubeconfig);
  if (values.engine === 'worker' || values.engine === 'inline') options.engineThread = values.engine;
  else if (values.engine) throw new Error(`--engine must be worker or inline, not ${values.engine}`);
  const source = await openModelSource(options);

  // Drawn from the start, as the explorer does (src/cli/tui.ts).
  const instance = draw(source);
  const { stdout, stdin } = instance;
  const waitFor = async (test: (f: string) => boolean, what: string, ms = 60_000) => {
    const end = Date.now() + ms;
    while (!test(stdout.last)) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last frame:\n${stdout.last}`);
      await sleep(10);
    }
  };

  // The marker is read from the server while the engine lists; only its write waits for the sync.
  const serverUrl = measureStart ? serverUrlOf(kubeconfig) : '';
  const prepared = measureStart
    ? somePod(serverUrl).then(async (pod) => ({ pod, marker: await prepareRestartMarker(serverUrl, pod) }))
    : undefined;
  prepared?.catch(() => undefined);

  await source.whenSynced();
  const syncMs = now() - t0;
  const caughtUp = prepared ? await measureCatchUp(source, prepared) : undefined;

  if (measureStart) {
    // The first complete, live workloads view on screen (its title counts every workload).
    let t = NaN;
    const end = Date.now() + MEASURE_TIMEOUT_MS;
    while (Date.now() < end) {
      const s = source.getSnapshot();
      if (completeTrees(s) && stdout.last.includes(`workloads(all)[${s.workloads.length}]`)) {
        t = now();
        break;
      }
      await sleep(10);
    }
    process.send({ type: 'tree', t, workloads: source.getSnapshot().workloads.length });
  }
  await waitFor((f) => f.includes('workloads('), 'the workload list');
  // The UI thread's heap on the workloads view, its pods left in the worker (after catch-up, which reads them).
  await caughtUp;
  if ('currentWorker' in source) await until(() => source.getSnapshot().podScope !== undefined);
  globalThis.gc?.();
  const workloadsViewHeapMb = process.memoryUsage().heapUsed / 2 ** 20;

  for (const k of [':', 'p', 'o', 'd', 's', '\r']) {
    stdin.write(k);
    await sleep(30);
  }
  await waitFor((f) => /pods\(all\)\[[1-9]\d*\]/.test(f), 'the pod list');
  await sleep(500);
  const snapshot = source.getSnapshot();
  const known = new Set<string>();
  for (const w of snapshot.workloads)
    for (const r of w.roles) for (const p of r.pods) known.add(`${p.namespace}/${p.name}`);
  // `:pods` rows derived in the engine worker: the pods drawn are those of its window.
  for (const r of servesRows(source) ? (source.rowWindow()?.rows ?? []) : [])
    if (r.pod) known.add(`${r.pod.namespace}/${r.pod.name}`);
  const visible: { namespace: string; name: string }[] = [];
  for (const line of stdout.last.split('\n')) {
    const [a, b] = line.replace(/[│┃|]/g, ' ').trim().split(/\s+/);
    if (a && b && known.has(`${a}/${b}`)) visible.push({ namespace: a, name: b });
  }

  if (!visible.length) throw new Error(`no pod rows recognised in the frame:\n${stdout.last}`);

  // Key → next frame: alternate j and k on the 100,000-pod list (both move
  // the cursor, so each press must produce a frame).
  const keyCpuMs: number[] = [];
  const keyProfile = await startKeyProfile(process.env.WLX_BENCH_KEY_PROFILE);
  const keyMarks: KeyMark[] = [];
  for (let i = 0; i < keys; i++) {
    const key = i % 2 ? 'k' : 'j';
    const before = stdout.frames;
    const sent = now();
    const cpu0 = process.cpuUsage();
    const frame = new Promise<number>((resolve) => {
      stdout.onFrame = (_text, t) => {
        if (stdout.frames > before) {
          stdout.onFrame = undefined;
          resolve(t);
        }
      };
    });
    stdin.write(key);
    const t = await Promise.race([frame, sleep(5000).then(() => NaN)]);
    keyMarks.push({ sent, t });
    const cpu = process.cpuUsage(cpu0);
    keyCpuMs.push((cpu.user + cpu.system) / 1000);
    await sleep(120 + Math.random() * 80);
  }

  await keyProfile?.stop(keyMarks);
  const keyMs = keyMarks.map((k) => k.t - k.sent);
  const expected = new Map<string, { name: string; marker: string }>();
  const check = (text: string, t: number) => {
    if (!expected.size) return;
    for (const line of text.split('\n')) {
      for (const [marker, e] of expected) {
        if (line.includes(e.name) && line.replace(/[│┃|]/g, ' ').split(/\s+/).includes(marker)) {
          expected.delete(marker);
          process.send!({ type: 'seen', marker, t });
        }
      }
    }
  };
  let keyFrame: ((t: number) => void) | undefined;
  stdout.onFrame = (text, t) => {
    check(text, t);
    keyFrame?.(t);
  };
  const pressKey = async (key: string, timeoutMs = 5000): Promise<number> => {
    const sent = now();
    const frame = new Promise<number>((resolve) => (keyFrame = resolve));
    stdin.write(key);
    const t = await Promise.race([frame, sleep(timeoutMs).then(() => NaN)]);
    keyFrame = undefined;
    return t - sent;
  };
  type Request = {
    type: string;
    id?: number;
    key?: string;
    timeoutMs?: number;
    pods?: boolean;
    namespace?: string;
    name?: string;
    marker?: string;
    phase?: 'start' | 'end';
  };
  // The engine worker, when the source runs one (worker-source.ts): measured apart from the UI thread.
  const engineWorker = source as Partial<WorkerSource>;
  let threadStart: { ui: EventLoopUtilization; engine: EventLoopUtilization | undefined } | undefined;
  const threadFigures = async (): Promise<ThreadFigures> => {
    const worker = engineWorker.currentWorker?.() ?? null;
    const ui = performance.eventLoopUtilization(threadStart?.ui).utilization;
    const engine =
      worker?.performance && threadStart?.engine
        ? worker.performance.eventLoopUtilization(threadStart.engine).utilization
        : null;
    globalThis.gc?.();
    const heap = engineWorker.engineHeap ? await engineWorker.engineHeap(true) : null;
    const uiMemory = process.memoryUsage();
    return {
      uiBusyPercent: ui * 100,
      engineBusyPercent: engine === null ? null : engine * 100,
      uiHeapMb: uiMemory.heapUsed / 2 ** 20,
      engineHeapMb: heap ? heap.usedBytes / 2 ** 20 : null,
      uiHeapTotalMb: uiMemory.heapTotal / 2 ** 20,
      engineHeapTotalMb: heap ? heap.totalBytes / 2 ** 20 : null,
    };
  };
  process.on('message', (msg: Request) => {
    if (msg.type === 'threads' && msg.phase === 'start') {
      threadStart = {
        ui: performance.eventLoopUtilization(),
        engine: engineWorker.currentWorker?.()?.performance?.eventLoopUtilization(),
      };
      process.send!({ type: 'threads', id: msg.id });
    } else if (msg.type === 'threads') {
      void threadFigures().then((figures) => process.send!({ type: 'threads', id: msg.id, figures }));
    } else if (msg.type === 'key' && msg.key) {
      void pressKey(msg.key, msg.timeoutMs).then((ms) => process.send!({ type: 'key', id: msg.id, ms }));
    } else if (msg.type === 'memory') {
      // What is retained, not what awaits collection: the soak's RSS slope is about leaks.
      globalThis.gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      process.send!({ type: 'memory', id: msg.id, rss, heapUsed });
    } else if (msg.type === 'view') {
      // Every pod for the soak's model/server diff: `:pods` draws from rows the worker derives, so the mirror
      // holds no pod until asked (a scope the explorer does not ask back: the soak is over by then).
      const withPods = msg.pods === true;
      if (withPods) source.setPodScope?.('all');
      void until(() => !withPods || source.getSnapshot().podScope === undefined).then(
        () => process.send!({ type: 'view', id: msg.id, view: sessionView(source.getSnapshot(), withPods) }),
        () => undefined, // unanswered: the soak reports the timeout
      );
    } else if (msg.type === 'expect' && msg.name && msg.marker) {
      expected.set(msg.marker, { name: msg.name, marker: msg.marker });
      const marker = msg.marker;
      const pod = { namespace: msg.namespace ?? '', name: msg.name };
      if (process.env[EVENT_PROBE_ENV] === '1')
        void probeEvent(engineWorker, pod, Number(marker), (t) => process.send!({ type: 'modelled', marker, t })).then(
          () => process.send!({ type: 'expecting', marker }),
        );
      else process.send!({ type: 'expecting', marker });
    } else if (msg.type === 'quit') {
      instance.unmount();
      void source.stop().then(() => process.exit(0));
    }
  });
  process.send({
    type: 'ready',
    syncMs,
    podCount: snapshot.totals.pods,
    visible,
    keyMs,
    keyCpuMs,
    frames: stdout.frames,
    workloadsViewHeapMb,
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`tui-session: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
