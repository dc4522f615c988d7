// Habits k9s users bring, in the App: `:TYPE` lists one workload type, the
// `:ctx` and `:ns` pickers, 0–9 namespace keys, k9s's write keys answered
// with a read-only notice, the user's aliases, hotkeys and plugins, ctrl-a,
// ctrl-s, `-c`, `--headless`, and `:events` (newest first, `/` filters).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/model/types.js';
import type { ObjectAccess } from '../../src/model/source.js';
import type { PluginBinding, PluginRun, UserBindings } from '../../src/ui/user-config.js';
import type { TableDump } from '../../src/ui/state/table-dump.js';
import { defaultSnapshot, FakeSource } from './fixtures.js';
import { mountApp, KEY, sleep } from './helpers.js';

const CTRL = { a: '\u0001', d: '\u0004', k: '\u000b', s: '\u0013' } as const;

function plugin(over: Partial<PluginBinding> = {}): PluginBinding {
  return {
    id: 'env',
    key: 'E',
    shortCut: 'Shift-E',
    description: 'dump env',
    scopes: ['pods'],
    command: 'sh',
    args: ['-c', 'echo $NAME $POD'],
    background: false,
    confirm: false,
    ...over,
  };
}

function bindings(over: Partial<UserBindings> = {}): UserBindings {
  return { aliases: new Map(), hotkeys: [], plugins: [], ...over };
}

test(':jobset, :jobsets and a short name list only that type; :pytorchjob another', async () => {
  const snapshot = defaultSnapshot();
  snapshot.kinds[1].shortNames = ['js'];
  snapshot.definitions.push({
    name: 'pytorchjob',
    kind: 'kubeflow.org/v1/PyTorchJob',
    source: 'builtin',
    location: 'definitions/pytorchjob.yaml',
    valid: true,
    workloads: 2,
    problems: [],
  });
  const h = await mountApp({ source: new FakeSource(snapshot) });
  try {
    await h.press(':', ...'jobset', KEY.enter);
    let f = await h.waitFor((x) => x.includes('jobsets(all)[2]'), 'the JobSets only');
    assert.match(f, /llama-pretrain/);
    assert.doesNotMatch(f, /bert-finetune/);
    await h.press(':', ...'pytorchjobs', KEY.enter);
    f = await h.waitFor((x) => x.includes('pytorchjobs(all)[1]'), 'the PyTorchJobs only (of kubeflow.org)');
    assert.match(f, /bert-finetune/);
    assert.doesNotMatch(f, /llama-pretrain/);
    await h.press(':', ...'js', KEY.enter);
    await h.waitFor((x) => x.includes('jobsets(all)[2]'), 'the short name the server publishes');
    await h.press(':', ...'jobsets default', KEY.enter);
    await h.waitFor((x) => x.includes('jobsets(default)[0]'), 'a namespace after the type, as k9s');
  } finally {
    h.unmount();
  }
});

test(':ns without a name: the namespaces you can read; refused, the ones wlx reads, and why', async () => {
  const source = new FakeSource();
  const refused: Partial<ObjectAccess> = {
    listNamespaces: () =>
      Promise.reject(
        Object.assign(new Error('namespaces is forbidden: User "r" cannot list resource "namespaces"'), {
          status: 403,
          reason: 'Forbidden',
        }),
      ),
  };
  Object.assign(source, { access: refused });
  const h = await mountApp({ source });
  try {
    await h.press(':', ...'ns', KEY.enter);
    const f = await h.waitFor((x) => x.includes('listing them was refused'), 'the picker, read');
    assert.match(f, /the namespaces wlx knows you read: listing them was refused \(forbidden\)/);
    assert.match(f, /0\s+all/);
    assert.match(f, /default/);
    assert.match(f, /training/);
    // Enter on training: back to the view, scoped.
    await h.press('j', 'j', KEY.enter);
    await h.waitFor((x) => x.includes('workloads(training)'), 'scoped to training');
  } finally {
    h.unmount();
  }

  const listed = new FakeSource();
  const ns = (name: string, phase = 'Active') =>
    ({ metadata: { name, creationTimestamp: '2026-01-01T00:00:00Z' }, status: { phase } }) as unknown as KubeObject;
  const listing: Partial<ObjectAccess> = {
    listNamespaces: () => Promise.resolve([ns('training'), ns('default'), ns('old', 'Terminating')]),
  };
  Object.assign(listed, { access: listing });
  const h2 = await mountApp({ source: listed });
  try {
    await h2.press(':', ...'ns', KEY.enter);
    const f = await h2.waitFor((x) => x.includes('namespaces[4]'), 'all and the three namespaces');
    assert.match(f, /old\s+Terminating/);
    assert.doesNotMatch(f, /refused/);
  } finally {
    h2.unmount();
  }
});

