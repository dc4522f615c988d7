// `:pods` with its rows served the way the engine worker serves them
// (src/ui/state/served-rows.ts, src/ui/state/row-server.ts): the source
// holds no pod, derives the rows with the worker's RowServer and answers each
// request with a window. The explorer draws the same rows, counts and column
// widths as from a whole snapshot; scrolls, filters, sorts and drills from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mountApp, KEY } from './helpers.js';
import { FakeSource, defaultSnapshot, manyPodsSnapshot } from './fixtures.js';
import { PodElision } from '../../src/model/elided-pods.js';
import type { ModelSnapshot, PodScope, WorkloadTree, GpuMetrics } from '../../src/model/types.js';
import { RowServer } from '../../src/ui/state/row-server.js';
import type { RowWindow, RowWindowRequest } from '../../src/ui/state/served-rows.js';
import { filterRows, sortRows, tableForFrame } from '../../src/ui/state/derive.js';
import { longestCells } from '../../src/ui/render/table.js';
import { DEFAULT_IDLE_RULE, indexReadings } from '../../src/model/utilisation.js';
import { gpuReading } from '../model/gpu-fixtures.js';

/** Holds the whole snapshot as the worker does; publishes it elided, with the window of the last request. */
class ServingSource extends FakeSource {
  readonly requests: (RowWindowRequest | null)[] = [];
  private scope: PodScope = 'all';
  private request: RowWindowRequest | null = null;
  private window: RowWindow | undefined;
  private readonly elision = new PodElision();
  private readonly server = new RowServer();
  constructor(private readonly full: ModelSnapshot) {
    super(full);
  }
  override setPodScope(scope: PodScope): void {
    this.scope = scope;
    this.answer();
  }
  serveRows(request: RowWindowRequest | null): void {
    this.requests.push(request);
    this.request = request;
    if (!request) this.window = undefined;
    this.answer();
  }
  rowWindow(): RowWindow | undefined {
    return this.window;
  }
  /** As the worker: a snapshot message per change, the window derived from the whole snapshot. */
  private answer(): void {
    setImmediate(() => {
      if (this.request) this.window = this.server.window(this.full, this.request);
      this.publish({ ...this.elision.apply(this.full, this.scope), version: this.snapshot.version + 1 });
    });
  }
}

const request = (over: Partial<RowWindowRequest> = {}): RowWindowRequest => ({
  id: 1,
  namespace: null,
  sort: null,
  filter: '',
  top: 0,
  page: 20,
  selected: 0,
  selectedKey: null,
  ...over,
});

test('row server: the window is the UI derivation of the whole list, with its counts, widths and the selection', () => {
  const snapshot = manyPodsSnapshot(40, 25, { workload: 2, pod: 2 }, 7);
  const server = new RowServer();
  const all = tableForFrame(snapshot, { kind: 'pods', collapsed: [] }, null, () => []);
  const sort = { key: 'name' as const, desc: true };
  const sorted = sortRows(all.rows, sort, true);
  const w = server.window(snapshot, request({ sort, top: 100, page: 20 }));
  assert.equal(w.total, 1000);
  assert.equal(w.unfiltered, 1000);
  assert.equal(w.from, 60, 'two pages before the visible one');
  assert.equal(w.rows.length, 100, 'those, the visible page and two after it');
  assert.deepEqual(
    w.rows.map((r) => r.key),
    sorted.slice(60, 160).map((r) => r.key),
  );
  assert.deepEqual(w.longest, longestCells(all.columns, sorted));
  const key = sorted[700].key;
  const moved = server.window(snapshot, request({ sort, selected: 3, selectedKey: key }));
  assert.equal(moved.selectedAt, 700, 'the selected row found where it is now');
  assert.ok(moved.from <= 700 && moved.from + moved.rows.length > 700, 'the window is around it');
  const filtered = server.window(snapshot, request({ filter: 'wl-07-pod-1' }));
  assert.equal(filtered.total, filterRows(all.rows, 'wl-07-pod-1').rows.length);
  assert.equal(filtered.total, 10);
  assert.equal(
    server.window(snapshot, request({ filter: '(' })).filterError !== undefined,
    true,
    'a bad regex says so',
  );
});

test("row server: unsorted and unfiltered, the window is assembled from each workload's rows, and is the same", () => {
  const base = manyPodsSnapshot(60, 50, { workload: 2, pod: 2 }, 7);
  const metrics: GpuMetrics = {
    readings: indexReadings([gpuReading('gpu-node-3/0', 42, ['training/wl-30-pod-03'])]),
    notice: null,
    scrapedAt: 1_000_000,
    idle: DEFAULT_IDLE_RULE,
  };
  for (const snapshot of [base, { ...base, gpuMetrics: metrics }]) {
    const derived = tableForFrame(snapshot, { kind: 'pods', collapsed: [] }, null, () => []);
    const server = new RowServer();
    for (const top of [0, 1480, 2990]) {
      const w = server.window(snapshot, request({ top, page: 20 }));
      const from = Math.max(0, top - 40);
      assert.equal(w.total, 3000);
      assert.equal(w.from, from);
      assert.deepEqual(w.rows, derived.rows.slice(from, Math.min(3000, top + 60)), `rows around ${top}`);
      assert.deepEqual(w.columns, derived.columns);
      assert.deepEqual(w.longest, longestCells(derived.columns, derived.rows));
    }
    const key = derived.rows[2500].key;
    assert.equal(server.window(snapshot, request({ selected: 7, selectedKey: key })).selectedAt, 2500);
    const ns = server.window(snapshot, request({ namespace: 'elsewhere' }));
    assert.equal(ns.total, 0, 'another namespace: none');
  }
  const util = new RowServer().window({ ...base, gpuMetrics: metrics }, request({ top: 1500 }));
  assert.match(util.rows.find((r) => r.cells[1] === 'wl-30-pod-03')?.cells.join(' ') ?? '', /42%/);
});

