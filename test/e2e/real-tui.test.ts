// The explorer in a real terminal (tmux) against the real kube-apiserver with
// the seeded GPU cluster: the walk workload → role → pod → node and back,
// :pods, :nodes, :queues, w, :problems; live changes written as a kubelet or
// controller would, on screen within 2 s; the restricted user.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanupsAfter, realServerSkipReason, useRealServer, type RealServer } from './real-apiserver.js';
import { reseed, type SeedObject } from './real-seed/index.js';
import { Tmux, hasTmux, shellQuote, wlxCommand } from './tmux.js';

const skip = realServerSkipReason() || (!hasTmux() && 'tmux is not installed');
const MERGE = 'application/merge-patch+json';

/** The explorer on the real server; the first frame with every seeded workload waited for. */
async function explorer(real: RealServer, extra = '', workloads = 6): Promise<Tmux> {
  const t = new Tmux(wlxCommand(`--kubeconfig ${shellQuote(real.kubeconfig)} ${extra}`), 140, 40, 'wlx-real');
  try {
    await t.waitFor(new RegExp(`workloads\\(all\\)\\[${workloads}\\]`), 'the seeded workloads', 60_000);
  } catch (err) {
    t.kill();
    throw err;
  }
  return t;
}

async function command(t: Tmux, name: string): Promise<void> {
  t.keys(':');
  await t.waitFor(/^:/m, 'the command prompt', 5_000).catch(() => undefined);
  t.type(name);
  t.keys('Enter');
}

/** The row of `name` in the current table. */
function row(screen: string, name: string): string {
  return screen.split('\n').find((l) => new RegExp(`│\\S*\\s*${name}\\s`).test(l)) ?? '';
}

