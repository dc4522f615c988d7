// What the screen and `wlx get` say is the cluster's truth, end to end on the
// demo cluster over HTTP (the real CLI as a child process, the real explorer
// in tmux): `-n` narrows what is shown, not the node accounting or the
// exporters; a namespace the user may not read is said once, with its own
// exit status; trouble is named once and stays named over a crash loop; the
// map finds idle allocated GPUs; an 80-column screen keeps what matters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoCluster } from '../../demo/index.js';
import type { NodeSummary, PodSummary, RoleTree, WorkloadTree } from '../../src/model/types.js';
import { Tmux, hasTmux, shellQuote, sleep, wlxCommand } from './tmux.js';
import { runWlx } from './wlx-cli.js';

interface Doc {
  workloads: Array<WorkloadTree & { roles: Array<RoleTree & { pods: Array<PodSummary & JsonPod> }> }>;
  nodes: NodeSummary[];
  access: { clusterWide: boolean; unreadable?: string[] };
}
interface JsonPod {
  gpuUtilization: number | null;
}

async function demo(t: { after(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-truth-'));
  const kubeconfig = join(dir, 'kubeconfig');
  // Speed 20: broken-finetune and the hostile pod go through several crash cycles within the test.
  const cluster = await startDemoCluster({ speed: 20, seed: 7, kubeconfigPath: kubeconfig });
  t.after(async () => {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const wlx = (args: string[]) => runWlx(['--kubeconfig', kubeconfig, ...args], { WLX_DEFINITIONS: '' });
  return { cluster, kubeconfig, wlx };
}

const requested = (doc: Doc) => doc.nodes.reduce((n, x) => n + x.gpuRequested, 0);
const pods = (w: Doc['workloads'][number]): JsonPod[] => {
  const out: JsonPod[] = [];
  const walk = (r: Doc['workloads'][number]['roles'][number]) => {
    out.push(...r.pods);
    (r.roles as typeof w.roles).forEach(walk);
  };
  w.roles.forEach(walk);
  return out;
};

test('wlx get: -n narrows the view, not the truth; a forbidden namespace is one line and exit 6; a typo suggests', async (t) => {
  const { wlx } = await demo(t);
  // Settled: the same figures twice in a row, cluster-wide and with -n.
  let all: Doc | undefined;
  let narrowed: Doc | undefined;
  let narrowedRun = { code: 0, stdout: '', stderr: '' };
  const deadline = Date.now() + 90_000;
  for (;;) {
    const [a, n] = await Promise.all([wlx(['get', '-A', '-o', 'json']), wlx(['get', '-n', 'training', '-o', 'json'])]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(n.code, 0, n.stderr);
    all = JSON.parse(a.stdout) as Doc;
    narrowed = JSON.parse(n.stdout) as Doc;
    narrowedRun = n;
    const known = narrowed.workloads.flatMap(pods).filter((p) => p.gpuUtilization !== null).length;
    if (requested(all) === requested(narrowed) && requested(all) >= 90 && known > 0) break;
    if (Date.now() > deadline)
      assert.fail(`never the same: -A ${requested(all)}, -n training ${requested(narrowed)}, util known on ${known}`);
    await sleep(1000);
  }
  assert.deepEqual([...new Set(narrowed.workloads.map((w) => w.namespace))], ['training']);
  const trainingGpus = narrowed.workloads.reduce((n, w) => n + w.gpus.allocated, 0);
  assert.ok(requested(narrowed) > trainingGpus, `nodes count every namespace's pods (${requested(narrowed)})`);
  assert.doesNotMatch(narrowedRun.stderr, /dcgm-exporter/, 'the exporters live in gpu-operator and are found');
  process.stdout.write(
    `# nodes' requested GPUs: -A ${requested(all)}, -n training ${requested(narrowed)}; ` +
      `training pods with utilisation: ${narrowed.workloads.flatMap(pods).filter((p) => p.gpuUtilization !== null).length}\n`,
  );

  const restricted = (args: string[]) => wlx(['--context', 'wlx-demo-restricted', ...args]);
  const one = /^wlx: namespace research is not readable by researcher \(readable: training\)\n$/;
  const [list, named, both, json] = await Promise.all([
    restricted(['get', '-n', 'research']),
    restricted(['get', 'jobset/llama-pretrain', '-n', 'research']),
    restricted(['get', '-n', 'research', '-n', 'training']),
    restricted(['get', '-n', 'research', '-o', 'json']),
  ]);
  for (const r of [list, named, json]) {
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, one);
    assert.equal(r.stdout, '');
  }
  // A readable namespace beside it is printed; the exit status still says one was not.
  assert.equal(both.code, 6, both.stderr);
  assert.match(both.stderr.split('\n')[0], /^wlx: namespace research is not readable by researcher/);
  assert.match(both.stdout, /^JobSet\/llama-pretrain\s+namespace: training/m);
  assert.doesNotMatch(both.stderr, /403|forbidden: context/);

  const typo = await wlx(['get', 'jobsett']);
  assert.equal(typo.code, 4);
  assert.match(typo.stderr, /no definition covers the type "jobsett" \(did you mean jobset\?/);
  const help = await runWlx(['get', '--help']);
  assert.match(help.stdout, /6 a namespace given with -n is not readable/);
});

test(
  'tmux: -n training keeps the cluster GPU totals and utilisation; the map colours idle allocated GPUs; the trouble words stay over crash loops',
  { skip: !hasTmux(), timeout: 240_000 },
  async (t) => {
    const { kubeconfig } = await demo(t);
    const narrowed = new Tmux(
      wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)} -n training --idle-after 5s`),
      160,
      45,
      'wlx-truth',
    );
    try {
      // The nodes' requests are the cluster's (inference's 32 GPUs too), and UTIL is read.
      let screen = await narrowed.waitFor(
        (s) => /GPUs: 90\/112 nvidia\.com\/gpu/.test(s) && /training\s+bert-finetune .* \d+%/.test(s),
        'the cluster GPU totals and UTIL under -n training',
        120_000,
      );
      assert.match(screen, /Namespace: training/);
      assert.doesNotMatch(screen, /dcgm-exporter/);
      // A mistyped kind: the nearest one, as wlx get says it.
      narrowed.keys(':');
      narrowed.type('jobsett');
      narrowed.keys('Enter');
      await narrowed.waitFor(/unknown command "jobsett" \(did you mean jobset\?/, 'the nearest kind');
      narrowed.keys(':');
      narrowed.type('map');
      narrowed.keys('Enter');
      screen = await narrowed.waitFor(/map\(all\)\[19 nodes\]/, 'the map');
      // Every band's label is its own, also where the labels are cut.
      const labels = screen
        .split('\n')
        .map((l) => /^│(\S(?:.*?\S)?) +[▀▄█]/.exec(l)?.[1])
        .filter((l): l is string => !!l);
      assert.ok(labels.length >= 5, screen);
      assert.equal(new Set(labels).size, labels.length, labels.join(' | '));
      await narrowed.press('i');
      screen = await narrowed.waitFor(/allocated GPUs idle:/, 'the idle colouring', 30_000);
      assert.match(screen, /none .*some .*⅓\+ of the node .*NotReady .*cordoned/s);
      // broken-finetune's 3 GPUs sit idle on one node: that node is red (⅓ or more of it idle).
      const red = await narrowed.waitFor(
        () => /\u001b\[(\d+;)*31m[▀▄█]/.test(narrowed.capture(true)),
        'a node with a third of its GPUs idle',
        60_000,
      );
      assert.ok(red);
      // Every legend colour is on the map: the NotReady (magenta) and the cordoned (white) node.
      const colours = narrowed.capture(true);
      assert.match(colours, /\u001b\[(\d+;)*35m[▀▄█]|\u001b\[(\d+;)*45m/, 'NotReady');
      assert.match(colours, /\u001b\[(\d+;)*37m[▀▄█]|\u001b\[(\d+;)*47m/, 'cordoned');
      narrowed.keys('q');
      await narrowed.waitFor(/WLX-EXITED 0/, 'a clean exit');
    } finally {
      narrowed.kill();
    }

    const all = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)}`), 160, 45, 'wlx-truth');
    try {
      // Over several crash cycles each workload keeps one word and one cause; the header counts them Degraded.
      const seen = { hostile: new Set<string>(), broken: new Set<string>() };
      const end = Date.now() + 40_000;
      const status = (s: string, name: string) =>
        /(\S+(?: \([^)]*\))?)\s+\d+\/\d+\s/.exec(
          s
            .split('\n')
            .find((l) => l.includes(` ${name} `))
            ?.slice(60) ?? '',
        )?.[1];
      await all.waitFor(/innocent-looking .*Degraded/, 'the hostile pod crash-looping', 120_000);
      while (Date.now() < end) {
        const s = all.capture();
        const a = status(s, 'innocent-looking');
        const b = status(s, 'broken-finetune');
        if (a) seen.hostile.add(a);
        if (b) seen.broken.add(b);
        assert.doesNotMatch(s, /Unschedulable \(Unschedulable\)/);
        // The header counts what the rows say (NAMESPACE NAME KIND QUEUE STATUS …).
        const rows = s.split('\n').filter((l) => /^│(training|inference|research|default)\s/.test(l));
        const running = rows.filter((l) => l.slice(1).trim().split(/\s+/)[4] === 'Running').length;
        const header = /Workloads: \d+ {2}(\d+) Running/.exec(s);
        if (rows.length === 13 && header) assert.equal(Number(header[1]), running, s);
        await sleep(300);
      }
      assert.deepEqual([...seen.hostile], ['Degraded (CrashLoopBackOff)']);
      assert.ok(seen.broken.size > 0, 'broken-finetune read');
      assert.ok(
        [...seen.broken].every((x) => x === 'Degraded (OOMKilled)' || x === 'Failed (OOMKilled)'),
        [...seen.broken].join(' | '),
      );
      all.keys('q');
      await all.waitFor(/WLX-EXITED 0/, 'a clean exit');
    } finally {
      all.kill();
    }
  },
);

test(
  'tmux: the researcher sees their namespace named, why :queues and :ns research are empty; 80×24 keeps names and counts; startup says syncing',
  { skip: !hasTmux(), timeout: 240_000 },
  async (t) => {
    const { kubeconfig } = await demo(t);
    const researcher = new Tmux(
      wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)} --context wlx-demo-restricted`),
      120,
      30,
      'wlx-truth',
    );
    try {
      let screen = await researcher.waitFor(/queued-sft/, 'the training workloads', 120_000);
      assert.match(screen, /Namespace: training /);
      assert.doesNotMatch(screen, /Namespace: all/);
      researcher.keys(':');
      researcher.type('queues');
      researcher.keys('Enter');
      screen = await researcher.waitFor(/ClusterQueues are not readable by researcher/, ':queues says why');
      assert.doesNotMatch(screen, /Kueue is not installed/);
      researcher.keys(':');
      researcher.type('wl');
      researcher.keys('Enter');
      researcher.keys(':');
      researcher.type('ns research');
      researcher.keys('Enter');
      await researcher.waitFor(
        /namespace research is not readable by researcher \(readable: training\)/,
        'the same words as wlx get',
      );
      researcher.keys('q');
      await researcher.waitFor(/WLX-EXITED 0/, 'a clean exit');
    } finally {
      researcher.kill();
    }

    const narrow = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)}`), 80, 24, 'wlx-truth');
    try {
      // From the first frame until the workloads are listed, never "nothing to show" beside an empty list.
      const frames: string[] = [];
      for (;;) {
        const s = narrow.capture();
        frames.push(s);
        if (/llama-pretrain/.test(s)) break;
        if (frames.length > 2000) assert.fail(`no workloads:\n${s}`);
        await sleep(50);
      }
      assert.ok(
        !frames.some((f) => /nothing to show/.test(f)),
        frames.find((f) => /nothing to show/.test(f)),
      );
      assert.ok(
        !frames.some((f) => /Conn: live/.test(f) && /Workloads: 0\b/.test(f)),
        'never live with no workload before the lists are in',
      );
      const screen = await narrow.waitFor(/Queued/, 'the Queued count', 60_000);
      const counts = screen.split('\n').find((l) => l.includes('Workloads:'))!;
      assert.match(counts, /\d+ Queued \d+ Unsched/, counts);
      narrow.keys(':');
      narrow.type('pods');
      narrow.keys('Enter');
      const pods = await narrow.waitFor((s) => /pods\(all\)\[\d+\]/.test(s) && /stuck/.test(s), ':pods');
      const names = pods
        .split('\n')
        .filter((l) => /stuck/.test(l))
        .map((l) => l.replace(/^│/, '').trim().split(/\s+/)[1]);
      assert.ok(names.length >= 4, pods);
      assert.equal(new Set(names).size, names.length, `distinguishable: ${names.join(' ')}`);
      assert.ok(
        names.every((n) => n.includes('…')),
        'cut in the middle',
      );
      narrow.keys(':');
      narrow.type('wl');
      narrow.keys('Enter');
      await narrow.waitFor(/workloads\(all\)\[\d+\]/, 'back to the workloads');
      await narrow.press('?');
      await narrow.waitFor(/help/, 'the help');
      // 24 rows hold the keys; the words are found with the filter, as any row.
      await narrow.press('/');
      narrow.type('UTIL');
      await narrow.press('Enter');
      const help = await narrow.waitFor(/UTIL … idle/, 'the help explains UTIL');
      assert.match(help, /UTIL … slow/);
      narrow.keys('q');
      await narrow.waitFor(/WLX-EXITED 0/, 'a clean exit');
    } finally {
      narrow.kill();
    }
  },
);

test(
  'tmux: with the server down, the explorer names its URL and reads nothing as 0',
  { skip: !hasTmux() },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'wlx-truth-down-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const { writeFileSync } = await import('node:fs');
    const kubeconfig = join(dir, 'kubeconfig');
    // Port 9 (discard): nothing listens there.
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: down, cluster: {server: "http://127.0.0.1:9", insecure-skip-tls-verify: true}}]',
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: down, context: {cluster: down, user: u}}]',
        'current-context: down',
      ].join('\n'),
    );
    const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)}`), 100, 20, 'wlx-truth');
    try {
      const screen = await tmux.waitFor(/nothing read yet from http:\/\/127\.0\.0\.1:9: connection refused/, 'the URL');
      assert.match(screen, /http:\/\/127\.0\.0\.1:9: connection refused — (retry in \d+ s|retrying…)/);
      assert.match(screen, /GPUs: not read yet/);
      assert.doesNotMatch(screen, /0\/0 req\/alloc/);
      tmux.keys('q');
      await tmux.waitFor(/WLX-EXITED 0/, 'a clean exit');
    } finally {
      tmux.kill();
    }
  },
);
