// Frames that cost what changed. Ink 6.8's Output.get() builds every cell of
// the screen again for each frame (a cell object per column; each written line
// tokenised again: its caches last one frame), so a frame that changed one row
// cost the whole 160×45 screen: ~20 ms of CPU under load, ~2 % of a core per
// frame a second (test/bench/README.md, "The everyday cluster"). This replaces
// it, in the explorer's process, with one that has Ink's own get() draw only
// the rows whose writes changed since the previous frame, each alone. The
// output is the same: a row is a pure function of the writes that land on it,
// in order (WLX_INK_FRAME_MEMO=verify checks it against Ink's on every frame;
// =0 leaves Ink's). The state below is the
// previous frame's rows (one screen per process): the reason this file holds
// state at module level.
import { isMainThread } from 'node:worker_threads';

interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}
type Operation =
  | { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] }
  | { type: 'clip'; clip: Clip }
  | { type: 'unclip' };
type Transformer = (line: string, index: number) => string;
/** A line of a write that lands on a row: where, clipped how, and transformed as Ink would (index in its write). */
interface RowWrite {
  x: number;
  line: string;
  index: number;
  clip: Clip | undefined;
  /** The write's other lines (Ink skips an empty write, and a clipped one by its widest line). */
  others: string[];
  /** With a horizontal clip: the width of the write's widest line. */
  widest: number;
  transformers: Transformer[];
}
interface OutputLike {
  width: number;
  height: number;
  operations: Operation[];
  caches: { getWidestLine(text: string): number };
  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void;
  clip(clip: Clip): void;
  get(): { output: string; height: number };
}
type OutputClass = (new (size: { width: number; height: number }) => OutputLike) & { prototype: OutputLike };

/** Installs the memoised Output.get (once; not with WLX_INK_FRAME_MEMO=0). */
async function install(mode: string | undefined): Promise<void> {
  if (mode === '0') return;
  // The module Ink itself loaded (the loader keys modules by their real path).
  const Output = (await import(new URL('output.js', import.meta.resolve('ink')).href)).default as OutputClass;
  const inkGet = Output.prototype.get;
  // The previous frame: each row's writes and the line Ink made of them.
  let previous = { width: -1, keys: [] as string[], rows: [] as string[] };

  /** One row drawn by Ink's own get(): its lines written as in the frame, clipped and transformed by Ink. */
  const drawRow = (width: number, writes: RowWrite[]) => {
    const row = new Output({ width, height: 1 });
    for (const { x, line, index, clip, others, transformers } of writes) {
      if (clip) row.clip({ x1: clip.x1, x2: clip.x2 });
      // The write's other lines fall below this one-row screen: there only for Ink's tests of the whole text.
      const text = [line, ...others].join('\n');
      row.write(x, 0, text, { transformers: transformers.map((t) => (l: string) => t(l, index)) });
      if (clip) row.operations.push({ type: 'unclip' });
    }
    return inkGet.call(row).output;
  };
  /** What a row's line draws: the line as its transformers make it (a style change changes it), where, clipped how. */
  const keyOf = (w: RowWrite) => {
    let line = w.line;
    for (const t of w.transformers) line = t(line, w.index);
    return `${w.x}\u0000${w.clip ? `${w.clip.x1},${w.clip.x2},${w.widest}` : ''}\u0000${line}\u0001`;
  };

  const memoGet = function get(this: OutputLike) {
    const rowWrites: RowWrite[][] = Array.from({ length: this.height }, () => []);
    const clips: Clip[] = [];
    for (const operation of this.operations) {
      if (operation.type === 'clip') clips.push(operation.clip);
      else if (operation.type === 'unclip') clips.pop();
      else {
        const clip = clips.at(-1);
        const horizontal = clip && typeof clip.x1 === 'number' && typeof clip.x2 === 'number' ? clip : undefined;
        const vertical = clip && typeof clip.y1 === 'number' && typeof clip.y2 === 'number' ? clip : undefined;
        const lines = operation.text.split('\n');
        // Ink keeps the lines of a write from clip.y1 up to (not including) clip.y2, and none of a write
        // whose first kept line is above the screen; a transformer sees a line's index among those kept.
        const first = vertical ? Math.max(operation.y, vertical.y1!) : operation.y;
        const end = vertical ? Math.min(operation.y + lines.length, vertical.y2!) : operation.y + lines.length;
        if (first < 0) continue;
        const widest = horizontal ? this.caches.getWidestLine(operation.text) : 0;
        for (let y = first; y < end; y++)
          rowWrites[y]?.push({
            x: operation.x,
            line: lines[y - operation.y],
            index: y - first,
            clip: horizontal,
            others: lines.filter((_, i) => i !== y - operation.y),
            widest,
            transformers: operation.transformers,
          });
      }
    }
    if (previous.width !== this.width) previous = { width: this.width, keys: [], rows: [] };
    const keys: string[] = [];
    const rows: string[] = [];
    for (let y = 0; y < this.height; y++) {
      let key = '';
      for (const w of rowWrites[y]) key += keyOf(w);
      keys.push(key);
      rows.push(previous.keys[y] === key ? previous.rows[y] : drawRow(this.width, rowWrites[y]));
    }
    previous = { width: this.width, keys, rows };
    return { output: rows.join('\n'), height: this.height };
  };
  Output.prototype.get =
    mode === 'verify'
      ? function verified(this: OutputLike) {
          const ours = memoGet.call(this);
          const ink = inkGet.call(this);
          if (ours.output !== ink.output || ours.height !== ink.height) {
            const a = ours.output.split('\n');
            const b = ink.output.split('\n');
            const row = a.findIndex((line, y) => line !== b[y]);
            throw new Error(
              `WLX_INK_FRAME_MEMO=verify: row ${row} differs from Ink's: ${JSON.stringify(a[row])} against ${JSON.stringify(b[row])}`,
            );
          }
          return ours;
        }
      : memoGet;
}

if (isMainThread) await install(process.env.WLX_INK_FRAME_MEMO);
