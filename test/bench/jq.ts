// jq engine benchmark: native label lookups over pod-like objects (target
// >= 2,000,000 evaluations/s), 10,000 consecutive jq-wasm fallback
// evaluations with no abort (one call each, then batched through runMany),
// compiling, and an engine's ExprCompiler answering a text it has compiled. Run alone: `node dist/test/bench/jq.js`.
import { pathToFileURL } from 'node:url';
import { compile, prepareFallback, wasmStats } from '../../src/jq/index.js';
import { ExprCompiler } from '../../src/model/expr.js';

function pods(n: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `pod-${i}`,
        namespace: 'ml',
        labels: { app: `app-${i % 7}`, 'leaderworkerset.sigs.k8s.io/group-index': String(i % 4), k: `v${i}` },
        annotations: { note: 'x' },
      },
      spec: { nodeName: `node-${i % 13}` },
      status: { phase: i % 5 ? 'Running' : 'Pending' },
    });
  }
  return out;
}

function timeIt(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return (performance.now() - t0) / 1000;
}

export async function benchJq(): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  const objects = pods(100_000);

  const lookup = compile('.metadata.labels["k"]');
  let sink = 0;
  // Warm up the JIT, then measure the best of three passes.
  for (const o of objects) sink += (lookup.first(o) as string).length;
  let best = Infinity;
  for (let pass = 0; pass < 3; pass++) {
    best = Math.min(
      best,
      timeIt(() => {
        for (const o of objects) sink += (lookup.first(o) as string).length;
      }),
    );
  }
  figures['label lookups evaluations/s'] = Math.round(objects.length / best);

  const alt = compile('.metadata.labels["leaderworkerset.sigs.k8s.io/group-index"] // "0"');
  const altTime = timeIt(() => {
    for (const o of objects) sink += (alt.run(o)[0] as string).length;
  });
  figures['`// "0"` run() evaluations/s'] = Math.round(objects.length / altTime);

  const status = compile('(.status.phase // "Unknown") == "Running" and (.metadata.labels.app | startswith("app-"))');
  const statusTime = timeIt(() => {
    for (const o of objects) if (status.first(o) === true) sink++;
  });
  figures['status expression evaluations/s'] = Math.round(objects.length / statusTime);

  await prepareFallback();
  const fallback = compile('.metadata.labels | to_entries | map("\\(.key)=\\(.value)") | join(",")');
  if (fallback.native) throw new Error('the fallback expression unexpectedly runs natively');
  const instancesBefore = wasmStats.instances;
  const small = objects.slice(0, 10_000);
  const fbTime = timeIt(() => {
    for (const o of small) sink += (fallback.run(o)[0] as string).length;
  });
  figures['fallback: 10,000 calls, seconds'] = Number(fbTime.toFixed(2));
  figures['fallback calls/s'] = Math.round(small.length / fbTime);
  figures['fallback instances used'] = wasmStats.instances - instancesBefore;
  const batchTime = timeIt(() => {
    const results = fallback.runMany(small);
    if (results.length !== small.length) throw new Error('runMany lost results');
  });
  figures['fallback runMany(10,000) seconds'] = Number(batchTime.toFixed(3));

  const compileTime = timeIt(() => {
    for (let i = 0; i < 10_000; i++) compile('.metadata.labels["k"]');
  });
  figures['compile()/s (native, nothing kept)'] = Math.round(10_000 / compileTime);
  const exprs = new ExprCompiler();
  const hitTime = timeIt(() => {
    for (let i = 0; i < 100_000; i++) exprs.compile('.metadata.labels["k"]', 'bench', null);
  });
  figures['ExprCompiler hits/s'] = Math.round(100_000 / hitTime);
  if (sink === -1) console.log('unreachable');

  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  console.log('jq engine benchmark');
  for (const [k, v] of Object.entries(figures)) console.log(`  ${k.padEnd(width)}  ${v.toLocaleString('en-US')}`);
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchJq().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
