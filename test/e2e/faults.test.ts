// Reliability: the engine under a hostile API server for a minute — watches
// dropped every 2 s, forced 410s, a server restart, malformed watch lines, a
// forbidden kind, a workload that breaks its definition's expressions, and pod
// churn — must end up holding exactly what the server holds (no missing,
// ghost or stale object), report each problem, and never send anything but GETs.
// It runs with the JSON wire and again with `wire: 'protobuf'` (pods and nodes
// read as protobuf frames and pages; the malformed fault is then a bad frame).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoCluster } from '../../demo/index.js';
import { getJson } from '../../src/kube/client.js';
import { startEngine } from '../../src/kube/engine.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import type { RoleTree, PodSummary } from '../../src/model/types.js';
import { KEYS, putPod } from '../kube/fixtures.js';
import { converge } from './inventory.js';
import { transportFor } from '../kube/helpers.js';

const DURATION_MS = Number(process.env.WLX_FAULTS_MS ?? 60_000);

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function podsOf(roles: RoleTree[]): PodSummary[] {
  return roles.flatMap((r) => [...r.pods, ...podsOf(r.roles)]);
}

interface ListItem {
  metadata: { uid: string; resourceVersion: string; name: string; namespace?: string };
  spec?: { nodeName?: string };
  status?: { containerStatuses?: Array<{ restartCount?: number }> };
}

