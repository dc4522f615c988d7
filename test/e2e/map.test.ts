// The GPU map and `:nodes` by domain in a real terminal (tmux, 120×40) against the demo cluster over HTTP:
// `:map` shows the legend and the cells in zone bands, moving the cursor then Enter opens the node the
// flash line names, `m` on llama-pretrain highlights its nodes by role, and `:nodes` shows domain rows and
// collapses one. The demo's topology: rack-1 (gpu-node-01..04, one NVLink domain) in us-east-1a, rack-2 in
// us-east-1b with two NVLink domains (gpu-node-05..07, 08..12), rack-3 (gpu-node-13 NotReady, 14 cordoned);
// CPU, MIG and DRA nodes carry a zone only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tmux, hasTmux, shellQuote, wlxCommand } from './tmux.js';
import { demoWithKubeconfig } from './wlx-cli.js';

const flashLine = (screen: string) => screen.trimEnd().split('\n').at(-1) ?? '';
const NODE_NAME = /^((?:cpu|gpu)[\w-]*-node-\d+) · /;

test(
  ':map: legend and cells, cursor then Enter opens that node, m on llama-pretrain highlights its nodes; :nodes collapses a domain',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const { kubeconfig } = await demoWithKubeconfig(t, 'wlx-map-e2e-');
    const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)}`), 120, 40);
    try {
      await tmux.waitFor(/llama-pretrain/, 'the workloads', 60_000);
      tmux.keys(':');
      tmux.type('map');
      tmux.keys('Enter');
      let screen = await tmux.waitFor(/map\(all\)\[19 nodes\]/, 'the map');
      assert.match(screen, /2 nodes\/char · GPU(s allocated| util):/);
      assert.match(screen, /NotReady .*cordoned .*pressure/);
      assert.match(screen, /us-east-1a \/ rack-1 \/ [0-9a-f]{4}…\.\d+\s+[▀▄]{2}\s/, 'rack-1: 4 nodes in 2 cells');
      assert.match(screen, /us-east-1a\s+[▀▄]\s/, 'zone a without rack: the 2 CPU nodes in 1 cell');
      assert.match(
        screen,
        /us-east-1b \/ rack-2 \/ [0-9a-f]{4}…\.\d+\s+[▀▄]{3}\s/,
        'rack-2: 5 nodes of one clique in 3 cells',
      );
      assert.match(screen, /us-east-1b\s+[▀▄]{2}\s/, 'zone b without rack: MIG and DRA nodes');
      const first = NODE_NAME.exec(flashLine(screen))?.[1];
      assert.ok(first, `the flash names the cursor's node: ${flashLine(screen)}`);

      // One key at a time, each awaited: Enter must act on the node the flash line names.
      const nodeUnderCursor = (s: string) => NODE_NAME.exec(flashLine(s))?.[1];
      tmux.keys('l');
      screen = await tmux.waitFor((s) => (nodeUnderCursor(s) ?? first) !== first, 'the cursor moved right');
      const right = nodeUnderCursor(screen)!;
      tmux.keys('j');
      screen = await tmux.waitFor((s) => (nodeUnderCursor(s) ?? right) !== right, 'the cursor moved down');
      const moved = nodeUnderCursor(screen)!;
      assert.match(flashLine(screen), /· us-east-1[ab][^·]* · (GPUs \d+\/\d+ used|no GPUs)/);
      tmux.keys('Enter');
      await tmux.waitFor(new RegExp(`node\\(${moved}\\)`), `the node view of ${moved}`);
      await tmux.press('Escape');
      await tmux.waitFor(/map\(all\)/, 'back on the map');

      tmux.keys(':');
      tmux.type('wl');
      tmux.keys('Enter');
      await tmux.waitFor(/workloads\(all\)/, 'home');
      tmux.keys('/');
      tmux.type('llama-pretrain');
      tmux.keys('Enter');
      await tmux.waitFor(/workloads\(all\)\[1\/\d+\]/, 'llama-pretrain alone');
      tmux.keys('m');
      screen = await tmux.waitFor(
        (s) => /map\(training\/llama-pretrain\)/.test(s) && /training\/llama-pretrain \d+/.test(flashLine(s)),
        'the map of llama-pretrain, the cursor on one of its nodes',
      );
      assert.match(screen, /training\/llama-pretrain on [1-9]\d* nodes?, by role:/);
      assert.match(flashLine(screen), /training\/llama-pretrain \d+/, 'the cursor on one of its nodes');
      // Its nodes in role colours (bright green, yellow: fg or bg), the others grey.
      const band = tmux
        .capture(true)
        .split('\n')
        .filter((l) => l.includes('us-east-1'))
        .join('\n');
      assert.match(band, /\u001b\[(?:[0-9;]*;)?(?:92|93|102|103)[;m]/, 'role colours on the map');
      assert.match(band, /\u001b\[(?:[0-9;]*;)?(?:90|100)[;m]/, 'other nodes grey');

      tmux.keys(':');
      tmux.type('nodes');
      tmux.keys('Enter');
      // At 120 columns the cordoned node's STATUS (Ready,SchedulingDisabled) leaves NAME too narrow for
      // whole domain labels: the zone is shortened, the rack and the NVLink domain stay.
      const rack1 = /▾ \S+ \/ rack-1 \/ 2df6…\.1 +4 nodes +32\/32 /;
      screen = await tmux.waitFor(rack1, 'domain rows with GPU totals');
      assert.match(screen, /▾ us-east-1a +2 nodes +0\/0 /);
      assert.match(screen, /▾ \S+ \/ rack-2 \/ 00a6…\.2 +5 nodes +\d+\/40 /);
      const domains = screen.split('\n').flatMap((l) => /^│▾ (\S(?:.*?\S)?) +\d+ nodes/.exec(l)?.[1] ?? []);
      assert.equal(domains.length, 6, screen);
      assert.equal(new Set(domains).size, domains.length, domains.join(' | '));
      assert.match(screen, /^│cpu-node-01 +Ready/m);
      assert.match(screen, /nodes\[19\]/, 'nodes counted, not domain rows');
      tmux.keys('Space');
      screen = await tmux.waitFor(/▸ \S+ \/ rack-1 \/ 2df6…\.1 +4 nodes/, 'rack-1 collapsed');
      assert.doesNotMatch(screen, /gpu-node-01/);
      assert.match(screen, /cpu-node-01/);
      assert.match(screen, /gpu-node-07/);
    } finally {
      tmux.kill();
    }
  },
);

