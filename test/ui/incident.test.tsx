// The incident views in the App, over a fake source with a fake `access`:
// keys open them from the lists, text is sanitised, streams close with the
// view, the why view's digit jumps to the affected pods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/model/types.js';
import type { LogOptions, ObjectAccess, ObjectRef } from '../../src/model/source.js';
import { FakeSource } from './fixtures.js';
import { KEY, mountApp, sleep } from './helpers.js';

const FIT = '0/14 nodes are available: 14 Insufficient nvidia.com/gpu.';

function rawPod(
  name: string,
  over: { node?: string | null; conditions?: object[]; containerStatuses?: object[]; gpus?: number } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'training', uid: `uid-${name}`, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: {
      ...(over.node ? { nodeName: over.node } : {}),
      containers: [
        { name: 'main', image: 'nemo:24', resources: { requests: { 'nvidia.com/gpu': String(over.gpus ?? 8) } } },
      ],
    },
    status: {
      phase: over.node ? 'Running' : 'Pending',
      conditions: over.conditions ?? [],
      containerStatuses: over.containerStatuses ?? [],
    },
  };
}

class FakeAccess implements ObjectAccess {
  open = 0;
  opened = 0;
  requests: string[] = [];
  pods: KubeObject[] = [
    rawPod('stuck-worker-0', {
      node: 'gpu-node-05',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'True' },
      ],
    }),
    rawPod('stuck-worker-1', {
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: FIT }],
    }),
    rawPod('stuck-worker-2', {
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: FIT }],
    }),
    rawPod('broken-worker-0', {
      node: 'gpu-node-01',
      gpus: 1,
      containerStatuses: [
        {
          name: 'main',
          restartCount: 5,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
        },
      ],
    }),
    {
      ...rawPod('lonely-debug', { node: 'gpu-node-01', gpus: 0 }),
      metadata: { name: 'lonely-debug', namespace: 'default', uid: 'uid-lonely' },
    },
  ];
  async getObject(ref: ObjectRef): Promise<KubeObject> {
    this.requests.push(`get ${ref.kind}/${ref.name}`);
    const p = this.pods.find((x) => x.metadata.name === ref.name);
    if (p) return { ...p, metadata: { ...p.metadata, annotations: { note: 'evil \u001b]0;pwned\u0007 text' } } };
    return {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      metadata: { name: ref.name, namespace: ref.namespace ?? undefined, uid: 'x' },
      spec: { fresh: 'from-api' },
    };
  }
  async listPods(): Promise<KubeObject[]> {
    this.requests.push('pods');
    return this.pods;
  }
  async listEvents(_ns: string | null, filter?: { uids?: readonly string[] }): Promise<KubeObject[]> {
    this.requests.push('events');
    const ev = (
      pod: string,
      reason: string,
      type: string,
      message: string,
      count: number,
      last: string,
    ): KubeObject => ({
      metadata: { name: `${pod}.${reason}`, uid: `e-${pod}-${reason}`, namespace: 'training' },
      involvedObject: { kind: 'Pod', name: pod, uid: `uid-${pod}`, namespace: 'training' },
      reason,
      type,
      message,
      count,
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: last,
    });
    const all = [
      ev(
        'broken-worker-0',
        'Scheduled',
        'Normal',
        'Successfully assigned training/broken-worker-0 to gpu-node-01',
        1,
        '2026-01-01T00:00:01Z',
      ),
      ev(
        'broken-worker-0',
        'Pulled',
        'Normal',
        'Successfully pulled image "pytorch" in 9.2s (9.2s including waiting)',
        1,
        '2026-01-01T00:00:10Z',
      ),
      ev(
        'broken-worker-0',
        'BackOff',
        'Warning',
        'Back-off restarting failed container main',
        7,
        '2026-01-01T00:09:00Z',
      ),
    ];
    return all.filter((e) => !filter?.uids || filter.uids.includes((e['involvedObject'] as { uid: string }).uid));
  }
  async streamLogs(_ns: string, pod: string, options: LogOptions, onLine: (line: string) => void): Promise<void> {
    this.requests.push(`logs ${pod}${options.previous ? ' previous' : ''}`);
    this.open++;
    this.opened++;
    let i = 0;
    try {
      onLine(`${pod} line ${i++} \u001b[2J cleared?`);
      if (!options.follow) return;
      while (!options.signal?.aborted) {
        await sleep(20);
        onLine(`${pod} line ${i++}`);
      }
    } finally {
      this.open--;
    }
  }
}

