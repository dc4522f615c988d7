// The explorer driven by keys, over an in-memory ModelSource.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mountApp, KEY, sleep } from './helpers.js';
import { FakeSource, defaultSnapshot, HOSTILE_NAME, workload, role, pod } from './fixtures.js';

test('workloads list shows every workload with GPU totals in the header', async () => {
  const h = await mountApp();
  try {
    const f = h.frame();
    assert.match(f, /workloads\(all\)\[5\]/);
    assert.match(f, /GPUs: 28\/48 req\/alloc\s+free 20\s+pending 16/);
    assert.match(f, /training\s+llama-pretrain\s+JobSet\s+Running\s+3\/3\s+12\/12\s+3/);
    assert.match(f, /broken-finetune\s+PyTorchJob\s+Failed/);
    assert.match(f, /Context: demo/);
    assert.match(f, /k8s v1\.32\.0/);
    assert.match(f, /Conn: live/);
    assert.match(f, /<workloads>/);
  } finally {
    h.unmount();
  }
});

test('filter, drill workload → role → pods → node, and Esc back up', async () => {
  const h = await mountApp();
  try {
    await h.press('/', 'l', 'l', 'a', 'm', 'a');
    let f = await h.waitFor((x) => x.includes('[1/5]'), 'filtered title');
    assert.match(f, /<\/llama>/);
    assert.doesNotMatch(f, /bert-finetune/);
    await h.press(KEY.enter); // keep the filter, leave the prompt
    await h.press(KEY.enter); // open llama-pretrain
    f = await h.waitFor((x) => x.includes('jobset(training/llama-pretrain)'), 'workload view');
    assert.match(f, /leader\s+Ready\s+1\/1\s+1\s+4\/4 gpu-node-01/);
    assert.match(f, /worker\s+Ready\s+2\/2\s+2\s+8\/8 gpu-node-02,gpu-node-03/);
    assert.match(f, /<workloads> <llama-pretrain>/);
    await h.press('j', KEY.enter);
    f = await h.waitFor((x) => x.includes('pods(worker)[2]'), 'pods of worker');
    assert.match(f, /llama-pretrain-worker-0-0\s+Running\s+1\/1\s+0\s+4 gpu-node-02/);
    assert.match(f, /llama-pretrain-worker-1-0/);
    assert.match(f, /<workloads> <llama-pretrain> <worker>/);
    await h.press(KEY.enter);
    f = await h.waitFor((x) => x.includes('node(gpu-node-02)'), 'node view');
    assert.match(f, /GPUs capacity 8\s+allocatable 8\s+requested 0\s+free 8/);
    assert.match(f, /taints: nvidia\.com\/gpu=present:NoSchedule/);
    assert.match(f, /JobSet training\/llama-pretrain/);
    assert.match(f, /llama-pretrain-worker-0-0/);
    await h.press(KEY.esc);
    f = await h.waitFor((x) => x.includes('pods(worker)'), 'back to pods');
    await h.press(KEY.esc, KEY.esc);
    // Back at the list the filter is still applied; one more Esc clears it.
    f = await h.waitFor((x) => x.includes('workloads(all)[1/5]'), 'back to the filtered list');
    await h.press(KEY.esc);
    f = await h.waitFor((x) => x.includes('workloads(all)[5]'), 'filter cleared');
    assert.match(f, /bert-finetune/);
  } finally {
    h.unmount();
  }
});

test('inverted and invalid filters', async () => {
  const h = await mountApp();
  try {
    await h.press('/', '!', 't', 'r', 'a', 'i', 'n', 'i', 'n', 'g');
    let f = await h.waitFor((x) => x.includes('[1/5]'), 'inverted filter');
    assert.match(f, /default\s+innocent/);
    await h.press(KEY.esc);
    f = await h.waitFor((x) => x.includes('[5]'), 'cleared');
    await h.press('/', '(');
    f = await h.waitFor((x) => x.includes('not a regex'), 'invalid regex notice');
  } finally {
    h.unmount();
  }
});

