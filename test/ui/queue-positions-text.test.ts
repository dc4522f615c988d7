// Queue positions on screen are places in line as people count them (1st,
// 2nd), the same in the why-panel, the workload panel and :queues; a
// position not answered yet is "fetching", one that cannot be had "unknown";
// `wlx get -o json` keeps Kueue's 0-based numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDefinitions } from '../../src/definitions/index.js';
import { buildOfflineModel, parseDump } from '../../src/kube/offline.js';
import { parsePendingWorkloads } from '../../src/model/scheduling/kueue.js';
import { ordinal, positionText } from '../../src/model/scheduling/words.js';
import { queueCause } from '../../src/model/why.js';
import { pendingTable } from '../../src/ui/render/queues.js';
import { queuePanelLines } from '../../src/ui/render/panels.js';
import { tableForFrame } from '../../src/ui/state/derive.js';
import type { KindState, ModelSnapshot } from '../../src/model/types.js';
import { repoRoot } from '../definitions/builtin-fixtures.js';

test('ordinal: Kueue 0-based positions as places in line', () => {
  assert.deepEqual([0, 1, 2, 3, 9, 10, 11, 12, 20, 21, 100, 110, 111, 112].map(ordinal), [
    '1st',
    '2nd',
    '3rd',
    '4th',
    '10th',
    '11th',
    '12th',
    '13th',
    '21st',
    '22nd',
    '101st',
    '111th',
    '112th',
    '113th',
  ]);
  assert.equal(positionText(0, false), '1st');
  assert.equal(positionText(null, false), 'fetching');
  assert.equal(positionText(null, true), 'unknown');
});

function queuedSft(answered: boolean) {
  const file = join(repoRoot, 'test', 'fixtures', 'scheduling', 'kueue-v1beta2.yaml');
  const m = buildOfflineModel(
    parseDump(readFileSync(file, 'utf8'), file).objects,
    loadDefinitions({ includeBuiltin: true, envPaths: '' }),
  );
  if (answered)
    m.scheduling.setPositions(
      'gpu-cluster-queue',
      parsePendingWorkloads({
        items: [
          {
            metadata: { name: 'pytorchjob-queued-sft-3f2a1', namespace: 'training' },
            localQueueName: 'training-queue',
            positionInClusterQueue: 0,
            positionInLocalQueue: 0,
          },
        ],
      }),
    );
  const workloads = m.store.workloads();
  const w = workloads.find((x) => x.name === 'queued-sft')!;
  return { m, w, view: m.scheduling.view(workloads) };
}

test('the why-panel, the workload panel and :queues say 1st, the same way', () => {
  const { w, view } = queuedSft(true);
  const facts = view.facts.get(w.uid)!;
  assert.equal(view.queues.get(w.uid)?.position, 0, "Kueue's number is kept (JSON)");
  const cause = queueCause(facts, Date.now())!;
  assert.equal(cause.title, 'Queued: 1st in ClusterQueue gpu-cluster-queue · 1st in LocalQueue training-queue');
  assert.match(queuePanelLines(view.queues.get(w.uid), facts, undefined)[0].text, /: Pending, 1st in line/);
  const rows = pendingTable(view.pending.get('gpu-cluster-queue')!).rows;
  assert.equal(rows[0].cells[0], '1st');
  assert.equal(rows[0].cells[4], '1st');
});

test('a position not answered yet is fetching; one the visibility API cannot give is unknown', () => {
  const { m, w, view } = queuedSft(false);
  const facts = view.facts.get(w.uid)!;
  assert.match(queueCause(facts, Date.now())!.title, /^Queued: fetching place in ClusterQueue gpu-cluster-queue/);
  assert.match(queuePanelLines(view.queues.get(w.uid), facts, undefined)[0].text, /Pending, fetching in line/);
  assert.equal(pendingTable(view.pending.get('gpu-cluster-queue')!).rows[0].cells[0], 'fetching');
  m.scheduling.setPositionsUnavailable('queue positions: visibility.kueue.x-k8s.io pendingworkloads is forbidden');
  const after = m.scheduling.view(m.store.workloads().slice());
  assert.match(after.positionsUnavailable ?? '', /forbidden/);
  assert.match(queueCause(after.facts.get(w.uid)!, Date.now())!.title, /^Queued: unknown place in ClusterQueue/);
  assert.equal(pendingTable(after.pending.get('gpu-cluster-queue')!, true).rows[0].cells[0], 'unknown');
});

test(':queues without rows says why: forbidden, not served, or none', () => {
  const kind = (state: KindState['state']): KindState => ({
    gvk: { group: 'kueue.x-k8s.io', version: 'v1beta2', kind: 'ClusterQueue' },
    resource: 'clusterqueues.kueue.x-k8s.io',
    state,
    since: '2026-01-01T00:00:00Z',
    count: 0,
  });
  const missing = (kinds: KindState[]) =>
    tableForFrame(
      {
        kinds,
        access: { clusterWide: false, namespaces: ['training'], forbidden: [], user: 'researcher' },
      } as unknown as ModelSnapshot,
      { kind: 'queues', collapsed: [] },
      null,
      () => [],
    ).missing;
  assert.equal(
    missing([kind('forbidden')]),
    'ClusterQueues are not readable by researcher (list clusterqueues.kueue.x-k8s.io is forbidden)',
  );
  assert.match(missing([])!, /Kueue is not installed/);
  assert.equal(missing([kind('live')]), 'no ClusterQueue');
});