test(':ns counts workloads only once they are listed, and says which namespaces wlx does not read (never 0)', async () => {
  const ns = (name: string) =>
    ({
      metadata: { name, creationTimestamp: '2026-01-01T00:00:00Z' },
      status: { phase: 'Active' },
    }) as unknown as KubeObject;
  const listing: Partial<ObjectAccess> = {
    listNamespaces: () => Promise.resolve([ns('training'), ns('default'), ns('research')]),
  };
  const syncing = defaultSnapshot();
  syncing.connection = { ...syncing.connection, state: 'syncing', synced: 1 };
  const source = new FakeSource(syncing, { ...new FakeSource().connection, namespace: 'training' });
  Object.assign(source, { access: listing });
  const h = await mountApp({ source });
  try {
    await h.press(':', ...'ns', KEY.enter);
    let f = await h.waitFor((x) => x.includes('namespaces[4]'), 'all and the three namespaces');
    assert.match(f, /0\s+all\s+…/, 'the total is not known while listing');
    assert.match(f, /research\s+Active\s+…/);
    assert.doesNotMatch(f, /Active\s+0\b/);
    const live = defaultSnapshot(2);
    source.publish(live);
    f = await h.waitFor((x) => !x.includes('…'), 'counted once listed');
    const inTraining = live.workloads.filter((w) => w.namespace === 'training').length;
    assert.match(f, new RegExp(`training\\s+Active\\s+${inTraining}\\b`), 'the namespace wlx was started with');
    assert.match(f, /research\s+Active\s+not read/, 'started with -n training: research is not read, not empty');
    assert.match(f, /default\s+Active\s+not read/);
  } finally {
    h.unmount();
  }
});

test('0 is all namespaces, 1–9 the ones used lately (a new one first; each keeps its key, as k9s)', async () => {
  const h = await mountApp({ recentNamespaces: ['research'] });
  try {
    await h.press('1');
    await h.waitFor((x) => x.includes('workloads(research)'), '1: the namespace given at start');
    await h.press(':', ...'ns training', KEY.enter);
    await h.waitFor((x) => x.includes('workloads(training)'), ':ns training');
    await h.press('0');
    await h.waitFor((x) => x.includes('workloads(all)'), '0: all');
    await h.press('2');
    await h.waitFor((x) => x.includes('workloads(research)'), '2: the one before');
    await h.press('1');
    await h.waitFor((x) => x.includes('workloads(training)'), '1: the last one used');
    await h.press('0', '9');
    await h.waitFor((x) => /no namespace on 9 yet/.test(x), 'an unused digit says so');
  } finally {
    h.unmount();
  }
});

test(':ctx without a name: the contexts, the current one marked; Enter switches', async () => {
  const switched: string[] = [];
  const h = await mountApp({ contexts: ['demo', 'prod-a', 'prod-b'], onSwitchContext: (c) => switched.push(c) });
  try {
    await h.press(':', ...'ctx', KEY.enter);
    const f = await h.waitFor((x) => x.includes('contexts[3]'), 'the picker');
    assert.match(f, /\*\s+demo/);
    await h.press('j', KEY.enter);
    await sleep(50);
    assert.deepEqual(switched, ['prod-a']);
  } finally {
    h.unmount();
  }
});

