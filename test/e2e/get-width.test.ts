// `wlx get`'s tree cuts nothing when stdout is not a terminal (as kubectl), so
// grep and scripts see whole pod names; on a terminal it fits the terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoCluster } from '../../demo/index.js';
import type { PodSummary, RoleTree, WorkloadTree } from '../../src/model/types.js';
import { outputWidth, WIDTH } from '../../src/cli/get.js';
import { kubectl } from './kubectl-helpers.js';
import { Tmux, WLX, hasTmux, wlxCommand } from './tmux.js';

function wlx(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [WLX, ...args], { env: { ...process.env, ...env }, maxBuffer: 64 << 20 }, (err, o, e) =>
      resolve({ code: err ? Number((err as unknown as { code: number }).code) || 1 : 0, stdout: o, stderr: e }),
    );
  });
}

function podsOf(roles: readonly RoleTree[]): PodSummary[] {
  return roles.flatMap((r) => [...r.pods, ...podsOf(r.roles)]);
}

test('outputWidth: a terminal its columns, a pipe unlimited', () => {
  assert.equal(outputWidth({ isTTY: true, columns: 132 }), 132);
  assert.equal(outputWidth({ isTTY: true }), WIDTH);
  assert.equal(outputWidth({ isTTY: false, columns: 132 }), Infinity);
  assert.equal(outputWidth({}), Infinity);
});

test('wlx get -A | cat prints every pod name whole (the names kubectl lists)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-get-width-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  const cluster = await startDemoCluster({ speed: 20, seed: 7, kubeconfigPath: kubeconfig });
  t.after(() => cluster.stop());
  const env = { KUBECONFIG: kubeconfig, WLX_DEFINITIONS: '' };
  const kenv = { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'kube-cache'), HOME: dir };

  const names = async () => {
    const k = await kubectl(kenv, ['get', 'pods', '-A', '-o', 'name']);
    assert.equal(k.code, 0, k.stderr);
    return new Set(
      k.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(/^pod\//, '')),
    );
  };
  const before = await names();
  const tree = await wlx(['get', '-A'], env);
  const json = await wlx(['get', '-A', '-o', 'json'], env);
  const after = await names();
  assert.equal(tree.code, 0, tree.stderr);
  assert.doesNotMatch(tree.stdout, /…/, 'nothing is cut');
  const printed = new Set([...tree.stdout.matchAll(/[|`]-- (\S+)/g)].map((m) => m[1]));
  const workloads = (JSON.parse(json.stdout) as { workloads: WorkloadTree[] }).workloads;
  const inWorkloads = workloads.flatMap((w) => [...podsOf(w.roles), ...w.unattributedPods]).map((p) => p.name);
  const expected = inWorkloads.filter((n) => before.has(n) && after.has(n));
  assert.ok(expected.length >= 20, `the demo's workload pods (${expected.length})`);
  assert.ok(
    expected.some((n) => n.startsWith('stuck-pretrain-worker-')),
    'long names are among them',
  );
  for (const n of expected) assert.ok(printed.has(n), `${n} printed whole:\n${tree.stdout}`);
});

test('wlx get -A on a 60-column terminal fits the terminal', { skip: !hasTmux(), timeout: 120_000 }, async () => {
  const t = new Tmux(wlxCommand('get -A --demo'), 60, 50);
  try {
    await t.waitFor(/WLX-EXITED \d+/, 'wlx get to finish', 90_000);
    // -J joins lines tmux wrapped, so a line longer than the terminal would show.
    const lines = t.tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'main').split('\n');
    assert.ok(
      lines.some((l) => l.includes('…')),
      'long names are cut',
    );
    for (const l of lines) assert.ok([...l].length <= 60, `fits 60 columns: ${JSON.stringify(l)}`);
  } finally {
    t.kill();
  }
});
