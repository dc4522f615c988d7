// Rows per view: renderers, sorting, filtering, sanitising.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explorerWorkloads, findWorkload, tableForFrame, sortRows, filterRows } from '../../src/ui/state/derive.js';
import { RowCache } from '../../src/ui/render/row-cache.js';
import { UNATTRIBUTED } from '../../src/model/role-name.js';
import { roleTable, findPodRolePath } from '../../src/ui/render/roles.js';
import { layoutColumns, formatLine, fit, displayWidth } from '../../src/ui/render/table.js';
import { WORKLOAD_COLUMNS, workloadTable } from '../../src/ui/render/workloads.js';
import { formatAge } from '../../src/ui/render/format.js';
import { connectionHeadline } from '../../src/ui/render/header.js';
import { summariseConnection } from '../../src/kube/snapshot.js';
import type { KindState } from '../../src/model/types.js';
import { defaultSnapshot, FakeSource, pod, role, workload, HOSTILE_NAME } from './fixtures.js';

const frame = (over: object) => ({ kind: 'workloads' as const, collapsed: [], ...over });

test('workloads table: one row per workload, namespace scope, READY/GPUS/NODES', () => {
  const s = defaultSnapshot();
  const all = tableForFrame(s, frame({}), null, () => []);
  assert.equal(all.rows.length, 5);
  const llama = all.rows.find((r) => r.cells[1] === 'llama-pretrain')!;
  assert.deepEqual(llama.cells.slice(0, 7), ['training', 'llama-pretrain', 'JobSet', 'Running', '3/3', '12/12', '3']);
  assert.equal(llama.tone, 'ok');
  assert.equal(all.rows.find((r) => r.cells[1] === 'broken-finetune')!.tone, 'error');
  assert.equal(all.rows.find((r) => r.cells[1] === 'stuck-pretrain')!.tone, 'warn');
  assert.equal(tableForFrame(s, frame({}), 'default', () => []).rows.length, 1);
});

test('role tree: nested roles indent, collapse hides children, unattributed pods get a row', () => {
  const w = workload(
    'lws',
    [
      role('group', [], {
        instance: '0',
        roles: [role('leader', [pod('lws-0')]), role('worker', [pod('lws-0-1')])],
      }),
    ],
    { unattributedPods: [pod('stray', { node: 'gpu-node-09' })] },
  );
  const open = roleTable(w, new Set());
  assert.deepEqual(
    open.rows.map((r) => r.cells[0]),
    ['▾ group[0]', '    leader', '    worker', '  (unattributed)'],
  );
  assert.equal(open.rows[0].cells[3], '2', 'a parent counts its subtree pods');
  const closed = roleTable(w, new Set([open.rows[0].treeKey!]));
  assert.deepEqual(
    closed.rows.map((r) => r.cells[0]),
    ['▸ group[0]', '  (unattributed)'],
  );
  assert.deepEqual(findPodRolePath(w, 'uid-lws-0-1')!.length, 2);
  assert.deepEqual(findPodRolePath(w, 'uid-stray'), [UNATTRIBUTED]);
  assert.equal(findPodRolePath(w, 'nope'), null);
});

test('pods of a role, and of a vanished role', () => {
  const s = defaultSnapshot();
  const llama = s.workloads[0];
  const t = roleTable(llama, new Set());
  const worker = t.rows[1].target;
  assert.equal(worker?.kind, 'pods');
  const pods = tableForFrame(
    s,
    { kind: 'pods', collapsed: [], workloadUid: llama.uid, rolePath: worker.kind === 'pods' ? worker.rolePath : [] },
    null,
    () => [],
  );
  assert.deepEqual(
    pods.rows.map((r) => r.cells[0]),
    ['llama-pretrain-worker-0-0', 'llama-pretrain-worker-1-0'],
  );
  const gone = tableForFrame(
    s,
    { kind: 'pods', collapsed: [], workloadUid: llama.uid, rolePath: ['nope'] },
    null,
    () => [],
  );
  assert.equal(gone.missing, 'role no longer exists');
  const all = tableForFrame(s, { kind: 'pods', collapsed: [] }, 'training', () => []);
  assert.equal(all.rows.length, 3 + 4 + 1 + 3);
});

test('node view groups pods by workload, unowned pods last', () => {
  const src = new FakeSource();
  const t = tableForFrame(src.snapshot, { kind: 'node', collapsed: [], nodeName: 'gpu-node-01' }, null, (n) =>
    src.getNodePods(n),
  );
  const groups = t.rows.filter((r) => r.tone === 'group').map((r) => r.cells[0]);
  assert.deepEqual(groups, ['JobSet training/llama-pretrain', 'PyTorchJob training/broken-finetune', '(no workload)']);
  const lonely = t.rows.find((r) => r.cells[0].includes('lonely-debug'))!;
  assert.equal(lonely.target, undefined, 'an unowned pod has no workload to jump to');
  const leader = t.rows.find((r) => r.cells[0].includes('llama-pretrain-leader'))!;
  assert.equal(leader.target?.kind, 'podInWorkload');
});

