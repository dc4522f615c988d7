#!/usr/bin/env node
// Runs the whole suite with node's own test runner over the compiled tests in
// dist/test (npm test builds first). Unit tests first, then the end-to-end ones
// (real servers, real kubectl, the real TUI in tmux), which need more time.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

// tmux servers of earlier runs that were killed (their socket names carry the test process's pid, see
// test/e2e/tmux.ts) keep their wlx running and load the machine: end those whose process is gone.
function reapStaleTmuxServers() {
  const dir = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`);
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^wlx[\w-]*?-(\d+)-\d+$/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
      continue; // its test process still runs
    } catch {
      // gone
    }
    spawnSync('tmux', ['-L', name, 'kill-server'], { stdio: 'ignore' });
    rmSync(join(dir, name), { force: true });
  }
}
reapStaleTmuxServers();

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, out);
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const filter = process.argv.slice(2);
let files = find('dist/test').sort();
if (filter.length) files = files.filter((f) => filter.some((s) => f.includes(s)));
const e2e = files.filter((f) => f.includes('/e2e/'));
const unit = files.filter((f) => !f.includes('/e2e/'));
let failed = false;
for (const [label, group, concurrency] of [
  ['unit', unit, 2],
  ['e2e', e2e, 1],
]) {
  if (!group.length) continue;
  process.stdout.write(`\n== ${label} tests (${group.length} files)\n`);
  const r = spawnSync(
    process.execPath,
    ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...group],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
