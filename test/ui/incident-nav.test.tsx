// Pure parts of the incident views: what a key opens from which row, the why
// line of the workload view, the jump filter, event de-duplication, and the
// rendered lines staying sanitised.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSnapshot, HOSTILE_NAME } from './fixtures.js';
import { incidentNavigation, jumpToPods, targetOf, whyPanelLines } from '../../src/ui/state/incident-nav.js';
import { targetPods, workloadPods } from '../../src/ui/state/incident.js';
import { newFrame } from '../../src/ui/state/ui-state.js';
import { workloadTable } from '../../src/ui/render/workloads.js';
import { roleTable } from '../../src/ui/render/roles.js';
import { podTable } from '../../src/ui/render/pods.js';
import { filterRows } from '../../src/ui/state/derive.js';
import { dedupeEvents, eventLines, whyLines } from '../../src/ui/render/incident.js';
import type { KubeObject } from '../../src/model/types.js';

const snap = defaultSnapshot();
const stuck = snap.workloads.find((w) => w.name === 'stuck-pretrain')!;

test('targets: workload row, role row, pod row, node row', () => {
  const wlRow = workloadTable(snap.workloads, null).rows.find((r) => r.key === stuck.uid);
  assert.deepEqual(targetOf(newFrame({ kind: 'workloads', label: 'w' }), wlRow, snap), {
    kind: 'workload',
    workloadUid: stuck.uid,
  });
  const roleRow = roleTable(stuck, new Set()).rows[0];
  const t = targetOf(newFrame({ kind: 'workload', label: 'w', workloadUid: stuck.uid }), roleRow, snap);
  assert.equal(t?.kind, 'role');
  assert.deepEqual(
    targetPods(snap, t).map((p) => p.name),
    ['stuck-worker-0', 'stuck-worker-1', 'stuck-worker-2'],
  );
  const podRow = podTable(stuck, null)!.rows[1];
  assert.deepEqual(targetOf(newFrame({ kind: 'pods', label: 'p', workloadUid: stuck.uid }), podRow, snap), {
    kind: 'pod',
    namespace: 'training',
    name: 'stuck-worker-1',
    uid: 'uid-stuck-worker-1',
    workloadUid: stuck.uid,
  });
  assert.deepEqual(targetOf(newFrame({ kind: 'nodes', label: 'n' }), { key: 'gpu-node-02' } as never, snap), {
    kind: 'node',
    name: 'gpu-node-02',
  });
});

test('navigation: s on a pod opens its workload timeline; o and n jump; unsupported combinations flash', () => {
  const podFrame = newFrame({ kind: 'pods', label: 'p', workloadUid: stuck.uid });
  const podRow = podTable(stuck, null)!.rows[0];
  const s = incidentNavigation('timeline', podFrame, podRow, snap);
  assert.ok('frames' in s);
  assert.deepEqual(s.frames[0].incident, { kind: 'workload', workloadUid: stuck.uid });
  assert.equal(s.frames[0].kind, 'timeline');
  const n = incidentNavigation('node', podFrame, podRow, snap);
  assert.ok('frames' in n && n.frames[0].nodeName === 'gpu-node-05');
  const pending = incidentNavigation('node', podFrame, podTable(stuck, null)!.rows[1], snap);
  assert.deepEqual(pending, { flash: 'the pod is not bound to a node yet' });
  const o = incidentNavigation('owner', podFrame, podRow, snap);
  assert.ok('frames' in o);
  assert.deepEqual(
    o.frames.map((f) => f.kind),
    ['workload', 'pods'],
  );
  assert.equal(o.frames[1].selectedKey, 'uid-stuck-worker-0');
  const nodeFrame = newFrame({ kind: 'nodes', label: 'n' });
  assert.ok('flash' in incidentNavigation('logs', nodeFrame, { key: 'gpu-node-01' } as never, snap));
  assert.ok('frames' in incidentNavigation('describe', nodeFrame, { key: 'gpu-node-01' } as never, snap));
  // Inside an incident view, keys act on the view's own target.
  const inWhy = newFrame({ kind: 'why', label: 'why', incident: { kind: 'workload', workloadUid: stuck.uid } });
  const ev = incidentNavigation('events', inWhy, undefined, snap);
  assert.ok('frames' in ev && ev.frames[0].kind === 'events');
});

test('jumpToPods filters the workload pods to exactly the named ones', () => {
  const frames = jumpToPods(snap, { kind: 'workload', workloadUid: stuck.uid }, ['stuck-worker-1', 'stuck-worker-2']);
  assert.equal(frames.length, 1);
  const rows = podTable(stuck, null)!.rows;
  assert.deepEqual(
    filterRows(rows, frames[0].filter!).rows.map((r) => r.key),
    ['uid-stuck-worker-1', 'uid-stuck-worker-2'],
  );
});

test('why line: Failed and long Initializing workloads say why; a young or healthy one does not', () => {
  const broken = snap.workloads.find((w) => w.name === 'broken-finetune')!;
  assert.match(whyPanelLines(broken, Date.now())[0].text, /^why Failed: 1 OOMKilled — press w/);
  const created = Date.parse(stuck.createdAt!);
  assert.deepEqual(whyPanelLines(stuck, created + 60_000), []);
  assert.match(whyPanelLines(stuck, created + 600_000)[0].text, /^why Initializing for a while: 2 Unschedulable/);
  assert.deepEqual(whyPanelLines(snap.workloads[0], Date.now()), []);
  assert.equal(workloadPods(stuck).length, 3);
});

test('events: deduplicated with summed counts, newest first; text sanitised', () => {
  const ev = (name: string, reason: string, message: string, count: number, last: string): KubeObject => ({
    metadata: { name, uid: name },
    involvedObject: { kind: 'Pod', name: 'p', uid: 'u' },
    reason,
    message,
    count,
    type: reason === 'BackOff' ? 'Warning' : 'Normal',
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: last,
  });
  const rows = dedupeEvents([
    ev('a', 'BackOff', 'restarting', 2, '2026-01-01T00:01:00Z'),
    ev('b', 'BackOff', 'restarting', 3, '2026-01-01T00:05:00Z'),
    ev('c', 'Pulled', `pulled \u001b[31m${HOSTILE_NAME}`, 1, '2026-01-01T00:02:00Z'),
  ]);
  assert.deepEqual(
    rows.map((r) => [r.reason, r.count]),
    [
      ['BackOff', 5],
      ['Pulled', 1],
    ],
  );
  const lines = eventLines(rows, Date.parse('2026-01-01T00:06:00Z'), true);
  assert.equal(lines[1].tone, 'warn');
  assert.match(lines[1].text, /restarting \(x5 over 6m\)/);
  for (const l of lines) assert.doesNotMatch(l.text, /[\u001b\u0007\u202e]/);
});

test('why lines number the causes and never pass control characters', () => {
  const lines = whyLines({
    summary: 'x',
    causes: [
      {
        kind: 'crash-loop',
        severity: 'error',
        title: 'Crash loop: 1 pod',
        message: `\u001b]0;t\u0007`,
        details: [],
        pods: [{ namespace: 'n', name: HOSTILE_NAME, uid: 'u', node: null, detail: 'd', logTail: ['\u001b[2J'] }],
      },
    ],
  });
  assert.ok(lines.some((l) => l.text.startsWith('1) Crash loop: 1 pod') && l.pods?.[0] === HOSTILE_NAME));
  for (const l of lines) assert.doesNotMatch(l.text, /[\u001b\u0007\u202e]/);
});
