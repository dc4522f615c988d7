// `wlx get` as a user runs it against the real kube-apiserver v1.20.2 with the
// seeded GPU cluster (test/e2e/real-seed/): the tree, JSON, YAML, protobuf,
// --timeline, -l, the restricted user, global options before the subcommand,
// and what is a fact (a served older version) rather than a warning.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import type { PodSummary, RoleTree, WorkloadTree, NodeSummary, WorkloadQueue } from '../../src/model/types.js';
import { cleanupsAfter, realServerSkipReason, useRealServer, type RealServer } from './real-apiserver.js';
import { reseed, UNSCHEDULABLE } from './real-seed/index.js';
import { runWlx } from './wlx-cli.js';

const skip = realServerSkipReason();
type Doc = { workloads: Array<WorkloadTree & { queue: WorkloadQueue | null }>; nodes: NodeSummary[] };

function podsOf(roles: RoleTree[]): PodSummary[] {
  return roles.flatMap((r) => [...r.pods, ...podsOf(r.roles)]);
}

/** Runs wlx with the real server's kubeconfig and no user definitions. */
function wlx(real: RealServer, args: string[]) {
  return runWlx(args, { KUBECONFIG: real.kubeconfig, WLX_DEFINITIONS: '' });
}

async function json(real: RealServer, args: string[]): Promise<Doc> {
  const r = await wlx(real, args);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Doc;
}

