// Sums a sampling heap profile (.heapprofile, e.g. the engine worker's
// alloc.heapprofile: src/app/worker/heap-trace.ts) by function, self and inclusive:
//   node dist/test/bench/heap-profile-summary.js FILE [rows]
import { readFileSync } from 'node:fs';
import { frameName, type ProfileCallFrame } from './profile-frame.js';

interface ProfileNode {
  callFrame: ProfileCallFrame;
  selfSize: number;
  children: ProfileNode[];
}

const [file, rows = '30'] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-profile-summary.js FILE.heapprofile [rows]');
const head = (JSON.parse(readFileSync(file, 'utf8')) as { head: ProfileNode }).head;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
const nameOf = (n: ProfileNode) => frameName(n.callFrame);
const walk = (n: ProfileNode, stack: readonly string[]) => {
  const name = nameOf(n);
  total += n.selfSize;
  self.set(name, (self.get(name) ?? 0) + n.selfSize);
  const here = stack.includes(name) ? stack : [...stack, name];
  for (const s of here) inclusive.set(s, (inclusive.get(s) ?? 0) + n.selfSize);
  for (const c of n.children) walk(c, here);
};
walk(head, []);
const show = (title: string, m: Map<string, number>) => {
  console.log(`-- ${title}`);
  for (const [name, bytes] of [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(rows)))
    console.log(
      `${(bytes / 2 ** 20).toFixed(1).padStart(8)} MB ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${name}`,
    );
};
console.log(`sampled ${(total / 2 ** 20).toFixed(1)} MB`);
show('self', self);
show('inclusive', inclusive);