test("k9s's write keys say wlx is read-only", async () => {
  const h = await mountApp();
  try {
    await h.press(CTRL.d);
    await h.waitFor((x) => x.includes('wlx is read-only: ctrl-d (delete in k9s) does nothing'), 'ctrl-d');
    await h.press(':', ...'pods', KEY.enter, CTRL.k);
    await h.waitFor((x) => x.includes('wlx is read-only: ctrl-k (kill in k9s)'), 'ctrl-k on pods');
    await h.press(':', ...'nodes', KEY.enter, 'c');
    await h.waitFor((x) => x.includes('wlx is read-only: c (cordon in k9s)'), 'c on nodes');
    await h.press('?', 'G');
    const help = await h.waitFor((x) => x.includes('k9s: cordon (wlx is read-only)'), 'help lists them (last)');
    assert.match(help, /ctrl-d\s+k9s: delete/);
  } finally {
    h.unmount();
  }
});

test('aliases and hotkeys run their command; ctrl-a lists commands, types and aliases', async () => {
  const b = bindings({
    aliases: new Map([
      ['tr', 'ns training'],
      ['js', 'jobsets'],
    ]),
    hotkeys: [{ id: 'map', key: 'M', shortCut: 'Shift-M', description: 'the GPU map', command: 'map' }],
  });
  const h = await mountApp({ bindings: b });
  try {
    await h.press(':', ...'tr', KEY.enter);
    await h.waitFor((x) => x.includes('workloads(training)'), 'the alias');
    await h.press(':', ...'js', KEY.enter);
    await h.waitFor((x) => x.includes('jobsets(training)'), 'an alias of a type');
    await h.press('M');
    await h.waitFor((x) => x.includes('map(all)'), 'the hotkey');
    await h.press(CTRL.a);
    const f = await h.waitFor((x) => x.includes('aliases['), 'ctrl-a');
    assert.match(f, /:tr\s+:ns training\s+aliases\.yaml/);
    assert.match(f, /:jobset :jobsets\s+the jobsets only\s+definitions/);
    await h.press('?');
    await h.waitFor((x) => /Shift-M\s+the GPU map \(hotkey: :map\)/.test(x), 'help lists the hotkey');
  } finally {
    h.unmount();
  }
});

test('a plugin in its scope: confirm asks first, then runs with the selection’s environment', async () => {
  const runs: PluginRun[] = [];
  const b = bindings({ plugins: [plugin({ confirm: true })] });
  const h = await mountApp({
    bindings: b,
    pluginEnv: { KUBECONFIG: '/k/config' },
    runPlugin: (run) => {
      runs.push(run);
      return Promise.resolve({ code: 3 });
    },
  });
  try {
    // Out of scope (the workloads view): nothing.
    await h.press('E');
    await sleep(50);
    assert.equal(runs.length, 0);
    assert.doesNotMatch(h.frame(), /\(y\/n\)/);
    await h.press(KEY.enter, 'j', KEY.enter);
    await h.waitFor((x) => x.includes('pods(worker)'), 'the worker pods');
    await h.press('E');
    await h.waitFor(
      (x) => x.includes("run sh -c 'echo llama-pretrain-worker-0-0 llama-pretrain-worker-0-0'? (y/n)"),
      'asks',
    );
    await h.press('n');
    await h.waitFor((x) => x.includes('not run'), 'n: not run');
    assert.equal(runs.length, 0);
    await h.press('E', 'y');
    await h.waitFor((x) => x.includes('plugin dump env: exit status 3'), 'the exit status');
    assert.equal(runs.length, 1);
    const env = runs[0].env;
    assert.equal(env.NAME, 'llama-pretrain-worker-0-0');
    assert.equal(env.POD, 'llama-pretrain-worker-0-0');
    assert.equal(env.NAMESPACE, 'training');
    assert.equal(env.KIND, 'JobSet');
    assert.equal(env.WORKLOAD, 'llama-pretrain');
    assert.equal(env.ROLE, 'worker');
    assert.equal(env.NODE, 'gpu-node-02');
    assert.equal(env.CONTEXT, 'demo');
    assert.equal(env.CLUSTER, 'wlx-demo');
    assert.equal(env.KUBECONFIG, '/k/config');
    assert.deepEqual(runs[0].args, ['-c', 'echo llama-pretrain-worker-0-0 llama-pretrain-worker-0-0']);
  } finally {
    h.unmount();
  }
});

