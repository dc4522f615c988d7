// wlx's own configuration: where it is looked for, the precedence of its
// settings (flag > context > global > default), and each problem told as one
// file:line message while the rest still applies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configPaths, defaultScreenDumpDir } from '../../src/app/config/paths.js';
import { formatProblem, loadWlxConfig, skinOf, type WlxConfig } from '../../src/app/config/index.js';
import { keyOfShortCut } from '../../src/app/config/shortcut.js';
import { inkColour, paletteColour } from '../../src/app/config/colour-names.js';
import { applySettings } from '../../src/cli/settings.js';
import { clusterOptionsFrom, CLUSTER_OPTIONS } from '../../src/cli/common.js';
import { parseCommandArgs } from '../../src/cli/usage.js';
import { EXPLORER_OPTIONS } from '../../src/cli/tui.js';

function configDir(t: { after(fn: () => unknown): void }, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const load = (dir: string): WlxConfig => loadWlxConfig({ env: { WLX_CONFIG_DIR: dir }, home: '/nonexistent' });

/** What `wlx [args]` would open with, given the config and the context. */
function effective(config: WlxConfig, args: string[], context: string | null) {
  const { values } = parseCommandArgs(args, { ...CLUSTER_OPTIONS, ...EXPLORER_OPTIONS }, 'test');
  const applied = applySettings(values, config, context);
  return { applied, options: clusterOptionsFrom(applied.values, 'test', {}) };
}

test('the config directory: $WLX_CONFIG_DIR, else $XDG_CONFIG_HOME/wlx, else ~/.config/wlx', () => {
  assert.equal(configPaths({ env: { WLX_CONFIG_DIR: '/etc/w', XDG_CONFIG_HOME: '/x' }, home: '/h' }).dir, '/etc/w');
  assert.equal(configPaths({ env: { XDG_CONFIG_HOME: '/x' }, home: '/h' }).dir, '/x/wlx');
  // A relative XDG_CONFIG_HOME is invalid by the XDG spec and ignored.
  assert.equal(configPaths({ env: { XDG_CONFIG_HOME: 'rel' }, home: '/h' }).dir, '/h/.config/wlx');
  const p = configPaths({ env: {}, home: '/h' });
  assert.deepEqual(
    [p.config, p.aliases, p.hotkeys, p.plugins, p.skins],
    [
      '/h/.config/wlx/config.yaml',
      '/h/.config/wlx/aliases.yaml',
      '/h/.config/wlx/hotkeys.yaml',
      '/h/.config/wlx/plugins.yaml',
      '/h/.config/wlx/skins',
    ],
  );
  assert.equal(defaultScreenDumpDir({ env: { XDG_STATE_HOME: '/s' } }), '/s/wlx/screen-dumps');
  assert.equal(defaultScreenDumpDir({ env: {}, home: '/h' }), '/h/.local/state/wlx/screen-dumps');
});

test('precedence: flag > context > global > default, per setting', (t) => {
  const dir = configDir(t, {
    'config.yaml': [
      'wlx:',
      '  idleAfter: 2m',
      '  prometheus: svc/monitoring/prometheus:9090',
      '  topologyKeys: [topology.kubernetes.io/zone]',
      '  protobuf: true',
      'contexts:',
      '  prod:',
      '    prometheus: https://prom.example.com',
      '    namespaces: [training, research]',
      '    headless: true',
      '  dev:',
      '    idleAfter: 30s',
      '',
    ].join('\n'),
  });
  const config = load(dir);
  assert.deepEqual(config.problems, []);

  // The context's value over the global one; the global one where the context says nothing.
  let { applied, options } = effective(config, [], 'prod');
  assert.equal(options.prometheus?.display, 'https://prom.example.com');
  assert.equal(applied.origin.prometheus, 'context');
  assert.equal(options.idleAfterMs, 120_000);
  assert.equal(applied.origin.idleAfter, 'global');
  assert.deepEqual(options.namespaces, ['training', 'research']);
  assert.deepEqual(options.topologyKeys, ['topology.kubernetes.io/zone']);
  assert.equal(options.wire, 'protobuf');
  assert.equal(applied.settings.headless, true);
  assert.equal(applied.origin.dcgmSelector, 'default');
  assert.equal(options.dcgmSelector, undefined);

  // A flag wins over both; -A wins over the context's namespaces.
  ({ applied, options } = effective(config, ['--prometheus', 'svc/obs/prom:80', '-A', '--idle-after', '5s'], 'prod'));
  assert.equal(options.prometheus?.display, 'svc/obs/prom:80');
  assert.equal(applied.origin.prometheus, 'flag');
  assert.deepEqual(options.namespaces, []);
  assert.equal(options.namespace, null);
  assert.equal(options.idleAfterMs, 5000);

  // Another context: its own value, the global ones for the rest.
  ({ options } = effective(config, [], 'dev'));
  assert.equal(options.idleAfterMs, 30_000);
  assert.equal(options.prometheus?.display, 'svc/monitoring/prometheus:9090');
  // No context known (no kubeconfig): the global settings.
  ({ options, applied } = effective(config, [], null));
  assert.equal(options.idleAfterMs, 120_000);
  assert.equal(applied.settings.headless, undefined);
});

test('paths in config.yaml: ~/ is home, a relative path is relative to the config directory', (t) => {
  const dir = configDir(t, {
    'config.yaml': 'wlx:\n  definitions: [defs, ~/more.yaml, /abs]\n  screenDumpDir: dumps\n',
  });
  const config = loadWlxConfig({ env: { WLX_CONFIG_DIR: dir }, home: '/home/u' });
  assert.deepEqual(config.settings.global.definitions, [join(dir, 'defs'), '/home/u/more.yaml', '/abs']);
  assert.equal(config.settings.global.screenDumpDir, join(dir, 'dumps'));
});

test('config.yaml problems: one file:line message each, and the rest applies', (t) => {
  const dir = configDir(t, {
    'config.yaml': [
      'wlx:', // 1
      '  idleAfter: soon', // 2
      '  refreshRate: 2', // 3
      '  gpuResources: [nvidia.com/gpu]', // 4
      '  kubeconfig: /x', // 5
      '  readonly: false', // 6
      '  contexts: {}', // 7
      'contexts:', // 8
      '  prod:', // 9
      '    prometheus: ftp://nope', // 10
      '    dcgmSelector: app=dcgm', // 11
      '    protobuf: "yes"', // 12
      'k9s:', // 13
      '  refreshRate: 2', // 14
      '',
    ].join('\n'),
  });
  const config = load(dir);
  const file = join(dir, 'config.yaml');
  const lines = config.problems.map(formatProblem);
  assert.deepEqual(lines, [
    `${file}:2: idleAfter: "soon" is not a duration (e.g. 60s, 5m)`,
    `${file}:3: unknown key "refreshRate" (known: prometheus, idleAfter, topologyKeys, gpuResources, dcgmSelector, definitions, namespaces, protobuf, skin, screenDumpDir, command, headless, readonly)`,
    `${file}:5: kubeconfig: the kubeconfig is chosen by --kubeconfig or $KUBECONFIG, not config.yaml`,
    `${file}:6: readonly: wlx is always read-only: readonly can only be true`,
    `${file}:7: contexts goes at the top level, beside wlx: (contexts: {NAME: {...}})`,
    `${file}:10: prometheus: ftp: is not http: or https:`,
    `${file}:12: protobuf: expected true or false, not "yes"`,
    `${file}:13: the root key is wlx:, not k9s:`,
  ]);
  // What was right still applies.
  const { options } = effective(config, [], 'prod');
  assert.deepEqual(options.gpuResources, ['nvidia.com/gpu']);
  assert.equal(options.dcgmSelector, 'app=dcgm');
  assert.equal(options.idleAfterMs, undefined, 'the bad value is left out, not guessed');
  assert.equal(options.prometheus, undefined);
});

test('a YAML syntax error is one problem at its line; absent files are no problem', (t) => {
  const dir = configDir(t, { 'config.yaml': 'wlx:\n  idleAfter: 2m\n  bad: [unclosed\n' });
  const config = load(dir);
  assert.equal(config.problems.length, 1);
  assert.equal(config.problems[0].file, join(dir, 'config.yaml'));
  assert.ok(config.problems[0].line !== null && config.problems[0].line >= 3, formatProblem(config.problems[0]));
  assert.deepEqual(config.settings.global, {});
  const empty = load(configDir(t, {}));
  assert.deepEqual(empty.problems, []);
  assert.equal(empty.settings.exists, false);
  assert.deepEqual([empty.exists.aliases, empty.exists.hotkeys, empty.exists.plugins], [false, false, false]);
});

test("k9s's key names to the explorer's", () => {
  assert.equal(keyOfShortCut('x'), 'x');
  assert.equal(keyOfShortCut('Shift-L'), 'L');
  assert.equal(keyOfShortCut('Shift-1'), '!');
  assert.equal(keyOfShortCut('Shift-0'), ')');
  assert.equal(keyOfShortCut('Ctrl-T'), 'ctrl-t');
  assert.equal(keyOfShortCut('Alt-p'), 'alt-p');
  assert.throws(() => keyOfShortCut('Ctrl-I'), /Tab in a terminal/);
  assert.throws(() => keyOfShortCut('L'), /write Shift-L/);
  assert.throws(() => keyOfShortCut('F5'), /not a key wlx reads/);
});

test('aliases, hotkeys and plugins as k9s writes them; a key taken is that entry’s problem only', (t) => {
  const dir = configDir(t, {
    'aliases.yaml': 'aliases:\n  tr: ns training\n  js: :jobsets\n  bad: 3\n',
    'hotkeys.yaml': [
      'hotKeys:',
      '  shift-m:',
      '    shortCut: Shift-M',
      '    description: GPU map',
      '    command: map',
      '  describe:',
      '    shortCut: d',
      '    description: takes a built-in key',
      '    command: pods',
      '  mine:',
      '    shortCut: d',
      '    override: true',
      '    description: replaces it on purpose',
      '    command: nodes',
      '',
    ].join('\n'),
    'plugins.yaml': [
      'plugins:', // 1
      '  env:', // 2
      '    shortCut: Shift-E', // 3
      '    description: dump the environment', // 4
      '    scopes: [pod, JobSet]', // 5
      '    command: sh', // 6
      '    args: [-c, "env > /tmp/env", 3]', // 7
      '    background: true', // 8
      '  again:', // 9
      '    shortCut: Shift-M', // 10
      '    description: clashes with the hotkey', // 11
      '    scopes: [all]', // 12
      '    command: true', // 13
      '  drain:', // 14
      '    shortCut: Shift-D', // 15
      '    description: drains', // 16
      '    scopes: [nodes]', // 17
      '    command: kubectl', // 18
      '    dangerous: true', // 19
      '  asks:', // 20
      '    shortCut: Shift-Z', // 21
      '    description: has inputs', // 22
      '    scopes: [pods]', // 23
      '    command: echo', // 24
      '    inputs: [{name: x, type: string}]', // 25
      '',
    ].join('\n'),
  });
  const config = load(dir);
  const b = config.bindings;
  assert.deepEqual(
    [...b.aliases],
    [
      ['tr', 'ns training'],
      ['js', 'jobsets'],
    ],
  );
  assert.deepEqual(
    b.hotkeys.map((h) => [h.id, h.key, h.command]),
    [
      ['shift-m', 'M', 'map'],
      ['mine', 'd', 'nodes'],
    ],
  );
  assert.deepEqual(
    b.plugins.map((p) => ({ id: p.id, key: p.key, scopes: p.scopes, args: p.args, background: p.background })),
    [{ id: 'env', key: 'E', scopes: ['pods', 'jobset'], args: ['-c', 'env > /tmp/env', '3'], background: true }],
  );
  const lines = config.problems.map(formatProblem);
  const plugins = join(dir, 'plugins.yaml');
  assert.deepEqual(lines, [
    `${join(dir, 'aliases.yaml')}:4: alias bad: expected a command (e.g. pods, ns training)`,
    `${join(dir, 'hotkeys.yaml')}:7: describe: d is a built-in key (override: true to replace it)`,
    `${plugins}:10: again: Shift-M is already bound by hotKeys shift-m`,
    `${plugins}:19: drain: dangerous: true: wlx is read-only, and like k9s --readonly it does not load dangerous plugins`,
    `${plugins}:25: asks: inputs are not supported by wlx (give the values in args)`,
  ]);
});

test('skins: k9s colour names, #rgb, default; the map only in the 16 terminal colours; problems at their line', (t) => {
  assert.equal(inkColour('dodgerblue'), '#1e90ff');
  assert.equal(inkColour('#ABC'), '#aabbcc');
  assert.equal(inkColour('red'), 'redBright', 'tcell: red is the bright one, maroon the dark');
  assert.equal(inkColour('maroon'), 'red');
  assert.equal(inkColour('default'), null);
  assert.throws(() => inkColour('nosuch'), /not a colour/);
  assert.equal(paletteColour('navy'), 'blue');
  assert.throws(() => paletteColour('#123456'), /16 terminal colours/);

  const dir = configDir(t, {
    'config.yaml': 'wlx:\n  skin: night\ncontexts:\n  prod:\n    skin: absent\n',
    'skins/night.yaml': [
      'blue: &blue "#719cd6"', // 1
      'k9s:', // 2
      '  body:', // 3
      '    fgColor: default', // 4
      '  frame:', // 5
      '    status:', // 6
      '      errorColor: orangered', // 7
      '      pendingColor: *blue', // 8
      '      completedColor: nosuch', // 9
      '  views:', // 10
      '    table:', // 11
      '      cursorBgColor: aqua', // 12
      '      logs: {fgColor: red}', // 13
      'wlx:', // 14
      '  map:', // 15
      '    free: fuchsia', // 16
      '    cursor: "#fff"', // 17
      '',
    ].join('\n'),
  });
  const config = load(dir);
  const night = skinOf(config, 'night', 'global');
  assert.ok(night.skin);
  assert.equal(night.skin.tones.error, '#ff4500');
  assert.equal(night.skin.tones.warn, '#719cd6', 'YAML anchors, as k9s skins use them');
  assert.equal(night.skin.tones.normal, undefined, 'default: the terminal’s own');
  assert.equal(night.skin.tones.dim, undefined, 'a bad colour is left out');
  assert.deepEqual(night.skin.cursor, { bg: 'cyanBright' });
  assert.deepEqual(night.skin.map?.levels, ['magentaBright', 'cyan', 'green', 'yellow', 'red']);
  const skinFile = join(dir, 'skins', 'night.yaml');
  assert.deepEqual(night.problems.map(formatProblem), [
    `${skinFile}:9: frame.status.completedColor: "nosuch" is not a colour (a name such as dodgerblue, #rrggbb, or default)`,
    `${skinFile}:17: map.cursor: "#fff": the map draws with the 16 terminal colours (e.g. blue, teal, redBright), not black`,
  ]);
  const missing = skinOf(config, 'absent', { context: 'prod' });
  assert.equal(missing.skin, null);
  assert.deepEqual(missing.problems.map(formatProblem), [
    `${join(dir, 'config.yaml')}:5: skin "absent": ${join(dir, 'skins', 'absent.yaml')} does not exist`,
  ]);
});
