// k9s habits end to end, with a temporary config directory ($WLX_CONFIG_DIR)
// against the demo cluster over HTTP: a context's Prometheus from config.yaml
// used by `wlx get`, `wlx info` and the explorer; then, in a real terminal
// (tmux), `-c`, an alias, a hotkey, a per-kind command, the read-only notice,
// a screen dump, plugins that write their environment to a file (one in the
// foreground, which suspends the explorer and gives it back, one in the
// background after a confirmation), and the `:ns` and `:ctx` pickers (the
// restricted user's `:ns` says why its list is short).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoWithKubeconfig, runWlx } from './wlx-cli.js';
import { Tmux, hasTmux, shellQuote, wlxCommand } from './tmux.js';

const SVC_QUERY = '/api/v1/namespaces/monitoring/services/prometheus:9090/proxy/api/v1/query';

function configDir(t: { after(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-k9s-e2e-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      'wlx:',
      '  idleAfter: 10s',
      `  screenDumpDir: ${join(dir, 'dumps')}`,
      '  refreshRate: 2', // line 4: not a wlx key, told and skipped
      'contexts:',
      '  wlx-demo:',
      '    prometheus: svc/monitoring/prometheus:9090',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'aliases.yaml'), 'aliases:\n  tr: ns training\n');
  writeFileSync(
    join(dir, 'hotkeys.yaml'),
    'hotKeys:\n  gpu-map:\n    shortCut: Shift-M\n    description: the GPU map\n    command: map\n',
  );
  const envFile = join(dir, 'env.txt');
  const bgFile = join(dir, 'bg.txt');
  writeFileSync(
    join(dir, 'plugins.yaml'),
    [
      'plugins:',
      '  env:',
      '    shortCut: Shift-E',
      '    description: write the environment',
      '    scopes: [pods]',
      '    command: sh',
      `    args: [-c, "env > ${envFile}; echo arg-name=$NAME >> ${envFile}; echo plugin-on-the-terminal; sleep 1"]`,
      '  workload:',
      '    shortCut: Shift-B',
      '    description: note the workload',
      '    scopes: [jobset]',
      '    command: sh',
      `    args: [-c, "echo $WORKLOAD $KIND > ${bgFile}"]`,
      '    background: true',
      '    confirm: true',
      '',
    ].join('\n'),
  );
  return dir;
}

function envOf(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
  }
  return out;
}

