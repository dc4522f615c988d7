// Built-in definitions whose workloads run other defined workloads, through the path `wlx get --from`
// takes (the offline model and its top-level filter): a CronJob's Jobs are nested workloads of the
// CronJob, and a bare Pod definition takes only pods nobody controls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { loadDefinitions } from '../../src/definitions/index.js';
import { buildOfflineModel } from '../../src/kube/offline.js';
import type { WorkloadTree } from '../../src/model/types.js';
import { fixturesDir } from './builtin-fixtures.js';

type Obj = Record<string, unknown> & { kind?: string; metadata: { name: string; uid: string; ownerReferences?: unknown[] } };

function fixtureObjects(file: string): Obj[] {
  return yaml.loadAll(readFileSync(join(fixturesDir, file), 'utf8')).filter((d): d is Obj => typeof d === 'object' && d !== null);
}

function topLevel(objects: Obj[]): { all: WorkloadTree[]; top: WorkloadTree[] } {
  const definitions = loadDefinitions({ includeBuiltin: true, envPaths: '' });
  const all = buildOfflineModel(objects, definitions, { includeNested: true }).store.workloads();
  const top = buildOfflineModel(objects, definitions, { includeNested: false }).store.workloads();
  return { all, top };
}

const podNames = (t: WorkloadTree): string[] => {
  const names: string[] = [];
  const walk = (roles: WorkloadTree['roles']) => roles.forEach((r) => (names.push(...r.pods.map((p) => p.name)), walk(r.roles)));
  walk(t.roles);
  return names.sort();
};

test("a CronJob's Jobs are nested in its tree, not workloads of their own", () => {
  const { all, top } = topLevel(fixtureObjects('batch-cronjob-v1.yaml'));
  // Each Job still gets its own tree (for `wlx get job`), under the CronJob.
  assert.deepEqual(all.map((w) => `${w.kind}/${w.name}`).sort(), ['CronJob/hourly-eval', 'Job/hourly-eval-29936880', 'Job/hourly-eval-29936940', 'Job/hourly-eval-29937000']);
  assert.deepEqual(top.map((w) => `${w.kind}/${w.name}`), ['CronJob/hourly-eval']);
  assert.deepEqual(podNames(top[0]), ['hourly-eval-29936880-qnls4', 'hourly-eval-29936940-qqltd', 'hourly-eval-29937000-pzqmk']);
  assert.deepEqual(top[0].unattributedPods, []);
  assert.deepEqual(top[0].errors, []);
});

test(
  'a bare Pod definition makes workloads of unowned pods only',
  () => {
    const bare = fixtureObjects('pod-v1.yaml');
    const job = fixtureObjects('batch-job-v1.yaml');
    // A DaemonSet's pod: its owner's kind has no definition, but it is controlled all the same.
    const daemon = structuredClone(bare.find((o) => o.kind === 'Pod')!);
    daemon.metadata = { ...daemon.metadata, name: 'dcgm-exporter-7xk2p', uid: '5b0e6f7c-2d4a-4c1e-9f3b-8a7d6c5e4f21' };
    daemon.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'dcgm-exporter', uid: '0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f', controller: true }];
    const { top } = topLevel([...bare, ...job, daemon]);
    assert.deepEqual(top.map((w) => `${w.kind}/${w.name}`).sort(), ['Job/llama3-eval-mmlu', 'Pod/jupyter-alice']);
    const pod = top.find((w) => w.kind === 'Pod')!;
    assert.deepEqual(podNames(pod), ['jupyter-alice']);
    // The Job keeps all its pods.
    assert.equal(podNames(top.find((w) => w.kind === 'Job')!).length, 3);
  },
);
