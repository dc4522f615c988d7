// `wlx get TYPE/NAME --timeline` as text (src/cli/timeline-text.ts): plain
// ASCII bars when piped or NO_COLOR, block glyphs in ANSI colours on a
// terminal, laid out for the given width.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PIPE_WIDTH, timelineText, timelineTextOptions } from '../../src/cli/timeline-text.js';
import { T0, podAt, timelineOf } from '../ui/waterfall-fixtures.js';

const timeline = () =>
  timelineOf(
    [
      podAt('llama-worker-0', 'worker', { sched: 2, pull: 20, start: 25, ready: 30 }),
      podAt('llama-leader-0', 'leader', { sched: 1, pull: 10, start: 12, ready: 15 }),
      podAt('llama-worker-1', 'worker', {}),
    ],
    ['leader', 'worker'],
    40,
  );

test('timeline text: plain ASCII when piped, one bar per pod, the width respected', () => {
  const text = timelineText(timeline(), T0 + 40_000, { width: 100, colour: false });
  assert.match(text, /^[\x20-\x7e\n]*$/, text);
  assert.ok(text.endsWith('\n'));
  const lines = text.split('\n');
  for (const l of lines) if (!l.startsWith('  waiting:')) assert.ok(l.length <= 100, l);
  assert.match(
    text,
    /^\.\. waiting to schedule {2}-- pulling {2}== starting {2}## ready {2}S all scheduled not yet\nR all ready not yet {2}numbers: time waiting, pulling, starting; total to ready$/m,
  );
  // Waiting first, then the slowest.
  const rows = lines.filter((l) => /^llama-/.test(l)).map((l) => l.split(' ')[0]);
  assert.deepEqual(rows, ['llama-worker-1', 'llama-worker-0', 'llama-leader-0']);
  assert.match(
    lines.find((l) => l.startsWith('llama-worker-1'))!,
    /^llama-worker-1 +\.+ +40s +- +- +-$/,
  );
  assert.match(
    lines.find((l) => l.startsWith('llama-worker-0'))!,
    /^llama-worker-0 +\.+-+=+#+ +2\.0s +20s +8\.0s +30s$/,
  );
  assert.match(text, /^ {2}waiting: Unschedulable: 0\/4 nodes are available$/m);
  assert.match(text, /^> worker \(2\) +\.+ /m);
  // The milestones and role table come first, as in the s view.
  assert.match(text, /^startup of ns\/llama\n {2}created {14}10:00:00 {2}\+0\.0s/);
});

test('timeline text: colour on a terminal (block glyphs, a colour per phase), never with NO_COLOR', () => {
  const text = timelineText(timeline(), T0 + 40_000, { width: 120, colour: true });
  assert.match(text, /\x1b\[33m░+\x1b\[0m\x1b\[36m▒+\x1b\[0m\x1b\[35m▓+\x1b\[0m\x1b\[32m█+\x1b\[0m/);
  assert.deepEqual(timelineTextOptions({ isTTY: true, columns: 150 }, {}), { width: 150, colour: true });
  assert.deepEqual(timelineTextOptions({ isTTY: true, columns: 150 }, { NO_COLOR: '1' }), {
    width: 150,
    colour: false,
  });
  assert.deepEqual(timelineTextOptions({ isTTY: false }, {}), { width: PIPE_WIDTH, colour: false });
});

test('timeline text: more pods than the summary threshold get p50 / p90 / max bands', () => {
  const pods = Array.from({ length: 60 }, (_, i) =>
    podAt(`w-${i}`, 'worker', { sched: i, start: i + 3, ready: i + 5 }),
  );
  const text = timelineText(timelineOf(pods, ['worker'], 100), T0 + 100_000, { width: 90, colour: false });
  assert.match(text, /^worker p50 +\.+=+ +29s +0\.0s +5\.0s +34s$/m);
  assert.match(text, /^worker max +\.+=+ +59s +0\.0s +5\.0s +1m04s$/m);
  assert.equal(text.split('\n').filter((l) => /^w-\d+ /.test(l)).length, 60);
});