describe('wlx get on the real kube-apiserver', { skip }, () => {
  let real: RealServer;
  const cleanup = cleanupsAfter(after);
  before(async () => {
    real = await useRealServer(cleanup);
    await reseed(real.admin);
  });

  test('get -A: every workload of the seed as a tree, the unschedulable pod said so', async () => {
    const r = await wlx(real, ['get', '-A']);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout;
    assert.match(out, /^JobSet\/llama-pretrain\s+namespace: training\s+status: Running/m);
    assert.match(out, /ready: 2\/3\s+gpu: 16\/24 allocated/);
    assert.match(out, /llama-pretrain-workers-1-0-h3v8n\s+Pending \(Unschedulable\)\s+gpu: 8\s+<none>/);
    assert.match(out, /^PyTorchJob\/bert-finetune\s+namespace: training\s+status: Running/m);
    assert.match(out, /queue: kueue training-queue -> gpu-cluster-queue: Admitted/);
    assert.match(out, /^PyTorchJob\/gpt-eval\s+namespace: training\s+status: Queued/m);
    assert.match(out, /insufficient unused quota for nvidia\.com\/gpu in flavor h100, 4 more needed/);
    assert.match(out, /^LeaderWorkerSet\/vllm-70b\s+namespace: inference\s+status: Running/m);
    assert.match(out, /group #1\s+2\/2 ready\s+gpu: 4\s+gpu-b1,gpu-b2/);
    assert.match(out, /^Job\/data-prep\s+namespace: research/m);
    assert.match(out, /^Pod\/notebook\s+namespace: research\s+status: Running/m);
    assert.match(out, /^6 workloads, 12 pods \(11 running\)/m);
    // 6 GPU nodes of 8 (gpu-b3 NotReady but still allocatable), cpu-1 without.
    assert.match(out, /^cluster: 7 nodes, 48 gpu allocatable, 11 free, 8 pending/m);
  });

  test('get -A -o json, -o yaml and --protobuf describe the same cluster', async () => {
    const [fromJson, yamlRun, fromProtobuf] = await Promise.all([
      json(real, ['get', '-A', '-o', 'json']),
      wlx(real, ['get', '-A', '-o', 'yaml']),
      json(real, ['get', '-A', '-o', 'json', '--protobuf']),
    ]);
    assert.equal(yamlRun.code, 0, yamlRun.stderr);
    assert.deepEqual(yaml.load(yamlRun.stdout), fromJson);
    assert.deepEqual(fromProtobuf, fromJson);

    const byName = new Map(fromJson.workloads.map((w) => [`${w.namespace}/${w.name}`, w]));
    assert.deepEqual([...byName.keys()].sort(), [
      'inference/vllm-70b',
      'research/data-prep',
      'research/notebook',
      'training/bert-finetune',
      'training/gpt-eval',
      'training/llama-pretrain',
    ]);
    const llama = byName.get('training/llama-pretrain')!;
    assert.equal(llama.kind, 'JobSet');
    assert.deepEqual(llama.replicas, { desired: 3, current: 3, ready: 2 });
    const stuck = podsOf(llama.roles).find((p) => p.name === 'llama-pretrain-workers-1-0-h3v8n')!;
    assert.equal(stuck.node, null);
    assert.equal(stuck.reason, 'Unschedulable');
    assert.equal(stuck.message, UNSCHEDULABLE);
    const lws = byName.get('inference/vllm-70b')!;
    assert.deepEqual(
      podsOf(lws.roles)
        .map((p) => `${p.name}@${p.node}`)
        .sort(),
      ['vllm-70b-0-1@gpu-b2', 'vllm-70b-0@gpu-b2', 'vllm-70b-1-1@gpu-b1', 'vllm-70b-1@gpu-b2'],
    );
    const gptEval = byName.get('training/gpt-eval')!;
    // Suspended by Kueue until admitted; the tree says Queued from the queue's answer.
    assert.deepEqual(gptEval.status, ['Suspended']);
    assert.equal(gptEval.queue?.state, 'Pending');
    const nodes = new Map(fromJson.nodes.map((n) => [n.name, n]));
    assert.equal(nodes.size, 7);
    assert.equal(nodes.get('gpu-b3')!.ready, false);
    // TaintNodesByCondition's taint stays on the NotReady node (no node controller lifts it).
    assert.deepEqual(nodes.get('gpu-b3')!.taints, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    assert.deepEqual(nodes.get('gpu-a1')!.taints, []);
  });

  test('get --timeline: the startup waterfall from the pods and their events', async () => {
    const r = await wlx(real, ['get', 'jobset/llama-pretrain', '-n', 'training', '--timeline']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^startup of training\/llama-pretrain/m);
    assert.match(r.stdout, /all scheduled\s+not yet/);
    assert.match(r.stdout, /leader\s+\[#+\] 1\/1\s+\[#+\] 1\/1/);
    assert.match(r.stdout, /workers\s+\[#+-+\] 1\/2\s+\[#+-+\] 1\/2/);
    assert.match(r.stdout, /1 of 3 members unschedulable \(Insufficient nvidia\.com\/gpu\)/);
    // The pull took 41 s by the kubelet's Pulling and Pulled events.
    assert.match(r.stdout, /llama-pretrain-leader-0-0-x7k2p\s+#+\s+\S+\s+41s/);
    assert.match(r.stdout, /waiting: Unschedulable: 0\/7 nodes are available/);
  });

  test('global options before the subcommand are the subcommand options (kubectl accepts them anywhere)', async () => {
    const [expected, restricted, kubeconfigFirst, contextFirst, protobufFirst] = await Promise.all([
      json(real, ['get', '-A', '-o', 'json']),
      json(real, ['get', '-o', 'json', '--context', 'real-restricted']),
      runWlx(['--kubeconfig', real.kubeconfig, 'get', '-A', '-o', 'json'], { KUBECONFIG: '', WLX_DEFINITIONS: '' }),
      wlx(real, ['--context', 'real-restricted', 'get', '-o', 'json']),
      wlx(real, ['--protobuf', 'get', '-A', '-o', 'json']),
    ]);
    for (const r of [kubeconfigFirst, contextFirst, protobufFirst]) assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(kubeconfigFirst.stdout), expected);
    assert.deepEqual(JSON.parse(contextFirst.stdout), restricted);
    assert.deepEqual(JSON.parse(protobufFirst.stdout), expected);
    assert.deepEqual(
      restricted.workloads.map((w) => w.namespace),
      ['training', 'training', 'training'],
    );
  });

  test('a served older version (CronJob batch/v1beta1) is a fact for -v, not a warning on every run', async () => {
    const [plain, verbose] = await Promise.all([wlx(real, ['get', '-A']), wlx(real, ['get', '-A', '-v'])]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(verbose.code, 0, verbose.stderr);
    assert.doesNotMatch(plain.stderr, /not served|batch\/v1beta1/);
    assert.match(verbose.stderr, /CronJob batch\/v1 is not served; watching batch\/v1beta1 instead/);
    // The same trees either way (ages aside: the two runs may be a second apart).
    const ageless = (out: string) => out.replace(/age: \S+/g, 'age: -');
    assert.equal(ageless(plain.stdout), ageless(verbose.stdout));
  });

  test('-l SELECTOR: only the matching workloads, no bare pods and no pods of filtered-out workloads', async () => {
    const r = await wlx(real, ['get', '-A', '-l', 'team=llm']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^JobSet\/llama-pretrain/m);
    assert.doesNotMatch(r.stdout, /notebook|bert-finetune|owner not visible|vllm|data-prep/);
    assert.match(r.stdout, /^1 workload, 3 pods \(2 running\)/m);
    const doc = await json(real, ['get', '-A', '-l', 'team in (research,nlp)', '-o', 'json']);
    assert.deepEqual(doc.workloads.map((w) => `${w.kind}/${w.name}`).sort(), [
      'Pod/notebook',
      'PyTorchJob/bert-finetune',
      'PyTorchJob/gpt-eval',
    ]);
  });

  test('the restricted user: namespace training only; nodes not readable, said so, never 0', async () => {
    const r = await wlx(real, ['get', '--context', 'real-restricted']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^JobSet\/llama-pretrain\s+namespace: training/m);
    assert.match(r.stdout, /^PyTorchJob\/bert-finetune/m);
    assert.doesNotMatch(r.stdout, /vllm-70b|notebook|data-prep/);
    assert.match(r.stdout, /^cluster: nodes not readable; pods are on 4 nodes, gpu capacity unknown, 8 pending/m);
    assert.match(r.stderr, /namespace-scoped access: showing namespace training \(not readable: [^)]*nodes\)/);
  });

  test('a Job without Job.status.ready (added in 1.23) reads Running from its ready pods', async () => {
    const doc = await json(real, ['get', 'job/data-prep', '-n', 'research', '-o', 'json']);
    assert.deepEqual(doc.workloads[0]?.status, ['Running']);
  });
});