async function mount() {
  const source = new FakeSource();
  const access = new FakeAccess();
  Object.assign(source, { access });
  const h = await mountApp({ source, size: { columns: 140, rows: 34 } });
  return { h, access };
}

async function openWorkloadRow(h: Awaited<ReturnType<typeof mountApp>>, name: string) {
  await h.press('/', ...name, KEY.enter);
  // Keys act on the rows of the last render: wait until the filtered list is drawn.
  await h.waitFor((f) => f.includes(`</${name}>`) && /workloads\(all\)\[1\/\d+\]/.test(f), name);
}

test('w on a stuck workload: the unschedulable gang with the scheduler message; 1 jumps to its pods', async () => {
  const { h } = await mount();
  try {
    await openWorkloadRow(h, 'stuck-pretrain');
    await h.press('w');
    const f = await h.waitFor((x) => x.includes('Unschedulable: 2 pods'), 'why view');
    assert.ok(f.includes(FIT), f);
    assert.ok(f.includes('gang cannot start: 2 of 3 members unschedulable (Insufficient nvidia.com/gpu)'), f);
    assert.ok(f.includes('stuck-worker-1') && f.includes('stuck-worker-2'), f);
    await h.press('1');
    const pods = await h.waitFor((x) => x.includes('pods(') && x.includes('stuck-worker-2'), 'pods view');
    assert.ok(!pods.includes('stuck-worker-0'), pods);
  } finally {
    h.unmount();
  }
});

test('w on a crash-looping workload: OOMKilled with exit code and restarts; the workload view says why', async () => {
  const { h } = await mount();
  try {
    await openWorkloadRow(h, 'broken-finetune');
    await h.press(KEY.enter);
    const wf = await h.waitFor((x) => x.includes('why Failed'), 'why line');
    assert.match(wf, /why Failed: 1 OOMKilled — press w/);
    await h.press('w');
    const f = await h.waitFor((x) => x.includes('OOMKilled: 1 pod'), 'why view');
    assert.match(f, /OOMKilled, exit 137, 5 restarts/);
    assert.match(f, /PyTorchJob Failed/);
  } finally {
    h.unmount();
  }
});

