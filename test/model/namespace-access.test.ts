// A namespace the user may not read is told once, in the same words by
// `wlx get` and the explorer, naming the user the server's 403 names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forbiddenUser, unreadableNamespaceText } from '../../src/model/namespace-access.js';

test('forbiddenUser reads the user out of kube-apiserver RBAC denials', () => {
  assert.equal(
    forbiddenUser(
      'context "x" (server https://h): GET /api/v1/namespaces/research/pods?limit=500: pods is forbidden: User "researcher" cannot list resource "pods" in API group "" in the namespace "research"',
    ),
    'researcher',
  );
  assert.equal(
    forbiddenUser('nodes is forbidden: User "system:serviceaccount:ml:runner" cannot list resource "nodes"'),
    'system:serviceaccount:ml:runner',
  );
  assert.equal(forbiddenUser('HTTP 403'), null);
  assert.equal(forbiddenUser(undefined), null);
});

test('unreadableNamespaceText: one namespace, several, with and without user and alternatives', () => {
  assert.equal(
    unreadableNamespaceText(['research'], 'researcher', ['training']),
    'namespace research is not readable by researcher (readable: training)',
  );
  assert.equal(unreadableNamespaceText(['a', 'b'], null, []), 'namespaces a, b are not readable');
});
