// The benchmark harness works end to end on a tiny cluster: every figure is
// present and a finite number, each session's figures are kept, and the table
// prints the targets. No timing is asserted (the machine is shared).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIGURE_NAMES, TARGETS } from '../bench/main.js';
import { assertFiguresFinite, runBench, TINY_CLUSTER } from './bench-run.js';

test('bench harness: 1,000 pods, every figure a finite number', { timeout: 240_000 }, () => {
  const { stdout, result } = runBench<{ figures: Record<string, unknown>; setup: Record<string, unknown> }>(
    [
      ...TINY_CLUSTER,
      '--runs',
      '1',
      '--keys',
      '4',
      '--events',
      '3',
      '--cpu-seconds',
      '1',
      '--sessions',
      '1',
      '--jq',
      'quick',
    ],
    230_000,
  );
  assertFiguresFinite(result.figures, FIGURE_NAMES);
  assert.equal(result.setup.pods, 1000, 'the engine saw every pod');
  const sessions = result.setup.sessions as Record<string, unknown>[];
  assert.equal(sessions.length, 1, 'one session asked for, one kept');
  for (const name of [
    'catch_up_s',
    'first_tree_churn_s',
    'event_to_frame_ms_p99',
    'cpu_percent_churn',
    // The engine in its worker, measured apart from the UI thread.
    'ui_busy_percent',
    'engine_busy_percent',
    'ui_heap_mb',
    'engine_heap_mb',
    'ui_heap_total_mb',
    'engine_heap_total_mb',
    // On the workloads view, the pods left in the worker.
    'ui_heap_mb_workloads_view',
  ])
    assert.ok(Number.isFinite(sessions[0][name]), `setup.sessions[0].${name} = ${String(sessions[0][name])}`);
  assert.equal(sessions[0].catchUpMissed, false, 'the catch-up marker was seen');
  assert.equal(result.figures.catch_up_s, sessions[0].catch_up_s, 'with one session, its figure is the worst');
  assert.match(stdout, /first_tree_vs_raw_list/, 'the table is printed');
  const targets = result.setup.targets as Record<string, string>;
  for (const name of Object.keys(TARGETS)) assert.match(targets[name], /^(met|missed)$/, `target of ${name}`);
  assert.match(stdout, /catch_up_s\s+\S+\s+≤ 5\s+(met|missed)/, 'targets printed beside the figures');
});