test('sorting by name, status, GPUs and age; unsortable views keep order', () => {
  const rows = workloadTable(defaultSnapshot().workloads, null).rows;
  const names = (rs: readonly { cells: string[] }[]) => rs.map((r) => r.cells[1]);
  assert.deepEqual(names(sortRows(rows, { key: 'name', desc: false }, true)).slice(0, 2), [
    HOSTILE_NAME.replace(/\u001b/g, '\\e')
      .replace('\u0007', '\\x07')
      .replace('\u202e', '\\u{202e}'),
    'bert-finetune',
  ]);
  assert.equal(names(sortRows(rows, { key: 'status', desc: false }, true))[0], 'broken-finetune', 'most severe first');
  assert.equal(names(sortRows(rows, { key: 'gpus', desc: true }, true))[0], 'llama-pretrain');
  assert.equal(names(sortRows(rows, { key: 'age', desc: false }, true))[0], 'broken-finetune', 'newest first');
  assert.equal(sortRows(rows, { key: 'name', desc: false }, false), rows);
  assert.notEqual(sortRows(rows, { key: 'name', desc: false }, true), rows, 'sorting copies');
});

test('filter: regex, case-insensitive, inverted, invalid falls back to literal', () => {
  const rows = workloadTable(defaultSnapshot().workloads, null).rows;
  assert.equal(filterRows(rows, 'llama|bert').rows.length, 2);
  assert.equal(filterRows(rows, 'PYTORCH').rows.length, 2);
  assert.equal(filterRows(rows, '!training').rows.length, 1);
  const bad = filterRows(rows, 'llama(');
  assert.ok(bad.error);
  assert.equal(bad.rows.length, 0);
  assert.equal(filterRows(rows, '').rows, rows);
});

test('cluster text is sanitised in every cell', () => {
  const s = defaultSnapshot();
  const src = new FakeSource(s);
  const tables = [
    tableForFrame(s, frame({}), null, () => []),
    tableForFrame(s, { kind: 'pods', collapsed: [] }, null, () => []),
    tableForFrame(s, { kind: 'node', collapsed: [], nodeName: 'gpu-node-06' }, null, (n) => src.getNodePods(n)),
  ];
  for (const t of tables) {
    for (const r of t.rows)
      for (const c of r.cells)
        assert.doesNotMatch(
          c,
          /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/,
          `raw control in ${JSON.stringify(c)}`,
        );
  }
  assert.ok(tables[1].rows.some((r) => r.cells.some((c) => c.includes('\\e[31mred'))));
});

test('layout: lines fill the width, low-priority columns drop when narrow', () => {
  const rows = workloadTable(defaultSnapshot().workloads, null).rows;
  for (const width of [60, 78, 118, 200]) {
    const layout = layoutColumns(WORKLOAD_COLUMNS, rows, width);
    const line = formatLine(
      WORKLOAD_COLUMNS.map((c) => c.name),
      WORKLOAD_COLUMNS,
      layout,
    );
    assert.equal(displayWidth(line), width, `width ${width}`);
  }
  const narrow = layoutColumns(WORKLOAD_COLUMNS, rows, 50);
  const names = narrow.shown.map((i) => WORKLOAD_COLUMNS[i].name);
  assert.deepEqual(
    names,
    ['NAMESPACE', 'NAME', 'STATUS', 'READY', 'GPUS', 'AGE'],
    'NODES, then KIND dropped at 50 columns',
  );
  assert.equal(layoutColumns(WORKLOAD_COLUMNS, rows, 78).shown.length, WORKLOAD_COLUMNS.length, 'all columns at 80×24');
  assert.equal(fit('abcdef', 4), 'abc…');
  assert.equal(fit('ab', 4, 'right'), '  ab');
  assert.equal(displayWidth('日本'), 4);
});

