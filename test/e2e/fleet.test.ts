// A fleet end to end: the simulated fleet (three API servers from this
// process, one kubeconfig) read by the real CLI over HTTP. `wlx get
// --all-contexts -o json`: every cluster's line, each workload's cluster,
// GPUs by model, the MultiKueue job on the manager linked to its copy on
// east, the waiting one with both workers tried; `--context` repeated; one
// context's document as always plus `cluster`; `get --demo --fleet`. One dead context (a refused
// port) and one that never answers beside a live one: listed with their state
// within the connect timeout, exit 0; none live: exit 1. In tmux: the CLUSTER
// column, `:clusters`, Enter on a cluster and Esc, and the manager's job whose
// tree shows it runs on east with east's pods.
import { test } from 'node:test';
import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { startDemoFleet, type DemoFleet } from '../../demo/fleet.js';
import { Tmux, WLX, hasTmux, shellQuote, wlxCommand } from './tmux.js';
import { kubectl, kubectlEnv } from './kubectl-helpers.js';
import { runWlx } from './wlx-cli.js';

interface Cluster {
  context: string;
  state: string;
  error: string | null;
  nodes: { ready: number; total: number } | null;
  gpus: { allocatable: number; byModel: Record<string, { allocatable: number; requested: number; free: number }> };
  workloads: Record<string, number>;
}
interface Workload {
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
  remote?: {
    cluster: string | null;
    worker: string | null;
    status: string[] | null;
  };
  tried?: { worker: string; cluster: string; state: string; message: string }[];
  origin?: { cluster: string | null };
}

