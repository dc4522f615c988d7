// `wlx get` end to end (the real CLI as a child process) against the demo API
// server holding objects this test writes, and offline from a dump taken by
// the real kubectl. The simulated default scenario is covered in get.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoCluster } from '../../demo/index.js';
import type { WorkloadTree, NodeSummary, RoleTree } from '../../src/model/types.js';
import { KEYS, putJobSet, putJobSetPods, putNode, putPod } from '../kube/fixtures.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WLX = join(ROOT, 'bin', 'wlx.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      cmd,
      args,
      { env: { ...process.env, ...env }, maxBuffer: 64 << 20, timeout: 90_000 },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as NodeJS.ErrnoException).code === 'number'
            ? (err as unknown as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

const wlx = (args: string[], env: NodeJS.ProcessEnv, input?: string) =>
  run(process.execPath, [WLX, ...args], env, input);

/** Runs thunks at most `limit` at a time (each is a process; the machine is shared). */
async function pool<T>(limit: number, thunks: Array<() => Promise<T>>): Promise<T[]> {
  const out: T[] = new Array(thunks.length);
  let next = 0;
  const worker = async () => {
    while (next < thunks.length) {
      const i = next++;
      out[i] = await thunks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, thunks.length) }, worker));
  return out;
}

const HOSTILE = 'evil\u001b]0;pwned\u0007\u001b[2J\u202ename';

