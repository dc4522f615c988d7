// A small GPU cluster written through the API the way its controllers and
// kubelets would write it: nodes registered with their status, pods created
// by their controllers with spec.nodeName (the scheduler's binding) and their
// status set through the status subresource, custom resources' status
// likewise, events as the scheduler, kubelets and Kueue record them. The same
// steps go to the real kube-apiserver and to the simulated one (the
// differential test), so the seed is data plus one applier.
//
// Cluster: 7 nodes (6 GPU nodes in two zones/blocks, gpu-b3 NotReady; cpu-1);
// training: JobSet llama-pretrain (leader + 2 worker Jobs, one worker pod
// Unschedulable), PyTorchJob bert-finetune (Kueue Workload admitted),
// PyTorchJob gpt-eval (suspended, its Workload pending); inference:
// LeaderWorkerSet vllm-70b (2 groups of 2 on two nodes); research: Job
// data-prep, bare pod notebook.
import type { ApiClient } from '../real-apiserver.js';
import {
  events,
  gpuNode,
  NAMESPACES,
  nodeStatus,
  seedClock,
  type Json,
  type SeedClock,
  type SeedObject,
} from './objects.js';
import { jobset, leaderWorkerSet, pytorchJob, queues, research } from './workloads.js';

export { NAMESPACES, seedClock, uidOf, UNSCHEDULABLE, type SeedClock, type SeedObject } from './objects.js';

/** The whole seed, in the order the objects come to exist (owners before what they own). */
export function gpuClusterSeed(c: SeedClock = seedClock()): SeedObject[] {
  const nodes = [
    gpuNode(c, 'gpu-a1', 'a'),
    gpuNode(c, 'gpu-a2', 'a'),
    gpuNode(c, 'gpu-a3', 'a'),
    gpuNode(c, 'gpu-b1', 'b'),
    gpuNode(c, 'gpu-b2', 'b'),
    gpuNode(c, 'gpu-b3', 'b', false),
    {
      apiVersion: 'v1',
      kind: 'Node',
      resource: 'nodes',
      metadata: {
        name: 'cpu-1',
        labels: {
          'kubernetes.io/hostname': 'cpu-1',
          'kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          'node.kubernetes.io/instance-type': 'n2-standard-32',
          'topology.kubernetes.io/region': 'us-east1',
          'topology.kubernetes.io/zone': 'us-east1-a',
        },
      },
      spec: {},
      statusOnCreate: true,
      status: nodeStatus(c, 'cpu-1', { cpu: '32', memory: '128Gi' }, true),
      patch: { spec: { taints: null } },
    } satisfies SeedObject,
  ];
  const workloads = [
    ...queues(c),
    ...jobset(c),
    ...pytorchJob(c, 'bert-finetune', 2, true, 100),
    ...pytorchJob(c, 'gpt-eval', 2, false, 900),
    ...leaderWorkerSet(c),
    ...research(c),
  ];
  return [...nodes, ...workloads, ...events(c, workloads)];
}

/** The API path of `o`'s collection. */
export function collectionPath(o: Pick<SeedObject, 'apiVersion' | 'resource'>, namespace?: string): string {
  const base = o.apiVersion.includes('/') ? `/apis/${o.apiVersion}` : `/api/${o.apiVersion}`;
  return `${base}${namespace ? `/namespaces/${namespace}` : ''}/${o.resource}`;
}

export function objectPath(o: SeedObject): string {
  return `${collectionPath(o, o.metadata.namespace)}/${o.metadata.name}`;
}

const MERGE = 'application/merge-patch+json';

function fillUids(value: unknown, uids: Map<string, string>): unknown {
  if (typeof value === 'string' && value.startsWith('@uid:')) {
    const uid = uids.get(value.slice(5));
    if (!uid) throw new Error(`the seed refers to ${value.slice(5)} before creating it`);
    return uid;
  }
  if (Array.isArray(value)) return value.map((v) => fillUids(v, uids));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillUids(v, uids)]));
  return value;
}

/** The object as sent: placeholders filled, the seed's own fields removed. */
export function seedBody(o: SeedObject, uids: Map<string, string>, withStatus: boolean): Json {
  const { resource: _r, status, statusOnCreate: _s, patch: _p, ...body } = o;
  return fillUids(withStatus && status ? { ...body, status } : body, uids) as Json;
}

/** Namespaces the seed uses (the real server's start.sh made them; the simulator needs them made). */
export async function ensureNamespaces(api: ApiClient): Promise<void> {
  for (const name of NAMESPACES)
    await api.must(
      'POST',
      '/api/v1/namespaces',
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
      undefined,
      [409],
    );
}

/** Creates every object, then sets its status through the status subresource, then its later patch. */
export async function applySeed(api: ApiClient, seed: SeedObject[]): Promise<Map<string, string>> {
  const uids = new Map<string, string>();
  for (const o of seed) {
    const created = await api.must<{ metadata: { uid: string } }>(
      'POST',
      collectionPath(o, o.metadata.namespace),
      seedBody(o, uids, o.statusOnCreate === true),
    );
    uids.set(`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, created.body.metadata.uid);
    if (o.status && !o.statusOnCreate)
      await api.must('PATCH', `${objectPath(o)}/status`, { status: fillUids(o.status, uids) }, MERGE);
    if (o.patch) await api.must('PATCH', objectPath(o), o.patch, MERGE);
  }
  return uids;
}

/** Everything a previous test left in the seed's kinds, deleted at once (no kubelet to wait for). */
export async function clearSeed(api: ApiClient, seed: SeedObject[]): Promise<void> {
  const kinds = new Map<string, SeedObject>();
  for (const o of seed) kinds.set(`${o.apiVersion}/${o.resource}`, o);
  const zero = { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, propagationPolicy: 'Background' };
  for (const o of kinds.values()) {
    const namespaced = o.metadata.namespace !== undefined;
    for (const ns of namespaced ? NAMESPACES : [undefined])
      await api.must('DELETE', collectionPath(o, ns), zero, undefined, [404]);
  }
  // Deletes of pods with a node return at once but may still be visible for a moment.
  for (const o of kinds.values()) {
    const namespaced = o.metadata.namespace !== undefined;
    for (const ns of namespaced ? NAMESPACES : [undefined]) {
      for (let i = 0; ; i++) {
        const r = await api.must<{ items: unknown[] }>('GET', collectionPath(o, ns));
        if (!r.body.items.length) break;
        if (i > 100) throw new Error(`${collectionPath(o, ns)} still lists ${r.body.items.length} objects`);
        await new Promise((res) => setTimeout(res, 100));
      }
    }
  }
}

/** The seed alone in its kinds: what earlier tests left cleared, then the seed applied (uids by kind/ns/name). */
export async function reseed(api: ApiClient, seed: SeedObject[] = gpuClusterSeed()): Promise<Map<string, string>> {
  await clearSeed(api, seed);
  return applySeed(api, seed);
}
