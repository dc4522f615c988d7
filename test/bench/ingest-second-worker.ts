// Benchmark (not part of the suite) of issue 15 option (c): a second worker B
// parses and trims list pages and posts the trimmed pods to A (the engine's
// thread), against A parsing and trimming them itself, on the pages of
// scale-pages.ts. Per run: the wall time, A's thread CPU (what the option
// frees A of), B's, the whole process's (GC threads too), and the heap A
// retains per pod.
//
//   node --expose-gc dist/test/bench/ingest-second-worker.js [pods] [runs] [work µs/pod] [hog duty]
//
// `work`: CPU A spends per pod besides ingestion (the store's apply and the
// model, ~20–30 µs/pod at 100,000 pods, test/bench/README.md); default 20.
// `hog duty`: a child process busy that fraction of the time on the other
// core, as the API server serialising pages is (~13 ms of CPU per page against
// wlx's ~42, so ~0.3); default 0.
//
// Trimmer shares repeated values among pods (containers, tolerations,
// conditions, label values); a structured clone copies them per message, so A
// re-shares what it receives by trimming it again with its own Trimmer (the
// one home of the sharing rule); variants without it show what it saves.
import { deepStrictEqual } from 'node:assert/strict';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { Trimmer, withTypeMeta } from '../../src/kube/trim.js';
import type { KubeObject } from '../../src/model/types.js';
import { benchArgs, forcedGc, load, perPod, processCpuMs, threadCpuMs } from './ingest-common.js';
import type { FromWorker, PostMode, ToWorker } from './ingest-parse-worker.js';
import { PAGE, jsonPodList, scalePages } from './scale-pages.js';

if (process.argv[2] === 'hog') {
  // The child: busy `duty` of every 10 ms until killed.
  const duty = Number(process.argv[3]);
  for (;;) {
    const start = Date.now();
    while (Date.now() - start < 10 * duty);
    const idle = 10 * (1 - duty);
    if (idle > 0) await new Promise((r) => setTimeout(r, idle));
  }
}

const { total, runs, rest } = benchArgs();
const workUs = Number(rest[0] ?? 20);
const hogDuty = Number(rest[1] ?? 0);
const gc = forcedGc();

const pages = scalePages(total, jsonPodList);
// The same pages in shared memory, read by B as if it had fetched them.
const ends: number[] = [];
const shared = new SharedArrayBuffer(pages.reduce((n, p) => n + p.length, 0));
{
  let at = 0;
  for (const p of pages) {
    new Uint8Array(shared, at, p.length).set(p);
    at += p.length;
    ends.push(at);
  }
}

// The model's work on A, as a fixed amount of computation (not a wait): calibrated once.
let sink = 0;
function spin(n: number): void {
  let x = sink | 1;
  for (let i = 0; i < n; i++) x = (x ^ (x << 13) ^ (x >>> 17) ^ (x << 5)) | 0;
  sink = x;
}
const spinsPerUs = (() => {
  spin(1e6);
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    spin(1e7);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e3);
  }
  return 1e7 / best;
})();
const spinPerPod = Math.round(workUs * spinsPerUs);

process.stdout.write(
  `${total} pods in ${pages.length} pages of ${PAGE}; A's other work ${workUs} µs/pod; hog ${hogDuty}; ${load()}\n`,
);

type Variant = {
  name: string;
  /** Where A gets pods from: parses itself, or B posts them encoded so. */
  source: 'inline' | PostMode;
  /** A trims again what it receives, re-sharing values across pages. */
  reshare: boolean;
  /** B gets the pages transferred from A (else from shared memory). */
  transfer?: boolean;
};

// --expose-gc is a V8 flag, process-wide: B has gc() too (its heap is measured after one).
const worker = new Worker(fileURLToPath(new URL('./ingest-parse-worker.js', import.meta.url)));
worker.unref();

type Run = {
  ms: number;
  aCpu: number;
  bCpu: number;
  allCpu: number;
  retained: number;
  bHeap: number;
  keep: KubeObject[];
};

function inline(keep: KubeObject[]): void {
  const trim = new Trimmer().for('pod');
  for (const body of pages) {
    const items = (JSON.parse(body.toString('utf8')) as { items: unknown[] }).items;
    for (let i = 0; i < items.length; i++) {
      keep.push(trim(withTypeMeta(items[i], 'v1', 'Pod')));
      items[i] = undefined;
      spin(spinPerPod);
    }
  }
}