test("wlx get and wlx info: the context's Prometheus from config.yaml; a bad key is one file:line line", async (t) => {
  const { cluster, kubeconfig } = await demoWithKubeconfig(t, 'wlx-k9s-get-');
  const dir = configDir(t);
  const env = { WLX_CONFIG_DIR: dir, WLX_DEFINITIONS: '' };
  const configFile = join(dir, 'config.yaml');

  const before = cluster.requests().length;
  const get = await runWlx(['get', '--kubeconfig', kubeconfig, '-o', 'json'], env);
  assert.equal(get.code, 0, get.stderr);
  assert.match(get.stderr, new RegExp(`wlx: ${configFile}:4: unknown key "refreshRate"`));
  const asked = cluster.requests().slice(before);
  assert.ok(
    asked.some((r) => decodeURIComponent(r.path).startsWith(SVC_QUERY)),
    'wlx get queried the configured Prometheus',
  );
  assert.ok(!asked.some((r) => r.path.endsWith('/proxy/metrics')), 'no exporter scraped');

  // The restricted context has no Prometheus configured: the exporters, not the service.
  const mark = cluster.requests().length;
  const other = await runWlx(
    ['get', '--kubeconfig', kubeconfig, '--context', 'wlx-demo-restricted', '-o', 'json'],
    env,
  );
  assert.equal(other.code, 0, other.stderr);
  assert.ok(
    !cluster
      .requests()
      .slice(mark)
      .some((r) => decodeURIComponent(r.path).startsWith(SVC_QUERY)),
  );

  // A flag wins over the context's setting.
  const flagMark = cluster.requests().length;
  const flagged = await runWlx(
    ['get', '--kubeconfig', kubeconfig, '-o', 'json', '--prometheus', 'svc/monitoring/prometheus:1'],
    env,
  );
  assert.equal(flagged.code, 0, flagged.stderr);
  const flaggedPaths = cluster
    .requests()
    .slice(flagMark)
    .map((r) => decodeURIComponent(r.path));
  assert.ok(flaggedPaths.some((p) => p.includes('/services/prometheus:1/proxy')));
  assert.ok(!flaggedPaths.some((p) => p.startsWith(SVC_QUERY)));

  const info = await runWlx(['info', '--kubeconfig', kubeconfig], env);
  assert.equal(info.code, 0, info.stderr);
  assert.match(info.stdout, new RegExp(`Config directory\\s+${dir} \\(from \\$WLX_CONFIG_DIR\\)`));
  assert.match(info.stdout, new RegExp(`Config\\s+${configFile} \\(exists\\)`));
  assert.match(info.stdout, /Hotkeys\s+\S+hotkeys\.yaml \(exists\)/);
  assert.match(info.stdout, /Context\s+wlx-demo/);
  assert.match(info.stdout, /prometheus\s+svc\/monitoring\/prometheus:9090 \(context\)/);
  assert.match(info.stdout, /idleAfter\s+10s \(global\)/);
  assert.match(info.stdout, /dcgmSelector\s+- \(the GPU Operator's/);
  assert.match(info.stdout, /Plugins: 2 \(Shift-E env, Shift-B workload\)/);
  assert.match(info.stdout, new RegExp(`Problems \\(1\\):\\n  ${configFile}:4: unknown key "refreshRate"`));
  const restricted = await runWlx(['info', '--kubeconfig', kubeconfig, '--context', 'wlx-demo-restricted'], env);
  assert.match(restricted.stdout, /prometheus\s+- \(the dcgm-exporter pods/);
  assert.deepEqual([...new Set(cluster.requests().map((r) => r.method))], ['GET'], 'wlx only reads');
});

test(
  'the explorer with a config directory: -c, Prometheus, alias, hotkey, :TYPE, read-only, ctrl-s, plugins, pickers',
  { skip: !hasTmux(), timeout: 240_000 },
  async (t) => {
    const { cluster, kubeconfig } = await demoWithKubeconfig(t, 'wlx-k9s-tui-');
    const dir = configDir(t);
    const env = `export WLX_CONFIG_DIR=${shellQuote(dir)}; `;
    const tmux = new Tmux(env + wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)} -c jobsets`), 150, 45);
    try {
      // -c: the JobSets at start; the config problem in the flash line.
      let screen = await tmux.waitFor(/jobsets\(all\)\[2\]/, 'the JobSets (-c jobsets)', 60_000);
      assert.match(screen, /1 config problem: \S+config\.yaml:4: unknown key "refreshRate"/);
      await tmux.waitFor(
        () => cluster.requests().some((r) => decodeURIComponent(r.path).startsWith(SVC_QUERY)),
        'the explorer querying the context’s Prometheus',
        30_000,
      );

      // An alias.
      tmux.keys(':');
      tmux.type('tr');
      tmux.keys('Enter');
      await tmux.waitFor(/jobsets\(training\)\[2\]/, ':tr (ns training)');

      // A hotkey, then a per-kind command.
      tmux.keys('M');
      await tmux.waitFor(/map\(all\)\[\d+ nodes\]/, 'Shift-M: the GPU map');
      tmux.keys(':');
      tmux.type('pytorchjob');
      tmux.keys('Enter');
      screen = await tmux.waitFor(/pytorchjobs\(training\)\[\d+\]/, ':pytorchjob');
      assert.match(screen, /bert-finetune\s+PyTorchJob/);
      assert.doesNotMatch(screen, /llama-pretrain/);

      // k9s's delete key.
      tmux.keys('C-d');
      await tmux.waitFor(/wlx is read-only: ctrl-d \(delete in k9s\) does nothing/, 'the read-only notice');

      // ctrl-s: the table as CSV where config.yaml says.
      tmux.keys('C-s');
      screen = await tmux.waitFor(/saved \S+\.csv/, 'the screen dump');
      const file = /saved (\S+\.csv)/.exec(screen)![1];
      assert.ok(file.startsWith(join(dir, 'dumps', 'wlx-demo', 'wlx-demo')), file);
      const csv = readFileSync(file, 'utf8').split('\r\n');
      assert.match(csv[0], /^NAMESPACE,NAME,KIND,/);
      assert.ok(
        csv.some((l) => /^training,bert-finetune,PyTorchJob,/.test(l)),
        csv.join('\n'),
      );

      // A background plugin on a JobSet row, after a confirmation.
      tmux.keys(':');
      tmux.type('jobsets');
      tmux.keys('Enter');
      tmux.keys('/');
      tmux.type('llama-pretrain');
      tmux.keys('Enter');
      await tmux.waitFor(/jobsets\(training\)\[1\/2\]/, 'llama-pretrain alone');
      tmux.keys('B');
      await tmux.waitFor(/run sh -c 'echo llama-pretrain JobSet > \S+bg\.txt'\? \(y\/n\)/, 'the confirmation');
      tmux.keys('y');
      await tmux.waitFor(/plugin note the workload: exit status 0/, 'the background exit status');
      assert.equal(readFileSync(join(dir, 'bg.txt'), 'utf8'), 'llama-pretrain JobSet\n');

      // A foreground plugin on a pod: the explorer gives the terminal up and takes it back.
      tmux.keys('Enter');
      await tmux.waitFor(/jobset\(training\/llama-pretrain\)/, 'the role tree');
      tmux.keys('p');
      await tmux.waitFor(/pods\(llama-pretrain pods\)\[\d+\]/, 'its pods');
      tmux.keys('/');
      tmux.type('leader');
      tmux.keys('Enter');
      await tmux.waitFor(/pods\(llama-pretrain pods\)\[1\/\d+\]/, 'the leader pod');
      tmux.keys('E');
      await tmux.waitFor(/plugin-on-the-terminal/, 'the plugin on the terminal');
      screen = await tmux.waitFor(/plugin write the environment: exit status 0/, 'the explorer back', 20_000);
      assert.match(screen, /pods\(llama-pretrain pods\)\[1\/\d+\]/, 'where it was');
      const penv = envOf(join(dir, 'env.txt'));
      assert.match(penv.NAME ?? '', /^llama-pretrain-leader-/);
      assert.equal(penv['arg-name'], penv.NAME, '$NAME in args, substituted as k9s does');
      assert.equal(penv.POD, penv.NAME);
      assert.equal(penv.NAMESPACE, 'training');
      assert.equal(penv.KIND, 'JobSet');
      assert.equal(penv.WORKLOAD, 'llama-pretrain');
      assert.equal(penv.ROLE, 'leader');
      assert.match(penv.NODE ?? '', /^gpu-node-/);
      assert.ok(penv.CONTAINER, 'the pod’s container');
      assert.equal(penv.CONTEXT, 'wlx-demo');
      assert.equal(penv.CLUSTER, 'wlx-demo');
      assert.equal(penv.KUBECONFIG, kubeconfig);
      // Keys work after the suspension.
      tmux.keys(':');
      tmux.type('nodes');
      tmux.keys('Enter');
      await tmux.waitFor(/nodes\[19\]/, 'keys after the plugin');

      // :ns without a name: every namespace (the admin may list them); Enter switches.
      tmux.keys(':');
      tmux.type('ns');
      tmux.keys('Enter');
      screen = await tmux.waitFor(/namespaces\[8\]/, 'all and the seven namespaces');
      assert.match(screen, /│1\s+training\s+Active/, 'training is key 1 (used lately)');
      assert.match(screen, /│\s+monitoring\s+Active/);
      tmux.keys('G', 'Enter');
      await tmux.waitFor(/Namespace: training/, 'the last row (training) picked');

      // :ctx without a name: the contexts; Enter on the restricted one reopens on it, with its settings.
      tmux.keys(':');
      tmux.type('ctx');
      tmux.keys('Enter');
      screen = await tmux.waitFor(/contexts\[2\]/, 'the contexts');
      assert.match(screen, /\*\s+wlx-demo\s/);
      tmux.keys('j', 'Enter');
      await tmux.waitFor(/Context: wlx-demo-restricted/, 'the restricted context', 60_000);
      tmux.keys(':');
      tmux.type('ns');
      tmux.keys('Enter');
      screen = await tmux.waitFor(/listing them was refused/, 'why the list is short');
      assert.match(screen, /the namespaces wlx knows you read: listing them was refused \(forbidden\)/);
      assert.match(screen, /training/);
      assert.deepEqual([...new Set(cluster.requests().map((r) => r.method))], ['GET'], 'wlx only reads');
    } finally {
      tmux.kill();
    }
    assert.ok(existsSync(join(dir, 'env.txt')));
  },
);

test(
  'a skin: its error colour draws the failed row; a bad colour is told at file:line; --headless hides the header',
  { skip: !hasTmux(), timeout: 120_000 },
  async (t) => {
    const { kubeconfig } = await demoWithKubeconfig(t, 'wlx-k9s-skin-');
    const dir = mkdtempSync(join(tmpdir(), 'wlx-k9s-skin-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'skins'));
    writeFileSync(join(dir, 'config.yaml'), 'wlx:\n  skin: night\n');
    writeFileSync(
      join(dir, 'skins', 'night.yaml'),
      'k9s:\n  frame:\n    status:\n      errorColor: "#ff00ff"\n      pendingColor: no-such-colour\n',
    );
    const tmux = new Tmux(
      `export WLX_CONFIG_DIR=${shellQuote(dir)}; ${wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)} --headless`)}`,
      140,
      30,
    );
    try {
      const screen = await tmux.waitFor(/workloads\(all\)/, 'the explorer', 60_000);
      assert.doesNotMatch(screen, /Context:/, '--headless: no header');
      assert.match(
        screen,
        /1 config problem: \S+night\.yaml:5: frame\.status\.pendingColor: "no-such-colour" is not a colour/,
      );
      // The skin's error colour (#ff00ff; 201 of 256 colours where the terminal has no true colour) draws the row
      // of broken-finetune, whose worker is OOMKilled.
      await tmux.waitFor(
        () =>
          tmux
            .capture(true)
            .split('\n')
            .some((l) => /\u001b\[(\d+;)*38;(2;255;0;255|5;201)m[^\u001b]*broken-finetune/.test(l)),
        "broken-finetune in the skin's errorColor",
        90_000,
      );
    } finally {
      tmux.kill();
    }
  },
);

test(
  'recent namespaces kept per context across sessions, as k9s’s favourites: keys 1–9 in the next session',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const { cluster, kubeconfig } = await demoWithKubeconfig(t, 'wlx-k9s-recent-');
    const state = mkdtempSync(join(tmpdir(), 'wlx-k9s-state-'));
    t.after(() => rmSync(state, { recursive: true, force: true }));
    const start = () =>
      new Tmux(
        `export XDG_STATE_HOME=${shellQuote(state)}; ${wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)}`)}`,
        150,
        40,
      );
    const file = join(state, 'wlx', 'clusters', 'wlx-demo', 'wlx-demo', 'config.yaml');
    let tmux = start();
    try {
      await tmux.waitFor(/workloads\(all\)/, 'the explorer', 60_000);
      for (const ns of ['inference', 'training']) {
        tmux.keys(':');
        tmux.type(`ns ${ns}`);
        tmux.keys('Enter');
        await tmux.waitFor(new RegExp(`Namespace: ${ns}`), ns);
      }
      await tmux.waitFor(
        () => existsSync(file) && /favorites:\n\s+- training\n\s+- inference\n/.test(readFileSync(file, 'utf8')),
        'the favourites saved, the newest first',
      );
    } finally {
      tmux.kill();
    }
    const info = await runWlx(['info', '--kubeconfig', kubeconfig], { XDG_STATE_HOME: state });
    assert.ok(info.stdout.includes(`Namespaces         ${file} (training, inference)`), info.stdout);
    tmux = start();
    try {
      await tmux.waitFor(/workloads\(all\)/, 'the next session', 60_000);
      tmux.keys(':');
      tmux.type('ns');
      tmux.keys('Enter');
      const screen = await tmux.waitFor(/│1\s+training\s+Active/, 'the namespace picker, training on key 1');
      assert.match(screen, /│2\s+inference\s+Active/);
      tmux.keys('Escape');
      await tmux.waitFor(/workloads\(all\)/, 'back to the workloads');
      tmux.keys('2');
      await tmux.waitFor(/Namespace: inference/, 'key 2: inference, from the last session');
      assert.deepEqual([...new Set(cluster.requests().map((r) => r.method))], ['GET'], 'wlx only reads');
    } finally {
      tmux.kill();
    }
  },
);
