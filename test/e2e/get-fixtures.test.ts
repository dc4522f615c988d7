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
  assert.deepEqual(Object.keys(doc), ['workloads', 'nodes']);
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
