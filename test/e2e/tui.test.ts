// The real explorer in a real terminal: `wlx --demo` (and `wlx --kubeconfig`
// against `wlx demo serve`) inside tmux, driven with send-keys and read with
// capture-pane. Each test uses its own tmux server (-L) and kills it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tmux, WLX, sleep, shellQuote, wlxCommand } from './tmux.js';
import { ObjectStore } from '../../demo/object-store.js';
import { startSimulation } from '../../demo/sim/index.js';
import { KEY_BY_KIND, R } from '../../demo/sim/types.js';

/**
 * What the default scenario holds as it starts, read from the simulation's own store: the workloads (top-level
 * objects of the workload kinds, bare pods included), the nodes and the GPUs of each kind.
 */
function defaultScenario(): { workloads: number; nodes: number; gpus: number; mig: number; dra: number } {
  const store = new ObjectStore();
  const sim = startSimulation(store, { scenario: 'default', seed: 1, speed: 1 });
  try {
    const topLevel = (key: string) => store.list(key).filter((o) => !o.metadata.ownerReferences?.length).length;
    const nodes = store.list(R.nodes);
    const allocatable = (resource: string) =>
      nodes.reduce(
        (sum, n) =>
          sum + Number((n['status'] as { allocatable?: Record<string, string> }).allocatable?.[resource] ?? 0),
        0,
      );
    const slices = store.resourceKeys().filter((k) => k.includes('resource.k8s.io') && k.endsWith('resourceslices'));
    const dra = slices
      .flatMap((k) => store.list(k))
      .filter((s) => (s['spec'] as { driver: string }).driver === 'gpu.nvidia.com')
      .reduce((sum, s) => sum + (s['spec'] as { devices: unknown[] }).devices.length, 0);
    return {
      workloads: Object.values(KEY_BY_KIND).reduce((sum, key) => sum + topLevel(key), 0),
      nodes: nodes.length,
      gpus: allocatable('nvidia.com/gpu'),
      mig: allocatable('nvidia.com/mig-1g.10gb'),
      dra,
    };
  } finally {
    sim.stop();
  }
}

const scenario = defaultScenario();

