// Long lines in the incident views wrap at word boundaries, and their
// continuation rows keep the line's own indentation (+2) inside the box,
// instead of being cut at the box edge and continued at column 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/model/types.js';
import type { ObjectAccess, ObjectRef } from '../../src/model/source.js';
import { wrapTextLine } from '../../src/ui/render/incident.js';
import { displayWidth } from '../../src/ui/render/table.js';
import { FakeSource } from './fixtures.js';
import { KEY, mountApp } from './helpers.js';

const LONG =
  "0/500 nodes are available: 480 Insufficient nvidia.com/gpu, 20 node(s) didn't match Pod's node affinity/selector. preemption: 0/500 nodes are available: 500 No preemption victims found for incoming pod.";

test("wrapTextLine: word boundaries, each row within the width, continuation indented to the line's indent + 2", () => {
  const text = `   ${LONG}`;
  for (const width of [24, 37, 40, 61, 80]) {
    const rows = wrapTextLine(text, width);
    assert.ok(rows.length > 1, `wraps at ${width}`);
    for (const r of rows) assert.ok(displayWidth(r) <= width, `row "${r}" fits ${width}`);
    assert.ok(rows[0].startsWith('   0/500'));
    for (const r of rows.slice(1)) assert.match(r, /^ {5}\S/, `continuation "${r}" indented by 5 at ${width}`);
    // No word is split: the words read back in order.
    assert.deepEqual(rows.join(' ').split(/ +/).filter(Boolean), LONG.split(' '), `words intact at ${width}`);
  }
  assert.deepEqual(wrapTextLine('short', 10), ['short']);
  assert.deepEqual(wrapTextLine('abc def', 0), ['abc def'], 'no width: unchanged');
  // A word longer than a row is cut (it cannot fit anywhere).
  assert.deepEqual(wrapTextLine('aaaaaaaaaaaaaaa b', 10), ['aaaaaaaaaa', '  aaaaa b']);
  // Deep indentation is capped at half the row, so something still fits.
  for (const r of wrapTextLine(`${' '.repeat(30)}one two three four five six seven`, 40).slice(1))
    assert.match(r, /^ {20}\S/);
  // Wide characters count two columns.
  for (const r of wrapTextLine('节点 不足 节点 不足 节点 不足 节点 不足', 9)) assert.ok(displayWidth(r) <= 9, r);
});

function pendingPod(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'training', uid: `uid-${name}`, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { containers: [{ name: 'main', image: 'nemo:24', resources: { requests: { 'nvidia.com/gpu': '8' } } }] },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: LONG }],
    },
  };
}

class LongMessageAccess implements ObjectAccess {
  pods: KubeObject[] = [
    {
      ...pendingPod('stuck-worker-0'),
      spec: { nodeName: 'gpu-node-05', containers: [{ name: 'main', image: 'nemo:24' }] },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Ready', status: 'True' },
        ],
      },
    },
    pendingPod('stuck-worker-1'),
    pendingPod('stuck-worker-2'),
  ];
  async getObject(ref: ObjectRef): Promise<KubeObject> {
    const pod = this.pods.find((p) => p.metadata.name === ref.name);
    if (pod) return pod;
    return {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      metadata: { name: ref.name, namespace: ref.namespace ?? undefined, uid: 'x' },
    };
  }
  async listPods(): Promise<KubeObject[]> {
    return this.pods;
  }
  async listEvents(): Promise<KubeObject[]> {
    return [];
  }
  async streamLogs(): Promise<void> {}
}

/** The text inside the incident box, one string per row (without the │ borders). */
function boxRows(frame: string): string[] {
  return frame
    .split('\n')
    .filter((l) => l.startsWith('│') && l.trimEnd().endsWith('│'))
    .map((l) => l.trimEnd().slice(1, -1));
}

test('why view at 72 columns: the scheduler message wraps at words with indented continuation rows', async () => {
  const source = new FakeSource();
  Object.assign(source, { access: new LongMessageAccess() });
  const h = await mountApp({ source, size: { columns: 72, rows: 40 } });
  try {
    await h.press('/', ...'stuck-pretrain', KEY.enter);
    await h.waitFor((f) => f.includes('</stuck-pretrain>') && /workloads\(all\)\[1\/\d+\]/.test(f), 'filtered list');
    await h.press('w');
    const f = await h.waitFor(
      (x) => x.includes('Unschedulable: 2 pods') && x.includes('incoming'),
      'why view with the message',
    );
    const rows = boxRows(f);
    const first = rows.findIndex((r) => r.includes('0/500 nodes are available: 480'));
    assert.ok(first >= 0, f);
    const indent = /^ */.exec(rows[first])![0].length;
    const block: string[] = [rows[first]];
    for (
      let i = first + 1;
      i < rows.length && /^ +\S/.test(rows[i]) && /^ */.exec(rows[i])![0].length === indent + 2;
      i++
    )
      block.push(rows[i]);
    assert.ok(block.length > 1, `the message continues on indented rows:\n${f}`);
    assert.deepEqual(block.join(' ').split(/ +/).filter(Boolean), LONG.split(' '), `every word whole, in order:\n${f}`);
  } finally {
    h.unmount();
  }
});
