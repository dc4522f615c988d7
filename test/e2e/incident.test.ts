// The incident tools in the real explorer, in tmux, on the simulated default
// scenario: `w` on stuck-pretrain (unschedulable gang, scheduler message) and
// broken-finetune (OOMKilled crash loop), `s` on llama-pretrain (all three
// pods ready), and on one of its pods `l` (streamed log lines, the stream
// closed when the view closes), `e` (Scheduled/Pulling/Pulled/Started), `y`
// (the whole object, fresh) and `d` (GPUs). GET only. The tmux driver is a
// test/e2e/tmux.ts, shared with test/e2e/tui.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tmux, hasTmux, shellQuote, sleep, wlxCommand } from './tmux.js';
import { startDemoCluster } from '../../demo/index.js';

const q = shellQuote;

test(
  'incident tools on the simulated cluster: w, s, l, e, y, d; streams closed; GET only',
  { skip: !hasTmux() && 'tmux not installed', timeout: 180_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wlx-incident-'));
    const kubeconfig = join(dir, 'kubeconfig');
    // Simulated time runs 5x: pulls, starts and the fine-tune's OOM kills happen within seconds.
    const cluster = await startDemoCluster({ speed: 5, seed: 1, kubeconfigPath: kubeconfig });
    const t = new Tmux(wlxCommand(`--kubeconfig ${q(kubeconfig)} -n training`), 150, 45, 'wlx-incident');
    const open = async (name: string) => {
      await t.press('Escape', 'Escape', 'Escape', 'Escape', '/');
      t.type(name);
      await t.press('Enter');
    };
    try {
      await t.waitFor(/workloads\(training\)\[5\]/, 'the training workloads', 60_000);

      // stuck-pretrain: the gang that cannot fit.
      await open('stuck-pretrain');
      await t.waitFor(/workloads\(training\)\[1\/5\]/, 'filtered to stuck-pretrain');
      await t.press('w');
      let screen = await t.waitFor(/Unschedulable: 4 pods/, 'why on stuck-pretrain');
      // The scheduler's message wraps in the panel (it names the NotReady and the cordoned node first).
      const unwrapped = screen.replace(/ *│\n│ */g, ' ');
      assert.match(unwrapped, /0\/19 nodes are available: .*\b12 Insufficient nvidia\.com\/gpu/);
      assert.match(screen, /gang cannot start: 4 of 8 members unschedulable \(Insufficient nvidia\.com\/gpu\)/);
      assert.match(screen, /free GPUs per node:/);
      assert.match(screen, /stuck-pretrain-worker-0-\d-\w+: wants 8 GPUs/);

      // broken-finetune: OOMKilled, with its last log words.
      await open('broken-finetune');
      await t.waitFor(/workloads\(training\)\[1\/5\]/, 'filtered to broken-finetune');
      await t.press('w');
      screen = await t.waitFor(/OOMKilled: 1 pod/, 'why on broken-finetune (after the first OOM kill)', 60_000);
      assert.match(
        screen,
        /broken-finetune-worker-1 on gpu-node-\d+: container pytorch: OOMKilled, exit 137, \d+ restarts?/,
      );
      await t.waitFor(/Loading tokenised dataset shards/, 'the crashed container’s last log line');

      // llama-pretrain: the startup timeline, all ready.
      await open('llama-pretrain');
      await t.waitFor(/workloads\(training\)\[1\/5\]/, 'filtered to llama-pretrain');
      await t.press('s');
      // Wait for the whole frame (all ready and the three pod rows): a capture can land mid-frame.
      screen = await t.waitFor(
        (s) => /all ready\s+\d\d:\d\d:\d\d\s+\+\S+/.test(s) && (s.match(/^│llama-pretrain-\S+/gm) ?? []).length === 3,
        'timeline: all ready, three pods',
        60_000,
      );
      assert.match(screen, /first pod scheduled\s+\d\d:\d\d:\d\d/);
      assert.match(screen, /│  worker\s+\[#+\] 2\/2\s+\[#+\] 2\/2/);
      assert.match(screen, /jobset llama-pretrain\/0: 3\/3 scheduled, 3\/3 ready/);
      assert.equal((screen.match(/^│llama-pretrain-\S+/gm) ?? []).length, 3, screen);
      assert.doesNotMatch(screen, /waiting:/);

      // One of its pods: logs, events, YAML, describe.
      await t.press('Escape');
      await t.waitFor(/workloads\(training\)\[1\/5\]/, 'back to the list');
      await t.press('Enter');
      await t.waitFor(/jobset\(training\/llama-pretrain\)/, 'the workload');
      await t.press('p');
      await t.waitFor(/pods\(llama-pretrain pods\)\[3\]/, 'its pods');
      await t.press('l');
      screen = await t.waitFor(/\[rank0\] step \d+/, 'streamed log lines');
      const firstStep = Number(/\[rank0\] step (\d+)/.exec(screen)![1]);
      await t.waitFor(
        (s) => [...s.matchAll(/\[rank0\] step (\d+)/g)].some((m) => Number(m[1]) > firstStep + 1),
        'new lines while following',
      );
      const logPath = /^\/api\/v1\/namespaces\/training\/pods\/llama-pretrain-leader-[^/]+\/log/;
      assert.ok(
        cluster
          .requests()
          .some((r) => logPath.test(r.path) && r.path.includes('follow=true') && r.durationMs === undefined),
        'the followed stream is open',
      );
      await t.press('Escape');
      await t.waitFor(/pods\(llama-pretrain pods\)/, 'back to the pods');
      const end = Date.now() + 5000;
      while (cluster.requests().some((r) => logPath.test(r.path) && r.durationMs === undefined) && Date.now() < end)
        await sleep(100);
      assert.deepEqual(
        cluster.requests().filter((r) => logPath.test(r.path) && r.durationMs === undefined),
        [],
        'log stream closed with the view',
      );

      await t.press('e');
      screen = await t.waitFor(/Started/, 'events');
      for (const reason of ['Scheduled', 'Pulling', 'Pulled', 'Started'])
        assert.match(screen, new RegExp(`Normal\\s+${reason}\\s`));
      await t.press('Escape', 'y');
      screen = await t.waitFor(/apiVersion: v1/, 'YAML');
      assert.match(screen, /kind: Pod/);
      await t.press('/');
      t.type('NCCL_DEBUG');
      await t.press('Enter');
      // env is dropped from the model's trimmed pods: seeing it proves a fresh, whole read.
      screen = await t.waitFor(/name: NCCL_DEBUG/, 'env in the YAML (search)');
      await t.press('Escape', 'Escape', 'd');
      screen = await t.waitFor(/Containers:/, 'describe');
      assert.match(screen, /GPUs:\s+4/);
      assert.match(screen, /Requests: cpu=48 memory=512Gi nvidia\.com\/gpu=4/);
      assert.match(screen, /Node:\s+gpu-node-\d+/);

      await t.press('q');
      await t.waitFor(/WLX-EXITED 0/, 'wlx exits');
      const methods = new Set(cluster.requests().map((r) => r.method));
      assert.deepEqual([...methods], ['GET']);
      assert.deepEqual(
        cluster.requests().filter((r) => r.path.includes('/log') && r.durationMs === undefined),
        [],
        'no log stream left open',
      );
    } finally {
      t.kill();
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