/** Runs `v` once; resolves when A has every pod. */
function viaWorker(v: Variant, keep: KubeObject[]): Promise<{ bCpu: number; bHeap: number }> {
  const trim = v.reshare ? new Trimmer().for('pod') : undefined;
  return new Promise((resolve) => {
    const take = (pods: KubeObject[]) => {
      for (const p of pods) {
        keep.push(trim ? trim(p) : p);
        spin(spinPerPod);
      }
    };
    const onMessage = (msg: FromWorker) => {
      if (msg.type === 'pods') take(msg.pods);
      else if (msg.type === 'serialized') take(deserialize(new Uint8Array(msg.bytes)) as KubeObject[]);
      else if (msg.type === 'json') take(JSON.parse(msg.text) as KubeObject[]);
      else {
        worker.off('message', onMessage);
        resolve({ bCpu: msg.cpuMs, bHeap: msg.heapBytes });
      }
    };
    worker.on('message', onMessage);
    const mode = v.source as PostMode;
    if (!v.transfer) {
      worker.postMessage({ type: 'run', mode, shared: { data: shared, ends } } satisfies ToWorker);
      return;
    }
    worker.postMessage({ type: 'run', mode } satisfies ToWorker);
    // A hands each page over as it would receive it (copied out here, outside the transfer: a socket's buffer).
    pages.forEach((p, i) => {
      const bytes = new Uint8Array(p).buffer;
      worker.postMessage({ type: 'page', bytes, last: i === pages.length - 1 } satisfies ToWorker, [bytes]);
    });
  });
}

async function once(v: Variant): Promise<Run> {
  gc();
  await new Promise((r) => setTimeout(r, 20));
  const heapBefore = process.memoryUsage().heapUsed;
  const keep: KubeObject[] = [];
  const a0 = threadCpuMs();
  const all0 = processCpuMs();
  const t0 = process.hrtime.bigint();
  let b = { bCpu: 0, bHeap: 0 };
  if (v.source === 'inline') inline(keep);
  else b = await viaWorker(v, keep);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const aCpu = threadCpuMs() - a0;
  const allCpu = processCpuMs() - all0;
  gc();
  const retained = process.memoryUsage().heapUsed - heapBefore;
  if (keep.length !== total) throw new Error(`${v.name}: ${keep.length} pods of ${total}`);
  return { ms, aCpu, bCpu: b.bCpu, allCpu, retained, bHeap: b.bHeap, keep };
}

const variants: Variant[] = [
  { name: 'A parses + trims (today)', source: 'inline', reshare: false },
  { name: 'B posts pods (clone), A keeps them', source: 'clone', reshare: false },
  { name: 'B posts pods (clone), A re-shares', source: 'clone', reshare: true },
  { name: 'B posts v8.serialize bytes, A re-shares', source: 'serialized', reshare: true },
  { name: 'B posts trimmed JSON, A parses + re-shares', source: 'json', reshare: true },
  { name: 'pages transferred A→B, B posts pods, A re-shares', source: 'clone', reshare: true, transfer: true },
];

// Correctness: every variant gives A pods deep-equal to today's.
{
  const today = (await once(variants[0])).keep;
  for (const v of variants.slice(1)) {
    const got = (await once(v)).keep;
    for (let i = 0; i < total; i++) deepStrictEqual(got[i], today[i], `${v.name}: pod ${i}`);
  }
  process.stdout.write(`check: every variant gives A ${total} pods deep-equal to those A trims itself\n`);
}

