// The engine worker's young generation: V8's own by default, WLX_ENGINE_YOUNG_MB caps it at spawn, and V8 keeps
// the capped worker's new space (what RSS pays for) within the cap under allocation with survivors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { startDemoCluster } from '../../../demo/index.js';
import { openWorkerModelSource } from '../../../src/app/worker/worker-source.js';
import { engineResourceLimits } from '../../../src/app/worker/young-generation.js';

test("the engine worker is spawned with V8's own young generation, or WLX_ENGINE_YOUNG_MB's cap", async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  const dir = mkdtempSync(join(tmpdir(), 'wlx-young-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, cluster.kubeconfig());
  const options = {
    kubeconfig,
    namespace: null,
    definitionPaths: [],
    definitionsEnv: '',
    gpuResources: [],
    demo: false,
  };
  const saved = process.env.WLX_ENGINE_YOUNG_MB;
  t.after(() => {
    if (saved === undefined) delete process.env.WLX_ENGINE_YOUNG_MB;
    else process.env.WLX_ENGINE_YOUNG_MB = saved;
  });
  const youngMb = async (env: string | undefined) => {
    if (env === undefined) delete process.env.WLX_ENGINE_YOUNG_MB;
    else process.env.WLX_ENGINE_YOUNG_MB = env;
    const source = await openWorkerModelSource(options);
    try {
      const worker = source.currentWorker();
      assert.ok(worker instanceof Worker, 'a worker of its own');
      return worker.resourceLimits?.maxYoungGenerationSizeMb;
    } finally {
      await source.stop();
    }
  };
  const own = await youngMb(undefined);
  assert.ok(own !== undefined && own > 6, `V8's own: ${own} MB (48 on a 64-bit machine with memory to spare)`);
  assert.equal(await youngMb('6'), 6);
  assert.throws(
    () => engineResourceLimits({ WLX_ENGINE_YOUNG_MB: '2' }),
    /WLX_ENGINE_YOUNG_MB: expected a whole number/,
  );
});

/** A worker's new space (MB) after allocating with survivors, as the engine does between flushes. */
async function newSpaceAfterChurn(resourceLimits: ResourceLimits): Promise<number> {
  const code = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { parentPort } from 'node:worker_threads';
    let keep = [];
    for (let i = 0; i < 3e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 20000) keep = []; }
    parentPort.postMessage(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20);
  `;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { resourceLimits });
  try {
    return await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

test("V8 keeps the capped worker's new space within the cap; V8's own grows it", async () => {
  const capped = await newSpaceAfterChurn(engineResourceLimits({ WLX_ENGINE_YOUNG_MB: '6' }));
  // Two semi-spaces of a third of the young generation each (the third is the new large-object space).
  assert.ok(capped <= (2 * 6) / 3 + 0.5, `capped: ${capped} MB`);
  const own = await newSpaceAfterChurn(engineResourceLimits({}));
  assert.ok(own > 3 * capped, `V8's own: ${own} MB against ${capped} MB`);
});
