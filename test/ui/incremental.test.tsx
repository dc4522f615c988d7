// Work proportional to what changed on screen, counted (not timed): a
// snapshot that changes only off-screen pods draws no frame, one that changes
// a visible pod redraws it, and in both cases only the changed pod's row is
// rebuilt and re-measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelSnapshot, PodSummary } from '../../src/model/types.js';
import { newWorkCounters } from '../../src/ui/render/row-cache.js';
import { mountApp, sleep, KEY } from './helpers.js';

/** Waits (a turn of the event loop at a time) until `done` holds; fails after 2 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}
import { FakeSource, defaultSnapshot, manyPodsSnapshot, pod } from './fixtures.js';

const WORKLOADS = 50;
const PODS = 20;

function bigSnapshot(): ModelSnapshot {
  return manyPodsSnapshot(WORKLOADS, PODS, { workload: 2, pod: 2 }, 5);
}

/** The next snapshot with one pod replaced (new objects along its path, everything else shared). */
function withPod(s: ModelSnapshot, wi: number, pi: number, over: Partial<PodSummary>): ModelSnapshot {
  const workloads = s.workloads.slice();
  const w = workloads[wi];
  const r = w.roles[0];
  const pods = r.pods.slice();
  pods[pi] = { ...pods[pi], ...over };
  workloads[wi] = { ...w, roles: [{ ...r, pods }] };
  return { ...s, version: s.version + 1, workloads, changedWorkloads: [w.uid] };
}

test('a snapshot changing an off-screen pod draws nothing; a visible pod is redrawn; only its row is rebuilt', async () => {
  let s = bigSnapshot();
  const source = new FakeSource(s);
  const work = newWorkCounters();
  const h = await mountApp({ source, size: { columns: 120, rows: 30 }, work });
  try {
    await h.press(':', 'p', 'o', 'd', 's', KEY.enter);
    await h.waitFor((f) => f.includes(`pods(all)[${WORKLOADS * PODS}]`), 'all pods');
    await sleep(150);

    // Off screen: the last workload's pods are rows 980..999; 21 rows are visible.
    const frames = h.frames.length;
    const built = work.podRowsBuilt;
    const measured = work.cellMeasures;
    const lists = { ...work };
    s = withPod(s, WORKLOADS - 1, 3, { restarts: 41 });
    source.publish(s);
    // The snapshot's screen is built (its row rebuilt) when the draw gate decides; no frame is asked for.
    await until(() => work.podRowsBuilt - built === 1, 'the off-screen change taken in');
    assert.equal(work.podRowsBuilt - built, 1, 'one pod changed: one row rebuilt');
    assert.equal(work.cellMeasures - measured, 9, 'one row re-measured (9 cells)');
    assert.equal(work.allPodsRebuilds, lists.allPodsRebuilds, 'the 1,000-row list is not rebuilt');
    assert.equal(work.allPodsPatches - lists.allPodsPatches, 1, 'it is patched once, in place');

    // On screen: the first pod's restarts appear on its row.
    s = withPod(s, 0, 0, { restarts: 42 });
    source.publish(s);
    const f = await h.waitFor((x) => /wl-00-pod-00\s+Running\s+1\/1\s+42\b/.test(x), 'the visible pod redrawn');
    assert.equal(h.frames.length, frames + 1, 'no frame for the change nobody can see: the next one is this');
    assert.match(f, /wl-00-pod-01\s+Running\s+1\/1\s+0\b/, 'its neighbour unchanged');
    assert.equal(work.podRowsBuilt - built, 2, 'two pods changed in all: two rows rebuilt');
  } finally {
    h.unmount();
  }
});

