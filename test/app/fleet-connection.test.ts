// The fleet's header fields (src/app/fleet.ts): what `User:` and `Cluster:`
// say when several contexts are open — never an empty label.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fleetUser } from '../../src/app/fleet.js';

test('User: the one user when every cluster has the same, else per cluster; unknown when none is known', () => {
  assert.equal(fleetUser(['alice', 'alice', null]), 'alice');
  assert.equal(fleetUser(['alice', 'bob']), 'per cluster (Enter on :clusters)');
  assert.equal(fleetUser([null, null]), 'unknown (kubeconfig not read)');
});