test('row server: unsorted, the widths follow a change of a sampled workload (head or tail), not only the first answer', () => {
  const base = manyPodsSnapshot(60, 50, { workload: 2, pod: 2 }, 7);
  const server = new RowServer();
  const nameAt = (t: { columns: { name: string }[] }) => t.columns.findIndex((c) => c.name === 'NAME');
  const first = server.window(base, request());
  const derived = tableForFrame(base, { kind: 'pods', collapsed: [] }, null, () => []);
  assert.deepEqual(first.longest, longestCells(derived.columns, derived.rows));
  // Rename one pod of the first and of the last workload: both are in the sampled head and tail.
  const renamed = (w: WorkloadTree, name: string): WorkloadTree => ({
    ...w,
    roles: w.roles.map((r, i) => (i === 0 ? { ...r, pods: r.pods.map((p, k) => (k === 0 ? { ...p, name } : p)) } : r)),
  });
  const workloads = base.workloads.slice();
  workloads[0] = renamed(workloads[0], 'p'.repeat(44));
  const head = { ...base, workloads };
  const afterHead = server.window(head, request());
  assert.equal(afterHead.longest[nameAt(afterHead)], 44, 'a longer name in the head widens NAME');
  const tail = { ...head, workloads: head.workloads.map((w, i) => (i === 59 ? renamed(w, 'q'.repeat(48)) : w)) };
  const afterTail = server.window(tail, request());
  assert.equal(afterTail.longest[nameAt(afterTail)], 48, 'and one in the tail');
  const again = server.window({ ...tail, version: tail.version + 1 }, request());
  assert.deepEqual(again.longest, afterTail.longest, 'unchanged workloads: the same widths');
});

test('served :pods: the same view as from the whole snapshot; scroll, filter, sort and drill from the window', async () => {
  const source = new ServingSource(manyPodsSnapshot(50, 20, { workload: 2, pod: 2 }, 5));
  const h = await mountApp({ source });
  try {
    await h.press(':', 'p', 'o', 'd', 's', KEY.enter);
    let f = await h.waitFor((x) => x.includes('pods(all)[1000]'), 'the served list');
    assert.ok(
      source.snapshot.workloads.every((w) => w.podsElided),
      'no pod crossed: the rows did',
    );
    assert.match(f, /training\s+wl-00-pod-00\s+Running\s+1\/1\s+0\s+1 gpu-node-0/);
    const whole = await mountApp({ source: new FakeSource(manyPodsSnapshot(50, 20, { workload: 2, pod: 2 }, 5)) });
    try {
      await whole.press(':', 'p', 'o', 'd', 's', KEY.enter);
      const g = await whole.waitFor((x) => x.includes('pods(all)[1000]'), 'the list from the whole snapshot');
      assert.equal(f, g, 'drawn the same, column widths included');
    } finally {
      whole.unmount();
    }

    await h.press('G');
    f = await h.waitFor((x) => x.includes('wl-49-pod-19'), 'the last row, from a window asked for');
    assert.doesNotMatch(f, /wl-00-pod-00/);
    await h.press('g');
    await h.waitFor((x) => x.includes('wl-00-pod-00'), 'back to the top');

    await h.press('/', 'w', 'l', '-', '1', '2', KEY.enter);
    f = await h.waitFor((x) => x.includes('pods(all)[20/1000]'), 'filtered in the worker');
    assert.match(f, /wl-12-pod-07/);
    assert.doesNotMatch(f, /wl-11-/);
    const last = source.requests.at(-1);
    assert.equal(last?.filter, 'wl-12');

    await h.press('j', 'j', KEY.enter);
    await h.waitFor((x) => x.includes('node(gpu-node-2)'), 'Enter on a pod row: its node');
    await h.waitFor((x) => x.includes('wl-00-pod-02'), 'the node view, its pods loaded');
    await h.press(KEY.esc);
    await h.waitFor((x) => x.includes('pods(all)[20/1000]'), 'back, the window still there');
    await h.press('w');
    f = await h.waitFor((x) => /why pod\/training\/wl-12-pod-02/.test(x), 'why on a pod row of the window');
    assert.deepEqual(source.requests.at(-1), null, 'another view: the request withdrawn');
  } finally {
    h.unmount();
  }
});

test('served :pods: a sort asks again, and the view waits for rows of that order rather than draw the old ones', async () => {
  const source = new ServingSource(defaultSnapshot());
  const h = await mountApp({ source });
  try {
    await h.press(':', 'p', 'o', 'd', 's', KEY.enter);
    await h.waitFor((x) => x.includes('pods(all)[12]'), 'the list');
    await h.press('N');
    await h.waitFor((x) => x.includes('NAME↑') || x.includes('NAME↓'), 'sorted by name');
    assert.ok(source.requests.at(-1)?.sort, 'the sort reached the row server');
  } finally {
    h.unmount();
  }
});
