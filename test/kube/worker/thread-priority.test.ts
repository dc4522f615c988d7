import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ENGINE_NICE, engineNiceOf, lowerThreadPriority } from '../../../src/kube/worker/thread-priority.js';

test('engine nice: 10 levels by default, WLX_ENGINE_NICE to change it, 0 to leave it, anything else named', () => {
  assert.equal(ENGINE_NICE, 10);
  assert.equal(engineNiceOf({}), 10);
  assert.equal(engineNiceOf({ WLX_ENGINE_NICE: '' }), 10);
  assert.equal(engineNiceOf({ WLX_ENGINE_NICE: '15' }), 15);
  assert.equal(engineNiceOf({ WLX_ENGINE_NICE: '0' }), 0);
  for (const bad of ['abc', '-1', '2.5', '20'])
    assert.throws(
      () => engineNiceOf({ WLX_ENGINE_NICE: bad }),
      new RegExp(`WLX_ENGINE_NICE: expected a whole number from 0 to 19, got "${bad.replace('.', '\\.')}"`),
    );
});

test('lowering the priority is left alone for 0 and off Linux, where it would renice the whole process', () => {
  const before = getPriority();
  assert.equal(lowerThreadPriority(0), null);
  assert.equal(lowerThreadPriority(5, 'darwin'), null);
  assert.equal(getPriority(), before);
});

/** Runs lowerThreadPriority(nice) in a new thread; answers that thread's nice value before and after. */
function inWorker(nice: number): Promise<{ before: number; after: number; returned: number | null }> {
  const moduleUrl = new URL('../../../src/kube/worker/thread-priority.js', import.meta.url).href;
  const code = `
    const { parentPort } = require('node:worker_threads');
    const { getPriority } = require('node:os');
    import(${JSON.stringify(moduleUrl)}).then(({ lowerThreadPriority }) => {
      const before = getPriority();
      const returned = lowerThreadPriority(${nice});
      parentPort.postMessage({ before, after: getPriority(), returned });
    });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true });
    worker.once('message', (m) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

test(
  'on Linux only the calling thread is lowered: the engine worker, not the UI thread',
  { skip: process.platform !== 'linux' },
  async () => {
    const main = getPriority();
    const low = await inWorker(3);
    assert.equal(low.before, main);
    assert.equal(low.after, Math.min(19, main + 3));
    assert.equal(low.returned, low.after);
    assert.equal(getPriority(), main, 'the UI thread keeps its priority');
    const capped = await inWorker(19);
    assert.equal(capped.after, 19, 'capped at the lowest priority');
  },
);
