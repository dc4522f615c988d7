// The bench smoke tests' one way to run the harness: test/bench/main.js in a
// child process with its figures written to a temporary JSON file, read back;
// and the check every figure they name is a finite number.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The tiny cluster both smoke tests bench: 20 nodes, 1,000 pods in 10 workloads, 20 pod changes a second. */
export const TINY_CLUSTER = ['--nodes', '20', '--pods', '1000', '--workloads', '10', '--churn', '20'] as const;

/** Runs the bench with `args` (and `--json`); asserts it exited 0; its stdout and the JSON it wrote. */
export function runBench<T extends { figures: Record<string, unknown> }>(
  args: readonly string[],
  timeoutMs: number,
): { stdout: string; result: T } {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-bench-smoke-'));
  try {
    const out = join(dir, 'bench.json');
    const main = fileURLToPath(new URL('../bench/main.js', import.meta.url));
    const r = spawnSync(process.execPath, [main, ...args, '--json', out], { encoding: 'utf8', timeout: timeoutMs });
    assert.equal(r.status, 0, `bench exited ${r.status}: ${r.stderr}`);
    return { stdout: r.stdout, result: JSON.parse(readFileSync(out, 'utf8')) as T };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures are exactly `names`, each a finite number. */
export function assertFiguresFinite(figures: Record<string, unknown>, names: readonly string[]): void {
  assert.deepEqual(Object.keys(figures).sort(), [...names].sort());
  for (const name of names) {
    const v = figures[name];
    assert.ok(typeof v === 'number' && Number.isFinite(v), `${name} = ${String(v)}`);
  }
}