test('l streams a pod log sanitised and closes the stream with the view; e, y and d show events, fresh YAML, GPUs', async () => {
  const { h, access } = await mount();
  try {
    await openWorkloadRow(h, 'broken-finetune');
    await h.press(KEY.enter);
    await h.waitFor((x) => x.includes('pytorchjob(training/broken-finetune)'), 'workload view');
    await h.press(KEY.enter);
    await h.waitFor((x) => x.includes('broken-worker-0') && x.includes('pods('), 'pods view');
    await h.press('l');
    const f = await h.waitFor((x) => /broken-worker-0 line [3-9]/.test(x), 'followed lines');
    assert.ok(f.includes('\\e[2J cleared?'), 'escape shown, not executed');
    assert.ok(!f.includes('\u001b[2J'));
    assert.equal(access.open, 1);
    await h.press(KEY.esc);
    await h.waitFor((x) => x.includes('pods('), 'back in pods');
    await sleep(50);
    assert.equal(access.open, 0, 'stream closed with the view');

    await h.press('e');
    const ev = await h.waitFor((x) => x.includes('BackOff'), 'events');
    assert.match(ev, /Warning\s+BackOff\s+Back-off restarting failed container main \(x7 over/);
    assert.ok(ev.indexOf('BackOff') < ev.indexOf('Scheduled'), 'newest first');
    await h.press(KEY.esc);
    await h.waitFor((x) => x.includes('pods('), 'back in pods');
    await h.press('y');
    const y = await h.waitFor((x) => x.includes('apiVersion: v1'), 'yaml');
    assert.match(y, /note: "evil \\e\]0;pwned\\a text"/);
    assert.ok(!y.includes('\u001b]0;'), 'no raw OSC');
    await h.press('/', 'nemo', KEY.enter);
    await h.waitFor((x) => x.includes('image: nemo:24'), 'search');
    await h.press(KEY.esc, KEY.esc);
    await h.waitFor((x) => x.includes('pods('), 'back in pods');
    await h.press('d');
    const d = await h.waitFor((x) => x.includes('Containers:'), 'describe');
    assert.match(d, /GPUs:\s+1/);
    assert.match(d, /Last State:\s+Terminated: OOMKilled exit 137/);
    assert.ok(access.requests.includes('get Pod/broken-worker-0'), 'YAML fetched fresh');
  } finally {
    h.unmount();
  }
  await sleep(30);
  assert.equal(access.open, 0);
});

test('l on a workload interleaves all its pods with a name prefix; o and n jump from a pod', async () => {
  const { h, access } = await mount();
  try {
    await openWorkloadRow(h, 'stuck-pretrain');
    await h.press('l');
    const f = await h.waitFor(
      (x) => x.includes('[stuck-worker-0] stuck-worker-0 line') && x.includes('[stuck-worker-2] stuck-worker-2 line'),
      'aggregated',
    );
    assert.ok(f.includes('3 pods'), f);
    await h.press(KEY.esc);
    await sleep(50);
    assert.equal(access.open, 0);
    await h.press(':', ...'pods', KEY.enter);
    await h.waitFor((x) => x.includes('pods(all)'), ':pods');
    await h.press('/', ...'stuck-worker-0', KEY.enter);
    await h.waitFor((x) => /pods\(all\)\[1\/\d+\]/.test(x), 'one pod');
    await h.press('n');
    await h.waitFor((x) => x.includes('node(gpu-node-05)'), 'node view');
    await h.press(KEY.esc);
    await h.waitFor((x) => /pods\(all\)\[1\/\d+\]/.test(x), 'back to one pod');
    await h.press('o');
    await h.waitFor((x) => x.includes('pods(worker)') || x.includes('pods(stuck'), 'owner workload pods');
  } finally {
    h.unmount();
  }
});

test('a pod no workload owns (node view): l, e and y still work on it', async () => {
  const { h, access } = await mount();
  try {
    await h.press(':', ...'nodes', KEY.enter);
    await h.waitFor((x) => x.includes('nodes['), 'nodes');
    await h.press(KEY.enter);
    await h.waitFor((x) => x.includes('node(gpu-node-01)') && x.includes('lonely-debug'), 'node view');
    await h.press('G');
    await sleep(50);
    await h.press('l');
    await h.waitFor((x) => x.includes('lonely-debug line 2'), 'logs of the bare pod');
    await h.press(KEY.esc);
    await h.waitFor((x) => x.includes('node(gpu-node-01)'), 'back');
    await sleep(50);
    assert.equal(access.open, 0);
    await h.press('y');
    await h.waitFor((x) => x.includes('yaml pod/default/lonely-debug'), 'yaml of the bare pod');
    assert.ok(access.requests.includes('get Pod/lonely-debug'));
  } finally {
    h.unmount();
  }
});

test('s draws the startup waterfall in the pane: legend, role band, a bar per pod; bars stay whole when w wraps', async () => {
  const { h } = await mount();
  try {
    await openWorkloadRow(h, 'stuck-pretrain');
    await h.press('s');
    const f = await h.waitFor((x) => x.includes('waiting to schedule'), 'the waterfall');
    assert.match(f, /░░ waiting to schedule {2}▒▒ pulling {2}▓▓ starting {2}██ ready {2}S all scheduled not yet/);
    assert.match(f, /pods \(slowest first\) +0s/);
    // The unscheduled workers wait the whole axis (now is far past their creation); the one bound at an
    // unknown time (a condition without lastTransitionTime) gets no bar rather than a wrong one.
    const row = (name: string) => f.split('\n').find((l) => l.startsWith(`│${name} `)) ?? '';
    assert.match(row('stuck-worker-1'), /^│stuck-worker-1 +░{20,} +\d+[hms]\S* +- +- +- *│$/);
    assert.match(row('stuck-worker-0'), /^│stuck-worker-0 +- +- +- +- *│$/);
    assert.match(f, /│ {2}waiting: Unschedulable: 0\/14 nodes are available/);
    await h.press('w');
    await sleep(50);
    assert.match(row('stuck-worker-1'), /^│stuck-worker-1 +░{20,}/);
  } finally {
    h.unmount();
  }
});
