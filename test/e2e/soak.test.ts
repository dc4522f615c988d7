// The soak of issue 17 at 2 minutes and a small size (`npm run soak` with the
// suite's arguments): churn, dropped watches, 410s and server restarts all
// along; an over-budget Karta applied and removed twice and hostile objects
// added and removed in the first minute; then a minute of memory samples. The
// bounds and why: test/soak/README.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SoakResult } from '../soak/main.js';

/**
 * MB/min after a full GC, over the last minute. RSS also holds what the GC does not govern (malloc arenas, the
 * jq workers' wasm memory), which wanders by 10-15 MB/min on a loaded 2-core machine (seen at load 10), so the
 * heap bound below is the leak detector and this one catches leaks outside the heap: 4 KB per pod event (100/s
 * here) grows 23 MB/min.
 */
const RSS_SLOPE_BOUND = 24;
/** The heap alone after a full GC: 2 KB per event is 11.7 MB/min; 0.5 KB, 2.9. */
const HEAP_SLOPE_BOUND = 2.5;

test(
  'soak: 2 minutes under churn and faults: no growth, keys answered, the Karta error seen and cleared, no diff',
  { timeout: 6 * 60_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'wlx-soak-test-'));
    try {
      const out = join(dir, 'soak.json');
      const main = fileURLToPath(new URL('../soak/main.js', import.meta.url));
      // The suite's size: 1,000 pods, 100 pod events/s; faults every 15-30 s; two
      // Karta + hostile cycles at 20 s and 40 s, before the memory window (60-120 s).
      const args = [
        '--minutes',
        '2',
        '--nodes',
        '100',
        '--pods',
        '1000',
        '--workloads',
        '20',
        '--churn',
        '100',
        '--drop-watches-every',
        '15',
        '--expire-every',
        '20',
        '--restart-every',
        '30',
        '--cycle-every',
        '20',
        '--cycles',
        '2',
        '--warmup',
        '60',
        '--json',
        out,
      ];
      const r = spawnSync(process.execPath, [main, ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, `the soak failed:\n${r.stdout}`);
      process.stdout.write(r.stdout);
      const result = JSON.parse(readFileSync(out, 'utf8')) as SoakResult;
      const f = result.figures;

      assert.ok(f.rss_slope_mb_per_min < RSS_SLOPE_BOUND, `RSS slope ${f.rss_slope_mb_per_min} MB/min`);
      assert.ok(f.heap_slope_mb_per_min < HEAP_SLOPE_BOUND, `heap slope ${f.heap_slope_mb_per_min} MB/min`);
      assert.deepEqual([...result.diff.missing, ...result.diff.extra, ...result.diff.stale], [], 'model vs server');
      assert.ok(
        result.diff.compared.pods >= 1000 && result.diff.compared.workloads >= 20,
        JSON.stringify(result.diff.compared),
      );

      assert.equal(result.kartaCycles.length, 2);
      for (const k of result.kartaCycles) {
        assert.ok(Number.isFinite(k.brokenAfterS), `\`${k.expression}\` never reported broken: ${k.error}`);
        assert.match(k.error, /exceeded the evaluation budget/);
        assert.ok(Number.isFinite(k.clearedAfterS), `\`${k.expression}\`: the error did not clear`);
        assert.ok(
          k.keyMs.length >= 2 && k.keysAnswered,
          `keys while \`${k.expression}\` was applied: ${k.keyMs.join(', ')}`,
        );
      }
      for (const h of result.hostileCycles) assert.ok(h.keysAnswered, 'keys while hostile objects were held');
      assert.ok(
        result.hostileCycles[0].reported.some((p) => /containers beyond 256 dropped/.test(p)),
        'the 5,000 containers reported',
      );

      // The faults happened, and events were drawn between them.
      assert.ok(
        result.faults.watchesDropped >= 5 && result.faults.expiriesRequested >= 10 && result.faults.restarts >= 2,
        JSON.stringify(result.faults),
      );
      assert.ok(result.events.sent >= 30 && result.events.missed <= 2, JSON.stringify(result.events));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