// A's cost per pod on its own thread, precisely (no worker, no other work):
// parse + trim today against deserialising B's message (v8.deserialize: the
// format and code of structured clone) and re-sharing it, and the heap each keeps.
{
  const trimmed: KubeObject[][] = [];
  {
    const trim = new Trimmer().for('pod');
    for (const body of pages)
      trimmed.push(
        (JSON.parse(body.toString('utf8')) as { items: unknown[] }).items.map((o) =>
          trim(withTypeMeta(o, 'v1', 'Pod')),
        ),
      );
  }
  const messages = trimmed.map((pods) => serialize(pods));
  const texts = trimmed.map((pods) => JSON.stringify(pods));
  trimmed.length = 0;
  const measure = async (run: (keep: KubeObject[]) => void): Promise<{ us: number; retained: number }> => {
    let best = Infinity;
    let retained = 0;
    // Outside the loop: the suspended async frame would otherwise hold the previous run's pods through the GC.
    let keep: KubeObject[] = [];
    for (let r = 0; r < runs; r++) {
      keep = [];
      gc();
      await new Promise((res) => setTimeout(res, 20));
      const before = process.memoryUsage().heapUsed;
      const t0 = process.hrtime.bigint();
      run(keep);
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
      gc();
      retained = process.memoryUsage().heapUsed - before;
    }
    return { us: (best * 1000) / total, retained: retained / total };
  };
  const today = await measure((keep) => {
    const trim = new Trimmer().for('pod');
    for (const body of pages)
      for (const o of (JSON.parse(body.toString('utf8')) as { items: unknown[] }).items)
        keep.push(trim(withTypeMeta(o, 'v1', 'Pod')));
  });
  const cloned = await measure((keep) => {
    for (const m of messages) for (const p of deserialize(m) as KubeObject[]) keep.push(p);
  });
  const reshared = await measure((keep) => {
    const trim = new Trimmer().for('pod');
    for (const m of messages) for (const p of deserialize(m) as KubeObject[]) keep.push(trim(p));
  });
  const fromJson = await measure((keep) => {
    const trim = new Trimmer().for('pod');
    for (const t of texts) for (const p of JSON.parse(t) as KubeObject[]) keep.push(trim(p));
  });
  const bytes = (list: { length: number }[]) => list.reduce((n, m) => n + m.length, 0) / total;
  process.stdout.write(
    `on A alone, best of ${runs}: parse + trim ${today.us.toFixed(2)} µs/pod (retains ${today.retained.toFixed(0)} B/pod); ` +
      `deserialise ${cloned.us.toFixed(2)} µs/pod (retains ${cloned.retained.toFixed(0)} B/pod, ${bytes(messages).toFixed(0)} B/pod serialised); ` +
      `deserialise + re-share ${reshared.us.toFixed(2)} µs/pod (retains ${reshared.retained.toFixed(0)} B/pod); ` +
      `trimmed JSON parse + re-share ${fromJson.us.toFixed(2)} µs/pod (${bytes(texts).toFixed(0)} chars/pod); ${load()}\n`,
  );
}

const hog = hogDuty > 0 ? fork(fileURLToPath(import.meta.url), ['hog', String(hogDuty)]) : undefined;
try {
  const best = new Map<string, Run>();
  // Rounds of every variant in turn, so a change of the machine's load touches all of them alike.
  for (let r = 0; r < runs; r++) {
    for (const v of variants) {
      const run = await once(v);
      run.keep = [];
      process.stdout.write(
        `  ${v.name} run ${r + 1}: ${run.ms.toFixed(0)} ms; CPU A ${perPod(run.aCpu, total)}, B ${perPod(run.bCpu, total)}, ` +
          `all threads ${perPod(run.allCpu, total)} µs/pod; A retains ${(run.retained / total).toFixed(0)} B/pod; ${load()}\n`,
      );
      const prev = best.get(v.name);
      if (!prev || run.ms < prev.ms) best.set(v.name, run);
    }
  }
  const base = best.get(variants[0].name)!;
  process.stdout.write(
    `\nbest of ${runs} by wall time (${total} pods, A's other work ${workUs} µs/pod, hog ${hogDuty}; ${load()}):\n` +
      `| variant | wall ms | vs today | A CPU µs/pod | B CPU µs/pod | all threads µs/pod | A retains B/pod | B heap MB |\n` +
      `|---|---|---|---|---|---|---|---|\n`,
  );
  for (const v of variants) {
    const r = best.get(v.name)!;
    process.stdout.write(
      `| ${v.name} | ${r.ms.toFixed(0)} | ${(base.ms / r.ms).toFixed(2)}× | ${perPod(r.aCpu, total)} | ${perPod(r.bCpu, total)} | ` +
        `${perPod(r.allCpu, total)} | ${(r.retained / total).toFixed(0)} | ${v.source === 'inline' ? '–' : (r.bHeap / 1048576).toFixed(0)} |\n`,
    );
  }
} finally {
  hog?.kill();
  await worker.terminate();
}