test(
  '80×24: :nodes domain rows and :map bands keep their rack, the zone shortened first',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const { kubeconfig } = await demoWithKubeconfig(t, 'wlx-map80-e2e-');
    const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)}`), 80, 24);
    try {
      await tmux.waitFor(/llama-pretrain/, 'the workloads', 60_000);
      tmux.keys(':');
      tmux.type('nodes');
      tmux.keys('Enter');
      // The zone shortened or left out, as NAME's width allows (a cordoned node's STATUS can narrow it).
      let screen = await tmux.waitFor(/▾ (?:\S+ \/ )?rack-1 \/ 2df6…\.1 +4 nodes/, 'rack-1 with its NVLink domain');
      assert.match(screen, /▾ (?:\S+ \/ )?rack-2 \/ 00a6…\.2 +5 nodes/, screen);
      for (const l of screen.split('\n')) assert.ok([...l].length <= 80, `too wide: ${l}`);
      tmux.keys(':');
      tmux.type('map');
      tmux.keys('Enter');
      screen = await tmux.waitFor(/map\(all\)\[19 nodes\]/, 'the map');
      const bands = screen.split('\n').filter((l) => /rack-\d/.test(l) && /[▀▄]/.test(l));
      assert.ok(
        ['rack-1', 'rack-2', 'rack-3'].every((r) => bands.some((b) => b.includes(`${r} `))),
        `every rack named on its band:\n${screen}`,
      );
    } finally {
      tmux.kill();
    }
  },
);
