// The package as users get it: `npm pack` (the tarball holds the compiled program, the launcher, the
// catalog, README, docs and LICENSE, and no compiled tests), then `npm install -g` of the tarball into a
// temporary prefix without dev dependencies, which must print no warning, and the installed `wlx`
// run from elsewhere (so it reads nothing from this checkout): --version, definitions, demo serve and
// the explorer on the demo.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, Tmux, hasTmux, shellQuote } from './tmux.js';

const run = promisify(execFile);

interface PackEntry {
  path: string;
}

/** npm's environment without the variables `npm test` sets for its own run (npm_config_*, npm_lifecycle_*). */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return env;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

test('the package builds when packed and has no install script a user would run', () => {
  // Install-time scripts (prepare, install, postinstall, preinstall) run on the user's machine, where
  // tsc is not installed; the build belongs to prepack, which only runs where the package is packed.
  for (const s of ['prepare', 'preinstall', 'install', 'postinstall']) assert.equal(pkg.scripts[s], undefined, s);
  assert.match(pkg.scripts.prepack ?? '', /npm run build/);
});

test('the packed tarball installs globally without dev dependencies or warnings, and wlx runs', async (t: TestContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-pack-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = npmEnv();

  // `npm test` has just built dist/; --ignore-scripts keeps prepack from rebuilding (and removing) the
  // dist/ other tests run from.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: ROOT,
    env,
    maxBuffer: 16 << 20,
  });
  const [{ filename, files }] = JSON.parse(packed.stdout) as { filename: string; files: PackEntry[] }[];
  const paths = files.map((f) => f.path);
  assert.deepEqual(
    paths.filter((p) => p.startsWith('dist/test') || p.endsWith('.map') || p.endsWith('.ts')),
    [],
    'no compiled tests, sources or source maps',
  );
  const roots = new Set(
    paths.map((p) => (p.startsWith('dist/') ? p.split('/').slice(0, 2).join('/') : p.split('/')[0])),
  );
  assert.deepEqual([...roots].sort(), [
    'LICENSE',
    'README.md',
    'bin',
    'definitions',
    'dist/demo',
    'dist/src',
    'docs',
    'package.json',
  ]);
  for (const p of ['bin/wlx.js', 'dist/src/cli/main.js', 'dist/demo/main.js', 'definitions/batch-cronjob-v1.yaml']) {
    assert.ok(paths.includes(p), `${p} is in the tarball`);
  }
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0, January 2004/);

  const prefix = join(dir, 'prefix');
  let installed;
  try {
    installed = await run(
      'npm',
      [
        'install',
        '-g',
        join(dir, filename),
        '--prefix',
        prefix,
        '--omit=dev',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: dir, env, maxBuffer: 16 << 20 },
    );
  } catch (err) {
    const e = err as { stderr?: string };
    if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/.test(e.stderr ?? '')) {
      t.skip('the npm registry is unreachable and its cache lacks a dependency');
      return;
    }
    throw err;
  }
  assert.doesNotMatch(`${installed.stdout}\n${installed.stderr}`, /\bwarn\b/i, 'npm install prints no warning');
  const installedDir = join(prefix, 'lib', 'node_modules', 'wlx');
  // @types/* are left out: @kubernetes/client-node depends on some of them itself.
  const devOnly = Object.keys(pkg.devDependencies).filter(
    (d) => !d.startsWith('@types/') && existsSync(join(installedDir, 'node_modules', d)),
  );
  assert.deepEqual(devOnly, [], 'no dev dependency is installed');

  // Run from the temporary directory: the installed copy must find its version and catalog by itself.
  const wlx = join(prefix, 'bin', 'wlx');
  const version = await run(wlx, ['--version'], { cwd: dir, env });
  assert.equal(version.stdout.trim(), `wlx ${pkg.version}`);
  assert.equal(version.stderr, '');

  const definitions = await run(wlx, ['definitions'], { cwd: dir, env: { ...env, WLX_DEFINITIONS: '' } });
  const catalog = readdirSync(join(ROOT, 'definitions')).filter((f) => f.endsWith('.yaml'));
  for (const f of catalog)
    assert.match(
      definitions.stdout,
      new RegExp(`^${f.replace(/\.yaml$/, '').replace(/\./g, '\\.')}\\s.*\\bbuiltin\\b`, 'm'),
    );
  assert.equal(definitions.stderr, '');

  // The simulated cluster, then wlx against it.
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(wlx, ['demo', 'serve', '--port', '0', '--kubeconfig-out', kubeconfig], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let errOut = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (errOut += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  for (let waited = 0; !/Press Ctrl-C to stop/.test(out); waited += 50) {
    if (waited > 15_000 || child.exitCode !== null) assert.fail(`demo serve did not start: ${out}${errOut}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = /serving at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  assert.ok(url, out);
  const nodes = (await (await fetch(`${url}/api/v1/nodes`)).json()) as { items: unknown[] };
  assert.ok(nodes.items.length > 0, 'the simulated cluster has nodes');
  const got = await run(wlx, ['get', '-A', '--kubeconfig', kubeconfig], { cwd: dir, env });
  assert.match(got.stdout, /^JobSet\/llama-pretrain\s/m);

  // The explorer itself (ink, react) on its own demo, in a real terminal.
  if (hasTmux()) {
    const tui = new Tmux(
      `cd ${shellQuote(dir)} && ${shellQuote(wlx)} --demo; echo "WLX-EXITED $?"; exec sleep 600`,
      120,
      30,
      'wlx-pack',
    );
    try {
      await tui.waitFor(/llama-pretrain/, 'the workloads view', 20_000);
      tui.keys('q');
      assert.match(await tui.waitFor(/WLX-EXITED \d+/, 'wlx to exit', 20_000), /WLX-EXITED 0/);
    } finally {
      tui.kill();
    }
  }

  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.match(out, /wlx demo: stopped/);
  assert.equal(errOut, '');
});