test('node view lists pods grouped by workload and Enter jumps to the pod in its workload', async () => {
  const h = await mountApp();
  try {
    await h.press(':', 'n', 'o', KEY.enter);
    let f = await h.waitFor((x) => x.includes('nodes[6]'), 'nodes view');
    assert.match(f, /gpu-node-01\s+Ready\s+4\/8\s+4\s+1\s+training\/llama-pretrain/);
    await h.press(KEY.enter);
    f = await h.waitFor((x) => x.includes('node(gpu-node-01)'), 'node view');
    assert.match(f, /\(no workload\)/, 'unowned pods are listed');
    assert.match(f, /lonely-debug/);
    await h.press('j', KEY.enter);
    f = await h.waitFor((x) => x.includes('pods(leader)'), 'jump to the pod in its workload');
    assert.match(f, /<nodes> <gpu-node-01> <llama-pretrain> <leader>/);
    await h.press(KEY.esc);
    f = await h.waitFor((x) => x.includes('jobset(training/llama-pretrain)'), 'the workload under it');
  } finally {
    h.unmount();
  }
});

test('help lists the keys of the current view; q quits', async () => {
  const h = await mountApp();
  try {
    await h.press(KEY.enter, '?');
    const f = await h.waitFor((x) => x.includes(' help '), 'help');
    assert.match(f, /expand\/collapse/, 'workload view keys');
    assert.match(f, /all pods of the workload/);
    assert.doesNotMatch(f, /shift-N/, 'the role tree keeps its order: no sort keys');
    await h.press('G');
    await h.waitFor((x) => /:ns :namespace NAME\|all/.test(x), 'commands at the end of the help');
    await h.press(KEY.esc, KEY.esc, '?');
    await h.waitFor((x) => x.includes('shift-N') && x.includes('open the workload'), 'help of the workloads view');
    await h.press(KEY.esc, 'q');
    assert.equal(h.quits, 1);
  } finally {
    h.unmount();
  }
});

test('ctrl-c quits too', async () => {
  const h = await mountApp();
  try {
    await h.press(KEY.ctrlC);
    assert.equal(h.quits, 1);
  } finally {
    h.unmount();
  }
});

test('sort by name and GPUs marks the column', async () => {
  const h = await mountApp();
  try {
    await h.press('N');
    let f = await h.waitFor((x) => x.includes('NAME↑'), 'name sort marker');
    const order = (frame: string) =>
      ['bert-finetune', 'broken-finetune', 'llama-pretrain', 'stuck-pretrain'].map((n) => frame.indexOf(n));
    let idx = order(f);
    // default/ sorts before training/: hostile first, then training ones by name.
    assert.ok(idx[0] < idx[1] && idx[1] < idx[2] && idx[2] < idx[3], 'ascending names');
    await h.press('N');
    f = await h.waitFor((x) => x.includes('NAME↓'), 'reversed');
    idx = order(f);
    assert.ok(idx[0] > idx[1] && idx[1] > idx[2] && idx[2] > idx[3], 'descending names');
    await h.press('U');
    f = await h.waitFor((x) => x.includes('GPUS↓'), 'gpu sort');
    assert.ok(
      f.indexOf('llama-pretrain') < f.indexOf('stuck-pretrain') &&
        f.indexOf('stuck-pretrain') < f.indexOf('bert-finetune'),
    );
  } finally {
    h.unmount();
  }
});

test('pending reason is visible in the pods view; gangs are summarised', async () => {
  const h = await mountApp({ size: { columns: 160, rows: 30 } });
  try {
    await h.press('/', 's', 't', 'u', 'c', 'k', KEY.enter, KEY.enter);
    let f = await h.waitFor((x) => x.includes('jobset(training/stuck-pretrain)'), 'stuck workload');
    assert.match(f, /gang worker stuck-pretrain: 1\/3 scheduled, 1 ready/);
    await h.press('p');
    f = await h.waitFor((x) => x.includes('pods(stuck-pretrain pods)'), 'all pods of the workload');
    assert.match(f, /stuck-worker-1\s+Pending\s+0\/1\s+0\s+8 <none>.*Unschedulable: 0\/14 nodes are available/);
  } finally {
    h.unmount();
  }
});

