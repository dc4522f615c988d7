// The engine worker's young generation: it is spawned with the cap, and V8 keeps its new space within it under
// allocation with survivors (what RSS pays for); WLX_YOUNG_GENERATION=v8 leaves V8's own, which grows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { startDemoCluster } from '../../../demo/index.js';
import { openWorkerModelSource } from '../../../src/app/worker/worker-source.js';
import { ENGINE_YOUNG_GENERATION_MB, engineResourceLimits } from '../../../src/app/worker/young-generation.js';

test('the engine worker is spawned with the young generation cap', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  const dir = mkdtempSync(join(tmpdir(), 'wlx-young-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, cluster.kubeconfig());
  const source = await openWorkerModelSource({
    kubeconfig,
    namespace: null,
    definitionPaths: [],
    definitionsEnv: '',
    gpuResources: [],
    demo: false,
  });
  t.after(() => source.stop());
  const worker = source.currentWorker() as Worker;
  assert.ok(worker instanceof Worker, 'a worker of its own');
  assert.equal(worker.resourceLimits?.maxYoungGenerationSizeMb, ENGINE_YOUNG_GENERATION_MB);
  assert.deepEqual(engineResourceLimits({ WLX_YOUNG_GENERATION: 'v8' }), {});
  assert.throws(() => engineResourceLimits({ WLX_YOUNG_GENERATION: 'small' }), /WLX_YOUNG_GENERATION: expected "v8"/);
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
  const capped = await newSpaceAfterChurn(engineResourceLimits({}));
  // Two semi-spaces of a third of the young generation each (the third is the new large-object space).
  assert.ok(capped <= (2 * ENGINE_YOUNG_GENERATION_MB) / 3 + 0.5, `capped: ${capped} MB`);
  const own = await newSpaceAfterChurn(engineResourceLimits({ WLX_YOUNG_GENERATION: 'v8' }));
  assert.ok(own > 3 * capped, `V8's own: ${own} MB against ${capped} MB`);
});
