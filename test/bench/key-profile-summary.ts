// What the UI thread ran during the slowest keys of a key profile (key-profile.ts):
//   node dist/test/bench/key-profile-summary.js FILE [keys]
// Per key: its time, the samples in its window (× 250 µs: time on a core), and
// the functions by self and inclusive time.
import { readFileSync } from 'node:fs';
import type { Profiler } from 'node:inspector';
import { KEY_PROFILE_INTERVAL_US, type KeyProfileFile } from './key-profile.js';
import { frameName } from './profile-frame.js';

const [file, count = '6'] = process.argv.slice(2);
if (!file) throw new Error('usage: key-profile-summary.js FILE [keys]');
const { profile, startedAt, keys } = JSON.parse(readFileSync(file, 'utf8')) as KeyProfileFile;
const byId = new Map<number, Profiler.ProfileNode>(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const nameOf = (n: Profiler.ProfileNode) => frameName(n.callFrame);
let clock = profile.startTime;
const sampleAt = (profile.timeDeltas ?? []).map((d) => startedAt + ((clock += d) - profile.startTime) / 1000);
const ms = (samples: number) => ((samples * KEY_PROFILE_INTERVAL_US) / 1000).toFixed(1);
const top = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, c]) => `${name} ${ms(c)}`)
    .join(' | ');

const slowest = [...keys].sort((a, b) => b.t - b.sent - (a.t - a.sent)).slice(0, Number(count));
for (const key of slowest) {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let samples = 0;
  (profile.samples ?? []).forEach((id, i) => {
    const at = sampleAt[i];
    if (at < key.sent || at > key.t) return;
    samples++;
    const leaf = byId.get(id)!;
    self.set(nameOf(leaf), (self.get(nameOf(leaf)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parentOf.get(n)) {
      const name = nameOf(byId.get(n)!);
      if (seen.has(name) || name.startsWith('(root)')) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
    }
  });
  console.log(`key ${(key.t - key.sent).toFixed(0)} ms: ${samples} samples, ${ms(samples)} ms on a core`);
  console.log(`  self: ${top(self, 8)}`);
  console.log(`  inclusive: ${top(inclusive, 12)}`);
}
console.log(`all keys, ms: ${keys.map((k) => (k.t - k.sent).toFixed(0)).join(' ')}`);