test('a plugin scoped to a workload kind applies to that kind’s rows only', async () => {
  const runs: PluginRun[] = [];
  const h = await mountApp({
    bindings: bindings({ plugins: [plugin({ scopes: ['jobset'], args: ['$WORKLOAD'] })] }),
    runPlugin: (run) => {
      runs.push(run);
      return Promise.resolve({ code: 0 });
    },
  });
  try {
    await h.press('E');
    await h.waitFor(() => runs.length === 1, 'the JobSet row');
    assert.deepEqual(runs[0].args, ['llama-pretrain']);
    await h.press('j', 'E');
    await sleep(60);
    assert.equal(runs.length, 1, 'bert-finetune is a PyTorchJob');
  } finally {
    h.unmount();
  }
});

test('ctrl-s hands the table, as shown, to be saved', async () => {
  const dumps: TableDump[] = [];
  const h = await mountApp({
    saveTable: (d) => {
      dumps.push(d);
      return Promise.resolve('/dumps/workloads-all-1.csv');
    },
  });
  try {
    await h.press('/', ...'llama', KEY.enter, CTRL.s);
    await h.waitFor((x) => x.includes('saved /dumps/workloads-all-1.csv'), 'where');
    assert.equal(dumps.length, 1);
    assert.equal(dumps[0].view, 'workloads');
    assert.deepEqual(dumps[0].columns.slice(0, 3), ['NAMESPACE', 'NAME', 'KIND']);
    assert.deepEqual(
      dumps[0].rows.map((r) => r[1]),
      ['llama-pretrain'],
    );
  } finally {
    h.unmount();
  }
});

test('-c opens a view; --headless hides the header', async () => {
  const h = await mountApp({ initialCommand: 'nodes', headless: true });
  try {
    const f = await h.waitFor((x) => x.includes('nodes['), 'the nodes view at start');
    assert.doesNotMatch(f, /Context:/);
  } finally {
    h.unmount();
  }
});

test(':events: every namespace’s events, newest first; / keeps the matching ones', async () => {
  const source = new FakeSource();
  const ev = (name: string, reason: string, last: string, message: string) =>
    ({
      metadata: { name, namespace: 'training' },
      involvedObject: { kind: 'Pod', name: 'p-' + name },
      type: reason === 'BackOff' ? 'Warning' : 'Normal',
      reason,
      message,
      count: 1,
      lastTimestamp: last,
    }) as unknown as KubeObject;
  const events: Partial<ObjectAccess> = {
    listEvents: (namespace: string | null) =>
      Promise.resolve(
        namespace === null
          ? [
              ev('a', 'Pulled', '2026-01-01T00:00:00Z', 'image pulled'),
              ev('b', 'BackOff', '2026-01-01T00:01:00Z', 'back-off restarting'),
            ]
          : [],
      ),
  };
  Object.assign(source, { access: events });
  const h = await mountApp({ source });
  try {
    await h.press(':', ...'events', KEY.enter);
    let f = await h.waitFor((x) => x.includes('back-off restarting') && x.includes('image pulled'), 'both events');
    assert.ok(f.indexOf('back-off restarting') < f.indexOf('image pulled'), 'newest first');
    assert.match(f, /training\/pod\/p-b/);
    await h.press('/', ...'pulled', KEY.enter);
    f = await h.waitFor((x) => !x.includes('back-off restarting'), 'the filter');
    assert.match(f, /image pulled/);
  } finally {
    h.unmount();
  }
});
