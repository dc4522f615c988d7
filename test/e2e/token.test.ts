// Tokens are never printed: wlx (get, and the explorer in tmux) against
// `wlx demo serve --token SECRET`, with a wrong token and with the right one;
// every output (stdout, stderr, the whole captured screen and scrollback) is
// searched for both tokens. The wrong token must also show as "unauthorized".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { startDemoProcess } from './demo-process.js';
import { ROOT, Tmux, WLX, hasTmux, shellQuote, sleep, wlxCommand } from './tmux.js';

const SECRET = 'wlx-test-SECRET-8c1e2f7a';
const WRONG = 'wlx-test-EXPIRED-3b9d44c0';

function assertNoToken(text: string, where: string): void {
  assert.ok(!text.includes(SECRET), `${where} shows the token`);
  assert.ok(!text.includes(WRONG), `${where} shows the wrong token`);
}

function wlx(args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [WLX, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

test(
  'the token is never printed: wlx get and the explorer, with a wrong and the right token',
  { timeout: 180_000 },
  async (t) => {
    const demo = await startDemoProcess(['--token', SECRET]);
    t.after(() => demo.stop());
    const good = demo.kubeconfigPath;
    const bad = `${good}.wrong`;
    const kubeconfig = readFileSync(good, 'utf8');
    assert.ok(kubeconfig.includes(SECRET), 'the demo kubeconfig holds the token');
    writeFileSync(bad, kubeconfig.split(SECRET).join(WRONG));

    const denied = wlx(['get', '--kubeconfig', bad]);
    assert.notEqual(denied.status, 0);
    assert.match(denied.out, /Unauthorized|unauthorized/);
    assertNoToken(denied.out, 'wlx get with a wrong token');
    const allowed = wlx(['get', '--kubeconfig', good]);
    assert.equal(allowed.status, 0, allowed.out);
    assert.match(allowed.out, /llama-pretrain/);
    assertNoToken(allowed.out, 'wlx get');

    if (!hasTmux()) return t.skip('tmux missing');
    for (const [path, expect] of [
      [
        bad,
        /Conn: unauthorized since[\s\S]*unauthorized \(401\): the credentials were rejected — (retry in \d+ s|retrying…)/,
      ],
      [good, /Conn: live/],
    ] as const) {
      const tmux = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(path)}`), 140, 40, 'wlx-token');
      try {
        const screen = await tmux.waitFor(
          expect,
          `the explorer with ${path === bad ? 'the wrong' : 'the right'} token`,
          60_000,
        );
        assertNoToken(screen, 'the explorer');
        await sleep(1_500); // a few clock ticks: the countdown redraws
        tmux.keys('q');
        const exited = await tmux.waitFor(/WLX-EXITED/, 'wlx to quit', 15_000);
        assertNoToken(exited, 'the terminal after quitting');
        assertNoToken(tmux.tmux('capture-pane', '-p', '-S', '-', '-t', 'main'), 'the scrollback');
      } finally {
        tmux.kill();
      }
    }
  },
);