test('wlx get against a live API server and from a kubectl dump', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-get-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  const cluster = await startDemoCluster({ simulate: false, kubeconfigPath: kubeconfig });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  putNode(cluster.store, 'gpu-node-02', 8);
  const { jobset, jobs } = putJobSet(cluster.store, 'training', 'llama-pretrain', ['leader', 'worker'], 4);
  putJobSetPods(cluster.store, 'llama-pretrain', jobs);
  // A second JobSet, labelled, whose pod message and name carry escape sequences.
  const other = putJobSet(cluster.store, 'research', 'hostile', ['worker'], 1);
  cluster.store.put(KEYS.jobsets, { ...other.jobset, metadata: { ...other.jobset.metadata, labels: { team: 'red' } } });
  putPod(
    cluster.store,
    'research',
    HOSTILE,
    other.jobs[0],
    { 'jobset.sigs.k8s.io/jobset-name': 'hostile', 'jobset.sigs.k8s.io/replicatedjob-name': 'worker' },
    { node: null, gpus: 1 },
  );
  const env = { KUBECONFIG: kubeconfig, WLX_DEFINITIONS: '' };

  // The live runs are independent: start them all at once (each is a process).
  const forms = [
    ['jobset/llama-pretrain'],
    ['JobSet', 'llama-pretrain'],
    ['jobsets.jobset.x-k8s.io/llama-pretrain', '-n', 'training'],
  ];
  const [json, y, sel, jobsJson, missing, undefinedType, usage, tree, ...formRuns] = await pool(4, [
    () => wlx(['get', '-A', '-o', 'json'], env),
    () => wlx(['get', 'jobsets', '-A', '-o', 'yaml'], env),
    () => wlx(['get', '-l', 'team=red', '-o', 'json'], env),
    () => wlx(['get', 'job', '-n', 'training', '-o', 'json'], env),
    () => wlx(['get', 'jobset/nope', '-n', 'training'], env),
    () => wlx(['get', 'frobnicators'], env),
    () => wlx(['get', '-o', 'wide'], env),
    () => wlx(['get'], env),
    ...forms.map((args) => () => wlx(['get', ...args, '-o', 'json'], env)),
  ]);

  // -o json: the contract.
  assert.equal(json.code, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as { workloads: WorkloadTree[]; nodes: NodeSummary[] };
  assert.deepEqual(Object.keys(doc), ['workloads', 'nodes', 'orphanPods', 'access']);
  assert.deepEqual(doc.workloads.map((w) => `${w.kind}/${w.namespace}/${w.name}`).sort(), [
    'JobSet/research/hostile',
    'JobSet/training/llama-pretrain',
  ]);
  const llama = doc.workloads.find((w) => w.name === 'llama-pretrain')!;
  assert.equal(llama.uid, jobset.metadata.uid);
  assert.equal(llama.apiVersion, 'jobset.x-k8s.io/v1alpha2');
  assert.deepEqual(
    llama.roles.map((r: RoleTree) => [r.instance, r.pods.length, r.gpus.allocated]),
    [
      ['leader', 1, 4],
      ['worker', 1, 4],
    ],
  );
  assert.ok(Number.isInteger(llama.gpus.allocated) && llama.gpus.allocated === 8);
  assert.deepEqual(
    doc.nodes.map((n) => n.name),
    ['gpu-node-01', 'gpu-node-02'],
  );
  assert.ok(
    doc.workloads.every((w) => w.status.every((s) => /^[A-Z][a-z]+$/.test(s))),
    'statuses are capitalised',
  );

  // -o yaml carries the same document.
  assert.equal(y.code, 0, y.stderr);
  assert.match(y.stdout, /^workloads:\n/);
  assert.match(y.stdout, /name: llama-pretrain/);

  // TYPE forms and NAME; -n; -l.
  for (const [i, args] of forms.entries()) {
    const r = formRuns[i];
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.deepEqual(
      (JSON.parse(r.stdout) as { workloads: WorkloadTree[] }).workloads.map((w) => w.name),
      ['llama-pretrain'],
      args.join(' '),
    );
  }
  assert.deepEqual(
    (JSON.parse(sel.stdout) as { workloads: WorkloadTree[] }).workloads.map((w) => w.name),
    ['hostile'],
  );
  assert.equal(
    (JSON.parse(jobsJson.stdout) as { workloads: WorkloadTree[] }).workloads.length,
    2,
    "asked for by TYPE, a JobSet's Jobs are listed",
  );

  // Exit codes.
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /jobset\/nope not found in namespace training/);
  assert.equal(undefinedType.code, 4);
  assert.match(undefinedType.stderr, /no definition covers the type "frobnicators"/);
  assert.equal(usage.code, 2);

  // Tree: piped, so nothing is cut; sanitised.
  assert.equal(tree.code, 0, tree.stderr);
  assert.doesNotMatch(tree.stdout, /…/, 'piped: nothing is cut');
  assert.doesNotMatch(
    tree.stdout,
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/,
    'no raw control or bidi characters',
  );
  assert.match(tree.stdout, /JobSet\/llama-pretrain/);
  assert.match(tree.stdout, /\|-- leader\s+1\/1 ready\s+gpu: 4\s+gpu-node-01/);
  assert.match(tree.stdout, /`-- evil\\e\]0;pwned\\/, 'the hostile name is shown with visible escapes');
  assert.match(tree.stdout, /Pending \(Unschedulable\)/);
  assert.match(tree.stdout, /2 workloads, 3 pods \(2 running\)/);

  // Offline: a dump from the real kubectl, plus a type defined only in a file.
  const kubectlEnv = { KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'kcache') };
  cluster.store.put(KEYS.tfjobs, {
    apiVersion: 'kubeflow.org/v1',
    kind: 'TFJob',
    metadata: { name: 'resnet', namespace: 'research', uid: '', resourceVersion: '', creationTimestamp: '' },
    spec: {
      tfReplicaSpecs: { Worker: { replicas: 1, template: { spec: { containers: [{ name: 'tf', image: 'tf' }] } } } },
    },
    status: { conditions: [{ type: 'Running', status: 'True' }] },
  });
  const dump = await run('kubectl', ['get', 'jobsets,jobs,pods,nodes,tfjobs', '-A', '-o', 'yaml'], kubectlEnv);
  assert.equal(dump.code, 0, dump.stderr);
  const dumpFile = join(dir, 'dump.yaml');
  writeFileSync(dumpFile, dump.stdout);
  const tfDef = join(dir, 'tfjob.yaml');
  writeFileSync(
    tfDef,
    [
      'apiVersion: run.ai/v1alpha1',
      'kind: Karta',
      'metadata:',
      '  name: my-tfjob',
      'spec:',
      '  structureDefinition:',
      '    rootComponent:',
      '      name: tfjob',
      '      kind: {group: kubeflow.org, version: v1, kind: TFJob}',
      '      statusDefinition:',
      '        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status, messageFieldName: message}',
      '        statusMappings:',
      '          running:',
      '            - byConditions: [{type: Running, status: "True"}]',
      '',
    ].join('\n'),
  );
  // Offline needs no server at all: stop it first.
  await cluster.stop();
  const off = await wlx(['get', '--from', dumpFile, '--definitions', tfDef, '-o', 'json'], {
    KUBECONFIG: join(dir, 'none'),
  });
  assert.equal(off.code, 0, off.stderr);
  const offDoc = JSON.parse(off.stdout) as { workloads: WorkloadTree[]; nodes: NodeSummary[] };
  assert.deepEqual(offDoc.workloads.map((w) => `${w.kind}/${w.name}`).sort(), [
    'JobSet/hostile',
    'JobSet/llama-pretrain',
    'TFJob/resnet',
  ]);
  const tf = offDoc.workloads.find((w) => w.kind === 'TFJob')!;
  assert.equal(tf.definitionSource, 'file');
  assert.deepEqual(tf.status, ['Running']);
  const offLlama = offDoc.workloads.find((w) => w.name === 'llama-pretrain')!;
  assert.deepEqual(
    offLlama.roles.map((r) => r.pods.length),
    [1, 1],
  );
  assert.equal(offLlama.gpus.allocated, 8);
  assert.equal(offDoc.nodes.length, 2);
  // From stdin, JSON, one type.
  const jsonDump = await run('cat', [dumpFile], {});
  const stdin = await wlx(['get', 'jobset', 'llama-pretrain', '--from', '-'], {}, jsonDump.stdout);
  assert.equal(stdin.code, 0, stdin.stderr);
  assert.match(stdin.stdout, /^JobSet\/llama-pretrain/);
  const offMissing = await wlx(['get', 'tfjob/resnet', '--from', dumpFile], {});
  assert.equal(offMissing.code, 4, 'without --definitions nothing covers TFJob');
});

// A Ray head pod as pasted in an issue thread (`kubectl get pod -o yaml` of one namespace's
// pod, unquoted timestamps as hand-edited YAML has them): it restarted after an OOMKill and its
// RayCluster is not in the dump. It is shown, under its owner that is not visible.
const RAY_HEAD_POD = `apiVersion: v1
kind: Pod
metadata:
  name: ray-head-owner-head-8kq2x
  namespace: research
  uid: 6c1f3a52-8d0e-4d2b-9a57-0f3e7b1c9d44
  creationTimestamp: 2024-11-04T16:20:11Z
  labels:
    ray.io/cluster: ray-head-owner
    ray.io/node-type: head
    ray.io/group: headgroup
  ownerReferences:
  - apiVersion: ray.io/v1
    kind: RayCluster
    name: ray-head-owner
    uid: 2b7d9e10-5f4c-4a8e-b1d3-7c6a9f0e2d18
    controller: true
    blockOwnerDeletion: true
spec:
  nodeName: gpu-node-07
  containers:
  - name: ray-head
    image: rayproject/ray-ml:2.9.0-gpu
    resources:
      limits: {nvidia.com/gpu: 1, memory: 16Gi}
status:
  phase: Running
  startTime: 2024-11-04T16:20:12Z
  conditions:
  - {type: Ready, status: "False", lastTransitionTime: 2024-11-04T17:02:40Z}
  containerStatuses:
  - name: ray-head
    ready: false
    restartCount: 3
    state:
      waiting: {reason: CrashLoopBackOff, message: back-off 40s restarting failed container}
    lastState:
      terminated: {exitCode: 137, reason: OOMKilled, startedAt: 2024-11-04T16:58:01Z, finishedAt: 2024-11-04T17:02:39Z}
`;

test('wlx get --from: a pod whose owner is not in the dump is shown, tree and JSON', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-orphan-'));
  try {
    const file = join(dir, 'ray-head.yaml');
    writeFileSync(file, RAY_HEAD_POD);
    const [tree, json, typed, other] = await Promise.all([
      wlx(['get', '--from', file], {}),
      wlx(['get', '--from', file, '-o', 'json'], {}),
      wlx(['get', 'raycluster', 'ray-head-owner', '--from', file, '-o', 'json'], {}),
      wlx(['get', 'jobset', '--from', file, '-o', 'json'], {}),
    ]);
    assert.equal(tree.code, 0, tree.stderr);
    assert.doesNotMatch(tree.stdout, /No workloads found/);
    assert.match(tree.stdout, /^Pods whose owner is not visible:$/m);
    assert.match(tree.stdout, /^RayCluster\/ray-head-owner\s+namespace: research\s+owner not visible$/m);
    assert.match(tree.stdout, /^`-- ray-head-owner-head-8kq2x\s+CrashLoopBackOff\s+gpu: 1\s+gpu-node-07$/m);
    assert.match(tree.stdout, /^0 workloads, 1 pods \(0 running\)/m);
    assert.equal(json.code, 0, json.stderr);
    const doc = JSON.parse(json.stdout) as { workloads: WorkloadTree[]; orphanPods: Array<Record<string, unknown>> };
    assert.deepEqual(doc.workloads, []);
    assert.equal(doc.orphanPods.length, 1);
    const pod = doc.orphanPods[0];
    assert.deepEqual(pod.owner, { apiVersion: 'ray.io/v1', kind: 'RayCluster', name: 'ray-head-owner' });
    assert.equal(pod.name, 'ray-head-owner-head-8kq2x');
    assert.equal(pod.namespace, 'research');
    assert.equal(pod.restarts, 3);
    assert.equal(pod.createdAt, '2024-11-04T16:20:11Z');
    // Asked for by its owner's type and name, it is found; another type does not show it.
    assert.equal(typed.code, 0, typed.stderr);
    assert.equal((JSON.parse(typed.stdout) as { orphanPods: unknown[] }).orphanPods.length, 1);
    assert.equal(other.code, 0, other.stderr);
    assert.deepEqual((JSON.parse(other.stdout) as { orphanPods: unknown[] }).orphanPods, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
