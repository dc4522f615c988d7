// The default scenario settles as documented: workloads of five kinds with
// the names, labels and statuses their real controllers write, a gang that
// cannot fit, a crash-looping job that ends Failed, and a hostile pod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { R, type Pod } from '../../demo/sim/types.js';
import { podRequests } from '../../demo/sim/pods.js';
import { normaliseDefinitionObject } from '../../src/definitions/load.js';
import { condition, isReady, startSim, until } from './sim-helpers.js';
import { DRA_NODE, DRA_POD, GPU_OPERATOR_NAMESPACE, MIG_NODES, MIG_POD } from '../../demo/sim/scenarios/gpu-extras.js';
import { CORDONED_NODE, NOT_READY_NODE } from '../../demo/sim/scenarios/troubled-nodes.js';

const JS = 'jobset.sigs.k8s.io/';
const LWS = 'leaderworkerset.sigs.k8s.io/';

test('the cluster: 12 GPU nodes × 8 H100s, 2 CPU nodes, the GPU extras nodes, the namespaces and the TFJob Karta', (t) => {
  const f = startSim(t);
  const nodes = f.store.list(R.nodes);
  const names = nodes.map((n) => n.metadata.name).sort();
  assert.deepEqual(
    names,
    [
      ...Array.from({ length: 12 }, (_, i) => `gpu-node-${String(i + 1).padStart(2, '0')}`),
      'cpu-node-01',
      'cpu-node-02',
      ...MIG_NODES,
      DRA_NODE,
      NOT_READY_NODE,
      CORDONED_NODE,
    ].sort(),
  );
  let gpus = 0;
  for (const n of nodes) {
    const st = n['status'] as {
      capacity: Record<string, string>;
      allocatable: Record<string, string>;
      nodeInfo: Record<string, string>;
      addresses: Array<{ type: string }>;
    };
    gpus += Number(st.allocatable['nvidia.com/gpu'] ?? 0);
    assert.equal(st.nodeInfo['kubeletVersion'], 'v1.32.0');
    assert.ok(st.addresses.some((a) => a.type === 'InternalIP'));
    if (n.metadata.name.startsWith('gpu-node-')) {
      assert.equal(n.metadata.labels?.['nvidia.com/gpu.product'], 'NVIDIA-H100-80GB-HBM3');
      assert.equal(n.metadata.labels?.['nvidia.com/gpu.count'], '8');
      assert.equal(st.capacity['nvidia.com/gpu'], '8');
    } else {
      assert.equal(st.capacity['nvidia.com/gpu'], undefined);
      // The H100 product label (GPU_SELECTOR) stays on gpu-node-01 … 12 only: the workloads' placement keeps to them.
      assert.notEqual(n.metadata.labels?.['nvidia.com/gpu.product'], 'NVIDIA-H100-80GB-HBM3', n.metadata.name);
    }
  }
  // gpu-node-01 … 12's 96, and the 16 of the two nodes in trouble (no workload lands there).
  assert.equal(gpus, 96 + 16);
  const node = (name: string) => nodes.find((n) => n.metadata.name === name)!;
  const ready = (name: string) =>
    (node(name)['status'] as { conditions: { type: string; status: string }[] }).conditions.find(
      (c) => c.type === 'Ready',
    )?.status;
  assert.equal(ready(NOT_READY_NODE), 'Unknown');
  assert.equal((node(CORDONED_NODE)['spec'] as { unschedulable?: boolean }).unschedulable, true);
  assert.equal(ready(CORDONED_NODE), 'True');
  assert.deepEqual(
    f.store
      .list(R.namespaces)
      .map((n) => n.metadata.name)
      .sort(),
    ['default', GPU_OPERATOR_NAMESPACE, 'inference', 'kube-system', 'monitoring', 'research', 'training'],
  );
  assert.ok(f.get(R.kartas, undefined, 'kubeflow-org-tfjob-v1'));
});

