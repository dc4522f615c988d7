// The startup waterfall end to end on the simulated cluster: `wlx --demo` in
// tmux, llama-pretrain → `s` draws a bar per pod with the legend and the gang's
// marks; and the text form (`wlx get jobset/llama-pretrain --timeline`) piped:
// plain ASCII bars.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tmux, hasTmux, sleep, wlxCommand } from './tmux.js';
import { demoWithKubeconfig, runWlx, type WlxResult } from './wlx-cli.js';

test('--timeline piped: the waterfall as plain ASCII, every pod ready', { timeout: 120_000 }, async (t) => {
  const { kubeconfig } = await demoWithKubeconfig(t, 'wlx-timeline-');
  let r: WlxResult = { code: -1, stdout: '', stderr: '' };
  const end = Date.now() + 90_000;
  // The demo brings llama-pretrain up in simulated time: print until all are ready.
  while (Date.now() < end) {
    r = await runWlx(['get', 'jobset/llama-pretrain', '-n', 'training', '--timeline', '--kubeconfig', kubeconfig]);
    assert.equal(r.code, 0, r.stderr);
    if (/all ready +\d\d:\d\d:\d\d/.test(r.stdout)) break;
    await sleep(1000);
  }
  const out = r.stdout;
  assert.match(out, /all ready +\d\d:\d\d:\d\d/, out);
  assert.match(out, /^[\x20-\x7e\n]*$/, 'plain ASCII: no escapes, no block glyphs');
  assert.match(
    out,
    /^\.\. waiting to schedule {2}-- pulling {2}== starting {2}## ready {2}S all scheduled \+\S+ {2}R all ready \+\S+$/m,
  );
  const pods = out.split('\n').filter((l) => /^llama-pretrain-\S+ /.test(l));
  assert.equal(pods.length, 3, out);
  // Beside each bar its durations: wait, pull (each pod pulls), start (none when ready as its pull ended), total.
  for (const p of pods)
    assert.match(p, /^llama-pretrain-\S+ +[ .=-]*-[ .=-]*#+ +\d\S*s +\d\S*s +(\d\S*s|-) +\d\S*s$/, p);
  assert.match(out, /^> leader \(1\) /m);
  assert.match(out, /^> worker \(2\) /m);
  // The ruler under the axis labels carries the marks; R (all ready) at its last column.
  assert.match(out, /^ +[-+]*[S*][-+]*R$/m, out);
  assert.match(out, /^pods \(slowest first\) +0s .* wait +pull +start +total$/m);
});

test(
  '`s` on llama-pretrain draws the waterfall: bars, legend, marks',
  { skip: !hasTmux() && 'tmux not installed', timeout: 120_000 },
  async () => {
    const tm = new Tmux(wlxCommand('--demo'), 120, 40, 'wlx-timeline');
    try {
      await tm.waitFor(/workloads\(all\)\[\d+\]/, 'the workloads', 60_000);
      await tm.press('/');
      tm.type('llama-pretrain');
      await tm.press('Enter');
      await tm.waitFor(/workloads\(all\)\[1\/\d+\]/, 'filtered to llama-pretrain');
      await tm.press('s');
      const screen = await tm.waitFor(
        (s) => /R all ready \+\S+/.test(s) && (s.match(/^│llama-pretrain-\S+ +[░▒▓█ ]+█ /gm) ?? []).length === 3,
        'the waterfall, all ready',
        60_000,
      );
      assert.match(
        screen,
        /░░ waiting to schedule {2}▒▒ pulling {2}▓▓ starting {2}██ ready {2}S all scheduled \+\S+ {2}R all ready \+\S+/,
      );
      assert.match(screen, /^│ +[─┬]*[S*][─┬]*R/m);
      assert.match(screen, /^│▸ leader \(1\) +[░▒▓ ]*█+ /m);
      assert.match(screen, /^│▸ worker \(2\) +[░▒▓ ]*█+ /m);
      assert.match(screen, /pods \(slowest first\) +0s .* wait +pull +start +total│/);
      // The bars are coloured by phase: green ready cells.
      assert.match(tm.capture(true), /\x1b\[32m█+/);
      process.stdout.write(`# the s view at 120x40:\n${screen.replace(/^/gm, '# ')}\n`);
    } finally {
      tm.kill();
    }
  },
);

test('--timeline needs one workload and a live cluster: usage errors, exit 2', async () => {
  const bare = await runWlx(['get', '--timeline', '--demo']);
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /--timeline needs one workload: TYPE\/NAME/);
  const dump = await runWlx(['get', 'jobset/x', '--timeline', '--from', '-']);
  assert.equal(dump.code, 2);
  assert.match(dump.stderr, /cannot be combined with --from/);
});