test('age and connection state', () => {
  const now = Date.parse('2026-01-02T03:04:05Z');
  assert.equal(formatAge(now - 30_000, now), '30s');
  assert.equal(formatAge(now - 5 * 60_000, now), '5m');
  assert.equal(formatAge(now - 3 * 3600_000 - 60_000 * 4, now), '3h4m');
  assert.equal(formatAge(null, now), '-');
  const k = (state: 'live' | 'reconnecting' | 'forbidden' | 'syncing', resource: string) => ({
    gvk: { group: '', version: 'v1', kind: 'X' },
    resource,
    state,
    since: '2026-01-02T03:04:05Z',
    count: 0,
  });
  const T = '2026-01-02T03:04:05Z';
  const headline = (kinds: KindState[]) => connectionHeadline(summariseConnection(kinds, null, T));
  assert.deepEqual(headline([k('live', 'pods')]), { text: 'live', level: 'ok' });
  assert.equal(headline([k('live', 'pods'), k('reconnecting', 'jobsets')]).text, 'reconnecting jobsets since 03:04:05');
  assert.equal(headline([k('live', 'pods'), k('forbidden', 'tfjobs')]).text, 'live  forbidden: tfjobs');
  // Kinds that were readable and are refused now: not watched, by resource name.
  const refused = (resource: string): KindState => ({
    ...k('reconnecting', resource),
    cause: { kind: 'forbidden', text: 'forbidden (403)' },
  });
  assert.equal(
    headline([k('forbidden', 'nodes'), refused('pods (training)'), refused('jobsets.jobset.x-k8s.io (training)')]).text,
    'not watched: pods,jobsets (forbidden) since 03:04:05  forbidden: nodes',
  );
  // Nothing may be listed: the cluster is forbidden, not reconnecting.
  const none = summariseConnection([k('forbidden', 'pods'), k('forbidden', 'nodes')], null, T);
  assert.equal(none.cause?.kind, 'forbidden');
  assert.deepEqual(connectionHeadline(none), { text: 'forbidden since 03:04:05', level: 'error' });
  assert.equal(headline([k('syncing', 'pods'), k('live', 'nodes')]).text, 'syncing 1/2');
  assert.equal(headline([]).text, 'connecting…');
});

test('orphan pods: their owner that is not visible is a workloads row holding them; :pods lists them', () => {
  const s = defaultSnapshot();
  const head = pod('ray-head-owner-head-8kq2x', {
    namespace: 'research',
    status: 'CrashLoopBackOff',
    restarts: 3,
    gpus: 1,
  });
  const snapshot = {
    ...s,
    orphanPods: [{ ...head, owner: { apiVersion: 'ray.io/v1', kind: 'RayCluster', name: 'ray-head-owner' } }],
  };
  const rows = tableForFrame(snapshot, frame({}), null, () => []).rows;
  assert.equal(rows.length, 6);
  const owner = rows.find((r) => r.cells[1] === 'ray-head-owner (not visible)')!;
  assert.deepEqual(owner.cells.slice(0, 3), ['research', 'ray-head-owner (not visible)', 'RayCluster']);
  // Enter: its pods, as a workload's unattributed pods (the row `p` opens).
  const opened = tableForFrame(
    snapshot,
    { kind: 'workload', workloadUid: owner.workloadUid, collapsed: [] },
    null,
    () => [],
  );
  assert.equal(opened.missing, undefined);
  assert.deepEqual(
    opened.rows.map((r) => r.cells.slice(0, 3)),
    [[`  ${UNATTRIBUTED}`, '-', '1/1']],
  );
  const allPods = tableForFrame(snapshot, { kind: 'pods', collapsed: [] }, null, () => []);
  assert.ok(allPods.rows.some((r) => r.cells[1] === 'ray-head-owner-head-8kq2x'));
  // Without orphans, the list is the snapshot's own.
  assert.equal(tableForFrame(s, frame({}), null, () => []).rows.length, 5);
});

test('orphan pods: an explorer keeps one workloads list per snapshot in its own row cache, shared with no other', () => {
  const s = defaultSnapshot();
  const orphan = pod('lost-0', { namespace: 'research' });
  const snapshot = {
    ...s,
    orphanPods: [{ ...orphan, owner: { apiVersion: 'ray.io/v1', kind: 'RayCluster', name: 'lost' } }],
  };
  const [one, two] = [new RowCache(), new RowCache()];
  const list = explorerWorkloads(snapshot, one);
  assert.equal(list.length, s.workloads.length + 1);
  assert.equal(explorerWorkloads(snapshot, one), list, 'the same explorer: the same array for the snapshot');
  assert.notEqual(explorerWorkloads(snapshot, two), list, 'another explorer keeps its own');
  assert.notEqual(explorerWorkloads(snapshot), list, 'without a cache: made afresh');
  assert.deepEqual(explorerWorkloads(snapshot), list);
  // The owner's entry is found by its uid, from the explorer's list when given.
  const owner = list[list.length - 1];
  assert.equal(findWorkload(snapshot, owner.uid, one), owner);
  assert.deepEqual(findWorkload(snapshot, owner.uid), owner);
  assert.equal(findWorkload(snapshot, s.workloads[0].uid), s.workloads[0]);
  // Without orphans the list is the snapshot's own array.
  assert.equal(explorerWorkloads(s, one), s.workloads);
});