test('llama-70b, ray-tune and resnet-tf have been running for hours: Ready at once, backdated, no expired events', (t) => {
  const f = startSim(t);
  // research/vlm-pretrain is the KAI gang that waits, not one of the settled workloads; the GPU extras' bare
  // pods (20 minutes old) are checked in gpu-extras.test.ts.
  const settled = [...f.pods('inference'), ...f.pods('research')].filter(
    (p) =>
      !p.metadata.name.startsWith('vlm-pretrain-') &&
      p.metadata.name !== MIG_POD.name &&
      p.metadata.name !== DRA_POD.name,
  );
  assert.equal(settled.length, 4 + 3 + 3);
  // The live ones are not ready yet.
  assert.ok(f.pods('training').every((p) => !isReady(p)));
  for (const p of settled) {
    assert.ok(isReady(p), p.metadata.name);
    const age = Date.now() - Date.parse(p.status.startTime!);
    assert.ok(age > 30 * 60_000, `${p.metadata.name} started ${age} ms ago`);
    assert.equal(f.events(p.metadata.name).length, 0, p.metadata.name);
    assert.ok(p.status.containerStatuses?.[0]?.state.running?.startedAt);
  }
  assert.equal(condition(f.get(R.leaderworkersets, 'inference', 'llama-70b'), 'Available')?.status, 'True');
  assert.equal(condition(f.get(R.tfjobs, 'research', 'resnet-tf'), 'Running')?.status, 'True');
  assert.ok(
    Date.now() - Date.parse(f.get(R.leaderworkersets, 'inference', 'llama-70b')!.metadata.creationTimestamp) >
      24 * 3_600_000,
  );
  // Their logs reach back to the start and are bounded.
  const logs = f.sim.logs.read('research', 'resnet-tf-chief-0', undefined, false);
  assert.ok(
    'lines' in logs && logs.lines.length > 1000 && logs.lines.length <= 2000,
    'lines' in logs ? String(logs.lines.length) : logs.error,
  );
});

