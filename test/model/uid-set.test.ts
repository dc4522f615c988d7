import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UidIndex, UidSet } from '../../src/model/uid-set.js';

/** A seeded generator (mulberry32), so that a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('UidSet and UidIndex hold what a Set would, in its order, through every shape (one, array, Set and back)', () => {
  for (const seed of [1, 2, 3]) {
    const next = random(seed);
    const set = new UidSet();
    const index = new UidIndex();
    const model = new Set<string>();
    const modelIndex = new Map<string, Set<string>>();
    const sizes: number[] = [];
    // Grows past the array's limit (64) and shrinks to nothing twice: adds win early, removals late.
    for (let step = 0; step < 4000; step++) {
      const phase = Math.floor(step / 1000) % 2;
      const uid = `u${Math.floor(next() * 120)}`;
      const key = `k${Math.floor(next() * 2)}`;
      const adding = phase === 0 ? next() < 0.9 : next() < 0.1;
      if (adding) {
        set.add(uid);
        model.add(uid);
        index.add(key, uid);
        modelIndex.set(key, (modelIndex.get(key) ?? new Set()).add(uid));
      } else {
        set.delete(uid);
        model.delete(uid);
        index.remove(key, uid);
        modelIndex.get(key)?.delete(uid);
        if (modelIndex.get(key)?.size === 0) modelIndex.delete(key);
      }
      sizes.push(model.size);
      assert.deepEqual([...set], [...model], `seed ${seed}, step ${step}`);
      for (const k of ['k0', 'k1']) {
        assert.deepEqual([...index.get(k)], [...(modelIndex.get(k) ?? [])], `seed ${seed}, step ${step}, ${k}`);
        assert.equal(index.has(k), modelIndex.has(k));
      }
    }
    assert.ok(Math.max(...sizes) > 64 && Math.min(...sizes.slice(1000)) < 32, 'the sizes cross both limits');
  }
});

test('an iteration in progress keeps the uids it started with when the set changes as an array', () => {
  const set = new UidSet();
  for (const uid of ['a', 'b', 'c']) set.add(uid);
  const seen: string[] = [];
  for (const uid of set) {
    seen.push(uid);
    set.delete(uid);
  }
  assert.deepEqual(seen, ['a', 'b', 'c']);
  assert.deepEqual([...set], []);
});
