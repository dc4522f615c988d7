// The view-state reducer: every key's effect without a terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialState, reduce, currentFrame, type UiState, type UiAction } from '../../src/ui/state/ui-state.js';

const run = (s: UiState, ...actions: UiAction[]) => actions.reduce(reduce, s);

test('moves clamp to the rows and scroll keeps the selection in the page', () => {
  let s = initialState();
  s = run(s, { type: 'move', delta: -1, count: 50, page: 10 });
  assert.equal(currentFrame(s).selected, 0);
  s = run(s, { type: 'move', delta: 12, count: 50, page: 10 });
  assert.deepEqual([currentFrame(s).selected, currentFrame(s).top], [12, 3]);
  s = run(s, { type: 'moveTo', where: 'last', count: 50, page: 10 });
  assert.deepEqual([currentFrame(s).selected, currentFrame(s).top], [49, 40]);
  s = run(s, { type: 'move', delta: -10, count: 50, page: 10 });
  assert.deepEqual([currentFrame(s).selected, currentFrame(s).top], [39, 39]);
  s = run(s, { type: 'moveTo', where: 'first', count: 50, page: 10 });
  assert.deepEqual([currentFrame(s).selected, currentFrame(s).top], [0, 0]);
  s = run(s, { type: 'move', delta: 5, count: 0, page: 10 });
  assert.equal(currentFrame(s).selected, 0, 'empty list');
});

test('Esc leaves the prompt, then clears the filter, then pops the view', () => {
  let s = initialState();
  s = run(s, { type: 'push', frame: { kind: 'workload', label: 'llama', workloadUid: 'u1' } });
  s = run(s, { type: 'startFilter' }, { type: 'input', text: 'wor' }, { type: 'input', text: 'k' });
  assert.equal(s.mode, 'filter');
  assert.equal(currentFrame(s).filter, 'work');
  s = run(s, { type: 'backspace' });
  assert.equal(currentFrame(s).filter, 'wor');
  s = run(s, { type: 'commitInput' });
  assert.equal(s.mode, 'normal');
  assert.equal(currentFrame(s).filter, 'wor');
  s = run(s, { type: 'back' });
  assert.equal(s.stack.length, 2, 'first Esc clears the filter');
  assert.equal(currentFrame(s).filter, '');
  s = run(s, { type: 'back' });
  assert.equal(s.stack.length, 1);
  const root = run(s, { type: 'back' });
  assert.equal(root, s, 'Esc at the root does nothing');
});

test('Esc in the filter prompt clears the filter', () => {
  let s = run(initialState(), { type: 'startFilter' }, { type: 'input', text: 'x' }, { type: 'back' });
  assert.equal(s.mode, 'normal');
  assert.equal(currentFrame(s).filter, '');
  s = run(s, { type: 'startCommand' }, { type: 'input', text: 'nod' }, { type: 'back' });
  assert.equal(s.mode, 'normal');
  assert.equal(s.input, '');
});

test('each view keeps its own selection and filter', () => {
  let s = run(
    initialState(),
    { type: 'move', delta: 3, count: 10, page: 5 },
    { type: 'push', frame: { kind: 'nodes', label: 'nodes' } },
  );
  assert.equal(currentFrame(s).selected, 0);
  s = run(s, { type: 'back' });
  assert.equal(currentFrame(s).selected, 3);
});

test('sort: same key flips direction; a new key starts ascending (GPUs descending)', () => {
  let s = run(initialState(), { type: 'sort', key: 'name' });
  assert.deepEqual(currentFrame(s).sort, { key: 'name', desc: false });
  s = run(s, { type: 'sort', key: 'name' });
  assert.deepEqual(currentFrame(s).sort, { key: 'name', desc: true });
  s = run(s, { type: 'sort', key: 'gpus' });
  assert.deepEqual(currentFrame(s).sort, { key: 'gpus', desc: true });
});

test('collapse and expand tree rows', () => {
  let s = run(initialState(), { type: 'push', frame: { kind: 'workload', label: 'w' } });
  s = run(s, { type: 'setCollapsed', treeKey: 'a', collapsed: true });
  assert.deepEqual(currentFrame(s).collapsed, ['a']);
  assert.equal(run(s, { type: 'setCollapsed', treeKey: 'a', collapsed: true }), s, 'no-op keeps identity');
  s = run(s, { type: 'setCollapsed', treeKey: 'a', collapsed: 'toggle' });
  assert.deepEqual(currentFrame(s).collapsed, []);
});

test('a command view replaces the stack; namespace resets selections', () => {
  let s = run(
    initialState(),
    { type: 'push', frame: { kind: 'workload', label: 'w' } },
    { type: 'root', frame: { kind: 'nodes', label: 'nodes' } },
  );
  assert.deepEqual(
    s.stack.map((f) => f.kind),
    ['nodes'],
  );
  s = run(s, { type: 'move', delta: 2, count: 5, page: 5 }, { type: 'namespace', namespace: 'training' });
  assert.equal(s.namespace, 'training');
  assert.equal(currentFrame(s).selected, 0);
});

test('reconcile follows the selected row by key and is a no-op when nothing moved', () => {
  let s = run(initialState(), { type: 'reconcile', index: 4, key: 'k4', count: 10, page: 5 });
  assert.deepEqual([currentFrame(s).selected, currentFrame(s).selectedKey, currentFrame(s).top], [4, 'k4', 0]);
  assert.equal(run(s, { type: 'reconcile', index: 4, key: 'k4', count: 10, page: 5 }), s);
  s = run(s, { type: 'reconcile', index: 7, key: 'k4', count: 10, page: 5 });
  assert.deepEqual([currentFrame(s).selected, currentFrame(s).top], [7, 3]);
});
