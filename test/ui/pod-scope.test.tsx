// The explorer tells its model source whose pods its views draw, and draws a
// view whose pods have not arrived as loading (never as an empty list): the
// engine worker sends only those pods (src/app/worker/README.md "Pod scope").
// Here a source answers each scope the way the worker does, when told.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mountApp, KEY } from './helpers.js';
import { FakeSource, defaultSnapshot } from './fixtures.js';
import { PodElision } from '../../src/model/elided-pods.js';
import type { ModelSnapshot, PodScope } from '../../src/model/types.js';
import { frameScope, podScopeOf } from '../../src/ui/state/pod-scope.js';
import { initialState, newFrame } from '../../src/ui/state/ui-state.js';

/** Holds the whole snapshot; publishes it elided to the last scope asked, when `answer()` is called. */
class ScopedSource extends FakeSource {
  readonly scopes: PodScope[] = [];
  private readonly elision = new PodElision();
  constructor(private readonly full: ModelSnapshot) {
    super(full);
  }
  override setPodScope(scope: PodScope): void {
    this.scopes.push(scope);
  }
  answer(): void {
    const scope = this.scopes[this.scopes.length - 1] ?? 'all';
    this.publish({ ...this.elision.apply(this.full, scope), version: this.snapshot.version + 1 });
  }
}

test('pod scope: each view asks for the pods it draws, the stack below included', () => {
  const w = (uid: string) => newFrame({ kind: 'workload', label: 'w', workloadUid: uid });
  assert.deepEqual(frameScope(newFrame({ kind: 'workloads', label: 'workloads' })), { workloads: [] });
  assert.deepEqual(frameScope(newFrame({ kind: 'nodes', label: 'nodes' })), { workloads: [] });
  assert.deepEqual(frameScope(w('a')), { workloads: ['a'] });
  assert.deepEqual(frameScope(newFrame({ kind: 'pods', label: 'p', workloadUid: 'a' })), { workloads: ['a'] });
  assert.equal(frameScope(newFrame({ kind: 'pods', label: 'pods' })), 'all');
  assert.equal(frameScope(newFrame({ kind: 'node', label: 'n', nodeName: 'gpu-node-01' })), 'all');
  assert.equal(frameScope(newFrame({ kind: 'map', label: 'map' })), 'all');
  const why = (incident: NonNullable<ReturnType<typeof newFrame>['incident']>) =>
    frameScope(newFrame({ kind: 'why', label: 'why', incident }));
  assert.deepEqual(why({ kind: 'workload', workloadUid: 'a' }), { workloads: ['a'] });
  assert.deepEqual(why({ kind: 'pod', namespace: 'n', name: 'p', uid: 'u', workloadUid: 'b' }), { workloads: ['b'] });
  assert.equal(why({ kind: 'pod', namespace: 'n', name: 'p', uid: 'u' }), 'all', 'a pod without a workload');
  assert.equal(why({ kind: 'node', name: 'gpu-node-01' }), 'all');
  const state = initialState();
  assert.deepEqual(podScopeOf({ ...state, stack: [...state.stack, w('b'), w('a')] }), { workloads: ['a', 'b'] });
  assert.equal(
    podScopeOf({ ...state, stack: [...state.stack, newFrame({ kind: 'pods', label: 'pods' }), w('a')] }),
    'all',
  );
});

test('pod scope: the workloads view reads elided trees as whole ones; a workload view loads its pods, then draws them', async () => {
  const source = new ScopedSource(defaultSnapshot());
  const h = await mountApp({ source });
  try {
    await h.waitFor(() => source.scopes.length > 0, 'the first scope');
    assert.deepEqual(source.scopes.at(-1), { workloads: [] }, 'the workloads view draws no pod');
    source.answer();
    let f = await h.waitFor((x) => x.includes('workloads(all)[5]'), 'the list');
    assert.ok(
      source.snapshot.workloads.every((w) => w.podsElided),
      'no pod crossed',
    );
    // The same row as from the whole tree (app.test.tsx): ready, GPUs and the nodes its pods are on.
    assert.match(f, /training\s+llama-pretrain\s+JobSet\s+Running\s+3\/3\s+12\/12\s+3/);
    assert.match(f, /broken-finetune\s+PyTorchJob\s+Failed/);

    await h.press('/', 'l', 'l', 'a', 'm', 'a', KEY.enter, KEY.enter);
    f = await h.waitFor((x) => x.includes('jobset(training/llama-pretrain)'), 'workload view');
    assert.deepEqual(source.scopes.at(-1), { workloads: ['uid-llama-pretrain'] });
    assert.match(f, /loading pods…/, 'drawn as loading, not as a workload without pods');
    assert.match(f, /jobset\(training\/llama-pretrain\)\[…\]/, 'its count not known yet');
    assert.doesNotMatch(f, /leader/);
    source.answer();
    f = await h.waitFor((x) => /leader\s+Ready\s+1\/1/.test(x), 'its roles and pods');
    assert.match(f, /worker\s+Ready\s+2\/2\s+2\s+8\/8 gpu-node-02,gpu-node-03/);
    assert.doesNotMatch(f, /loading pods/);

    await h.press(KEY.esc);
    await h.waitFor(() => JSON.stringify(source.scopes.at(-1)) === '{"workloads":[]}', 'the scope shrinks back');

    await h.press(':', 'p', 'o', 'd', 's', KEY.enter);
    await h.waitFor((x) => x.includes('pods(all)[…]'), ':pods, loading');
    assert.equal(source.scopes.at(-1), 'all', 'every pod');
    source.answer();
    await h.waitFor((x) => x.includes('pods(all)[12]') && x.includes('bert-master-0'), 'the pods');
  } finally {
    h.unmount();
  }
});
