// The explorer's memoised Ink frames (src/ui/ink-frame-memo.ts) must be Ink's
// own frames: with WLX_INK_FRAME_MEMO=verify every get() is compared with
// Ink's and throws on a difference. Random screens change a few rows a frame,
// as the explorer's do, with styles, wide characters, multi-line writes,
// transformers (made again each frame, as Ink's Text makes its own), clipping,
// writes off the screen and overlapping writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';

process.env.WLX_INK_FRAME_MEMO = 'verify';
await import('../../src/ui/ink-frame-memo.js');

interface Output {
  write(
    x: number,
    y: number,
    text: string,
    options: { transformers: ((line: string, index: number) => string)[] },
  ): void;
  clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
}
const Output = (await import(new URL('output.js', import.meta.resolve('ink')).href)).default as new (size: {
  width: number;
  height: number;
}) => Output;

/** A small seeded generator, so that a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = [
  'a',
  'Running',
  ' ',
  '日本',
  '😀',
  '│',
  '\u001b[31mred\u001b[39m',
  '\u001b[1m\u001b[7mbold\u001b[27m\u001b[22m',
];

test('memoised frames are Ink’s frames, frame after frame', () => {
  const next = random(36);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const text = (lines: number) =>
    Array.from({ length: lines }, () =>
      Array.from({ length: Math.floor(next() * 12) }, () => pick(PIECES)).join(''),
    ).join('\n');
  let frames = 0;
  for (const [width, height] of [
    [40, 12],
    [160, 45],
    [39, 12],
  ]) {
    // The screen's writes; each frame changes a few of them, as a model update or a key does.
    const writes = Array.from({ length: height }, (_, y) => ({ x: 0, y, text: text(1), style: 0 }));
    for (let frame = 0; frame < 150; frame++, frames++) {
      for (let c = Math.floor(next() * 3); c > 0; c--) {
        const w = pick(writes);
        w.text = text(next() < 0.2 ? 3 : 1);
        w.x = next() < 0.2 ? Math.floor(next() * width) : 0;
        if (next() < 0.1) w.y = Math.floor(next() * (height + 4)) - 2;
        if (next() < 0.3) w.style = Math.floor(next() * 4);
      }
      const output = new Output({ width, height });
      const clipped = next() < 0.3;
      for (const [i, w] of writes.entries()) {
        if (clipped && i === 3) output.clip({ x1: 2, x2: width - 3, y1: 1, y2: height - 2 });
        const transformers = [
          [],
          [(line: string) => `\u001b[32m${line}\u001b[39m`],
          [(line: string, index: number) => `${index}${line}`],
          [(line: string) => `\u001b[1m${line}\u001b[22m`, (line: string, index: number) => `${index % 2}${line}`],
        ][w.style];
        output.write(w.x, w.y, w.text, { transformers });
        if (clipped && i === height - 3) output.unclip();
      }
      const drawn = output.get();
      assert.equal(drawn.height, height);
    }
  }
  assert.equal(frames, 450);
});

test('a transformer sees each line’s index in its write', () => {
  const output = new Output({ width: 10, height: 2 });
  output.write(0, 0, 'ab\ncd', { transformers: [(line: string, index: number) => `${index}${line}`] });
  assert.equal(output.get().output, '0ab\n1cd');
});