test(
  'wlx --demo: the walk workloads → roles → pods → node, back, :nodes, ?, resize, q restores the terminal',
  { timeout: 180_000 },
  async () => {
    const t = new Tmux(wlxCommand('--demo'), 120, 40);
    try {
      const started = Date.now();
      // The scenario's workloads, its three bare pods nobody controls (the built-in Pod definition's) included.
      let screen = await t.waitFor(
        new RegExp(`workloads\\(all\\)\\[${scenario.workloads}\\]`),
        'the default scenario',
        60_000,
      );
      const firstSeenMs = Date.now() - started;
      // GPU kinds beside the whole GPUs (the extras' DRA and MIG nodes): totals by kind.
      // The engine runs in a worker: the trees may be drawn before the nodes are listed.
      screen = await t.waitFor(
        new RegExp(
          `GPUs: \\d+/${scenario.gpus} nvidia\\.com/gpu · \\d+/${scenario.dra} dra:gpu\\.nvidia\\.com · \\d+/${scenario.mig} mig-1g\\.10gb`,
        ),
        'the totals of every GPU kind',
        30_000,
      );
      assert.match(screen, /Context: \S+/);
      assert.match(screen, /k8s v1\.32/);
      for (const name of [
        'llama-pretrain',
        'bert-finetune',
        'llama-70b',
        'ray-tune',
        'resnet-tf',
        'stuck-pretrain',
        'broken-finetune',
      ])
        assert.match(screen, new RegExp(name));

      // Live: the job comes up while we watch.
      const readySeen = new Set<string>();
      screen = await t.waitFor(
        (s) => {
          const m = /llama-pretrain\s+JobSet\s+(?:training-queue\s+)?\S+\s+(\d)\/3\s+(\d+)\/12/.exec(s);
          if (m) readySeen.add(m[1]);
          return m?.[1] === '3';
        },
        'llama-pretrain 3/3 ready',
        90_000,
      );
      assert.match(screen, /llama-pretrain\s+JobSet\s+(?:training-queue\s+)?Running\s+3\/3\s+12\/12/);
      // A Running row is green; one with an idle or straggling GPU (the demo makes llama-pretrain's second
      // worker a straggler once DCGM has been scraped) is yellow instead, its UTIL cell saying why in text.
      const colouredRows = t.capture(true).split('\n');
      const llamaRow = colouredRows.find((l) => l.includes('llama-pretrain')) ?? '';
      if (/\d+% (slow|idle)/.test(llamaRow))
        assert.match(llamaRow, /\u001b\[(\d+;)*33m[^\u001b]*llama-pretrain/, 'a straggling Running row is yellow');
      else assert.match(llamaRow, /\u001b\[(\d+;)*32m[^\u001b]*llama-pretrain/, 'a Running row is green');
      // A row whose READY is complete (n/n), not the cursor's, without GPU marks: a gang only partly up
      // (`Running (Unschedulable)`, 4/8, yellow) cannot match, even in a frame before its cause is known.
      const plainRunning = colouredRows.find(
        (l) =>
          l.startsWith('│') &&
          !l.includes('\u001b[7m') &&
          /\sRunning\s+(\d+)\/\1\s/.test(l) &&
          !/% (slow|idle)/.test(l),
      );
      assert.match(
        plainRunning ?? '',
        /\u001b\[(\d+;)*32m[^\u001b]*Running/,
        'a Running row without GPU marks is green',
      );
      if (firstSeenMs < 8_000)
        assert.ok(readySeen.size > 1, `saw READY only as ${[...readySeen]} (first frame after ${firstSeenMs} ms)`);

      t.keys('/');
      t.type('llama-pretrain');
      t.keys('Enter');
      screen = await t.waitFor(
        new RegExp(`workloads\\(all\\)\\[1/${scenario.workloads}\\] </llama-pretrain>`),
        'the filtered list',
      );
      t.keys('Enter');
      // Each step waits for its bottom line (the breadcrumbs) too: a frame caught while Ink still writes it has its
      // title but not yet its last lines.
      screen = await t.waitFor(
        (s) => /jobset\(training\/llama-pretrain\)\[2\]/.test(s) && /<workloads> <llama-pretrain>/.test(s),
        'the role tree',
      );
      assert.match(screen, /leader\s+Ready\s+1\/1\s+1\s+4\/4/);
      assert.match(screen, /worker\s+Ready\s+2\/2\s+2\s+8\/8/);
      assert.match(screen, /<workloads> <llama-pretrain>/);

      t.keys('j', 'Enter');
      screen = await t.waitFor(
        (s) => /pods\(worker\)\[2\]/.test(s) && /<workloads> <llama-pretrain> <worker>/.test(s),
        'the worker pods',
      );
      const pods = screen.match(/llama-pretrain-worker-\d-0-\S+\s+Running\s+1\/1\s+\d+\s+4 gpu-node-\d+/g) ?? [];
      assert.equal(pods.length, 2, screen);
      assert.match(screen, /<workloads> <llama-pretrain> <worker>/);
      const firstPod = /(llama-pretrain-worker-\d-0-\S+)\s+Running\s+1\/1\s+\d+\s+4 (gpu-node-\d+)/.exec(screen)!;

      t.keys('Enter');
      const nodeCrumbs = new RegExp(`<workloads> <llama-pretrain> <worker> <${firstPod[2]}>`);
      // The node's pods come from every workload: asked from the engine worker first (loading until then).
      screen = await t.waitFor(
        (s) => s.includes(`node(${firstPod[2]})`) && nodeCrumbs.test(s) && s.includes(firstPod[1]),
        'the node view',
      );
      assert.match(screen, /GPUs capacity 8\s+allocatable 8\s+requested \d+\s+free \d+/);
      assert.match(screen, /JobSet training\/llama-pretrain/);
      assert.ok(screen.includes(firstPod[1]), 'the pod is listed on its node');
      assert.match(screen, new RegExp(`<workloads> <llama-pretrain> <worker> <${firstPod[2]}>`));

      t.keys('Escape');
      await t.waitFor(/pods\(worker\)\[2\]/, 'back to the pods');
      t.keys('Escape');
      await t.waitFor(/jobset\(training\/llama-pretrain\)/, 'back to the roles');
      t.keys('Escape');
      await t.waitFor(new RegExp(`workloads\\(all\\)\\[1/${scenario.workloads}\\]`), 'back to the filtered list');
      t.keys('Escape');
      await t.waitFor(new RegExp(`workloads\\(all\\)\\[${scenario.workloads}\\]`), 'the filter cleared');

      // Resize: the layout follows the terminal.
      t.tmux('resize-window', '-t', 'main', '-x', '80', '-y', '24');
      screen = await t.waitFor(
        (s) =>
          /^└─+┘$/m.test(s) &&
          new RegExp(`^┌─+ workloads\\(all\\)\\[${scenario.workloads}\\] ─+┐$`, 'm').test(s) &&
          s.split('\n').some((l) => l.startsWith('└') && [...l].length === 80),
        'the 80-column layout',
      );
      assert.match(screen, /<workloads>/);
      t.tmux('resize-window', '-t', 'main', '-x', '120', '-y', '40');
      await t.waitFor(
        (s) => s.split('\n').some((l) => l.startsWith('└') && [...l].length === 120),
        'the 120-column layout',
      );

      t.keys(':');
      t.type('nodes');
      t.keys('Enter');
      screen = await t.waitFor(new RegExp(`nodes\\[${scenario.nodes}\\]`), 'the nodes view');
      assert.match(screen, /gpu-node-01\s+Ready\s+\d+\/8\s+\d+\s+\d+/);
      assert.match(screen, /cpu-node-01\s+Ready\s+0\/0/);

      t.keys('?');
      screen = await t.waitFor(/─ help ─/, 'the help view');
      assert.match(screen, /shift-N\s+sort by name/);
      t.keys('Escape');
      await t.waitFor(new RegExp(`nodes\\[${scenario.nodes}\\]`), 'back from help');

      assert.equal(t.display('#{alternate_on}'), '1', 'the explorer runs on the alternate screen');
      t.keys('q');
      screen = await t.waitFor(/WLX-EXITED \d+/, 'wlx to exit', 20_000);
      assert.match(screen, /WLX-EXITED 0/);
      assert.equal(t.display('#{alternate_on}'), '0', 'the alternate screen is left');
      assert.doesNotMatch(
        screen,
        new RegExp(`nodes\\[${scenario.nodes}\\]`),
        'the shell screen is back, without the explorer on it',
      );
      assert.match(screen, /starting the simulated cluster/, 'what was on the screen before is restored');
    } finally {
      t.kill();
    }
  },
);

interface DemoServer {
  child: ChildProcess;
  kubeconfig: string;
  server: string;
  dir: string;
}

async function startDemoServer(...extra: string[]): Promise<DemoServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-tui-e2e-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(
    process.execPath,
    [WLX, 'demo', 'serve', '--port', '0', '--speed', '5', '--kubeconfig-out', kubeconfig, ...extra],
    { stdio: 'ignore' },
  );
  const end = Date.now() + 30_000;
  while (!existsSync(kubeconfig) || !/server:/.test(readFileSync(kubeconfig, 'utf8'))) {
    if (Date.now() > end || child.exitCode !== null) throw new Error('demo server did not start');
    await sleep(100);
  }
  const server = /server:\s*(\S+)/.exec(readFileSync(kubeconfig, 'utf8'))![1].replace(/^['"]|['"]$/g, '');
  return { child, kubeconfig, server, dir };
}

async function stopDemoServer(d: DemoServer): Promise<void> {
  if (d.child.exitCode === null) {
    const exited = new Promise((res) => d.child.once('exit', res));
    d.child.kill('SIGTERM');
    await Promise.race([exited, sleep(5000)]);
    if (d.child.exitCode === null) d.child.kill('SIGKILL');
  }
  rmSync(d.dir, { recursive: true, force: true });
}

test(
  '80×24 terminal, a forbidden kind, the hostile pod rendered harmless, read-only, SIGTERM restores the terminal',
  { timeout: 180_000 },
  async () => {
    const demo = await startDemoServer('--fault-forbid', 'tfjobs.kubeflow.org');
    const t = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(demo.kubeconfig)}`), 80, 24);
    try {
      // TFJobs answer 403: reported in the header, everything else works.
      // As many workloads: the TFJob that cannot be read is still there, holding its pods.
      let screen = await t.waitFor(
        new RegExp(`workloads\\(all\\)\\[${scenario.workloads}\\]`),
        'the workloads',
        60_000,
      );
      screen = await t.waitFor(/Conn: .*forbidden: \S*tfjobs/, 'the forbidden kind in the header');
      assert.match(screen, /resnet-tf \(not?[ v\S]*\s+TFJob\s+Undefined/);
      const lines = screen.split('\n');
      assert.ok(
        lines.some((l) => l.startsWith('Context:')),
        'header visible',
      );
      assert.ok(
        lines.some((l) => /^└─{78}┘$/.test(l)),
        'the table box closes inside 80×24',
      );
      assert.ok(
        lines.some((l) => l.startsWith('<workloads>')),
        'breadcrumbs visible',
      );
      for (const name of [
        'llama-pretrain',
        'bert-finetune',
        'llama-70b',
        'ray-tune',
        'stuck-pretrain',
        'broken-finetune',
      ])
        assert.match(screen, new RegExp(name));

      // Where the hostile pod runs, from the API itself.
      const deadline = Date.now() + 30_000;
      let nodeName = '';
      let hostileMessage = false;
      while (Date.now() < deadline) {
        const res = await fetch(`${demo.server}/api/v1/namespaces/default/pods/innocent-looking`);
        const pod = (await res.json()) as {
          spec?: { nodeName?: string };
          status?: {
            containerStatuses?: Array<{ lastState?: { terminated?: unknown }; state?: { terminated?: unknown } }>;
          };
        };
        nodeName = pod.spec?.nodeName ?? '';
        hostileMessage = (pod.status?.containerStatuses ?? []).some(
          (c) => c.lastState?.terminated || c.state?.terminated,
        );
        if (nodeName && hostileMessage) break;
        await sleep(500);
      }
      assert.ok(nodeName, 'the hostile pod is scheduled');

      // Wide enough that the message column shows the hostile text.
      t.tmux('resize-window', '-t', 'main', '-x', '220', '-y', '40');
      t.keys(':');
      t.type('nodes');
      t.keys('Enter');
      await t.waitFor(new RegExp(`nodes\\[${scenario.nodes}\\]`), 'the nodes');
      t.keys('/');
      t.type(`^${nodeName} `);
      t.keys('Enter');
      await t.waitFor(new RegExp(`nodes\\[1/${scenario.nodes}\\]`), 'the hostile pod node');
      t.keys('Enter');
      screen = await t.waitFor(
        (s) => s.includes('innocent-looking') && s.includes('\\e]0;pwned'),
        'the hostile pod with its message escaped',
        60_000,
      );
      // Nobody controls it: it is a workload of its own (the built-in Pod definition).
      assert.match(screen, /Pod default\/innocent-looking/);
      assert.ok(screen.includes('\\e[2J\\e[H\\e]0;pwned\\x07\\e[31mSYSTEM COMPROMISED\\e[0m \\u{202e}gnp.exe'), screen);
      const raw = t.capture(true);
      assert.ok(!raw.includes('\u202e'), 'no raw bidi override');
      assert.ok(!raw.includes('\u001b]0;'), 'no raw OSC');
      assert.ok(!raw.includes('\u001b[2J'), 'no raw clear-screen');
      assert.notEqual(t.display('#{pane_title}'), 'pwned', 'the window title was not changed');
      assert.doesNotMatch(raw, /\u001b\[31mSYSTEM COMPROMISED/, 'the hostile colour did not apply');

      // SIGTERM: the terminal is restored and wlx exits.
      const pid = t.display('#{pane_pid}');
      const wlxPid = execFileSync('pgrep', ['-P', pid, '-f', 'bin/wlx.js'], { encoding: 'utf8' }).trim().split('\n')[0];
      process.kill(Number(wlxPid), 'SIGTERM');
      screen = await t.waitFor(/WLX-EXITED \d+/, 'wlx to exit on SIGTERM', 20_000);
      assert.match(screen, /WLX-EXITED 143/);
      assert.equal(t.display('#{alternate_on}'), '0');

      // wlx only reads.
      const log = (await (await fetch(`${demo.server}/debug/wlx/requests`)).json()) as {
        items: Array<{ method: string; path: string; watch?: boolean }>;
      };
      assert.ok(
        log.items.some((r) => r.path.includes('/pods') && /[?&]watch=(true|1)/.test(r.path)),
        'wlx watched pods',
      );
      assert.deepEqual([...new Set(log.items.map((r) => r.method))], ['GET'], 'no mutating request');
    } finally {
      t.kill();
      await stopDemoServer(demo);
    }
  },
);
