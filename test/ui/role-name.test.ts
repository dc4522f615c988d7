// One role name everywhere: a JobSet's replicated job `worker` (component
// `replicatedjob`, instance `worker`) is `worker` in the workload tree, the
// startup timeline and describe alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTimeline } from '../../src/model/timeline.js';
import { roleTable } from '../../src/ui/render/roles.js';
import { describeWorkloadLines, timelineLines } from '../../src/ui/render/incident.js';
import { pod, role, workload } from './fixtures.js';

test('the tree, the timeline and describe name a JobSet role the same', () => {
  const w = workload('llama', [
    role('replicatedjob', [pod('llama-leader-0')], { instance: 'leader' }),
    role('replicatedjob', [pod('llama-worker-0'), pod('llama-worker-1')], { instance: 'worker' }),
  ]);
  const tree = roleTable(w, new Set()).rows.map((r) => r.cells[0].trim());
  assert.deepEqual(tree, ['leader', 'worker']);

  const timeline = buildTimeline(w, [], [], Date.now());
  assert.deepEqual(
    timeline.roles.map((r) => r.role),
    tree,
  );
  const text = timelineLines(timeline, Date.now()).map((l) => l.text);
  assert.ok(
    text.some((l) => /^ {2}worker\s/.test(l)),
    text.join('\n'),
  );
  assert.ok(!text.some((l) => l.includes('replicatedjob')), text.join('\n'));

  const described = describeWorkloadLines(w, null, [], Date.now()).map((l) => l.text.trim());
  assert.ok(
    described.some((l) => l.startsWith('worker: ready 2/2')),
    described.join('\n'),
  );
});