test('hostile cluster text never reaches the terminal raw', async () => {
  const h = await mountApp({ size: { columns: 200, rows: 30 } });
  try {
    await h.press('G', KEY.enter);
    await h.waitFor((x) => x.includes('job(default/'), 'hostile workload');
    await h.press(KEY.enter);
    await h.waitFor((x) => x.includes('pods(main)'), 'hostile pods');
    const all = h.frames.join('\n');
    assert.ok(all.includes('innocent-\\e[2J\\e]0;pwned\\x07-\\u{202e}evil'), 'visible escapes are shown');
    assert.ok(all.includes('\\e[31mred'), 'pod message escaped');
    for (const raw of ['\u001b[2J', '\u001b]0;', '\u0007', '\u202e', '\u001b[31mred']) {
      assert.ok(!all.includes(raw), `raw ${JSON.stringify(raw)} reached the terminal`);
    }
    assert.ok(!all.includes(HOSTILE_NAME));
  } finally {
    h.unmount();
  }
});

test('live updates: READY and pod states change as snapshots stream in; changed rows highlighted', async () => {
  const source = new FakeSource();
  const h = await mountApp({ source });
  try {
    const next = defaultSnapshot(2);
    const llama = next.workloads[0];
    llama.replicas.ready = 1;
    llama.roles[1].pods[0].status = 'ContainerCreating';
    llama.roles[1].pods[0].ready = false;
    next.changedWorkloads = [llama.uid];
    source.publish(next);
    let f = await h.waitFor((x) => /llama-pretrain\s+JobSet\s+Running\s+1\/3/.test(x), 'READY 1/3');
    await h.press(KEY.enter, 'j', KEY.enter);
    f = await h.waitFor((x) => x.includes('pods(worker)'), 'pods');
    assert.match(f, /llama-pretrain-worker-0-0\s+ContainerCreating/);
    const later = defaultSnapshot(3);
    source.publish(later);
    f = await h.waitFor((x) => /llama-pretrain-worker-0-0\s+Running/.test(x), 'pod Running');
  } finally {
    h.unmount();
  }
});

test('frame coalescing: a burst of snapshots renders a handful of frames, the last one wins', async () => {
  const source = new FakeSource();
  const h = await mountApp({ source, frameIntervalMs: 66 });
  try {
    await sleep(100);
    const before = h.frames.length;
    for (let v = 2; v <= 200; v++) {
      const s = defaultSnapshot(v);
      s.totals.gpuRequested = v;
      source.publish(s);
    }
    await h.waitFor((x) => x.includes('GPUs: 200/48'), 'the last snapshot');
    await sleep(150);
    const rendered = h.frames.length - before;
    assert.ok(rendered <= 5, `199 snapshots caused ${rendered} frames`);
  } finally {
    h.unmount();
  }
  assert.equal(source.subscriberCount, 0, 'unsubscribed on unmount');
});

