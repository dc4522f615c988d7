// workloadTree: attribution through owner chains, selectors of each form,
// role shapes (instances, LWS replica groups), counts, GPU rollups, gangs,
// unattributed pods and problem reporting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workloadTree } from './workload-tree.js';
import type { RoleTree } from '../../src/model/types.js';
import {
  definition,
  jobsetDefinition,
  jobsetWorld,
  lwsDefinition,
  lwsWorld,
  pytorchDefinition,
  statefulsetDefinition,
  object,
  pod,
  gpuTemplate,
  PYTORCH_GVK,
  STS_GVK,
} from './fixtures.js';

const names = (roles: RoleTree[]) => roles.map((r) => r.pods.map((p) => p.name));

test('JobSet: pods reach the workload through their Jobs; one role per replicated job, named by instance', () => {
  const w = jobsetWorld('train', [
    { name: 'leader', replicas: 1, gpus: 1 },
    { name: 'worker', replicas: 3, gpus: 8 },
  ]);
  const stranger = pod('other-0', {
    node: 'node-1',
    gpus: 8,
    labels: { 'jobset.sigs.k8s.io/replicatedjob-name': 'worker' },
  });
  const t = workloadTree({
    definition: jobsetDefinition(),
    workload: w.jobset,
    pods: [...w.pods, stranger],
    owners: w.jobs,
  });
  assert.equal(t.kind, 'JobSet');
  assert.equal(t.definition, 'jobset');
  assert.deepEqual(
    t.roles.map((r) => [r.component, r.instance, r.replica]),
    [
      ['replicatedjob', 'leader', null],
      ['replicatedjob', 'worker', null],
    ],
  );
  assert.deepEqual(names(t.roles), [
    ['train-leader-0-0'],
    ['train-worker-0-0', 'train-worker-1-0', 'train-worker-2-0'],
  ]);
  assert.deepEqual(t.roles[1].replicas, { desired: 3, current: 3, ready: 3 });
  assert.deepEqual(t.roles[1].gpus, { desired: 24, requested: 24, allocated: 24 });
  assert.deepEqual(t.roles[1].nodes, ['node-1', 'node-2', 'node-3']);
  assert.deepEqual(t.replicas, { desired: 4, current: 4, ready: 4 });
  assert.deepEqual(t.gpus, { desired: 25, requested: 25, allocated: 25 });
  assert.deepEqual(t.unattributedPods, []);
  assert.deepEqual(t.status, ['Running']);
  assert.deepEqual(
    t.gangs.map((g) => [g.name, g.key, g.members, g.scheduled, g.ready]),
    [
      ['job', 'leader', 1, 1, 1],
      ['job', 'worker', 3, 3, 3],
    ],
  );
  assert.deepEqual(t.errors, []);
});

test('a chain whose owner is not known does not reach the workload; pending pods: requested but not allocated', () => {
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 2, gpus: 4 }], {
    nodes: (i) => (i === 0 ? 'node-0' : null),
  });
  // Without the Jobs the pods cannot be attributed.
  const none = workloadTree({ definition: jobsetDefinition(), workload: w.jobset, pods: w.pods, owners: [] });
  assert.equal(none.replicas.current, 0);
  const t = workloadTree({ definition: jobsetDefinition(), workload: w.jobset, pods: w.pods, owners: w.jobs });
  assert.deepEqual(t.gpus, { desired: 8, requested: 8, allocated: 4 });
  assert.deepEqual(t.replicas, { desired: 2, current: 2, ready: 1 });
  const pending = t.roles[0].pods.find((p) => p.node === null)!;
  assert.equal(pending.status, 'Pending');
  assert.equal(pending.reason, 'Unschedulable');
});

test('chains longer than 6 hops are not followed', () => {
  const root = object('v1', 'Thing', 'root', { spec: { template: gpuTemplate(1), replicas: 1 } });
  const def = definition(
    'thing',
    { group: '', version: 'v1', kind: 'Thing' },
    { name: 'thing', specDefinition: { podTemplateSpecPath: '.spec.template' } },
  );
  const build = (hops: number) => {
    const owners = [];
    let top = root;
    for (let i = 0; i < hops - 1; i++) {
      top = object('v1', 'Link', `l${i}`, { owner: top });
      owners.push(top);
    }
    const p = pod('p', { owner: top, node: 'n' });
    return workloadTree({ definition: def, workload: root, pods: [p], owners }).replicas.current;
  };
  assert.equal(build(6), 1);
  assert.equal(build(7), 0);
});