describe('the explorer on the real kube-apiserver', { skip }, () => {
  let real: RealServer;
  const cleanup = cleanupsAfter(after);
  before(async () => {
    real = await useRealServer(cleanup);
  });

  test(
    'the walk workload → role → pod → node and back; :pods, :nodes, :queues, w; :problems',
    { timeout: 180_000 },
    async () => {
      await reseed(real.admin);
      const t = await explorer(real);
      try {
        // The problems line points to the view that lists them, each with its time and source; the
        // served-version fallback is there as a fact, not counted as a problem.
        let problems = await t.waitFor(/\d+ problems?: .*\(see :problems\)/, 'the problems line');
        assert.match(problems, /1 problem: GPU metrics: no running dcgm-exporter pod/);
        await command(t, 'problems');
        problems = await t.waitFor(/problems\[2\][^]*served version/, 'the problems view');
        assert.match(problems, /\d\d:\d\d:\d\d\s+GPU metrics\s+no running dcgm-exporter pod/);
        assert.match(
          problems,
          /\d\d:\d\d:\d\d\s+served version\s+CronJob batch\/v1 is not served; watching batch\/v1beta1 instead/,
        );
        await command(t, 'wl');
        let screen = await t.waitFor(
          (s) => /Nodes: 7\s+pods 12/.test(s) && /workloads\(all\)\[6\]/.test(s) && !!row(s, 'gpt-eval'),
          'the workloads again',
        );
        assert.match(screen, /Context: real-admin/);
        assert.match(screen, /k8s v1\.20\.2/);
        assert.match(screen, /GPUs: 37\/48 req\/alloc\s+free 11\s+pending 8/);
        assert.match(row(screen, 'llama-pretrain'), /JobSet\s+-\s+Running \(Unschedulable\)\s+2\/3\s+16\/24/);
        assert.match(row(screen, 'gpt-eval'), /PyTorchJob\s+training-queue\s+Queued\s+0\/3/);

        t.keys('/');
        t.type('llama-pretrain');
        t.keys('Enter');
        await t.waitFor(/workloads\(all\)\[1\/6\] <\/llama-pretrain>/, 'the filtered list');
        t.keys('Enter');
        screen = await t.waitFor(
          (s) => /jobset\(training\/llama-pretrain\)\[2\]/.test(s) && /<workloads> <llama-pretrain>/.test(s),
          'the role tree',
        );
        assert.match(screen, /leader\s+Ready\s+1\/1\s+1\s+8\/8\s+gpu-a1/);
        assert.match(screen, /workers\s+\S+\s+1\/2\s+2\s+8\/16\s+gpu-a2/);
        t.keys('j', 'Enter');
        screen = await t.waitFor(
          (s) => /pods\(workers\)\[2\]/.test(s) && /<workloads> <llama-pretrain> <workers>/.test(s),
          'the workers pods',
        );
        assert.match(screen, /llama-pretrain-workers-0-0-q9m4d\s+Running\s+1\/1\s+0\s+8 gpu-a2/);
        assert.match(screen, /llama-pretrain-workers-1-0-h3v8n\s+Pending\s+0\/1\s+0\s+8 <none>.*Unschedulable/);
        t.keys('Enter');
        // The node's pods are read when the view opens ("loading pods…" until they answer).
        screen = await t.waitFor(
          (s) =>
            s.includes('node(gpu-a2)') &&
            /<workloads> <llama-pretrain> <workers> <gpu-a2>/.test(s) &&
            /JobSet training\/llama-pretrain/.test(s),
          'the node view with its pods',
        );
        assert.match(screen, /GPUs capacity 8\s+allocatable 8\s+requested 8\s+free 0/);
        t.keys('Escape');
        await t.waitFor(/pods\(workers\)\[2\]/, 'back to the pods');
        t.keys('Escape');
        await t.waitFor(/jobset\(training\/llama-pretrain\)/, 'back to the roles');
        t.keys('Escape');
        await t.waitFor(/workloads\(all\)\[1\/6\]/, 'back to the filtered list');

        // w: why the JobSet is not all running — the scheduler's message and the GPUs that are free.
        t.keys('w');
        screen = await t.waitFor(/why jobset\/training\/llama-pretrain[^]*1\) Unschedulable/, 'the why view');
        assert.match(screen, /1\) Unschedulable: 1 pod/);
        assert.match(screen, /no node has 8 free GPUs \(a pod needs 8\)/);
        t.keys('Escape');
        await t.waitFor(/workloads\(all\)\[1\/6\]/, 'back from why');
        t.keys('Escape');
        await t.waitFor(/workloads\(all\)\[6\]/, 'the filter cleared');

        await command(t, 'pods');
        screen = await t.waitFor(/pods\(all\)\[12\]/, 'every pod');
        assert.match(row(screen, 'vllm-70b-1-1'), /Running\s+1\/1\s+0\s+2 gpu-b1/);
        assert.match(
          row(screen, 'llama-pretrain-workers-1-0-h3v8n'),
          /Pending.*Unschedulable: 0\/7 nodes are available/,
        );

        await command(t, 'nodes');
        screen = await t.waitFor(/nodes\[7\]/, 'every node');
        assert.match(screen, /us-east1-b \/ block-b\s+3 nodes, 1 NotReady\s+13\/24\s+11/);
        assert.match(row(screen, 'gpu-b1'), /Ready\s+7\/8\s+1\s+.*\s3 inference\/vllm-70b,research\/notebook/);
        assert.match(row(screen, 'gpu-b3'), /NotReady\s+0\/8\s+8/);
        assert.match(row(screen, 'gpu-b2'), /Ready\s+6\/8\s+2\s+.*inference\/vllm-70b/);

        await command(t, 'queues');
        screen = await t.waitFor(/clusterqueues\[1\]/, 'the ClusterQueues');
        assert.match(row(screen, 'gpu-cluster-queue'), /h100 12\s+12\s+0\s+1\s+1/);
        t.keys('Enter');
        screen = await t.waitFor(/gpt-eval/, "the ClusterQueue's pending workloads");
        assert.match(screen, /training-queue/);
      } finally {
        t.kill();
      }
    },
  );

  test(
    'live: a pod status patched, pods deleted and added are on screen within 2 s',
    { timeout: 180_000 },
    async () => {
      await reseed(real.admin);
      const t = await explorer(real);
      const api = real.admin;
      /** `change` done, then `what` must be on screen within 2 s of it. */
      const within2s = async (what: string, change: () => Promise<unknown>, test: (s: string) => boolean) => {
        await change();
        return t.waitFor(test, what, 2_000);
      };
      try {
        // A kubelet reports a crash-looping container.
        await within2s(
          'bert-finetune 2/3 ready after its worker crashed',
          () =>
            api.must(
              'PATCH',
              '/api/v1/namespaces/training/pods/bert-finetune-worker-1/status',
              {
                status: {
                  conditions: [
                    { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
                    { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady' },
                  ],
                  containerStatuses: [
                    {
                      name: 'pytorch',
                      ready: false,
                      restartCount: 3,
                      image: 'nvcr.io/nvidia/pytorch:24.05-py3',
                      imageID: '',
                      started: false,
                      state: {
                        waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' },
                      },
                      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
                    },
                  ],
                },
              },
              MERGE,
            ),
          // The status word is the definition's (Running or Degraded); the pod's trouble is beside it.
          (s) => /PyTorchJob\s+training-queue\s+\w+ \(CrashLoopBackOff\)\s+2\/3/.test(row(s, 'bert-finetune')),
        );
        // A pod removed for good (force delete, as the kubelet finishes a deletion).
        await within2s(
          'llama-pretrain down to 1/3 ready',
          () =>
            api.must('DELETE', '/api/v1/namespaces/training/pods/llama-pretrain-workers-0-0-q9m4d', {
              gracePeriodSeconds: 0,
            }),
          (s) => /JobSet\s+-\s+\S.*\s1\/3\s+8\/24/.test(row(s, 'llama-pretrain')),
        );
        // A pod created (bound by the scheduler, then running).
        const debug: SeedObject = {
          apiVersion: 'v1',
          kind: 'Pod',
          resource: 'pods',
          metadata: { name: 'debug-shell', namespace: 'research', labels: { app: 'debug' } },
          spec: { nodeName: 'cpu-1', containers: [{ name: 'sh', image: 'busybox:1.36' }] },
        };
        await within2s(
          'the new bare pod as a workload',
          async () => {
            await api.must('POST', '/api/v1/namespaces/research/pods', debug);
            await api.must(
              'PATCH',
              '/api/v1/namespaces/research/pods/debug-shell/status',
              { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
              MERGE,
            );
          },
          (s) => /workloads\(all\)\[7\]/.test(s) && /Pod\s+-\s+Running\s+/.test(row(s, 'debug-shell')),
        );
        // A graceful delete with no kubelet to finish it: the pod stays, Terminating, as on a cluster whose
        // node is gone. The bare pod's workload row says so too.
        await within2s(
          'the bare pod Terminating',
          () => api.must('DELETE', '/api/v1/namespaces/research/pods/notebook', { gracePeriodSeconds: 30 }),
          (s) => /Pod\s+-\s+Terminating\s/.test(row(s, 'notebook')),
        );
        await within2s(
          'the terminated pod gone',
          () => api.must('DELETE', '/api/v1/namespaces/research/pods/notebook', { gracePeriodSeconds: 0 }),
          (s) => /workloads\(all\)\[6\]/.test(s) && !row(s, 'notebook'),
        );

        // An evicted LWS worker: the workload's node count and its placement count the same nodes.
        await api.must(
          'PATCH',
          '/api/v1/namespaces/inference/pods/vllm-70b-1-1/status',
          { status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' } },
          MERGE,
        );
        t.keys('/');
        t.type('vllm');
        t.keys('Enter');
        await t.waitFor(/workloads\(all\)\[1\/6\] <\/vllm>/, 'the LWS row');
        t.keys('Enter');
        const screen = await t.waitFor(/placement: \d+ nodes?/, 'the LWS panel');
        const nodes = /ready \d+\/\d+\s+GPUs \S+\s+nodes (\d+)/.exec(screen)?.[1];
        const placed = /placement: (\d+) nodes?/.exec(screen)?.[1];
        assert.equal(nodes, '1', screen);
        assert.equal(placed, nodes, screen);
      } finally {
        t.kill();
      }
    },
  );

  test(
    'the restricted user: nodes not readable is said, never Nodes: 0 or "no longer exists"',
    { timeout: 120_000 },
    async () => {
      await reseed(real.admin);
      const t = await explorer(real, '--context real-restricted', 3);
      try {
        let screen = await t.waitFor(/namespace-scoped: training/, 'the namespace-scoped header');
        assert.doesNotMatch(screen, /Nodes: 0/);
        assert.match(screen, /Nodes: not readable/);
        await command(t, 'problems');
        screen = await t.waitFor(/problems\[\d+\]/, 'the problems view');
        assert.match(screen, /forbidden\s+.*nodes/);
        await command(t, 'wl');
        await t.waitFor(/workloads\(all\)\[3\]/, 'back to the workloads');
        t.keys('/');
        t.type('llama-pretrain');
        t.keys('Enter');
        await t.waitFor(/workloads\(all\)\[1\/3\]/, 'the filtered list');
        t.keys('Enter');
        await t.waitFor(/jobset\(training\/llama-pretrain\)\[2\]/, 'the role tree');
        t.keys('Enter');
        await t.waitFor(/pods\(leader\)\[1\]/, 'the leader pod');
        t.keys('Enter');
        screen = await t.waitFor(
          (s) => /node\(gpu-a1\)/.test(s) && s.includes('llama-pretrain-leader-0-0-x7k2p'),
          "the pod's node with its pods",
        );
        assert.doesNotMatch(screen, /no longer exists/);
        assert.match(screen, /node gpu-a1 is not readable/);
        assert.match(screen, /llama-pretrain-leader-0-0-x7k2p/);
      } finally {
        t.kill();
      }
    },
  );
});
