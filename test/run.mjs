#!/usr/bin/env node
// Runs the whole suite with node's own test runner over the compiled tests in
// dist/test (npm test builds first). Unit tests first, then the end-to-end ones
// (real servers, real kubectl, the real TUI in tmux), which need more time;
// before those, the one real kube-apiserver the real-server suite shares.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';

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

// The real-server suite (e2e/real-*.test.js) shares one real kube-apiserver + etcd for the whole run:
// started here before the end-to-end tests, stopped after them (also on failure or Ctrl-C).
const realFiles = e2e.filter((f) => /\/e2e\/real-[^/]*\.test\.js$/.test(f));
let stopRealServer = async () => {};
async function startSharedRealServer() {
  const harness = await import(pathToFileURL(resolve('dist/test/e2e/real-apiserver.js')).href);
  const skip = harness.realServerSkipReason();
  if (skip) {
    process.stdout.write(`\n== ${skip}\n`);
    return {};
  }
  const dir = mkdtempSync(join(tmpdir(), 'wlx-real-apiserver-'));
  stopRealServer = async () => {
    stopRealServer = async () => {};
    await harness.stopRealServer(dir).catch((err) => process.stderr.write(`stop.sh ${dir}: ${err.message}\n`));
    rmSync(dir, { recursive: true, force: true });
  };
  const started = Date.now();
  const server = await harness.startRealServer(dir);
  server.admin.close();
  server.restricted.close();
  process.stdout.write(`\n== real kube-apiserver for the run: ${server.server} (${Date.now() - started} ms)\n`);
  return { [harness.SHARED_STATE_ENV]: dir };
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void stopRealServer().then(() => process.exit(130));
  });
}

// What wlx keeps between sessions (each context's recent namespaces, screen dumps) goes to a directory of the
// run's own, never the user's.
const stateHome = mkdtempSync(join(tmpdir(), 'wlx-test-state-'));
process.on('exit', () => rmSync(stateHome, { recursive: true, force: true }));

function runGroup(group, concurrency, env) {
  return new Promise((resolveRun) => {
    const child = spawn(
      process.execPath,
      ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...group],
      { stdio: 'inherit', env: { ...process.env, XDG_STATE_HOME: stateHome, ...env } },
    );
    child.on('exit', (code) => resolveRun(code));
  });
}

let failed = false;
for (const [label, group, concurrency] of [
  ['unit', unit, 2],
  ['e2e', e2e, 1],
]) {
  if (!group.length) continue;
  let env = {};
  try {
    if (label === 'e2e' && realFiles.length) env = await startSharedRealServer();
    process.stdout.write(`\n== ${label} tests (${group.length} files)\n`);
    if ((await runGroup(group, concurrency, env)) !== 0) failed = true;
  } catch (err) {
    process.stderr.write(`${err.stack ?? err}\n`);
    failed = true;
  } finally {
    await stopRealServer();
  }
}
process.exit(failed ? 1 : 0);
