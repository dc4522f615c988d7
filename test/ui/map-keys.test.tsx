// The GPU map and `:nodes` by domain, driven by keys in the real App (ink-testing-library): `:map` shows the
// legend and cells, cursor keys move over nodes and Enter opens the one named in the flash line; `m` on a
// workload highlights its nodes by role; `/` highlights by regex; `:nodes` groups by zone and space
// collapses a domain; NO_COLOR draws glyphs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelSnapshot } from '../../src/model/types.js';
import { defaultSnapshot, FakeSource } from './fixtures.js';
import { KEY, mountApp } from './helpers.js';

const ZONE = 'topology.kubernetes.io/zone';

/** The default cluster with gpu-node-01..03 in zone-a and 04..06 in zone-b. */
function zoned(): ModelSnapshot {
  const s = defaultSnapshot();
  return { ...s, nodes: s.nodes.map((n, i) => ({ ...n, labels: { [ZONE]: i < 3 ? 'zone-a' : 'zone-b' } })) };
}

const plain = (frame: string) => frame.replace(/\u001b\[[0-9;]*m/g, '');
const flashLine = (frame: string) => plain(frame).trimEnd().split('\n').at(-1) ?? '';

test(':map shows the legend and the cells; cursor keys move, Enter opens the node under the cursor', async () => {
  const h = await mountApp({ source: new FakeSource(zoned()) });
  try {
    await h.press(':', 'm', 'a', 'p', KEY.enter);
    let f = await h.waitFor((x) => x.includes('map(all)[6 nodes]'), 'the map');
    assert.match(plain(f), /2 nodes\/char · GPUs allocated:/);
    assert.match(plain(f), /zone-a +[▀▄]{2}/);
    assert.match(plain(f), /zone-b +[▀▄]{2}/);
    assert.match(flashLine(f), /^gpu-node-01 · zone-a · GPUs 4\/8 used \(4 free\) · training\/llama-pretrain 4/);
    // Right: the next character's top half (gpu-node-03); down: the bottom halves (gpu-node-02, the nearest),
    // then the band below (zone-b's first node, in the same column).
    await h.press('l');
    await h.waitFor((x) => flashLine(x).startsWith('gpu-node-03 '), 'cursor on gpu-node-03');
    await h.press('j');
    await h.waitFor((x) => flashLine(x).startsWith('gpu-node-02 '), 'cursor on gpu-node-02');
    await h.press(KEY.down);
    f = await h.waitFor((x) => flashLine(x).startsWith('gpu-node-04 '), 'cursor on gpu-node-04');
    assert.match(flashLine(f), /^gpu-node-04 · zone-b · GPUs 0\/8 used \(8 free\) · training\/bert-finetune 4/);
    const under = 'gpu-node-04';
    await h.press(KEY.enter);
    await h.waitFor((x) => x.includes(`node(${under})`), 'the node view');
    await h.press(KEY.esc);
    await h.waitFor((x) => x.includes('map(all)'), 'back on the map');
  } finally {
    h.unmount();
  }
});

test('m on a workload opens the map with its nodes by role; / highlights the nodes of matching workloads', async () => {
  const h = await mountApp({ source: new FakeSource(zoned()), size: { columns: 120, rows: 30 } });
  try {
    await h.press('/', 'l', 'l', 'a', 'm', 'a', KEY.enter, 'm');
    let f = await h.waitFor((x) => x.includes('map(training/llama-pretrain)'), 'the map of llama-pretrain');
    assert.match(plain(f), /training\/llama-pretrain on 3 nodes, by role: +█ leader +█ worker +█ other nodes/);
    assert.match(flashLine(f), /^gpu-node-01 /, 'the cursor on its first node');
    await h.press(KEY.esc, KEY.esc, ':', 'm', 'a', 'p', KEY.enter, '/', 'b', 'e', 'r', 't', KEY.enter);
    f = await h.waitFor((x) => x.includes('workloads /bert/ on 1 node'), 'the regex highlight');
    assert.match(plain(f), /<highlight \/bert>/);
    await h.press(KEY.esc);
    f = await h.waitFor((x) => !x.includes('/bert/'), 'the highlight cleared');
    assert.match(plain(f), /map\(all\)/);
  } finally {
    h.unmount();
  }
});

test('NO_COLOR: the map draws one node per character in density glyphs', async () => {
  const h = await mountApp({ source: new FakeSource(zoned()), noColor: true });
  try {
    await h.press(':', 'm', 'a', 'p', KEY.enter);
    const f = await h.waitFor((x) => x.includes('map(all)'), 'the map');
    assert.match(plain(f), /1 node\/char/);
    // gpu-node-01 half allocated (4/8), 02 and 03 free: ▒··; zone-b all free.
    assert.match(plain(f), /zone-a ▒··/);
    assert.match(plain(f), /zone-b ···/);
  } finally {
    h.unmount();
  }
});

test(':nodes groups by topology domain with GPU totals; space collapses a domain (in ? help)', async () => {
  const h = await mountApp({ source: new FakeSource(zoned()) });
  try {
    await h.press(':', 'n', 'o', 'd', 'e', 's', KEY.enter);
    let f = await h.waitFor((x) => plain(x).includes('▾ zone-a '), 'domain rows');
    assert.match(plain(f), /▾ zone-a +3 nodes +4\/24 +20/);
    assert.match(plain(f), /▾ zone-b +3 nodes/);
    assert.match(plain(f), /nodes\[6\]/, 'nodes counted, not domain rows');
    assert.match(plain(f), /│gpu-node-02 +Ready/);
    await h.press(' ');
    f = await h.waitFor((x) => plain(x).includes('▸ zone-a '), 'zone-a collapsed');
    assert.match(plain(f), /nodes\[3\/6\]/);
    assert.doesNotMatch(plain(f), /gpu-node-02/);
    assert.match(plain(f), /gpu-node-05/);
    await h.press(' ');
    await h.waitFor((x) => plain(x).includes('▾ zone-a') && x.includes('gpu-node-02'), 'zone-a expanded');
    await h.press('?');
    f = await h.waitFor((x) => x.includes('help'), 'help');
    assert.match(plain(f), /space +collapse\/expand the topology domain/);
    assert.match(plain(f), /shift-T +sort by GPU utilisation/);
  } finally {
    h.unmount();
  }
});

test(':nodes is flat without topology labels', async () => {
  const h = await mountApp();
  try {
    await h.press(':', 'n', 'o', 'd', 'e', 's', KEY.enter);
    const f = await h.waitFor((x) => x.includes('nodes[6]'), 'the nodes');
    assert.doesNotMatch(plain(f), /[▾▸]/);
  } finally {
    h.unmount();
  }
});