for (const wire of ['json', 'protobuf'] as const)
  test(
    `engine under faults for ${DURATION_MS / 1000}s converges to the server's state exactly (${wire} wire)`,
    { timeout: DURATION_MS + 90_000 },
    async (t) => {
      const cluster = await startDemoCluster({ speed: 20, seed: 3, faults: { forbid: ['rayclusters.ray.io'] } });
      t.after(() => cluster.stop());
      // A workload whose spec breaks the JobSet definition's replicas expression
      // (`(.replicas // 1) * ...` on a string).
      cluster.store.put(KEYS.jobsets, {
        apiVersion: 'jobset.x-k8s.io/v1alpha2',
        kind: 'JobSet',
        metadata: { name: 'broken-spec', namespace: 'training', uid: '', resourceVersion: '', creationTimestamp: '' },
        spec: {
          replicatedJobs: [
            {
              name: 'worker',
              replicas: 'two',
              template: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } } },
            },
          ],
        },
        status: {},
      });
      const transport = transportFor(cluster);
      t.after(() => transport.close());
      const engine = await startEngine({
        transport,
        connection: {
          context: 'wlx-demo',
          cluster: 'wlx-demo',
          user: 'wlx-demo',
          server: cluster.server,
          namespace: null,
        },
        namespace: null,
        definitions: loadDefinitions({ envPaths: '' }),
        wire,
        reflector: { backoff: { initialMs: 100, maxMs: 2000, factor: 2, jitter: 0.5 } },
      });
      t.after(() => engine.stop());
      await engine.whenSynced();
      const states = new Set<string>();
      const unsubscribe = engine.subscribe((s) => {
        for (const k of s.kinds) states.add(`${k.resource}:${k.state}`);
      });
      t.after(unsubscribe);

      // Faults on, churn on.
      cluster.faults.set({ dropWatchesEverySeconds: 2 });
      let stop = false;
      let n = 0;
      const churnPods: string[] = [];
      const churn = (async () => {
        while (!stop) {
          n += 1;
          const r = n % 5;
          if (r === 0 || churnPods.length < 5) {
            const name = `churn-${n}`;
            putPod(
              cluster.store,
              'research',
              name,
              null,
              { app: 'churn' },
              { node: `gpu-node-${String((n % 12) + 1).padStart(2, '0')}`, gpus: 0 },
            );
            churnPods.push(name);
          } else if (r === 1) {
            const name = churnPods.splice(n % churnPods.length, 1)[0];
            cluster.store.delete(KEYS.pods, 'research', name);
          } else {
            const name = churnPods[n % churnPods.length];
            const pod = cluster.store.get(KEYS.pods, 'research', name);
            if (pod)
              cluster.store.put(KEYS.pods, {
                ...pod,
                metadata: { ...pod.metadata, labels: { app: 'churn', n: String(n) } },
              });
          }
          await sleep(50);
        }
      })();
      const started = Date.now();
      const at = (fraction: number) => started + DURATION_MS * fraction;
      const script: Array<[number, () => void | Promise<void>]> = [
        [at(0.15), () => void cluster.faults.set({ expireNextWatches: 6 })],
        [at(0.3), () => void cluster.faults.set({ malformedWatchLines: true })],
        [at(0.4), () => void cluster.faults.set({ malformedWatchLines: false })],
        [at(0.5), () => cluster.restart()],
        [at(0.7), () => void cluster.faults.set({ expireNextWatches: 6 })],
      ];
      for (const [when, action] of script) {
        await sleep(Math.max(0, when - Date.now()));
        await action();
      }
      await sleep(Math.max(0, started + DURATION_MS - Date.now()));
      stop = true;
      await churn;
      cluster.faults.set({ dropWatchesEverySeconds: 0, expireNextWatches: 0, malformedWatchLines: false });

      // Converged: poll until the engine holds exactly the server's objects (a
      // watch may still be reconnecting after the last drop), then compare.
      const convergeStart = Date.now();
      // 45 s: a request left without response headers is cut after 30 s.
      const problems = await converge(transport, engine, 45_000);
      process.stdout.write(
        `# converged check after ${Date.now() - convergeStart} ms (${problems.length} differences)\n`,
      );
      if (problems.length) {
        // Diagnostics: what each reflector thinks, and the server's last requests per kind.
        const kinds = engine
          .getSnapshot()
          .kinds.map((k) => `${k.resource}=${k.state} since ${k.since}${k.message ? ` (${k.message})` : ''}`);
        const recent = cluster
          .requests()
          .filter((r) => /[?&]watch=1/.test(r.path))
          .slice(-30)
          .map((r) => `${r.time} ${r.status} ${r.durationMs ?? ''}ms ${r.path}`);
        process.stdout.write(`# kinds: ${kinds.join('; ')}\n# recent requests:\n# ${recent.join('\n# ')}\n`);
      }
      assert.deepEqual(problems, [], 'engine inventory equals a fresh list');
      await sleep(300); // one more flush interval for the model

      // The model agrees with the server too: every pod the trees show exists with
      // its current node and restarts; pod and node counts match.
      const snap = engine.getSnapshot();
      const pods = (await getJson(transport, '/api/v1/pods')) as { items: ListItem[] };
      const byUid = new Map(pods.items.map((p) => [p.metadata.uid, p]));
      assert.equal(snap.totals.pods, pods.items.length, 'pod count');
      assert.equal(snap.totals.nodes, 19);
      for (const w of snap.workloads) {
        for (const p of [...podsOf(w.roles), ...w.unattributedPods]) {
          const live = byUid.get(p.uid);
          assert.ok(live, `${p.namespace}/${p.name} in ${w.name}'s tree exists on the server`);
          assert.equal(p.node, live.spec?.nodeName ?? null, `${p.name} node`);
          assert.equal(
            p.restarts,
            (live.status?.containerStatuses ?? []).reduce((s, c) => s + (c.restartCount ?? 0), 0),
            `${p.name} restarts`,
          );
        }
      }
      const churnOnServer = pods.items.filter((p) => p.metadata.name.startsWith('churn-')).length;
      assert.ok(churnOnServer >= 5, 'the churn happened');

      // Problems were reported, naming what broke; everything else kept working.
      const all = snap.problems.join('\n');
      assert.match(
        all,
        wire === 'json' ? /malformed watch line skipped: "/ : /pods: malformed watch frame skipped \(\d+ bytes: 7b22/,
        'malformed line or frame reported with its first bytes',
      );
      assert.ok(
        snap.kinds.some((k) => k.resource === 'rayclusters.ray.io' && k.state === 'forbidden'),
        'forbidden kind in the kind states',
      );
      assert.match(all, /rayclusters\.ray\.io: forbidden/);
      const broken = snap.workloads.find((w) => w.name === 'broken-spec');
      assert.ok(broken, 'the broken workload is still listed');
      assert.ok(
        broken.errors.length > 0 && /replicas/.test(broken.errors.join(' ')),
        `expression error names the expression: ${broken.errors.join(' | ')}`,
      );
      assert.ok(/broken-spec/.test(all), 'the broken object is named in problems');
      const llama = snap.workloads.find((w) => w.name === 'llama-pretrain')!;
      assert.deepEqual(llama.status, ['Running']);

      const reqs = cluster.requests();
      const watches = reqs.filter((r) => /[?&]watch=(1|true)/.test(r.path)).length;
      const lists = reqs.filter((r) => /[?&]limit=/.test(r.path)).length;
      process.stdout.write(
        `# ${reqs.length} requests: ${watches} watches, ${lists} list pages; ${pods.items.length} pods; states seen: ${[...states].filter((s) => !s.endsWith(':live')).join(' ')}; broken: ${broken.errors[0]}\n`,
      );
      assert.ok(watches >= (DURATION_MS / 2000) * 3, `watches were re-established after every drop (${watches})`);
      assert.ok(lists > 15, `410s and the restart forced relists (${lists} list pages)`);

      // wlx only read: the server's own request record, over HTTP.
      const record = (await getJson(transport, '/debug/wlx/requests')) as {
        items: Array<{ method: string; path: string }>;
      };
      assert.ok(record.items.length > 100);
      assert.deepEqual([...new Set(record.items.map((r) => r.method))], ['GET']);
      // The wire asked for: pod watches in protobuf first exactly when the engine reads protobuf.
      const podWatches = reqs.filter((r) => r.path.startsWith('/api/v1/pods?') && /[?&]watch=1/.test(r.path));
      assert.ok(podWatches.length > 0);
      for (const r of podWatches)
        assert.equal(r.accept?.startsWith('application/vnd.kubernetes.protobuf'), wire === 'protobuf', r.path);
    },
  );
