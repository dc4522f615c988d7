// A cluster Karta whose status expression never ends (`def f: f; f`), POSTed to
// the demo API server with writes allowed, must not stop the explorer: the
// engine keeps streaming snapshots for other workloads, the Karta's workloads
// show the budget error, and the definition is reported broken (`:defs`). The
// hot reload pre-flights the Karta's jq-wasm expressions in a worker, so the
// engine's thread (the explorer's) is never blocked for the deadline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoCluster, type DemoCluster } from '../../demo/index.js';
import { compile, prepareFallback, setEvaluationBudget } from '../../src/jq/index.js';
import { KEYS, putJobSet, putJobSetPods, putNode, putPod, tfjobKarta } from './fixtures.js';
import { until as waitUntil, startDemoEngine } from './helpers.js';

const LOOP = 'def f: f; f';

/** The engine under a short jq budget can be slow on a loaded machine: a longer default wait. */
const until = (cond: () => boolean, what: string, ms = 20_000): Promise<void> => waitUntil(cond, what, ms);

function putTfJob(cluster: DemoCluster, name: string): void {
  const tf = cluster.store.put(KEYS.tfjobs, {
    apiVersion: 'kubeflow.org/v1',
    kind: 'TFJob',
    metadata: { name, namespace: 'research', uid: '', resourceVersion: '', creationTimestamp: '' },
    spec: { tfReplicaSpecs: { Worker: { replicas: 1, template: { spec: { containers: [{ name: 'tf' }] } } } } },
    status: { conditions: [{ type: 'Running', status: 'True' }] },
  });
  putPod(cluster.store, 'research', `${name}-worker-0`, tf, {
    'training.kubeflow.org/job-name': name,
    'training.kubeflow.org/replica-type': 'worker',
  });
}

test('engine: a looping cluster Karta breaks only its own definition; the explorer keeps updating', async (t) => {
  // jq-wasm loaded (and the expression checked by jq once) under the default
  // budget, so that a loaded machine does not pay the start-up within the short
  // deadline the evaluations then get.
  await prepareFallback();
  assert.equal(compile(LOOP).native, false);
  const previous = setEvaluationBudget({ timeMs: 3000, batchMsPerInput: 0 });
  t.after(() => setEvaluationBudget(previous));
  const cluster = await startDemoCluster({ simulate: false, allowWrites: true });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  putTfJob(cluster, 'resnet');
  putTfJob(cluster, 'bert');
  const engine = await startDemoEngine(cluster, { flushIntervalMs: 20 });
  t.after(() => engine.stop());
  await engine.whenSynced();

  // The Karta arrives through the API, as `kubectl apply` would send it.
  const karta = tfjobKarta();
  const root = (karta.spec as { structureDefinition: { rootComponent: Record<string, unknown> } }).structureDefinition
    .rootComponent;
  root.statusDefinition = {
    phaseDefinition: { path: LOOP },
    statusMappings: { running: [{ byPhase: 'Running' }] },
  };
  const posted = await fetch(`${cluster.server}/apis/run.ai/v1alpha1/kartas`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(karta),
  });
  assert.equal(posted.status, 201, await posted.text());

  // The longest the event loop went without running a 10 ms timer while the Karta was evaluated.
  let last = performance.now();
  let longestGapMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, 10);
  try {
    await until(() => {
      const d = engine.getSnapshot().definitions.find((x) => x.name === 'test-tfjob');
      return d !== undefined && !d.valid;
    }, 'the Karta reported broken');
  } finally {
    clearInterval(ticker);
  }
  // Evaluated on this thread, the loop would block it for the whole 3,000 ms deadline.
  assert.ok(longestGapMs < 1500, `the event loop was blocked for ${longestGapMs.toFixed(0)} ms`);
  const snap = engine.getSnapshot();
  const def = snap.definitions.find((x) => x.name === 'test-tfjob')!;
  assert.equal(def.source, 'cluster');
  assert.ok(
    def.problems.some(
      (p) =>
        p.severity === 'error' &&
        p.field === 'statusDefinition.phaseDefinition.path' &&
        /`def f: f; f`: exceeded the evaluation budget \(3,000 ms\)/.test(p.message),
    ),
    JSON.stringify(def.problems),
  );
  await until(
    () =>
      engine
        .getSnapshot()
        .workloads.filter((w) => w.kind === 'TFJob')
        .every((w) => w.errors.some((e) => /def f: f; f.*exceeded the evaluation budget.*test-tfjob/.test(e))) &&
      engine.getSnapshot().workloads.filter((w) => w.kind === 'TFJob').length === 2,
    'both TFJobs showing the budget error',
  );
  assert.ok(
    engine.getSnapshot().problems.some((p) => /^definition test-tfjob: .*exceeded the evaluation budget/.test(p)),
  );

  // Everything else keeps working: a new JobSet and its pods appear; a new TFJob
  // shows the error too (without evaluating: test/model/expr-budget.test.ts).
  const { jobs } = putJobSet(cluster.store, 'training', 'llama', ['worker'], 1);
  putJobSetPods(cluster.store, 'llama', jobs);
  putTfJob(cluster, 'gpt');
  await until(
    () =>
      engine.getSnapshot().workloads.some((w) => w.kind === 'JobSet' && w.name === 'llama') &&
      engine.getSnapshot().workloads.some((w) => w.name === 'gpt' && w.errors.some((e) => /test-tfjob/.test(e))),
    'the JobSet and the new TFJob',
  );
});
