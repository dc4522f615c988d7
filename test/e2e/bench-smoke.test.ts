// The benchmark harness works end to end on a tiny cluster: every figure is
// present and a finite number, each session's figures are kept, and the table
// prints the targets. No timing is asserted (the machine is shared).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FIGURE_NAMES, TARGETS } from '../bench/main.js';

test('bench harness: 1,000 pods, every figure a finite number', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-bench-smoke-'));
  try {
    const out = join(dir, 'bench.json');
    const main = fileURLToPath(new URL('../bench/main.js', import.meta.url));
    const r = spawnSync(
      process.execPath,
      [
        main,
        '--nodes',
        '20',
        '--pods',
        '1000',
        '--workloads',
        '10',
        '--churn',
        '20',
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
        '--json',
        out,
      ],
      { encoding: 'utf8', timeout: 230_000 },
    );
    assert.equal(r.status, 0, `bench exited ${r.status}: ${r.stderr}`);
    const result = JSON.parse(readFileSync(out, 'utf8')) as {
      figures: Record<string, unknown>;
      setup: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(result.figures).sort(), [...FIGURE_NAMES].sort());
    for (const name of FIGURE_NAMES) {
      const v = result.figures[name];
      assert.ok(typeof v === 'number' && Number.isFinite(v), `${name} = ${String(v)}`);
    }
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
    assert.match(r.stdout, /first_tree_vs_raw_list/, 'the table is printed');
    const targets = result.setup.targets as Record<string, string>;
    for (const name of Object.keys(TARGETS)) assert.match(targets[name], /^(met|missed)$/, `target of ${name}`);
    assert.match(r.stdout, /catch_up_s\s+\S+\s+≤ 5\s+(met|missed)/, 'targets printed beside the figures');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
