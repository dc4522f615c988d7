// Benchmark (not part of the suite): ingestion of list pages of scale-scenario
// pods, JSON.parse + trim against protobuf decode + trim (the same Trimmer,
// the same trimmed objects), per pod, best of several runs, and the heap the
// trimmed pods hold afterwards.
//
//   node --expose-gc dist/test/kube/protobuf-decode.bench.js [pods] [runs]
import { PerformanceObserver } from 'node:perf_hooks';
import { encodeList } from '../../demo/server/protobuf-encode.js';
import { decodeList } from '../../src/kube/protobuf/envelope.js';
import { decoderFor } from '../../src/kube/protobuf/core-v1.js';
import { Trimmer, withTypeMeta } from '../../src/kube/trim.js';
import type { KubeObject } from '../../src/model/types.js';
import { PAGE, jsonPodList, scalePages, trimJsonPages } from '../bench/scale-pages.js';

const [podsArg, runsArg] = process.argv.slice(2).map(Number) as [number?, number?];
const total = podsArg ?? 100_000;
const runs = runsArg ?? 3;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  process.stderr.write('run with node --expose-gc\n');
  process.exit(2);
}

// Pages encoded once, ahead of the timed runs (the pods of test/bench/scale-pages.ts).
const jsonPages = scalePages(total, jsonPodList);
const protoPages = scalePages(total, (metadata, items) => encodeList('v1', 'Pod', metadata, items));
const bytes = (pages: Buffer[]) => pages.reduce((n, p) => n + p.length, 0);
process.stdout.write(
  `${total} pods in ${jsonPages.length} pages: JSON ${(bytes(jsonPages) / total).toFixed(0)} B/pod, protobuf ${(bytes(protoPages) / total).toFixed(0)} B/pod\n`,
);

const decodePod = decoderFor('v1', 'Pod')!;
function viaJson(trimmer: Trimmer, keep: KubeObject[]): void {
  trimJsonPages(trimmer, jsonPages, keep);
}
function viaProtobuf(trimmer: Trimmer, keep: KubeObject[]): void {
  const trim = trimmer.for('pod');
  for (const body of protoPages) decodeList(body, decodePod, (obj) => keep.push(trim(withTypeMeta(obj, 'v1', 'Pod'))));
}

// GC pauses during a run, summed.
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

/** What the last run kept (held here so the heap after it counts it). */
let held: { keep: KubeObject[]; trimmer: Trimmer } | undefined;

async function measure(
  name: string,
  run: (t: Trimmer, keep: KubeObject[]) => void,
): Promise<{ best: number; retained: number }> {
  let best = Infinity;
  let retained = 0;
  for (let i = 0; i < runs; i++) {
    held = undefined;
    gc!();
    gc!();
    const before = process.memoryUsage().heapUsed;
    held = { keep: [], trimmer: new Trimmer() };
    // The forced collections above are reported asynchronously: let them arrive before counting.
    await new Promise((r) => setTimeout(r, 50));
    gcMs = 0;
    const t0 = process.hrtime.bigint();
    run(held.trimmer, held.keep);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    // Entries arrive asynchronously: give the observer time to hear of them.
    await new Promise((r) => setTimeout(r, 50));
    const pausedMs = gcMs;
    gc!();
    gc!();
    retained = process.memoryUsage().heapUsed - before;
    best = Math.min(best, ms);
    process.stdout.write(
      `  ${name} run ${i + 1}: ${ms.toFixed(0)} ms, ${held.keep.length} pods, GC pauses ${pausedMs.toFixed(0)} ms, heap after (GC) +${(retained / 1048576).toFixed(0)} MB\n`,
    );
  }
  held = undefined;
  return { best, retained };
}

const json = await measure('JSON.parse + trim', viaJson);
const proto = await measure('protobuf decode + trim', viaProtobuf);
const perPod = (ms: number) => ((ms * 1000) / total).toFixed(2);
process.stdout.write(
  `best: JSON ${json.best.toFixed(0)} ms (${perPod(json.best)} µs/pod), protobuf ${proto.best.toFixed(0)} ms (${perPod(proto.best)} µs/pod); ` +
    `speed-up ${(json.best / proto.best).toFixed(2)}×; retained ${(json.retained / total).toFixed(0)} vs ${(proto.retained / total).toFixed(0)} B/pod\n`,
);

// Where the time goes, on the first 20,000 pods: parsing alone, decoding alone,
// and trim alone of objects parsed / decoded beforehand.
const sample = Math.min(40, jsonPages.length);
const sampled = Math.min(total, sample * PAGE);
function best(run: () => void): number {
  let out = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    run();
    out = Math.min(out, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return (out * 1000) / sampled;
}
const parseOnly = best(() => {
  for (const body of jsonPages.slice(0, sample)) JSON.parse(body.toString('utf8'));
});
const decodeOnly = best(() => {
  for (const body of protoPages.slice(0, sample)) decodeList(body, decodePod, () => undefined);
});
const parsed: unknown[] = [];
for (const body of jsonPages.slice(0, sample))
  parsed.push(...(JSON.parse(body.toString('utf8')) as { items: unknown[] }).items);
const trimParsed = best(() => {
  const trim = new Trimmer().for('pod');
  for (const o of parsed) trim(o);
});
parsed.length = 0;
const decoded: unknown[] = [];
for (const body of protoPages.slice(0, sample))
  decodeList(body, decodePod, (o) => decoded.push(withTypeMeta(o, 'v1', 'Pod')));
const trimDecoded = best(() => {
  const trim = new Trimmer().for('pod');
  for (const o of decoded) trim(o);
});
process.stdout.write(
  `per pod (${sampled} pods): JSON.parse ${parseOnly.toFixed(2)} µs, decode ${decodeOnly.toFixed(2)} µs; ` +
    `trim of parsed ${trimParsed.toFixed(2)} µs, trim of decoded ${trimDecoded.toFixed(2)} µs\n`,
);
