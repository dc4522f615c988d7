// One workload's tree through the product's path: a ClusterStore with the one
// definition, fed the workload, its owner chain and candidate pods as the
// reflectors feed it, flushed. Pods whose controller chain does not reach the
// workload are left out of its tree, as in the explorer.
import assert from 'node:assert/strict';
import { ClusterStore } from '../../src/model/cluster-store.js';
import type { Definition } from '../../src/definitions/types.js';
import type { KubeObject, WorkloadTree } from '../../src/model/types.js';

export function workloadTree(input: {
  definition: Definition;
  workload: KubeObject;
  pods: KubeObject[];
  owners: KubeObject[];
  gpuResources?: string[];
}): WorkloadTree {
  const store = new ClusterStore({ definitions: [input.definition], gpuResources: input.gpuResources });
  for (const o of input.owners) store.apply('owner', 'ADDED', o);
  store.apply('workload', 'ADDED', input.workload);
  for (const p of input.pods) store.apply('pod', 'ADDED', p);
  store.flush();
  const tree = store.workloads().find((w) => w.uid === input.workload.metadata.uid);
  assert.ok(tree, `${input.workload.kind} ${input.workload.metadata.name} has a tree`);
  return tree;
}
