// Terminal restore, NO_COLOR and change highlighting: the pieces around the views.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardTerminal, ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, SHOW_CURSOR } from '../../src/ui/terminal.js';
import { noColorRequested, toneStyle } from '../../src/ui/components/theme.js';
import { ChangeHighlights } from '../../src/ui/state/highlights.js';
import { charKeyName } from '../../src/ui/hooks/useKeymap.js';

function fakeTerminal() {
  const written: string[] = [];
  const rawModes: boolean[] = [];
  const stdout = { write: (s: string) => (written.push(s), true), isTTY: true } as unknown as NodeJS.WriteStream;
  const stdin = { isTTY: true, setRawMode: (b: boolean) => (rawModes.push(b), stdin) } as unknown as NodeJS.ReadStream;
  return { written, rawModes, stdout, stdin };
}

test('the alternate screen is entered, and left exactly once on SIGTERM; handlers are removed', () => {
  const term = fakeTerminal();
  const signals: string[] = [];
  const before = process.listenerCount('SIGTERM');
  const guard = guardTerminal({
    ...term,
    altScreen: true,
    onSignal: (s) => signals.push(s),
    onCrash: () => assert.fail('no crash'),
  });
  assert.equal(term.written[0], ENTER_ALT_SCREEN);
  assert.equal(process.listenerCount('SIGTERM'), before + 1);
  process.emit('SIGTERM', 'SIGTERM');
  assert.deepEqual(signals, ['SIGTERM']);
  const restoreWrites = term.written.slice(1).join('');
  assert.ok(restoreWrites.includes(LEAVE_ALT_SCREEN) && restoreWrites.includes(SHOW_CURSOR));
  assert.deepEqual(term.rawModes, [false]);
  guard.restore();
  assert.equal(term.written.length, 2, 'restore is idempotent');
  guard.dispose();
  assert.equal(process.listenerCount('SIGTERM'), before);
});

test('a crash restores the terminal before reporting', () => {
  const term = fakeTerminal();
  let seen: unknown;
  let restoredFirst = false;
  const guard = guardTerminal({
    ...term,
    altScreen: true,
    onSignal: () => assert.fail('no signal'),
    onCrash: (e) => {
      seen = e;
      restoredFirst = term.written.join('').includes(LEAVE_ALT_SCREEN);
    },
  });
  // Call our handler directly: emitting 'uncaughtException' would reach the test runner's own.
  const handler = process.listeners('uncaughtException').at(-1) as (e: Error) => void;
  const boom = new Error('boom');
  handler(boom);
  assert.equal(seen, boom);
  assert.ok(restoredFirst);
  guard.dispose();
});

test('NO_COLOR set (non-empty) turns colours off', () => {
  assert.equal(noColorRequested({ NO_COLOR: '1' }), true);
  assert.equal(noColorRequested({ NO_COLOR: '' }), false);
  assert.equal(noColorRequested({}), false);
  assert.deepEqual(toneStyle('error', true), {});
  assert.deepEqual(toneStyle('error', false), { color: 'red' });
  assert.deepEqual(toneStyle('ok', false), { color: 'green' });
  assert.deepEqual(toneStyle('warn', false), { color: 'yellow' });
  assert.deepEqual(toneStyle('dim', false), { dimColor: true });
});

test('changed workloads stay highlighted for a while; the initial snapshot is not a change', () => {
  const h = new ChangeHighlights(1000);
  h.note(1, ['a'], 0);
  assert.deepEqual([...h.active(0)], []);
  h.note(2, ['a', 'b'], 100);
  assert.deepEqual([...h.active(500)].sort(), ['a', 'b']);
  h.note(2, ['c'], 600);
  assert.ok(!h.active(600).has('c'), 'same version noted once');
  h.note(3, ['b'], 900);
  assert.deepEqual([...h.active(1200)], ['b']);
  assert.deepEqual([...h.active(2000)], []);
});

test('key chunks split into key names', () => {
  assert.deepEqual([...'/ab\r\t\u007f\u001b\u0006 '].map(charKeyName), [
    '/',
    'a',
    'b',
    'enter',
    'tab',
    'backspace',
    'esc',
    'ctrl-f',
    'space',
  ]);
});
