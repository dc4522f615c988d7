// What the explorer shows without a key, in a real terminal (tmux) against
// the demo cluster over HTTP: columns as wide as their longest value (spare
// width to the cut ones), trouble under a Running status marked in text and
// coloured, and `w` on a healthy role explaining the workload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoCluster } from '../../demo/index.js';
import { Tmux, hasTmux, shellQuote, wlxCommand } from './tmux.js';

/** The table's header and row lines: between the box borders, padding after the last column removed. */
function tableLines(screen: string): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((l) => l.startsWith('┌'));
  const bottom = lines.findIndex((l, i) => i > top && l.startsWith('└'));
  return lines
    .slice(top + 1, bottom)
    .map((l) => l.replace(/^│/, '').replace(/│$/, '').trimEnd())
    .filter((l) => l !== '');
}

/**
 * Column gutters: positions blank on every line (header and rows). A column as
 * wide as its longest value (or header) is filled on some line at every
 * position, so gutters are the one-space gap plus at most a sort arrow's place
 * and a minimum width's slack (`Ready` in an 8-wide STATUS); a column given
 * spare width shows as a wide gutter.
 */
function widestGutter(lines: readonly string[]): number {
  const width = Math.max(...lines.map((l) => [...l].length));
  let widest = 0;
  let run = 0;
  for (let x = 0; x < width; x++) {
    const blank = lines.every((l) => ([...l][x] ?? ' ') === ' ');
    run = blank ? run + 1 : 0;
    widest = Math.max(widest, run);
  }
  return widest;
}

function assertTightColumns(screen: string, what: string): void {
  const lines = tableLines(screen);
  assert.ok(lines.length > 3, `${what}: a table:\n${screen}`);
  assert.ok(widestGutter(lines) <= 4, `${what}: a blank run wider than a column's longest value:\n${lines.join('\n')}`);
}

async function demoCluster(t: { after(fn: () => unknown): void }): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-screen-e2e-'));
  const kubeconfig = join(dir, 'kubeconfig');
  // Four times faster: broken-finetune's worker is OOMKilled within seconds.
  const cluster = await startDemoCluster({ speed: 4, seed: 7, kubeconfigPath: kubeconfig });
  t.after(async () => {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return kubeconfig;
}

// The name and the marker may be cut at 80 columns (`Running (OO…`); on a slow machine the job may already
// have ended Failed, still marked. Wide enough, the QUEUE column (the demo's Kueue) sits between KIND and STATUS.
const OOM_ROW = /broken-finet\S*\s+PyTorchJob\s+(?:training-queue\s+)?(Running|Failed) \(OO/;

test(
  '160×45: columns no wider than their values, :nodes WORKLOADS takes the spare width, trouble coloured, broken-finetune → Enter → w shows OOMKilled, three fast Escapes return home, / starts a new filter',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const kubeconfig = await demoCluster(t);
    const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)}`), 160, 45);
    try {
      let screen = await tmux.waitFor(OOM_ROW, 'broken-finetune Running with an OOMKilled pod', 90_000);
      assertTightColumns(screen, 'workloads at 160');
      assert.doesNotMatch(tableLines(screen).join('\n'), /…/, 'nothing cut at 160 columns');
      const row = tmux
        .capture(true)
        .split('\n')
        .find((l) => l.includes('broken-finetune'));
      assert.match(row ?? '', /\u001b\[(\d+;)*31m.*broken-finetune/, 'the troubled row is red');

      tmux.keys(':');
      tmux.type('nodes');
      tmux.keys('Enter');
      screen = await tmux.waitFor(/nodes\[19\]/, 'the nodes view');
      // The cordoned node's STATUS (Ready,SchedulingDisabled, kubectl's word) takes its share: WORKLOADS gets the
      // rest of the width, nothing is padded.
      assert.match(
        screen,
        /research\/ray-tune,research\/resnet-tf,training\/bert-f\S*\s+\d+[mh]│/,
        'WORKLOADS takes the spare width',
      );
      assert.match(screen, /^│gpu-node-14 +Ready,SchedulingDisabled /m);
      assertTightColumns(screen, 'nodes at 160');

      tmux.keys(':');
      tmux.type('workloads');
      tmux.keys('Enter');
      await tmux.waitFor(/workloads\(all\)\[\d+\]/, 'home');
      tmux.keys('/');
      tmux.type('broken-finetune');
      tmux.keys('Enter');
      await tmux.waitFor(/workloads\(all\)\[1\/\d+\]/, 'the filtered list');
      tmux.keys('Enter');
      screen = await tmux.waitFor(/pytorchjob\(training\/broken-finetune\)/, 'the role tree');
      // A crash-looping job reads Degraded (then Failed): the why line names the pods' trouble, never a bare word.
      screen = await tmux.waitFor(
        /why (Degraded|Failed): .*(OOMKilled|CrashLoopBackOff).* — press w for the why-panel/,
        'the trouble named in the header',
      );
      assert.match(screen, /^\│\s+master\s+/m);
      // The cursor sits on the healthy master.
      tmux.keys('w');
      screen = await tmux.waitFor(/OOMKilled: 1 pod/, 'the why view with the worker’s OOMKilled');
      assert.match(screen, /why pytorchjob\/training\/broken-finetune role master/);
      assert.match(screen, /master: nothing wrong found; the workload has \d+ causes?: (.*; )?OOMKilled: 1 pod/);
      assert.match(screen, /broken-finetune-worker-1 on gpu-node-\d+: container \S+: OOMKilled, exit 137/);

      // Three Escapes in one burst (as tmux sends them) back out three levels: why → workload → home, whose
      // filter the third clears.
      tmux.keys('Escape', 'Escape', 'Escape');
      await tmux.waitFor(/workloads\(all\)\[\d+\]/, 'home, unfiltered, after three fast Escapes');
      // `/` starts a new filter: the second replaces the first instead of appending to it.
      tmux.keys('/');
      tmux.type('llama');
      tmux.keys('Enter');
      await tmux.waitFor(/workloads\(all\)\[2\/\d+\]/, 'the llama filter');
      tmux.keys('/');
      tmux.type('bert');
      tmux.keys('Enter');
      screen = await tmux.waitFor(/workloads\(all\)\[1\/\d+\]/, 'the bert filter replacing the llama one');
      assert.match(screen, /bert-finetune/);
    } finally {
      tmux.kill();
    }
  },
);

test(
  '80×24 with NO_COLOR: columns no wider than their values; the trouble marker is text',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const kubeconfig = await demoCluster(t);
    const tmux = new Tmux(`export NO_COLOR=1; ${wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)}`)}`, 80, 24);
    try {
      const screen = await tmux.waitFor(OOM_ROW, 'the OOMKilled marker', 90_000);
      assertTightColumns(screen, 'workloads at 80');
      const row = tmux
        .capture(true)
        .split('\n')
        .find((l) => l.includes('broken-finetune'));
      assert.doesNotMatch(row ?? '', /\u001b\[(\d+;)*3[1-7]m/, 'no colour under NO_COLOR');
      tmux.keys(':');
      tmux.type('nodes');
      tmux.keys('Enter');
      await tmux.waitFor(/nodes\[19\]/, 'the nodes view');
      // STATUS is as wide as its longest value, the cordoned node's, below the fold on 24 rows: seen from the end.
      await tmux.press('G');
      assertTightColumns(await tmux.waitFor(/gpu-node-14 +Ready,Sched/, 'the last nodes'), 'nodes at 80');
    } finally {
      tmux.kill();
    }
  },
);