test('NO_COLOR: no colour codes, selection still visible', async () => {
  // ink-testing-library's stdout is not a TTY, so chalk emits no colour either
  // way; what we check is that the app still renders fully with noColor.
  const h = await mountApp({ noColor: true });
  try {
    assert.match(h.frame(), /llama-pretrain/);
    assert.doesNotMatch(h.frame(), /\u001b\[3[0-7]m/);
  } finally {
    h.unmount();
  }
});

test('fits 80×24: no line wider than 80, no more than 24 lines', async () => {
  const h = await mountApp({ size: { columns: 80, rows: 24 } });
  try {
    for (const keys of [[], [KEY.enter], ['j', KEY.enter], [KEY.enter]]) {
      await h.press(...keys);
      const lines = h.frame().split('\n');
      assert.ok(lines.length <= 24, `${lines.length} lines`);
      for (const l of lines) assert.ok([...l].length <= 80, `line too wide (${[...l].length}): ${l}`);
    }
    assert.match(h.frame(), /node\(gpu-node-0\d\)/);
  } finally {
    h.unmount();
  }
});

test(':ns scopes to a namespace, 0 goes back to all; unknown commands flash', async () => {
  const h = await mountApp();
  try {
    await h.press(':', 'n', 's', ' ', 'd', 'e', KEY.tab);
    await h.waitFor((x) => x.includes(':ns default'), 'completed namespace');
    await h.press(KEY.enter);
    let f = await h.waitFor((x) => x.includes('workloads(default)[1]'), 'namespace scope');
    await h.press('0');
    f = await h.waitFor((x) => x.includes('workloads(all)[5]'), 'all namespaces');
    await h.press(':', 'b', 'o', 'g', 'u', 's', KEY.enter);
    f = await h.waitFor((x) => x.includes('unknown command "bogus"'), 'flash');
    await h.press(':', 'd', 'e', KEY.tab, KEY.enter);
    f = await h.waitFor((x) => x.includes('definitions['), 'defs view');
    assert.match(f, /broken-def\s+example\.com\/v1\/Thing\s+file x\.yaml\s+NO/);
    assert.match(f, /✗ x\.yaml:3: spec\.structure\.rootComponent: missing kind/);
  } finally {
    h.unmount();
  }
});

test('role tree: → and ← and space expand and collapse nested roles', async () => {
  const s = defaultSnapshot();
  s.workloads = [
    workload(
      'llama-70b',
      [0, 1].map((g) =>
        role('group', [], {
          instance: String(g),
          roles: [role('leader', [pod(`llama-70b-${g}`)]), role('worker', [pod(`llama-70b-${g}-1`)])],
        }),
      ),
      { kind: 'LeaderWorkerSet' },
    ),
  ];
  const h = await mountApp({ source: new FakeSource(s) });
  try {
    await h.press(KEY.enter);
    let f = await h.waitFor((x) => x.includes('leaderworkerset(training/llama-70b)[6]'), 'expanded tree');
    assert.match(f, /▾ group\[0\][\s\S]*leader[\s\S]*worker[\s\S]*▾ group\[1\]/);
    await h.press(KEY.left);
    f = await h.waitFor((x) => x.includes('[4]'), 'first group collapsed');
    assert.match(f, /▸ group\[0\]/);
    await h.press(KEY.right);
    f = await h.waitFor((x) => x.includes('[6]'), 'expanded again');
    await h.press('G', 'k', 'k', ' ');
    f = await h.waitFor((x) => x.includes('[4]') && /▸ group\[1\]/.test(x), 'space toggles the selected group');
    await h.press(KEY.enter);
    f = await h.waitFor((x) => x.includes('pods(group[1])[2]'), 'a parent role lists its subtree pods');
  } finally {
    h.unmount();
  }
});

test('a burst of keys in one chunk acts on the view each key produced', async () => {
  const h = await mountApp();
  try {
    h.stdin(':no\r\r');
    let f = await h.waitFor((x) => x.includes('node(gpu-node-01)'), 'the first node opened from one chunk');
    assert.match(f, /<nodes> <gpu-node-01>/);
    h.stdin('\u001b');
    await h.waitFor((x) => x.includes('nodes[6]'), 'back to the nodes');
    h.stdin('/gpu-node-03\r\rj\r');
    f = await h.waitFor((x) => x.includes('pods(worker)'), 'filter, open, move, jump in one chunk');
    assert.match(f, /<nodes> <gpu-node-03> <llama-pretrain> <worker>/);
  } finally {
    h.unmount();
  }
});