test('StatefulSet chain: a root with a template and no selector holds every owned pod in one role', () => {
  const sts = object('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 3, template: gpuTemplate(2) } });
  const pods = [0, 1].map((i) => pod(`db-${i}`, { owner: sts, node: `node-${i}`, gpus: 2 }));
  const t = workloadTree({ definition: statefulsetDefinition(), workload: sts, pods, owners: [] });
  assert.equal(t.roles.length, 1);
  assert.equal(t.roles[0].component, 'statefulset');
  assert.deepEqual(t.roles[0].replicas, { desired: 3, current: 2, ready: 2 });
  assert.deepEqual(t.gpus, { desired: 6, requested: 4, allocated: 4 });
});

test('componentTypeSelector keyPath == value; unmatched owned pods are kept as unattributed', () => {
  const job = object('kubeflow.org/v1', 'PyTorchJob', 'llama', {
    spec: {
      pytorchReplicaSpecs: {
        Master: { replicas: 1, template: gpuTemplate(1) },
        Worker: { replicas: 4, template: gpuTemplate(8) },
      },
    },
  });
  const label = (t: string) => ({ 'training.kubeflow.org/replica-type': t });
  const pods = [
    pod('llama-master-0', { owner: job, node: 'node-01', gpus: 1, labels: label('master') }),
    ...[0, 1, 2].map((i) =>
      pod(`llama-worker-${i}`, { owner: job, node: `node-0${i + 2}`, gpus: 8, labels: label('worker') }),
    ),
    pod('llama-worker-3', { owner: job, gpus: 8, labels: label('worker') }),
    pod('llama-sidecar', { owner: job, node: 'node-01', labels: label('evaluator') }),
  ];
  const t = workloadTree({ definition: pytorchDefinition(), workload: job, pods, owners: [] });
  assert.deepEqual(
    t.roles.map((r) => [
      r.component,
      r.replicas.desired,
      r.replicas.current,
      r.replicas.ready,
      r.gpus.desired,
      r.gpus.requested,
      r.gpus.allocated,
    ]),
    [
      ['master', 1, 1, 1, 1, 1, 1],
      ['worker', 4, 4, 3, 32, 32, 24],
    ],
  );
  assert.deepEqual(t.roles[1].nodes, ['node-02', 'node-03', 'node-04']);
  assert.deepEqual(
    t.unattributedPods.map((p) => p.name),
    ['llama-sidecar'],
  );
  assert.equal(t.replicas.current, 5);
});

test('componentTypeSelector: keyPath non-null and matchLabels', () => {
  const gvk = { group: 'x.io', version: 'v1', kind: 'Svc' };
  const def = definition('svc', gvk, { name: 'svc' }, [
    {
      name: 'router',
      ownerRef: 'svc',
      podSelector: { componentTypeSelector: { matchLabels: { app: 'svc', tier: 'router' } } },
    },
    {
      name: 'engine',
      ownerRef: 'svc',
      podSelector: { componentTypeSelector: { keyPath: '.metadata.labels["engine-id"]' } },
    },
  ]);
  const svc = object('x.io/v1', 'Svc', 's');
  const pods = [
    pod('r', { owner: svc, node: 'n', labels: { app: 'svc', tier: 'router' } }),
    pod('r-wrong-tier', { owner: svc, node: 'n', labels: { app: 'svc', tier: 'db' } }),
    pod('e', { owner: svc, node: 'n', labels: { 'engine-id': 'abc' } }),
  ];
  const t = workloadTree({ definition: def, workload: svc, pods, owners: [] });
  assert.deepEqual(names(t.roles), [['r'], ['e']]);
  assert.deepEqual(
    t.unattributedPods.map((p) => p.name),
    ['r-wrong-tier'],
  );
});

test('a component without selector takes all pods only when it is the only pod-bearing component', () => {
  const gvk = { group: 'x.io', version: 'v1', kind: 'Two' };
  const def = definition('two', gvk, { name: 'two' }, [
    { name: 'a', ownerRef: 'two', specDefinition: { podSpecPath: '.spec.a' } },
    { name: 'b', ownerRef: 'two', specDefinition: { podSpecPath: '.spec.b' } },
  ]);
  const obj = object('x.io/v1', 'Two', 't', { spec: { a: {}, b: {} } });
  const t = workloadTree({
    definition: def,
    workload: obj,
    pods: [pod('p', { owner: obj, node: 'n' })],
    owners: [],
  });
  assert.deepEqual(
    t.roles.map((r) => r.pods.length),
    [0, 0],
  );
  assert.equal(t.unattributedPods.length, 1);
});

test('LWS: one role per group (replicaSelector), leader and worker roles nested, desired shared per group', () => {
  const w = lwsWorld('vllm', 2, 4, 8);
  const t = workloadTree({ definition: lwsDefinition(), workload: w.lws, pods: w.pods, owners: w.owners });
  assert.deepEqual(t.unattributedPods, []);
  assert.deepEqual(
    t.roles.map((r) => [r.component, r.replica, r.replicas.desired, r.replicas.current]),
    [
      ['group', '0', 4, 4],
      ['group', '1', 4, 4],
    ],
  );
  const g1 = t.roles[1];
  assert.deepEqual(
    g1.roles.map((r) => [r.component, r.replicas.desired, r.pods.map((p) => p.name)]),
    [
      ['leader', 1, ['vllm-1']],
      ['worker', 3, ['vllm-1-1', 'vllm-1-2', 'vllm-1-3']],
    ],
  );
  assert.deepEqual(g1.pods, []);
  assert.deepEqual(g1.gpus, { desired: 32, requested: 32, allocated: 32 });
  assert.deepEqual(g1.nodes, ['node-1']);
  assert.deepEqual(t.replicas, { desired: 8, current: 8, ready: 8 });
  assert.equal(t.gpus.desired, 64);
  assert.deepEqual(
    t.gangs.map((g) => [g.key, g.members, g.scheduled]),
    [
      ['vllm/0', 4, 4],
      ['vllm/1', 4, 4],
    ],
  );
});

test('LWS with only one group up still expects the full workload', () => {
  const w = lwsWorld('vllm', 2, 4, 8);
  const onlyGroup0 = w.pods.filter((p) => p.metadata.labels!['leaderworkerset.sigs.k8s.io/group-index'] === '0');
  const t = workloadTree({ definition: lwsDefinition(), workload: w.lws, pods: onlyGroup0, owners: w.owners });
  assert.equal(t.roles.length, 1);
  assert.deepEqual(
    t.roles[0].roles.map((r) => r.replicas.desired),
    [1, 3],
  );
  assert.deepEqual(t.replicas, { desired: 8, current: 4, ready: 4 });
});

test('instances: a pod with an undeclared instance id gets its own role with desired 0', () => {
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 1, gpus: 1 }]);
  const p = w.pods[0];
  const odd = pod('train-old-0-0', {
    owner: w.jobs[0],
    node: 'node-0',
    labels: { 'jobset.sigs.k8s.io/replicatedjob-name': 'old' },
  });
  const t = workloadTree({ definition: jobsetDefinition(), workload: w.jobset, pods: [p, odd], owners: w.jobs });
  assert.deepEqual(
    t.roles.map((r) => [r.instance, r.replicas.desired, r.replicas.current]),
    [
      ['worker', 1, 1],
      ['old', 0, 1],
    ],
  );
});

