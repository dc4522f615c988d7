// An empty namespaced view says why when wlx does not read the namespace in
// scope, instead of "nothing to show".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespaceNeedsAsking, namespaceViewText } from '../../src/ui/render/namespace-access.js';
import type { AccessScope } from '../../src/model/types.js';

const scoped = (over: Partial<AccessScope> = {}) => ({
  access: { clusterWide: false, namespaces: ['training'], forbidden: ['nodes'], user: 'researcher', ...over },
  accessNotice: 'namespace-scoped access: showing namespace training',
});

test('a -n namespace every kind refused: the words of wlx get', () => {
  const snap = { ...scoped({ namespaces: ['research'], unreadable: ['research'], readable: ['training'] }) };
  assert.equal(
    namespaceViewText(snap, 'research', [], null),
    'namespace research is not readable by researcher (readable: training)',
  );
  assert.equal(namespaceNeedsAsking(snap, 'research'), false);
});

test('a namespace-scoped user switching to another namespace: asked, then told', () => {
  const snap = scoped();
  assert.equal(namespaceNeedsAsking(snap, 'research'), true);
  assert.equal(namespaceNeedsAsking(snap, 'training'), false, 'read: an empty list is simply empty');
  assert.equal(namespaceNeedsAsking(snap, null), false);
  assert.match(namespaceViewText(snap, 'research', [], null)!, /^checking whether namespace research is readable/);
  assert.equal(
    namespaceViewText(snap, 'research', [], { namespace: 'research', readable: false, user: null }),
    'namespace research is not readable by researcher (readable: training)',
  );
  assert.match(
    namespaceViewText(snap, 'research', [], { namespace: 'research', readable: true, user: null })!,
    /readable, but wlx reads only training .*start it with -n research/,
  );
  // An answer for another namespace does not count.
  assert.match(
    namespaceViewText(snap, 'research', [], { namespace: 'other', readable: false, user: null })!,
    /^checking/,
  );
  assert.equal(namespaceViewText(snap, 'training', [], null), null);
});

test('an admin started with -n: another namespace is outside the view; with full access nothing to add', () => {
  const full = { access: { clusterWide: false, namespaces: [], forbidden: [] } };
  assert.equal(
    namespaceViewText(full, 'research', ['training'], null),
    'namespace research is outside this view: wlx was started with -n training',
  );
  assert.equal(namespaceViewText(full, 'training', ['training'], null), null);
  assert.equal(namespaceNeedsAsking(full, 'research'), false, 'never asked without a namespace-scoped notice');
  assert.equal(
    namespaceViewText({ access: { clusterWide: true, namespaces: [], forbidden: [] } }, 'x', [], null),
    null,
  );
});
