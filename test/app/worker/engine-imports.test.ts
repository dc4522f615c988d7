// What a connected engine loads: the engine worker (and the UI thread beside it) opened on a cluster and synced
// must not load @kubernetes/client-node's package index or its generated API models (~28 MB of heap, ~60 MB of RSS
// per thread: test/bench/README.md "The everyday cluster"), nor OIDC's client when no user needs it. A module loader hook in a child process lists every
// module any of its threads loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

test('the engine worker connects and syncs without client-node index or its generated models', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-imports-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const loaded = join(dir, 'loaded.txt');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(loaded)}, url + '\\n');
  return next(url, context);
}
`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
  );
  const href = (path: string) => new URL(path, import.meta.url).href;
  writeFileSync(
    join(dir, 'engine.mjs'),
    `import { writeFileSync } from 'node:fs';
import { startDemoCluster } from ${JSON.stringify(href('../../../demo/index.js'))};
import { openWorkerModelSource } from ${JSON.stringify(href('../../../src/app/worker/worker-source.js'))};
const cluster = await startDemoCluster({ simulate: false });
const kubeconfig = ${JSON.stringify(join(dir, 'kubeconfig'))};
writeFileSync(kubeconfig, cluster.kubeconfig());
const source = await openWorkerModelSource({
  kubeconfig, namespace: null, definitionPaths: [], definitionsEnv: '', gpuResources: [], demo: false,
});
await source.whenSynced();
const info = source.getConnectionInfo();
await source.stop();
await cluster.stop();
console.log(JSON.stringify({ serverVersion: info.serverVersion }));
`,
  );
  const { stdout } = await run(process.execPath, ['--import', join(dir, 'register.mjs'), join(dir, 'engine.mjs')], {
    timeout: 60_000,
  });
  // It did connect: the server's version came through the worker.
  assert.deepEqual(JSON.parse(stdout), { serverVersion: 'v1.32.0' });
  const urls = readFileSync(loaded, 'utf8').split('\n');
  assert.ok(
    urls.some((u) => u.endsWith('/src/app/worker/engine-worker.js')),
    'the hook sees the worker thread',
  );
  assert.ok(
    urls.some((u) => u.endsWith('/@kubernetes/client-node/dist/exec_auth.js')),
    "client-node's authenticators are loaded",
  );
  const index = urls.filter((u) => /\/@kubernetes\/client-node\/dist\/(index\.js|config\.js|gen\/)/.test(u));
  assert.deepEqual(index.slice(0, 3), []);
  // OIDC's client (openid-client, jose) only for a user with an oidc auth-provider; this one has a token.
  assert.deepEqual(urls.filter((u) => /\/node_modules\/(openid-client|jose)\//.test(u)).slice(0, 3), []);
});
