// The benchmark harness works end to end on a tiny cluster: every figure is
// present and a finite number. No timing is asserted (the machine is shared).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FIGURE_NAMES } from '../bench/main.js';

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
    assert.match(r.stdout, /first_tree_vs_raw_list/, 'the table is printed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