test('llama-pretrain: 3 JobSet pods come up Running and Ready on GPU nodes within 10–30 simulated seconds', async (t) => {
  const speed = 20;
  const started = Date.now();
  const f = startSim(t, { speed });
  const llama = (): Pod[] =>
    f.pods('training').filter((p) => p.metadata.labels?.[`${JS}jobset-name`] === 'llama-pretrain');
  // Nothing is ready at once: the pods have to be scheduled and pull first.
  assert.equal(llama().filter(isReady).length, 0);
  await until('llama-pretrain ready', () => llama().length === 3 && llama().every(isReady), 10_000);
  const simSeconds = ((Date.now() - started) * speed) / 1000;
  assert.ok(simSeconds >= 10, `ready after ${simSeconds}s simulated`);
  assert.ok(
    simSeconds <= 30 + 2 * speed /* two real seconds of slack for a busy machine */,
    `ready after ${simSeconds}s simulated`,
  );

  const pods = llama();
  for (const p of pods) {
    assert.match(p.spec.nodeName ?? '', /^gpu-node-\d\d$/);
    assert.equal(podRequests(p.spec).gpu, 4);
    assert.equal(p.spec.containers[0].resources?.limits?.['nvidia.com/gpu'], '4');
    const l = p.metadata.labels!;
    const rjob = l[`${JS}replicatedjob-name`];
    const jobIndex = l[`${JS}job-index`];
    const jobName = `llama-pretrain-${rjob}-${jobIndex}`;
    assert.match(p.metadata.name, new RegExp(`^${jobName}-0-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    assert.equal(l['batch.kubernetes.io/job-name'], jobName);
    assert.equal(l['job-name'], jobName);
    assert.equal(l['batch.kubernetes.io/job-completion-index'], '0');
    assert.equal(l[`${JS}restart-attempt`], '0');
    assert.equal(l[`${JS}global-replicas`], '3');
    assert.equal(l[`${JS}replicatedjob-replicas`], rjob === 'leader' ? '1' : '2');
    assert.match(l[`${JS}job-key`], /^[0-9a-f]{40}$/);
    const job = f.get(R.jobs, 'training', jobName)!;
    assert.equal(l['batch.kubernetes.io/controller-uid'], job.metadata.uid);
    assert.equal(l['controller-uid'], job.metadata.uid);
    assert.deepEqual(p.metadata.ownerReferences, [
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: jobName,
        uid: job.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.deepEqual(p.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
    assert.ok(p.spec.tolerations?.some((x) => x.key === 'nvidia.com/gpu'));
    // Kubelet-written status.
    const cs = p.status.containerStatuses![0];
    assert.equal(cs.ready, true);
    assert.equal(cs.started, true);
    assert.ok(cs.state.running?.startedAt);
    assert.match(cs.containerID ?? '', /^containerd:\/\/[0-9a-f]{64}$/);
    assert.match(cs.imageID, /@sha256:[0-9a-f]{64}$/);
    assert.equal(p.status.qosClass, 'Guaranteed');
    assert.match(p.status.podIP ?? '', /^10\.244\.\d+\.\d+$/);
    assert.ok(p.status.hostIP && p.status.startTime);
    for (const type of ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']) {
      const c = (p.status.conditions ?? []).find((x) => x.type === type);
      assert.equal(c?.status, 'True', type);
      assert.ok(c?.lastTransitionTime, `${type} lastTransitionTime`);
    }
  }
  assert.deepEqual(pods.map((p) => p.metadata.labels![`${JS}job-global-index`]).sort(), ['0', '1', '2']);

  // The JobSet's own status.
  await until('jobset status', () => {
    const js = f.get(R.jobsets, 'training', 'llama-pretrain');
    const st = js?.['status'] as
      { replicatedJobsStatus?: Array<{ name: string; ready: number; active: number }> } | undefined;
    return (
      st?.replicatedJobsStatus?.find((r) => r.name === 'worker')?.ready === 2 &&
      st.replicatedJobsStatus.find((r) => r.name === 'leader')?.ready === 1
    );
  });
  const job = f.get(R.jobs, 'training', 'llama-pretrain-worker-1')!;
  const js = job['status'] as Record<string, unknown>;
  assert.equal(js['active'], 1);
  assert.equal(js['ready'], 1);
  assert.ok(js['startTime']);
  assert.deepEqual(js['uncountedTerminatedPods'], {});
});

test('a llama pod gets the Scheduled, Pulling, Pulled, Created and Started events kubectl describe shows', async (t) => {
  const f = startSim(t);
  const pod = await until('a ready llama pod', () =>
    f.pods('training').find((p) => p.metadata.name.startsWith('llama-pretrain-leader-0-0-') && isReady(p)),
  );
  const events = f.events(pod.metadata.name);
  const byReason = new Map(events.map((e) => [e['reason'] as string, e]));
  for (const reason of ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started'])
    assert.ok(byReason.has(reason), `missing ${reason}: ${[...byReason.keys()]}`);
  assert.equal(
    byReason.get('Scheduled')!['message'],
    `Successfully assigned training/${pod.metadata.name} to ${pod.spec.nodeName}`,
  );
  assert.match(
    byReason.get('Pulled')!['message'] as string,
    /^Successfully pulled image "nvcr\.io\/nvidia\/nemo:24\.07" in [\d.]+s \([\d.]+s including waiting\)\. Image size: \d+ bytes\.$/,
  );
  assert.equal(byReason.get('Created')!['message'], 'Created container: trainer');
  assert.equal(byReason.get('Started')!['message'], 'Started container trainer');
  const started = byReason.get('Started')!;
  assert.deepEqual(started['involvedObject'], {
    kind: 'Pod',
    namespace: 'training',
    name: pod.metadata.name,
    uid: pod.metadata.uid,
    apiVersion: 'v1',
    resourceVersion: (started['involvedObject'] as { resourceVersion: string }).resourceVersion,
    fieldPath: 'spec.containers{trainer}',
  });
  assert.deepEqual(started['source'], { component: 'kubelet', host: pod.spec.nodeName });
  assert.equal(started['reportingComponent'], 'kubelet');
  assert.equal(started['reportingInstance'], pod.spec.nodeName);
  assert.equal(started['type'], 'Normal');
  assert.equal(started['count'], 1);
  assert.ok(started['firstTimestamp'] && started['lastTimestamp']);
  assert.equal(started.metadata.namespace, 'training');
  assert.deepEqual(byReason.get('Scheduled')!['source'], { component: 'default-scheduler' });
});

test('llama-70b: LeaderWorkerSet leader and worker StatefulSets, pods named and labelled as LWS does, Available', async (t) => {
  const f = startSim(t);
  await until(
    'llama-70b available',
    () => condition(f.get(R.leaderworkersets, 'inference', 'llama-70b'), 'Available')?.status === 'True',
  );
  const lws = f.get(R.leaderworkersets, 'inference', 'llama-70b')!;
  const st = lws['status'] as { replicas: number; readyReplicas: number };
  assert.equal(st.replicas, 2);
  assert.equal(st.readyReplicas, 2);
  assert.equal(condition(lws, 'Progressing')?.status, 'False');
  const pods = f.pods('inference').filter((p) => p.metadata.labels?.[`${LWS}name`] === 'llama-70b');
  assert.deepEqual(pods.map((p) => p.metadata.name).sort(), [
    'llama-70b-0',
    'llama-70b-0-1',
    'llama-70b-1',
    'llama-70b-1-1',
  ]);
  const leaderSts = f.get(R.statefulsets, 'inference', 'llama-70b')!;
  assert.equal(leaderSts.metadata.ownerReferences?.[0]?.uid, lws.metadata.uid);
  for (const g of [0, 1]) {
    const leader = f.pod('inference', `llama-70b-${g}`)!;
    const worker = f.pod('inference', `llama-70b-${g}-1`)!;
    assert.ok(isReady(leader) && isReady(worker));
    assert.equal(podRequests(leader.spec).gpu, 8);
    for (const [p, wi] of [
      [leader, '0'],
      [worker, '1'],
    ] as const) {
      const l = p.metadata.labels!;
      assert.equal(l[`${LWS}name`], 'llama-70b');
      assert.equal(l[`${LWS}group-index`], String(g));
      assert.equal(l[`${LWS}worker-index`], wi);
      assert.match(l[`${LWS}template-revision-hash`], /^[0-9a-f]+$/);
      assert.equal(p.metadata.annotations?.[`${LWS}size`], '2');
    }
    assert.equal(leader.metadata.labels![`${LWS}group-key`], worker.metadata.labels![`${LWS}group-key`]);
    assert.equal(worker.metadata.annotations?.[`${LWS}leader-name`], `llama-70b-${g}`);
    assert.equal(leader.metadata.ownerReferences?.[0]?.uid, leaderSts.metadata.uid);
    // The worker StatefulSet is owned by the leader pod and starts at ordinal 1.
    const workerSts = f.get(R.statefulsets, 'inference', `llama-70b-${g}`)!;
    assert.equal(workerSts.metadata.ownerReferences?.[0]?.kind, 'Pod');
    assert.equal(workerSts.metadata.ownerReferences?.[0]?.uid, leader.metadata.uid);
    assert.equal(worker.metadata.ownerReferences?.[0]?.uid, workerSts.metadata.uid);
  }
  assert.notEqual(
    f.pod('inference', 'llama-70b-0')!.metadata.labels![`${LWS}group-key`],
    f.pod('inference', 'llama-70b-1')!.metadata.labels![`${LWS}group-key`],
  );
});

test('Kubeflow and Ray workloads run with the labels and statuses their operators write', async (t) => {
  const f = startSim(t);
  await until(
    'bert running',
    () => condition(f.get(R.pytorchjobs, 'training', 'bert-finetune'), 'Running')?.status === 'True',
  );
  await until(
    'resnet running',
    () => condition(f.get(R.tfjobs, 'research', 'resnet-tf'), 'Running')?.status === 'True',
  );
  await until(
    'ray ready',
    () =>
      (f.get(R.rayclusters, 'research', 'ray-tune')?.['status'] as { state?: string } | undefined)?.state === 'ready',
  );

  const bert = f.get(R.pytorchjobs, 'training', 'bert-finetune')!;
  assert.equal(condition(bert, 'Running')?.reason, 'PyTorchJobRunning');
  assert.equal(condition(bert, 'Created')?.reason, 'PyTorchJobCreated');
  const rs = (bert['status'] as { replicaStatuses: Record<string, { active?: number }> }).replicaStatuses;
  assert.equal(rs['Master']?.active, 1);
  assert.equal(rs['Worker']?.active, 3);
  const master = f.pod('training', 'bert-finetune-master-0')!;
  assert.deepEqual(
    Object.fromEntries(Object.entries(master.metadata.labels!).filter(([k]) => k.startsWith('training.kubeflow.org/'))),
    {
      'training.kubeflow.org/job-name': 'bert-finetune',
      'training.kubeflow.org/operator-name': 'pytorchjob-controller',
      'training.kubeflow.org/replica-type': 'master',
      'training.kubeflow.org/replica-index': '0',
      'training.kubeflow.org/job-role': 'master',
    },
  );
  for (let i = 0; i < 3; i++) {
    const w = f.pod('training', `bert-finetune-worker-${i}`)!;
    assert.equal(w.metadata.labels!['training.kubeflow.org/replica-type'], 'worker');
    assert.equal(w.metadata.labels!['training.kubeflow.org/job-role'], undefined);
    assert.equal(podRequests(w.spec).gpu, 1);
  }
  assert.ok(f.pod('research', 'resnet-tf-chief-0'));
  assert.equal(f.pod('research', 'resnet-tf-chief-0')!.metadata.labels!['training.kubeflow.org/replica-type'], 'chief');
  assert.ok(f.pod('research', 'resnet-tf-worker-1'));
  assert.equal(condition(f.get(R.tfjobs, 'research', 'resnet-tf'), 'Running')?.reason, 'TFJobRunning');

  const ray = f.get(R.rayclusters, 'research', 'ray-tune')!;
  const rst = ray['status'] as Record<string, unknown>;
  assert.equal(rst['availableWorkerReplicas'], 2);
  assert.equal(rst['desiredWorkerReplicas'], 2);
  assert.equal(rst['desiredGPU'], '4');
  assert.equal(condition(ray, 'HeadPodReady')?.status, 'True');
  assert.equal(condition(ray, 'RayClusterProvisioned')?.status, 'True');
  const rayPods = f.pods('research').filter((p) => p.metadata.labels?.['ray.io/cluster'] === 'ray-tune');
  const head = rayPods.filter((p) => p.metadata.labels!['ray.io/node-type'] === 'head');
  const workers = rayPods.filter((p) => p.metadata.labels!['ray.io/node-type'] === 'worker');
  assert.equal(head.length, 1);
  assert.match(head[0].metadata.name, /^ray-tune-head-[a-z0-9]{5}$/);
  assert.equal(podRequests(head[0].spec).gpu, 0);
  assert.match(head[0].spec.nodeName ?? '', /^cpu-node-/);
  assert.equal(workers.length, 2);
  for (const w of workers) {
    assert.match(w.metadata.name, /^ray-tune-gpu-group-worker-[a-z0-9]{5}$/);
    assert.equal(w.metadata.labels!['ray.io/group'], 'gpu-group');
    assert.equal(w.metadata.labels!['ray.io/identifier'], 'ray-tune-worker');
    assert.equal(podRequests(w.spec).gpu, 2);
  }
});

test('stuck-pretrain: half the gang runs, the rest stays Unschedulable with the scheduler message and repeated FailedScheduling events', async (t) => {
  const f = startSim(t, { speed: 60 });
  const stuck = (): Pod[] =>
    f.pods('training').filter((p) => p.metadata.labels?.[`${JS}jobset-name`] === 'stuck-pretrain');
  await until('stuck gang settled', () => stuck().length === 8 && stuck().filter(isReady).length === 4);
  const pending = stuck().filter((p) => !p.spec.nodeName);
  assert.equal(pending.length, 4);
  // The MIG and DRA nodes fail the selector like the CPU nodes; the NotReady and the cordoned H100 node their taints.
  const expected =
    '0/19 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, ' +
    "1 node(s) were unschedulable, 12 Insufficient nvidia.com/gpu, 5 node(s) didn't match Pod's node affinity/selector. " +
    'preemption: 0/19 nodes are available: 12 No preemption victims found for incoming pod, 7 Preemption is not helpful for scheduling.';
  for (const p of pending) {
    assert.equal(p.status.phase, 'Pending');
    const c = p.status.conditions?.find((x) => x.type === 'PodScheduled');
    assert.equal(c?.status, 'False');
    assert.equal(c?.reason, 'Unschedulable');
    assert.equal(c?.message, expected);
  }
  // All 96 GPUs but the 4 × 8 the pending pods want are the ones in use.
  const used = f
    .pods()
    .filter((p) => p.spec.nodeName && p.status.phase !== 'Succeeded' && p.status.phase !== 'Failed')
    .reduce((a, p) => a + podRequests(p.spec).gpu, 0);
  assert.equal(used, 58 + 32);
  // The scheduler retries: the same Event object's count grows.
  const name = pending[0].metadata.name;
  const failed = await until('FailedScheduling retried', () =>
    f.events(name).find((e) => e['reason'] === 'FailedScheduling' && (e['count'] as number) >= 2),
  );
  assert.equal(failed['type'], 'Warning');
  assert.equal(failed['message'], expected);
  assert.equal(f.events(name).filter((e) => e['reason'] === 'FailedScheduling').length, 1);
});

test('broken-finetune: a worker OOM-crash-loops with growing restarts and the job ends Failed naming the pod', async (t) => {
  const f = startSim(t, { speed: 120 });
  const worker = (): Pod | undefined => f.pod('training', 'broken-finetune-worker-1');
  const looping = await until('CrashLoopBackOff', () => {
    const cs = worker()?.status.containerStatuses?.[0];
    return cs?.state.waiting?.reason === 'CrashLoopBackOff' ? cs : undefined;
  });
  assert.equal(looping.lastState.terminated?.reason, 'OOMKilled');
  assert.equal(looping.lastState.terminated?.exitCode, 137);
  assert.equal(looping.ready, false);
  assert.match(
    looping.state.waiting?.message ?? '',
    /^back-off \d+s restarting failed container=pytorch pod=broken-finetune-worker-1_training\(/,
  );
  const job = await until(
    'job Failed',
    () => {
      const j = f.get(R.pytorchjobs, 'training', 'broken-finetune');
      return condition(j, 'Failed')?.status === 'True' ? j : undefined;
    },
    12_000,
  );
  const failed = condition(job, 'Failed')!;
  assert.equal(failed.reason, 'PyTorchJobFailed');
  assert.match(failed.message ?? '', /broken-finetune-worker-1/);
  assert.equal(condition(job, 'Running')?.status, 'False');
  assert.ok(worker()!.status.containerStatuses![0].restartCount >= 4);
  const backOff = f.events('broken-finetune-worker-1').find((e) => e['reason'] === 'BackOff')!;
  assert.ok((backOff['count'] as number) >= 3, `BackOff count ${backOff['count']}`);
  assert.equal(backOff['type'], 'Warning');
  // The others keep running.
  assert.ok(isReady(f.pod('training', 'broken-finetune-master-0')!));
  assert.ok(isReady(f.pod('training', 'broken-finetune-worker-0')!));
  // --previous shows the killed attempt's last lines.
  const prev = f.sim.logs.read('training', 'broken-finetune-worker-1', 'pytorch', true);
  assert.ok('lines' in prev && prev.lines.at(-1)?.text.includes('host memory'));
});

test('the hostile pod carries escape sequences and bidi controls in an annotation, termination message, condition and event', async (t) => {
  const f = startSim(t, { speed: 60 });
  const hostile = /\u001b\[2J[\s\S]*\u001b\]0;pwned\u0007[\s\S]*\u202e/;
  const pod = f.pod('default', 'innocent-looking')!;
  assert.equal(pod.metadata.ownerReferences, undefined);
  assert.match(pod.metadata.annotations?.['description'] ?? '', hostile);
  assert.ok(f.events('innocent-looking').some((e) => hostile.test(e['message'] as string)));
  const crashed = await until('terminated with a message', () => {
    const cs = f.pod('default', 'innocent-looking')?.status.containerStatuses?.[0];
    return cs?.lastState.terminated ?? cs?.state.terminated;
  });
  assert.match(crashed.message ?? '', hostile);
  const p = f.pod('default', 'innocent-looking')!;
  assert.match(p.status.conditions?.find((c) => c.type === 'example.com/healthy')?.message ?? '', hostile);
  const logs = f.sim.logs.read('default', 'innocent-looking', undefined, false);
  assert.ok('lines' in logs && logs.lines.some((l) => hostile.test(l.text) || l.text.includes('\u001b')));
});

test('logs: a running pod has training logs that grow, follow delivers new lines, a pending pod has none', async (t) => {
  const f = startSim(t, { speed: 60 });
  const pod = await until('ready llama leader', () =>
    f.pods('training').find((p) => p.metadata.name.startsWith('llama-pretrain-leader-') && isReady(p)),
  );
  const first = f.sim.logs.read('training', pod.metadata.name, undefined, false);
  assert.ok('lines' in first, JSON.stringify(first));
  assert.ok(first.lines.length > 0);
  assert.ok(first.lines.some((l) => l.text.includes('NCCL INFO')));
  assert.match(first.lines[0].time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
  const received: string[] = [];
  const unfollow = f.sim.logs.follow('training', pod.metadata.name, 'trainer', (l) => received.push(l.text));
  t.after(unfollow);
  await until('more lines', () => {
    const r = f.sim.logs.read('training', pod.metadata.name, 'trainer', false);
    return 'lines' in r && r.lines.length > first.lines.length + 2;
  });
  await until('followed lines', () => received.some((l) => /step \d+\/100000 \| loss \d/.test(l)));
  unfollow();
  // Errors look like the API server's.
  assert.deepEqual(f.sim.logs.read('training', 'no-such-pod', undefined, false), {
    error: 'pods "no-such-pod" not found',
    code: 404,
  });
  const wrong = f.sim.logs.read('training', pod.metadata.name, 'nope', false);
  assert.ok('error' in wrong && wrong.code === 400);
  const pending = f.pods('training').find((p) => !p.spec.nodeName && p.metadata.name.startsWith('stuck-pretrain'));
  if (pending) {
    const r = f.sim.logs.read('training', pending.metadata.name, undefined, false);
    assert.ok('error' in r && r.code === 400);
  }
  const none = f.sim.logs.read('training', pod.metadata.name, undefined, true);
  assert.ok('error' in none && none.code === 400);
});

test(
  'the TFJob Karta: its jq paths give instance ids equal to the pods’ replica-type labels',
  { skip: !hasJq() },
  (t) => {
    const f = startSim(t);
    const karta = f.get(R.kartas, undefined, 'kubeflow-org-tfjob-v1')!;
    assert.equal(karta.apiVersion, 'run.ai/v1alpha1');
    assert.equal(karta.kind, 'Karta');
    const spec = karta['spec'] as {
      structureDefinition: {
        rootComponent: { kind: { kind: string } };
        childComponents: Array<{
          instanceIdPath: string;
          specDefinition: { podTemplateSpecPath: string };
          scaleDefinition: { replicasPath: string };
          podSelector: { componentInstanceSelector: { idPath: string } };
        }>;
      };
    };
    assert.equal(spec.structureDefinition.rootComponent.kind.kind, 'TFJob');
    const child = spec.structureDefinition.childComponents[0];
    const tfjob = f.get(R.tfjobs, 'research', 'resnet-tf')!;
    const jq = (expr: string, input: unknown): unknown[] =>
      execFileSync('/usr/bin/jq', ['-c', expr], { input: JSON.stringify(input) })
        .toString()
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown);
    const ids = jq(child.instanceIdPath, tfjob);
    assert.deepEqual(ids, ['chief', 'worker']);
    assert.deepEqual(jq(child.scaleDefinition.replicasPath, tfjob), [1, 2]);
    assert.equal(jq(child.specDefinition.podTemplateSpecPath, tfjob).length, 2);
    const podIds = new Set(
      f
        .pods('research')
        .filter((p) => p.metadata.name.startsWith('resnet-tf-'))
        .map((p) => jq(child.podSelector.componentInstanceSelector.idPath, p)[0]),
    );
    assert.deepEqual([...podIds].sort(), ids);
  },
);

test("the TFJob Karta loads and validates with wlx's own definition reader, without problems", (t) => {
  const f = startSim(t);
  const karta = f.get(R.kartas, undefined, 'kubeflow-org-tfjob-v1')!;
  const result = normaliseDefinitionObject(karta, { kind: 'cluster', location: 'kartas.run.ai/kubeflow-org-tfjob-v1' });
  assert.deepEqual(result.problems, []);
  assert.ok(result.definition);
});

function hasJq(): boolean {
  try {
    execFileSync('/usr/bin/jq', ['--version']);
    return true;
  } catch {
    return false;
  }
}
