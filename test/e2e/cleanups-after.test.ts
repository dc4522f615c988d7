// The real-server files' cleanup (test/e2e/real-apiserver.ts cleanupsAfter): registered at a describe's top
// level, it runs after the tests (an `after` called inside `before` ran as soon as that hook ended, before
// any test), and still runs when `before` throws, so a server that started is stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const HARNESS = pathToFileURL(resolve('dist/test/e2e/real-apiserver.js')).href;

function fixture(dir: string): string {
  const file = join(dir, 'fixture.test.mjs');
  writeFileSync(
    file,
    `import { after, before, describe, test } from 'node:test';
import { appendFileSync } from 'node:fs';
import { cleanupsAfter } from ${JSON.stringify(HARNESS)};
const log = (s) => appendFileSync(process.env.LOG, s + '\\n');
describe('a real-server file', () => {
  const cleanup = cleanupsAfter(after);
  before(async () => {
    cleanup(async () => log('stop.sh'));
    cleanup(async () => { log('close clients'); throw new Error('one cleanup failing'); });
    log('start.sh');
    if (process.env.FAIL) throw new Error('before failed');
  });
  test('a test', () => log('test'));
});
`,
  );
  return file;
}

/** The environment without the parent test runner's marker: the fixture runs as a test file of its own. */
function runnerFree(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _, ...rest } = env;
  return rest;
}

function run(file: string, log: string, fail: boolean): Promise<string[]> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--test', file],
      { env: { ...runnerFree(process.env), LOG: log, ...(fail ? { FAIL: '1' } : {}) } },
      () => done(readFileSync(log, 'utf8').trim().split('\n')),
    );
  });
}

test('cleanups run after the tests, the last added first, each even when another fails or before throws', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-cleanups-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = fixture(dir);
  assert.deepEqual(await run(file, join(dir, 'ok.log'), false), ['start.sh', 'test', 'close clients', 'stop.sh']);
  assert.deepEqual(await run(file, join(dir, 'failed.log'), true), ['start.sh', 'close clients', 'stop.sh']);
});
