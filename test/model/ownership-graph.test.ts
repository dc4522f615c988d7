import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OwnershipGraph } from '../../src/model/ownership-graph.js';
import { UidSet } from '../../src/model/uid-set.js';
import type { DefinitionPlan } from '../../src/model/plan.js';
import type { KubeObject } from '../../src/model/types.js';

const DEFINED = {} as DefinitionPlan;

/** A graph of `links`: uid → [role, controller uid, the controller's `group/Kind`]. */
function graphOf(links: Record<string, ['workload' | 'owner' | 'pod', string | null, string?]>): OwnershipGraph {
  const g = new OwnershipGraph();
  for (const [uid, [role, controller, ownerKind = 'batch/Job']] of Object.entries(links)) {
    const [group, kind] = ownerKind.split('/');
    const obj: KubeObject = {
      metadata: {
        name: uid,
        uid,
        ...(controller
          ? {
              ownerReferences: [
                { apiVersion: `${group}/v1`, kind, name: controller, uid: controller, controller: true },
              ],
            }
          : {}),
      },
    };
    const link = { uid, obj, controller };
    if (role === 'workload') g.workloads.set(uid, { ...link, gvk: '', plan: DEFINED, facts: null, pods: new UidSet() });
    else if (role === 'owner') g.owners.set(uid, { ...link, gvk: '' });
    else g.pods.set(uid, { ...link, workloads: [], active: true, attributed: null } as never);
  }
  return g;
}

function topLevel(g: OwnershipGraph): string[] {
  return [...g.workloads.values()].filter((w) => g.place(w) === 'top-level').map((w) => w.uid);
}

test('top-level: a JobSet with two Jobs, a lone Job, and a Job whose owner kind is still listing', () => {
  const g = graphOf({
    js: ['workload', null],
    'job-a': ['workload', 'js', 'jobset.x-k8s.io/JobSet'],
    lone: ['workload', null],
    'job-b': ['workload', 'js', 'jobset.x-k8s.io/JobSet'],
    'job-p': ['workload', 'js-unlisted', 'jobset.x-k8s.io/JobSet'],
  });
  assert.deepEqual(topLevel(g), ['js', 'lone', 'job-p']);
  g.setListingKinds([{ group: 'jobset.x-k8s.io', kind: 'JobSet' }]);
  assert.deepEqual(topLevel(g), ['js', 'lone'], 'job-p is not known to be top-level while its owner kind lists');
  assert.equal(g.place(g.workloads.get('job-p')!), 'owner-listing');
  assert.equal(g.place(g.workloads.get('job-a')!), 'nested');
  g.setListingKinds([]);
  assert.deepEqual(topLevel(g), ['js', 'lone', 'job-p']);
});

test('top-level: nested when a controller chain (through pods too) reaches a workload of a defined kind', () => {
  const g = graphOf({
    lws: ['workload', null],
    sts0: ['workload', 'lws'], // leader StatefulSet → LWS
    'pod-leader': ['pod', 'sts0'], // leader pod → leader StatefulSet
    sts1: ['workload', 'pod-leader'], // worker StatefulSet → leader pod
    job: ['workload', 'cronjob-not-listed'],
  });
  assert.deepEqual(topLevel(g), ['lws', 'job']);
  // Without a definition for the LWS kind its StatefulSets are top-level.
  g.workloads.get('lws')!.plan = null;
  assert.deepEqual(topLevel(g), ['lws', 'sts0', 'job']);
});

test('top-level at 20,000 workloads: groups of ten, one top-level owner each (timing printed, not asserted)', () => {
  const n = 20_000;
  const links: Record<string, ['workload' | 'owner' | 'pod', string | null, string?]> = {};
  for (let i = 0; i < n; i++) {
    links[`w${i}`] = ['workload', i % 10 ? `w${i - (i % 10)}` : null];
    links[`pod${i}`] = ['pod', `w${i}`];
  }
  const g = graphOf(links);
  const t0 = process.hrtime.bigint();
  const top = topLevel(g);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  assert.equal(top.length, n / 10);
  console.log(`# top-level over ${n} workloads: ${ms.toFixed(1)} ms`);
});
