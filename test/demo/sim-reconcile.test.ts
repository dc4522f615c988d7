// The simulation reconciles from store events (a pod deleted through the API
// server comes back), is reproducible from its seed, and stops cleanly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore } from '../../demo/object-store.js';
import { startSimulation } from '../../demo/sim/index.js';
import { R, type Pod } from '../../demo/sim/types.js';
import { isReady, sleep, startSim, until } from './sim-helpers.js';

test('deleting a Job pod from the store makes the Job controller create a new one for that index', async (t) => {
  const f = startSim(t, { speed: 60 });
  const worker = (): Pod[] =>
    f.pods('training').filter((p) => p.metadata.labels?.['batch.kubernetes.io/job-name'] === 'llama-pretrain-worker-1');
  const old = await until('worker ready', () => worker().find(isReady));
  f.store.delete(R.pods, 'training', old.metadata.name);
  const replacement = await until('replacement', () => worker().find((p) => p.metadata.uid !== old.metadata.uid));
  assert.notEqual(replacement.metadata.name, old.metadata.name);
  assert.match(replacement.metadata.name, /^llama-pretrain-worker-1-0-[a-z0-9]{5}$/);
  assert.equal(replacement.metadata.labels?.['batch.kubernetes.io/job-completion-index'], '0');
  assert.equal(worker().length, 1);
  await until('replacement ready', () =>
    worker().find((p) => p.metadata.uid === replacement.metadata.uid && isReady(p)),
  );
  assert.ok(f.events(replacement.metadata.name).some((e) => e['reason'] === 'Scheduled'));
});

test('graceful deletion (deletionTimestamp, as the server sets it): the kubelet stops the pod, the operator recreates it under the same name', async (t) => {
  const f = startSim(t, { speed: 60 });
  const old = await until('bert worker ready', () => {
    const p = f.pod('training', 'bert-finetune-worker-0');
    return p && isReady(p) ? p : undefined;
  });
  f.store.put(R.pods, {
    ...old,
    metadata: { ...old.metadata, deletionTimestamp: new Date().toISOString(), deletionGracePeriodSeconds: 30 },
  });
  await until('Killing event', () =>
    f
      .events('bert-finetune-worker-0')
      .find((e) => e['reason'] === 'Killing' && (e['involvedObject'] as { uid: string }).uid === old.metadata.uid),
  );
  const fresh = await until('recreated and ready', () => {
    const p = f.pod('training', 'bert-finetune-worker-0');
    return p && p.metadata.uid !== old.metadata.uid && isReady(p) ? p : undefined;
  });
  assert.equal(fresh.metadata.labels?.['training.kubeflow.org/replica-index'], '0');
  assert.equal(fresh.status.containerStatuses?.[0]?.restartCount, 0);
});

test('deleting StatefulSet (LWS) and RayCluster pods: same name back for the StatefulSet, a new name for Ray', async (t) => {
  const f = startSim(t, { speed: 60 });
  await until('llama-70b worker ready', () => {
    const p = f.pod('inference', 'llama-70b-1-1');
    return p && isReady(p);
  });
  const oldWorker = f.pod('inference', 'llama-70b-1-1')!;
  f.store.delete(R.pods, 'inference', 'llama-70b-1-1');
  const worker = await until('worker recreated', () => {
    const p = f.pod('inference', 'llama-70b-1-1');
    return p && p.metadata.uid !== oldWorker.metadata.uid ? p : undefined;
  });
  assert.equal(worker.metadata.labels?.['leaderworkerset.sigs.k8s.io/worker-index'], '1');
  assert.equal(worker.metadata.annotations?.['leaderworkerset.sigs.k8s.io/leader-name'], 'llama-70b-1');

  const rayWorkers = (): Pod[] => f.pods('research').filter((p) => p.metadata.labels?.['ray.io/group'] === 'gpu-group');
  const gone = await until('ray workers', () => (rayWorkers().length === 2 ? rayWorkers()[0] : undefined));
  f.store.delete(R.pods, 'research', gone.metadata.name);
  await until(
    'ray worker recreated',
    () => rayWorkers().length === 2 && rayWorkers().every((p) => p.metadata.name !== gone.metadata.name),
  );
});

test('deleting a JobSet removes its Jobs and pods (garbage collection)', async (t) => {
  const f = startSim(t, { speed: 60 });
  await until(
    'llama pods',
    () =>
      f.pods('training').filter((p) => p.metadata.labels?.['jobset.sigs.k8s.io/jobset-name'] === 'llama-pretrain')
        .length === 3,
  );
  f.store.delete(R.jobsets, 'training', 'llama-pretrain');
  assert.equal(f.store.list(R.jobs, 'training').filter((j) => j.metadata.name.startsWith('llama-pretrain-')).length, 0);
  await until('pods gone', () =>
    f.pods('training').every((p) => p.metadata.labels?.['jobset.sigs.k8s.io/jobset-name'] !== 'llama-pretrain'),
  );
});

test('the same seed gives the same names, uids and placement; another seed does not', async () => {
  const run = (seed: number): { store: ObjectStore; stop: () => void } => {
    const store = new ObjectStore();
    const sim = startSimulation(store, { scenario: 'default', seed, speed: 60 });
    return { store, stop: () => sim.stop() };
  };
  const a = run(42);
  const b = run(42);
  const c = run(43);
  try {
    const names = (s: ObjectStore): string[] =>
      s
        .list(R.pods)
        .map((p) => `${p.metadata.namespace}/${p.metadata.name}/${p.metadata.uid}`)
        .sort();
    assert.deepEqual(names(a.store), names(b.store));
    assert.notDeepEqual(names(a.store), names(c.store));
    await sleep(1500); // 90 simulated seconds: scheduled, pulled, running
    const placement = (s: ObjectStore): string[] =>
      (s.list(R.pods) as Pod[]).map((p) => `${p.metadata.name}@${p.spec.nodeName ?? '-'}:${p.status.phase}`).sort();
    assert.deepEqual(placement(a.store), placement(b.store));
  } finally {
    a.stop();
    b.stop();
    c.stop();
  }
});

test('stop() ends all activity: no store writes afterwards', async () => {
  const store = new ObjectStore();
  const sim = startSimulation(store, { scenario: 'default', seed: 1, speed: 100 });
  await sleep(200);
  const unfollow = sim.logs.follow('default', 'innocent-looking', undefined, () => {});
  sim.stop();
  const rv = store.currentRv;
  await sleep(400);
  assert.equal(store.currentRv, rv);
  unfollow();
  // node --test would also hang here if a timer or interval were left behind.
});