test('the clock draws a frame only when a visible age or highlight changes', async (t) => {
  // The explorer's once-a-second tick on node:test's mock timers, its clock a test clock: Ink's own timers and
  // Date stay real (Ink's render throttle reads Date.now).
  let nowMs = Date.now();
  const clock = () => nowMs;
  const tick = () => {
    nowMs += 1000;
    t.mock.timers.tick(1000);
  };
  // Every age here is months old: a tick changes nothing on screen.
  t.mock.timers.enable({ apis: ['setInterval'] });
  const h = await mountApp({ source: new FakeSource(bigSnapshot()), size: { columns: 120, rows: 30 }, clock });
  try {
    await sleep(200); // the first frames settle (a late one here fails the count below, never passes it)
    const frames = h.frames.length;
    tick();
    tick();
    // `/` opens the filter prompt: a tick that changed the screen would have drawn a frame before this key's.
    await h.press('/');
    await h.waitFor((f) => f.includes('Esc clears'), 'the filter prompt');
    assert.ok(h.frames[frames].includes('Esc clears'), "two ticks, nothing to redraw: the next frame is the key's");
  } finally {
    h.unmount();
  }
  // A pod created just now: its age counts seconds, so each tick redraws it.
  const fresh = bigSnapshot();
  const w0 = fresh.workloads[0];
  fresh.workloads[0] = {
    ...w0,
    roles: [
      { ...w0.roles[0], pods: [pod('fresh-pod', { createdAt: new Date(nowMs).toISOString() }), ...w0.roles[0].pods] },
    ],
  };
  const h2 = await mountApp({ source: new FakeSource(fresh), size: { columns: 120, rows: 30 }, clock });
  try {
    await h2.press(':', 'p', 'o', 'd', 's', KEY.enter);
    await h2.waitFor((f) => /fresh-pod.*\b0s\b/.test(f), 'the fresh pod, 0s old');
    tick();
    await h2.waitFor((f) => /fresh-pod.*\b1s\b/.test(f), 'a tick later, 1s old');
    tick();
    await h2.waitFor((f) => /fresh-pod.*\b2s\b/.test(f), 'two ticks later, 2s old');
  } finally {
    h2.unmount();
  }
});

test('a change to the header figures alone is drawn at most every 500 ms, and the latest figures always are', async () => {
  const source = new FakeSource(defaultSnapshot());
  const h = await mountApp({ source, frameIntervalMs: 10 });
  try {
    await sleep(600);
    const before = h.frames.length;
    // 20 snapshots over ~400 ms that change only the header's GPU figures.
    const t0 = Date.now();
    for (let v = 2; v <= 21; v++) {
      const s = defaultSnapshot(v);
      s.totals.gpuRequested = 100 + v;
      source.publish(s);
      await sleep(20);
    }
    const spent = Date.now() - t0;
    await h.waitFor((x) => x.includes('GPUs: 121/48'), 'the last figures');
    const drawn = h.frames.length - before;
    // One frame at once, then at most one per 500 ms (a loaded machine may stretch the burst).
    const bound = 2 + Math.floor(spent / 500);
    assert.ok(
      drawn >= 1 && drawn <= bound,
      `20 header-only snapshots in ${spent} ms drew ${drawn} frames (at most ${bound})`,
    );
  } finally {
    h.unmount();
  }
});

test('a sorted list re-sorts incrementally when a few rows change, with the order a full sort gives', async () => {
  const { ViewMemo } = await import('../../src/ui/state/memo.js');
  const { sortRows } = await import('../../src/ui/state/derive.js');
  type Row = import('../../src/ui/render/table.js').Row;
  const statuses = ['0Failed', '1Pending', '2Running', '3Completed'];
  const mk = (i: number, status: string, gpus: number | null, name = `ns/pod-${String(i).padStart(5, '0')}`): Row => ({
    key: `k${i}`,
    cells: [name, status],
    tone: 'normal',
    createdMs: 1_000_000 + ((i * 7919) % 5000),
    sort: { name, status, gpus },
  });
  let rows: Row[] = Array.from({ length: 5000 }, (_, i) => mk(i, statuses[(i * 31) % 4], i % 8));
  // Ties: two rows with the same name and status (a stable sort orders them by input order).
  rows[10] = mk(10, '2Running', 1, 'ns/twin');
  rows[20] = mk(20, '2Running', 1, 'ns/twin');
  for (const sort of [
    { key: 'status', desc: false },
    { key: 'name', desc: true },
    { key: 'gpus', desc: true },
    { key: 'age', desc: false },
  ] as const) {
    const memo = new ViewMemo();
    let input = rows;
    assert.deepEqual(memo.sortedRows(input, true, sort), sortRows(input, sort, true));
    for (const changes of [
      [[5, '0Failed']],
      [
        [7, '3Completed'],
        [8, '2Running'],
        [4000, '1Pending'],
      ],
      [[20, '0Failed']],
      [[30, statuses[(30 * 31) % 4]]],
    ] as [number, string][][]) {
      const next = input.slice();
      for (const [i, status] of changes) next[i] = mk(i, status, input[i].sort.gpus, input[i].sort.name);
      input = next;
      assert.deepEqual(
        memo.sortedRows(input, true, sort),
        sortRows(input, sort, true),
        `${sort.key} after ${JSON.stringify(changes)}`,
      );
    }
    assert.equal(memo.sortStats.full + memo.sortStats.incremental, 5);
    assert.ok(memo.sortStats.incremental >= 3, `${sort.key}: ${JSON.stringify(memo.sortStats)}`);
  }
  rows = [];
});
