// Measurement only, for the benchmark's memory analysis (test/bench/README.md
// "Where the engine's heap goes"): with WLX_ENGINE_TRACE_DIR set, the engine
// worker writes its heap every second (heap.tsv) and, with
// WLX_ENGINE_ALLOC_AT_MS, samples for WLX_ENGINE_ALLOC_MS (default 20 s) what it
// allocates that outlives the young generation (alloc.heapprofile, readable
// by Chrome DevTools and test/bench/heap-profile-summary.ts).
import { appendFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

const MB = 2 ** 20;

export function startHeapTrace(env: NodeJS.ProcessEnv = process.env): void {
  const dir = env.WLX_ENGINE_TRACE_DIR;
  if (!dir) return;
  const t0 = performance.now();
  const tsv = join(dir, 'heap.tsv');
  writeFileSync(tsv, 'seconds\tused_mb\ttotal_mb\told_used_mb\told_size_mb\n');
  setInterval(() => {
    const h = getHeapStatistics();
    const old = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
    const row = [(performance.now() - t0) / 1000, h.used_heap_size / MB, h.total_heap_size / MB];
    row.push((old?.space_used_size ?? 0) / MB, (old?.space_size ?? 0) / MB);
    appendFileSync(tsv, row.map((v) => v.toFixed(1)).join('\t') + '\n');
  }, 1000).unref();
  const at = Number(env.WLX_ENGINE_ALLOC_AT_MS);
  if (!(at >= 0)) return;
  const session = new Session();
  session.connect();
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
    );
  setTimeout(() => {
    void (async () => {
      await call('HeapProfiler.enable');
      // Objects a scavenge frees are left out: what is sampled is live or reached the old generation.
      await call('HeapProfiler.startSampling', {
        samplingInterval: 16384,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: false,
      });
      await new Promise((r) => setTimeout(r, Number(env.WLX_ENGINE_ALLOC_MS ?? 20_000)));
      const { profile } = (await call('HeapProfiler.stopSampling')) as { profile: unknown };
      writeFileSync(join(dir, 'alloc.heapprofile'), JSON.stringify(profile));
      session.disconnect();
    })().catch((err: Error) => {
      // A failed measurement is written down, never a crash of the engine it measures.
      writeFileSync(join(dir, 'alloc.error.txt'), `${err.message}\n`);
      session.disconnect();
    });
  }, at).unref();
}
