// Keys as k9s users type them: `/` starts a new filter rather than reopening
// the last one, and Escapes sent in one burst (tmux sends them so; a fast
// user does too) each back out one level.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialState, reduce, currentFrame } from '../../src/ui/state/ui-state.js';
import { mountApp, KEY } from './helpers.js';

test('the reducer: / opens an empty filter; Esc then clears it', () => {
  let s = reduce(initialState(), { type: 'startFilter' });
  s = reduce(s, { type: 'input', text: 'llama' });
  s = reduce(s, { type: 'commitInput' });
  assert.equal(currentFrame(s).filter, 'llama');
  s = reduce(s, { type: 'startFilter' });
  assert.equal(currentFrame(s).filter, '', 'a new filter starts empty');
  s = reduce(s, { type: 'input', text: 'bert' });
  assert.equal(currentFrame(s).filter, 'bert');
});

test('/ then text replaces the filter', async () => {
  const h = await mountApp();
  try {
    await h.press('/', 'l', 'l', 'a', 'm', 'a', KEY.enter);
    await h.waitFor((x) => x.includes('[1/5]') && x.includes('</llama>'), 'filtered to llama');
    await h.press('/', 'b', 'e', 'r', 't', KEY.enter);
    const f = await h.waitFor((x) => x.includes('</bert>'), 'filtered to bert');
    assert.match(f, /workloads\(all\)\[1\/5\]/);
    assert.match(f, /bert-finetune/);
    assert.doesNotMatch(f, /llamabert/);
  } finally {
    h.unmount();
  }
});

test('three Escapes in one burst back out three levels', async () => {
  const h = await mountApp();
  try {
    await h.press('/', 'l', 'l', 'a', 'm', 'a', KEY.enter, KEY.esc);
    await h.waitFor((x) => x.includes('workloads(all)[5]'), 'the whole list');
    await h.press(KEY.enter, 'j', KEY.enter, KEY.enter);
    await h.waitFor((x) => x.includes('node(gpu-node-02)'), 'four levels deep: workloads → workload → pods → node');
    h.stdin(KEY.esc.repeat(3));
    const f = await h.waitFor((x) => x.includes('workloads(all)[5]'), 'home');
    assert.match(f, /<workloads>\s*$/m, 'one breadcrumb: home');
  } finally {
    h.unmount();
  }
});
