// The fleet benchmark works end to end on tiny clusters: two clusters and a
// single one with the same pods, every figure present and a finite number, the
// sessions kept, the load average recorded, the table printed. No timing is
// asserted (the machine is shared).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FLEET_FIGURE_NAMES, FLEET_TARGETS } from '../bench/fleet.js';
import { assertFiguresFinite, runBench, TINY_CLUSTER } from './bench-run.js';

test(
  'fleet bench harness: 2 clusters × 500 pods against one of 1,000, every figure finite',
  { timeout: 300_000 },
  () => {
    const { stdout, result } = runBench<{
      figures: Record<string, unknown>;
      setup: {
        clusters: number;
        pods: { single: number; fleet: number };
        sessions: Record<string, unknown[]>;
        loadAverage: { before: number[]; after: number[] };
        targets: Record<string, string>;
      };
    }>(['--fleet', '2', ...TINY_CLUSTER, '--sessions', '1', '--settle-seconds', '1'], 290_000);
    assertFiguresFinite(result.figures, FLEET_FIGURE_NAMES);
    assert.equal(result.setup.clusters, 2);
    assert.deepEqual(result.setup.pods, { single: 1000, fleet: 1000 }, 'the same pods, one cluster or two');
    for (const k of ['single', 'shared', 'worker', 'inline']) assert.equal(result.setup.sessions[k]?.length, 1, k);
    assert.equal(result.setup.loadAverage.before.length, 3);
    for (const name of Object.keys(FLEET_TARGETS)) assert.match(result.setup.targets[name], /^(met|missed)$/);
    assert.match(stdout, /fleet_vs_single_rss\s+\S+\s+≤ 1\.3\s+(met|missed)/);
    assert.match(stdout, /load average: /);
  },
);