test('current excludes terminating pods; requested excludes terminal pods', () => {
  const sts = object('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 3, template: gpuTemplate(1) } });
  const pods = [
    pod('db-0', { owner: sts, node: 'a', gpus: 1 }),
    pod('db-1', { owner: sts, node: 'a', gpus: 1, deleting: true }),
    pod('db-2', { owner: sts, node: 'a', gpus: 1, phase: 'Succeeded', ready: false }),
  ];
  const t = workloadTree({ definition: statefulsetDefinition(), workload: sts, pods, owners: [] });
  assert.equal(t.replicas.current, 2);
  assert.equal(t.roles[0].pods.find((p) => p.name === 'db-1')!.status, 'Terminating');
  assert.deepEqual(t.gpus, { desired: 3, requested: 2, allocated: 2 });
});

test('current excludes Failed pods (an OOM-killed pod beside its retry) and keeps Succeeded ones', () => {
  const job = object('apps/v1', 'StatefulSet', 'eval', { spec: { replicas: 2, template: gpuTemplate(1) } });
  const running = pod('eval-0-a', { owner: job, node: 'a', gpus: 1 });
  const oomKilled = pod('eval-1-a', { owner: job, node: 'b', gpus: 1, phase: 'Failed', ready: false });
  const retry = pod('eval-1-b', { owner: job, gpus: 1 });
  const t = workloadTree({
    definition: statefulsetDefinition(),
    workload: job,
    pods: [running, oomKilled, retry],
    owners: [],
  });
  assert.deepEqual(t.replicas, { desired: 2, current: 2, ready: 1 });
  assert.deepEqual(t.roles[0].replicas, { desired: 2, current: 2, ready: 1 });
  // The failed pod is still shown (it explains the retry), and holds no GPU any more.
  assert.deepEqual(
    t.roles[0].pods.map((p) => p.name),
    ['eval-0-a', 'eval-1-a', 'eval-1-b'],
  );
  assert.deepEqual(t.gpus, { desired: 2, requested: 2, allocated: 1 });

  // A completed job: its Succeeded pods are its current pods (2/2), none ready (kubectl's READY 0/N, Completed).
  const done = [0, 1].map((i) =>
    pod(`eval-${i}`, { owner: job, node: 'a', gpus: 1, phase: 'Succeeded', ready: false }),
  );
  const finished = workloadTree({ definition: statefulsetDefinition(), workload: job, pods: done, owners: [] });
  assert.deepEqual(finished.replicas, { desired: 2, current: 2, ready: 0 });
  assert.deepEqual(
    finished.roles[0].pods.map((p) => p.phase),
    ['Succeeded', 'Succeeded'],
  );

  // Every pod failed: nothing current, the pods still listed.
  const failed = [0, 1].map((i) => pod(`eval-${i}`, { owner: job, node: 'a', gpus: 1, phase: 'Failed', ready: false }));
  const gaveUp = workloadTree({ definition: statefulsetDefinition(), workload: job, pods: failed, owners: [] });
  assert.deepEqual(gaveUp.replicas, { desired: 2, current: 0, ready: 0 });
  assert.equal(gaveUp.roles[0].pods.length, 2);
});

test('a broken expression is reported with workload, component, field, expression and error; the rest still works', () => {
  const def = pytorchDefinition();
  def.components[2].scaleDefinition = { replicasPath: '.spec.pytorchReplicaSpecs.Worker.replicas | tonumber' };
  const job = object('kubeflow.org/v1', 'PyTorchJob', 'bad', {
    namespace: 'training',
    spec: {
      pytorchReplicaSpecs: {
        Master: { replicas: 1, template: gpuTemplate(1) },
        Worker: { replicas: 'lots', template: gpuTemplate(8) },
      },
    },
  });
  const pods = [
    pod('bad-master-0', { owner: job, node: 'n', gpus: 1, labels: { 'training.kubeflow.org/replica-type': 'master' } }),
  ];
  const t = workloadTree({ definition: def, workload: job, pods, owners: [] });
  assert.equal(t.errors.length, 1);
  const e = t.errors[0];
  assert.match(
    e,
    /^training\/bad: component worker: scaleDefinition\.replicasPath `\.spec\.pytorchReplicaSpecs\.Worker\.replicas \| tonumber`: .+/,
  );
  assert.deepEqual(t.roles[0].replicas, { desired: 1, current: 1, ready: 1 });
  // The failed count falls back to the default of 1.
  assert.equal(t.roles[1].replicas.desired, 1);
});

test('a key path yielding several values is an error, reported once per expression with a pod count', () => {
  const gvk = { group: 'x.io', version: 'v1', kind: 'Multi' };
  const def = definition('multi', gvk, { name: 'multi' }, [
    { name: 'c', ownerRef: 'multi', podSelector: { componentTypeSelector: { keyPath: '.metadata.labels[]' } } },
  ]);
  const obj = object('x.io/v1', 'Multi', 'm');
  const pods = [1, 2, 3].map((i) => pod(`p${i}`, { owner: obj, node: 'n', labels: { a: '1', b: '2' } }));
  const t = workloadTree({ definition: def, workload: obj, pods, owners: [] });
  assert.equal(t.unattributedPods.length, 3);
  assert.equal(t.errors.length, 1);
  assert.match(
    t.errors[0],
    /component c: podSelector\.componentTypeSelector\.keyPath `\.metadata\.labels\[\]`: pod p1: .*exactly one.* \(and 2 more pods\)$/,
  );
});

test('instance ids and replica counts of different lengths are an error', () => {
  const w = jobsetWorld('train', [
    { name: 'a', replicas: 1, gpus: 1 },
    { name: 'b', replicas: 1, gpus: 1 },
  ]);
  const def = jobsetDefinition();
  def.components[1].scaleDefinition = { replicasPath: '.spec.replicatedJobs[0].replicas' };
  const t = workloadTree({ definition: def, workload: w.jobset, pods: w.pods, owners: w.jobs });
  assert.equal(t.errors.length, 1);
  assert.match(t.errors[0], /component replicatedjob: scaleDefinition\.replicasPath .*1 values for 2 instances/);
});

test('StatefulSet of a LWS is its own workload too: its pods are attributed through the same chain', () => {
  const w = lwsWorld('vllm', 1, 2, 1);
  const leaderSts = w.owners[0];
  leaderSts.spec = { replicas: 1, template: gpuTemplate(1) };
  const t = workloadTree({
    definition: statefulsetDefinition(),
    workload: leaderSts,
    pods: w.pods,
    owners: w.owners,
  });
  // The leader pod is the StatefulSet's own; the worker is four hops up through the leader pod but
  // still reaches the leader StatefulSet, so both belong to it.
  assert.equal(t.kind, 'StatefulSet');
  assert.equal(t.replicas.current, 2);
  assert.equal(STS_GVK.kind, t.kind);
  assert.equal(PYTORCH_GVK.group, 'kubeflow.org');
});

test('type selector + instance selector (RayCluster worker groups): one role per group, desired per group', () => {
  const gvk = { group: 'ray.io', version: 'v1', kind: 'RayCluster' };
  const def = definition('raycluster', gvk, { name: 'raycluster' }, [
    {
      name: 'head',
      ownerRef: 'raycluster',
      specDefinition: { podTemplateSpecPath: '.spec.headGroupSpec.template' },
      scaleDefinition: { replicasPath: '1' },
      podSelector: { componentTypeSelector: { keyPath: '.metadata.labels["ray.io/node-type"]', value: 'head' } },
    },
    {
      name: 'worker',
      ownerRef: 'raycluster',
      specDefinition: { podTemplateSpecPath: '.spec.workerGroupSpecs[].template' },
      scaleDefinition: {
        replicasPath: '.spec.workerGroupSpecs[].replicas',
        minReplicasPath: '.spec.workerGroupSpecs[].minReplicas',
      },
      instanceIdPath: '.spec.workerGroupSpecs[].groupName',
      podSelector: {
        componentTypeSelector: { keyPath: '.metadata.labels["ray.io/node-type"]', value: 'worker' },
        componentInstanceSelector: { idPath: '.metadata.labels["ray.io/group"]' },
      },
    },
  ]);
  const rc = object('ray.io/v1', 'RayCluster', 'rc', {
    spec: {
      headGroupSpec: { template: gpuTemplate(0) },
      workerGroupSpecs: [
        { groupName: 'small', replicas: 2, template: gpuTemplate(1) },
        { groupName: 'big', replicas: 1, template: gpuTemplate(8) },
      ],
    },
  });
  const l = (type: string, group?: string) => ({
    'ray.io/node-type': type,
    ...(group ? { 'ray.io/group': group } : {}),
  });
  const pods = [
    pod('rc-head', { owner: rc, node: 'n0', labels: l('head') }),
    pod('rc-small-1', { owner: rc, node: 'n1', gpus: 1, labels: l('worker', 'small') }),
    pod('rc-small-2', { owner: rc, node: 'n1', gpus: 1, labels: l('worker', 'small') }),
    pod('rc-big-1', { owner: rc, gpus: 8, labels: l('worker', 'big') }),
  ];
  const t = workloadTree({ definition: def, workload: rc, pods, owners: [] });
  assert.deepEqual(
    t.roles.map((r) => [
      r.component,
      r.instance,
      r.replicas.desired,
      r.replicas.current,
      r.gpus.desired,
      r.gpus.allocated,
    ]),
    [
      ['head', null, 1, 1, 0, 0],
      ['worker', 'small', 2, 2, 2, 2],
      ['worker', 'big', 1, 1, 8, 0],
    ],
  );
  assert.deepEqual(t.gpus, { desired: 10, requested: 10, allocated: 2 });
  assert.deepEqual(t.unattributedPods, []);
});

test("a component with neither template nor selector groups its children's roles", () => {
  const gvk = { group: 'x.io', version: 'v1', kind: 'Nest' };
  const def = definition('nest', gvk, { name: 'nest' }, [
    { name: 'serving', ownerRef: 'nest' },
    {
      name: 'api',
      ownerRef: 'serving',
      scaleDefinition: { replicasPath: '.spec.api' },
      podSelector: { componentTypeSelector: { matchLabels: { role: 'api' } } },
    },
    {
      name: 'cache',
      ownerRef: 'serving',
      scaleDefinition: { replicasPath: '.spec.cache' },
      podSelector: { componentTypeSelector: { matchLabels: { role: 'cache' } } },
    },
  ]);
  const obj = object('x.io/v1', 'Nest', 'n', { spec: { api: 2, cache: 1 } });
  const pods = [
    pod('api-0', { owner: obj, node: 'a', labels: { role: 'api' } }),
    pod('cache-0', { owner: obj, node: 'b', labels: { role: 'cache' } }),
  ];
  const t = workloadTree({ definition: def, workload: obj, pods, owners: [] });
  assert.equal(t.roles.length, 1);
  const serving = t.roles[0];
  assert.equal(serving.component, 'serving');
  assert.deepEqual(serving.replicas, { desired: 3, current: 2, ready: 2 });
  assert.deepEqual(serving.nodes, ['a', 'b']);
  assert.deepEqual(
    serving.roles.map((r) => [r.component, r.replicas.desired, r.pods.map((p) => p.name)]),
    [
      ['api', 2, ['api-0']],
      ['cache', 1, ['cache-0']],
    ],
  );
  assert.equal(t.replicas.desired, 3);
});

test('gang filters and key tuples; pods failing a filter are not members', () => {
  const def = pytorchDefinition();
  def.gangs = [
    {
      name: 'job',
      members: [
        {
          componentName: 'worker',
          groupByKeyPaths: ['.metadata.labels["training.kubeflow.org/job-name"]', '.metadata.labels.zone'],
          filters: ['.metadata.labels.gang == "yes"'],
        },
      ],
    },
  ];
  const job = object('kubeflow.org/v1', 'PyTorchJob', 'pj', {
    spec: { pytorchReplicaSpecs: { Worker: { replicas: 4, template: gpuTemplate(1) } } },
  });
  const l = (zone: string, gang: string) => ({
    'training.kubeflow.org/replica-type': 'worker',
    'training.kubeflow.org/job-name': 'pj',
    zone,
    gang,
  });
  const pods = [
    pod('w0', { owner: job, node: 'n', labels: l('a', 'yes') }),
    pod('w1', { owner: job, labels: l('a', 'yes') }),
    pod('w2', { owner: job, node: 'n', labels: l('b', 'yes') }),
    pod('w3', { owner: job, node: 'n', labels: l('b', 'no') }),
  ];
  const t = workloadTree({ definition: def, workload: job, pods, owners: [] });
  assert.deepEqual(
    t.gangs.map((g) => [g.name, g.key, g.members, g.scheduled, g.ready]),
    [
      ['job', 'pj/a', 2, 1, 1],
      ['job', 'pj/b', 1, 1, 1],
    ],
  );
});

test('only controller ownerReferences are followed', () => {
  const sts = object('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 1, template: gpuTemplate(0) } });
  const owned = pod('db-0', { owner: sts, node: 'n' });
  const referencing = pod('db-x', { node: 'n' });
  referencing.metadata.ownerReferences = [
    { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: sts.metadata.uid },
  ];
  const t = workloadTree({
    definition: statefulsetDefinition(),
    workload: sts,
    pods: [owned, referencing],
    owners: [],
  });
  assert.deepEqual(
    t.roles[0].pods.map((p) => p.name),
    ['db-0'],
  );
  assert.deepEqual(t.unattributedPods, []);
});