async function fleetWithKubeconfig(t: {
  after(fn: () => unknown): void;
}): Promise<{ fleet: DemoFleet; kubeconfig: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-fleet-e2e-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const fleet = await startDemoFleet({ speed: 4, seed: 2, kubeconfigPath: kubeconfig });
  t.after(async () => {
    await fleet.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return { fleet, kubeconfig, dir };
}

/** A TCP server that accepts and never answers: a cluster that hangs. */
async function silentServer(t: { after(fn: () => unknown): void }): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return (server.address() as { port: number }).port;
}

/**
 * The kubeconfig with three more contexts: `refused` (nothing listens), `silent` (never answers) and
 * `broken` (its cluster entry missing).
 */
function withDeadContexts(kubeconfig: string, dir: string, silentPort: number): string {
  const config = load(readFileSync(kubeconfig, 'utf8')) as {
    clusters: unknown[];
    users: unknown[];
    contexts: unknown[];
  };
  for (const [name, server] of [
    ['refused', 'http://127.0.0.1:1'],
    ['silent', `http://127.0.0.1:${silentPort}`],
  ]) {
    config.clusters.push({ name, cluster: { server, 'insecure-skip-tls-verify': true } });
    config.users.push({ name, user: {} });
    config.contexts.push({ name, context: { cluster: name, user: name } });
  }
  config.contexts.push({ name: 'broken', context: { cluster: 'missing', user: 'refused' } });
  const path = join(dir, 'with-dead');
  writeFileSync(path, dump(config), { mode: 0o600 });
  return path;
}

async function until<T>(what: string, check: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await check();
    if (v !== null) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

test(
  'wlx get --all-contexts -o json: every cluster, GPUs by model, the MultiKueue links',
  { timeout: 180_000 },
  async (t) => {
    const { kubeconfig } = await fleetWithKubeconfig(t);
    // llm-sft reaches east within seconds (speed 4): wait until the manager's job links to a running copy.
    const doc = await until('llm-sft running on east', async () => {
      const r = await runWlx(['get', '--kubeconfig', kubeconfig, '--all-contexts', '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const d = JSON.parse(r.stdout) as { workloads: Workload[]; clusters: Cluster[]; nodes: { cluster: string }[] };
      const sft = d.workloads.find((w) => w.cluster === 'wlx-fleet-manager' && w.name === 'llm-sft');
      return sft?.remote?.status ? d : null;
    });
    assert.deepEqual(
      doc.clusters.map((c) => [c.context, c.state, c.error]),
      [
        ['wlx-fleet-manager', 'live', null],
        ['wlx-fleet-east', 'live', null],
        ['wlx-fleet-west', 'live', null],
      ],
    );
    const byContext = new Map(doc.clusters.map((c) => [c.context, c]));
    assert.deepEqual(byContext.get('wlx-fleet-east')!.nodes, { ready: 5, total: 5 });
    assert.deepEqual(byContext.get('wlx-fleet-east')!.gpus.byModel['NVIDIA-H100-80GB-HBM3'], {
      allocatable: 32,
      requested: 24,
      free: 8,
    });
    const west = byContext.get('wlx-fleet-west')!.gpus.byModel;
    assert.deepEqual(west['NVIDIA-A100-SXM4-80GB'], { allocatable: 16, requested: 12, free: 4 });
    assert.equal(west['nvidia.com/mig-1g.10gb'].allocatable, 56);
    assert.equal(west['dra:gpu.nvidia.com'].allocatable, 8);
    assert.equal(byContext.get('wlx-fleet-manager')!.gpus.allocatable, 0);
    // Every workload and node says its cluster.
    assert.ok(doc.workloads.every((w) => byContext.has(w.cluster)));
    assert.ok(doc.nodes.every((n) => byContext.has(n.cluster)));

    const sft = doc.workloads.find((w) => w.cluster === 'wlx-fleet-manager' && w.name === 'llm-sft')!;
    assert.equal(sft.remote!.cluster, 'wlx-fleet-east');
    assert.equal(sft.remote!.worker, 'east');
    const copy = doc.workloads.find((w) => w.cluster === 'wlx-fleet-east' && w.name === 'llm-sft')!;
    assert.equal(copy.origin!.cluster, 'wlx-fleet-manager');
    const waiting = doc.workloads.find((w) => w.name === 'llm-pretrain-70b')!;
    assert.equal(waiting.cluster, 'wlx-fleet-manager');
    // Not dispatched: no remote (not an object of nulls), the workers tried.
    assert.equal(waiting.remote, undefined);
    assert.deepEqual(
      waiting.tried!.map((x) => [x.worker, x.cluster, x.state]),
      [
        ['east', 'wlx-fleet-east', 'Pending'],
        ['west', 'wlx-fleet-west', 'Pending'],
      ],
    );
    assert.match(waiting.tried![0].message, /insufficient unused quota for nvidia\.com\/gpu in flavor h100/);

    // --context repeated is a fleet of those, in that order.
    const two = await runWlx([
      'get',
      '--kubeconfig',
      kubeconfig,
      '--context',
      'wlx-fleet-west',
      '--context',
      'wlx-fleet-east',
      '-o',
      'json',
    ]);
    assert.equal(two.code, 0, two.stderr);
    const twoDoc = JSON.parse(two.stdout) as {
      workloads: Workload[];
      clusters: Cluster[];
      access: { clusterWide: boolean; clusterWideIn: string[] };
    };
    // Each cluster's access says whose it is.
    assert.equal(twoDoc.access.clusterWide, true);
    assert.deepEqual(twoDoc.access.clusterWideIn, ['wlx-fleet-west', 'wlx-fleet-east']);
    assert.deepEqual(
      twoDoc.clusters.map((c) => [c.context, c.state]),
      [
        ['wlx-fleet-west', 'live'],
        ['wlx-fleet-east', 'live'],
      ],
    );
    assert.deepEqual([...new Set(twoDoc.workloads.map((w) => w.cluster))].sort(), ['wlx-fleet-east', 'wlx-fleet-west']);

    // One context: the document as always, each workload and node with its `cluster`, no `clusters`.
    const one = await runWlx(['get', '--kubeconfig', kubeconfig, '--context', 'wlx-fleet-west', '-o', 'json']);
    assert.equal(one.code, 0, one.stderr);
    const oneDoc = JSON.parse(one.stdout) as Record<string, unknown> & {
      workloads: Workload[];
      nodes: { cluster: string }[];
    };
    assert.deepEqual(Object.keys(oneDoc).sort(), ['access', 'nodes', 'orphanPods', 'workloads']);
    assert.deepEqual(oneDoc.access, { clusterWide: true, namespaces: [], forbidden: [] });
    assert.ok(oneDoc.workloads.length > 0 && oneDoc.workloads.every((w) => w.cluster === 'wlx-fleet-west'));
    assert.ok(oneDoc.workloads.every((w) => w.remote === undefined && w.origin === undefined));
    assert.ok(oneDoc.nodes.length > 0 && oneDoc.nodes.every((n) => n.cluster === 'wlx-fleet-west'));
  },
);

test(
  'wlx get --demo --fleet: the simulated fleet of three, started and stopped by the command',
  { timeout: 120_000 },
  async () => {
    const r = await runWlx(['get', '--demo', '--fleet', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as { workloads: Workload[]; clusters: Cluster[] };
    assert.deepEqual(
      doc.clusters.map((c) => [c.context, c.state]),
      [
        ['wlx-fleet-manager', 'live'],
        ['wlx-fleet-east', 'live'],
        ['wlx-fleet-west', 'live'],
      ],
    );
    assert.ok(doc.workloads.some((w) => w.cluster === 'wlx-fleet-west' && w.name === 'resnet-finetune'));
  },
);

test(
  'a dead and a silent context beside a live one: listed within the connect timeout, exit 0',
  { timeout: 180_000 },
  async (t) => {
    const { kubeconfig, dir } = await fleetWithKubeconfig(t);
    const dead = withDeadContexts(kubeconfig, dir, await silentServer(t));
    const live = ['get', '--kubeconfig', dead, '--context', 'wlx-fleet-east', '-o', 'json'];
    const t0 = Date.now();
    const alone = await runWlx(live);
    const usual = Date.now() - t0;
    assert.equal(alone.code, 0, alone.stderr);

    const t1 = Date.now();
    const r = await runWlx([
      'get',
      '--kubeconfig',
      dead,
      '--context',
      'wlx-fleet-east,refused,silent,broken',
      '--connect-timeout',
      '4s',
      '-o',
      'json',
    ]);
    const took = Date.now() - t1;
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as { clusters: Cluster[]; workloads: Workload[]; access: Record<string, unknown> };
    // What a dead cluster allows is unknown: it is not among those read cluster-wide.
    assert.deepEqual(doc.access.clusterWideIn, ['wlx-fleet-east']);
    assert.deepEqual(
      doc.clusters.map((c) => [c.context, c.state]),
      [
        ['wlx-fleet-east', 'live'],
        ['refused', 'unreachable'],
        ['silent', 'unreachable'],
        ['broken', 'invalid'],
      ],
    );
    assert.match(doc.clusters[1].error!, /ECONNREFUSED|refused/);
    assert.match(doc.clusters[2].error!, /no answer within 4 s/);
    // A broken kubeconfig entry is no network failure: the file, the context and the field.
    assert.equal(doc.clusters[3].error, `context "broken": cluster "missing" is not defined (kubeconfig ${dead})`);
    assert.ok(doc.workloads.some((w) => w.cluster === 'wlx-fleet-east' && w.name === 'llama-70b'));
    // The usual time plus the connect timeout, with room for a loaded machine.
    assert.ok(took < usual + 4_000 + 8_000, `took ${took} ms; the live cluster alone ${usual} ms`);

    // No cluster answers: an error, each listed.
    const none = await runWlx(['get', '--kubeconfig', dead, '--context', 'refused,silent', '--connect-timeout', '3s']);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no cluster answered \(refused: unreachable, silent: unreachable\)/);
    assert.match(none.stdout, /== cluster refused: unreachable/);
  },
);

test(
  'explorer over the fleet: CLUSTER column, :clusters, narrowing and back, a manager job running on east',
  { skip: !hasTmux(), timeout: 240_000 },
  async (t) => {
    const { kubeconfig } = await fleetWithKubeconfig(t);
    const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(kubeconfig)} --all-contexts`), 150, 40);
    try {
      let screen = await tmux.waitFor(
        (s) =>
          /wlx-fleet-west .*resnet-finetune/.test(s) &&
          /wlx-fleet-manager .*llm-sft/.test(s) &&
          /wlx-fleet-east\s+inference\s+llama-70b/.test(s),
        'every cluster listed',
        90_000,
      );
      assert.match(screen, /CLUSTER\s+NAMESPACE\s+NAME/);

      tmux.keys(':');
      tmux.type('clusters');
      tmux.keys('Enter');
      screen = await tmux.waitFor(/clusters\[3\]/, ':clusters');
      assert.match(screen, /wlx-fleet-east\s+live\s+v1\.32\.0\s+5\/5\s+32\/\d+\/\d+/);
      assert.match(screen, /└ NVIDIA-A100-SXM4-80GB\s+16\/12\/4/);
      assert.match(screen, /└ nvidia\.com\/mig-1g\.10gb/);
      tmux.keys('j');
      await tmux.press('Enter');
      screen = await tmux.waitFor(/workloads\(all@wlx-fleet-east\)/, 'narrowed to east');
      assert.doesNotMatch(screen, /resnet-finetune/);
      await tmux.press('Escape');
      await tmux.waitFor((s) => /workloads\(all\)/.test(s) && /resnet-finetune/.test(s), 'all clusters again');

      // The manager's llm-sft: its tree is east's copy.
      tmux.keys('/');
      tmux.type('manager.*llm-sft');
      tmux.keys('Enter');
      await tmux.waitFor(/workloads\(all\)\[1\/\d+\]/, 'the manager’s llm-sft alone');
      await tmux.press('Enter');
      // The copy reads Running once its worker is ready; its master may be ready a moment later.
      screen = await tmux.waitFor(
        (s) =>
          /runs on cluster wlx-fleet-east \(MultiKueue worker east\): Running/.test(s) && /master\s+\S+\s+1\/1/.test(s),
        'runs on east, its master ready',
        60_000,
      );
      await tmux.press('Enter');
      screen = await tmux.waitFor(/llm-sft-master-0\s+Running/, "east's pod");
      assert.match(screen, /Context: wlx-fleet-east/);
    } finally {
      tmux.kill();
    }
  },
);

test(
  "explorer with a dead context: the header names each cluster's state as :clusters does, and a User that is not blank",
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const { kubeconfig, dir } = await fleetWithKubeconfig(t);
    const dead = withDeadContexts(kubeconfig, dir, await silentServer(t));
    const tmux = new Tmux(
      wlxCommand(`--kubeconfig ${shellQuote(dead)} --context wlx-fleet-east,refused,broken --connect-timeout 3s`),
      150,
      40,
    );
    try {
      let screen = await tmux.waitFor(
        (s) => /Conn: 3 clusters: 1 live, broken invalid, refused unreachable/.test(s) && /llama-70b/.test(s),
        'the header naming the dead cluster',
        60_000,
      );
      assert.match(screen, /User: per cluster/);
      assert.match(screen, /Cluster: 3 clusters \(:clusters\)/);
      tmux.keys(':');
      tmux.type('clusters');
      tmux.keys('Enter');
      // The flash line: each failing cluster with its own cause (on a loaded machine "no answer" first).
      screen = await tmux.waitFor(
        (s) =>
          /clusters\[3\]/.test(s) &&
          /refused: connection refused; broken: context "broken": cluster "missing" is not defined/.test(s),
        ':clusters, the flash naming each cause',
      );
      assert.match(screen, /wlx-fleet-east\s+live/);
      assert.match(screen, /refused\s+unreachable/);
      assert.match(screen, /broken\s+invalid\s+-.*\s-\s+cluster "missing" is not defined/);
    } finally {
      tmux.kill();
    }
  },
);

test(
  'a plugin scoped to clusters: on a :clusters row it runs with that cluster’s $CONTEXT, $CLUSTER and $USER',
  { skip: !hasTmux(), timeout: 180_000 },
  async (t) => {
    const { kubeconfig, dir } = await fleetWithKubeconfig(t);
    // A context whose name is not its kubeconfig cluster's: $CONTEXT and $CLUSTER differ, as in k9s.
    const config = load(readFileSync(kubeconfig, 'utf8')) as { contexts: unknown[] };
    config.contexts.push({ name: 'east-alias', context: { cluster: 'wlx-fleet-east', user: 'wlx-fleet-east' } });
    const aliased = join(dir, 'aliased');
    writeFileSync(aliased, dump(config), { mode: 0o600 });
    const configDir = join(dir, 'config');
    mkdirSync(configDir);
    const out = join(dir, 'plugin.txt');
    writeFileSync(
      join(configDir, 'plugins.yaml'),
      [
        'plugins:',
        '  cluster-info:',
        '    shortCut: Shift-I',
        '    description: the cluster',
        '    scopes: [clusters]',
        '    command: sh',
        `    args: [-c, "echo $CONTEXT $CLUSTER $USER $NAME > ${out}"]`,
        '    background: true',
        '',
      ].join('\n'),
    );
    const tmux = new Tmux(
      `export WLX_CONFIG_DIR=${shellQuote(configDir)}; ` +
        wlxCommand(`--kubeconfig ${shellQuote(aliased)} --context wlx-fleet-west,east-alias -c clusters`),
      150,
      40,
    );
    try {
      await tmux.waitFor(/clusters\[2\][\s\S]*east-alias\s+live/, ':clusters, both live', 90_000);
      tmux.keys('/');
      tmux.type('east-alias');
      tmux.keys('Enter');
      await tmux.waitFor(/clusters\[1\/2\]/, 'the east-alias row');
      tmux.keys('I');
      await tmux.waitFor(/plugin the cluster: exit status 0/, 'the plugin’s exit status');
      assert.equal(readFileSync(out, 'utf8').trim(), 'east-alias wlx-fleet-east wlx-fleet-east east-alias');
    } finally {
      tmux.kill();
    }
  },
);

test(
  'wlx demo serve --fleet: three servers, one kubeconfig, kubectl on each context; Ctrl-C stops it',
  { timeout: 120_000 },
  async (t) => {
    const k = await kubectlEnv();
    t.after(() => k.cleanup());
    const child = spawn(process.execPath, [WLX, 'demo', 'serve', '--fleet', '--kubeconfig-out', k.kubeconfigPath], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    t.after(async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exit;
    });
    await until('the fleet served', async () => (out.includes('export KUBECONFIG=') ? true : null), 60_000);
    assert.match(out, /wlx-fleet-manager\s+http:\/\/127\.0\.0\.1:\d+\n\s+wlx-fleet-east\s+http/);
    const contexts = await kubectl(k.env, ['config', 'get-contexts', '-o', 'name']);
    assert.deepEqual(contexts.stdout.trim().split('\n').sort(), [
      'wlx-fleet-east',
      'wlx-fleet-manager',
      'wlx-fleet-west',
    ]);
    const mk = await kubectl(k.env, ['--context', 'wlx-fleet-manager', 'get', 'multikueueclusters,admissionchecks']);
    assert.equal(mk.code, 0, mk.stderr);
    assert.match(mk.stdout, /multikueuecluster\.kueue\.x-k8s\.io\/east\s+True/);
    const nodes = await kubectl(k.env, ['--context', 'wlx-fleet-west', 'get', 'nodes', '-o', 'name']);
    assert.match(nodes.stdout, /node\/a100-node-01/);
    child.kill('SIGINT');
    assert.equal(await exit, 0);
    assert.match(out, /wlx demo: stopped/);
  },
);
