// The DCGM overlay read against the trees: utilisation of a pod, a role, a
// workload, a node and the cluster from ModelSnapshot.gpuMetrics. Readings
// change every scrape, so they are joined here, by pod key, when a view or
// `wlx get` asks, never stored in the trees. No metrics: every figure null.
import type {
  GpuMetrics,
  NodeSummary,
  PodSummary,
  RoleTree,
  WorkloadTree,
  GroupGpu,
  GpuReading,
  Straggler,
} from './types.js';
import { rolePods, treePods } from './tree-pods.js';
import {
  clusterUtilisation,
  groupUtilisationOf,
  podKeyOf,
  podReadings,
  rollupGpus,
  stragglers,
  type GpuRollup,
  type PodReadings,
} from './utilisation.js';

/** A pod's GPUs as last scraped; null without metrics or when no GPU of it reports. */
export function podGpuRollup(
  metrics: GpuMetrics | undefined,
  pod: Pick<PodSummary, 'namespace' | 'name'>,
): GpuRollup | null {
  if (!metrics) return null;
  const readings = metrics.readings.byPod.get(podKeyOf(pod));
  return readings?.length ? rollupGpus(readings, metrics.scrapedAt, metrics.idle) : null;
}

const NO_GROUP: GroupGpu = {
  utilisation: null,
  idle: null,
  idleForMs: null,
  stragglers: [],
  lowest: null,
  powerWatts: null,
  xidErrors: null,
};

function holdsGpus(pod: PodSummary): boolean {
  if (pod.gpus > 0) return true;
  for (const _ in pod.gpuResources ?? {}) return true;
  return false;
}

/** A pod's readings; no key is made when nothing reports (a cluster without exporters). */
function readPod(metrics: GpuMetrics, pod: PodSummary): PodReadings<PodSummary> {
  const byPod = metrics.readings.byPod;
  return podReadings(pod, byPod.size ? byPod.get(podKeyOf(pod)) : undefined, metrics.scrapedAt, metrics.idle);
}

/** A running pod holding GPUs that no reading names: what its GPUs do is not known. */
function unreadGpuPod(read: PodReadings<PodSummary>): boolean {
  const pod = read.pod;
  return pod.phase === 'Running' && read.readings.length === 0 && holdsGpus(pod);
}

/**
 * Over `pods`; stragglers are judged within each role (`byRole`), since
 * ranks of one role do the same work and a launcher beside its workers does not.
 */
export function groupGpu(
  metrics: GpuMetrics | undefined,
  pods: readonly PodSummary[],
  byRole: readonly (readonly PodSummary[])[] = [pods],
): GroupGpu {
  if (!metrics) return NO_GROUP;
  // Nothing reports: no utilisation and no straggler; only whether a running GPU pod goes unread counts, and one says it.
  if (metrics.readings.byPod.size === 0) {
    const unreadPod = pods.find((p) => p.phase === 'Running' && holdsGpus(p));
    if (pods.length > 1 || byRole.length) return groupGpu(metrics, unreadPod ? [unreadPod] : [], []);
  }
  // Each pod read once, and keyed only when it is named in the result: this runs per changed workload under churn.
  const read = new Map<PodSummary, PodReadings<PodSummary>>();
  let unread = false;
  for (const p of pods) {
    const r = readPod(metrics, p);
    read.set(p, r);
    if (!unread && unreadGpuPod(r)) unread = true;
  }
  const u = groupUtilisationOf([...read.values()], metrics.scrapedAt, metrics.idle);
  const slow: Straggler[] = [];
  for (const rolePodList of byRole) {
    const entries = rolePodList.map((p) => {
      const r = read.get(p) ?? readPod(metrics, p);
      return { pod: p, utilisation: r.rollup?.utilisation ?? null };
    });
    for (const s of stragglers(entries)) slow.push({ ...s, pod: podKeyOf(s.pod) });
  }
  return {
    utilisation: u.utilisation,
    idle: unread ? null : u.idle,
    idleForMs: unread ? null : u.idleForMs,
    stragglers: slow,
    lowest: u.lowest && { pod: podKeyOf(u.lowest.pod), utilisation: u.lowest.utilisation },
    powerWatts: u.powerWatts,
    xidErrors: u.xidErrors,
  };
}

/** The leaf roles' pod lists of a role (where stragglers are judged). */
function leafRolePods(role: RoleTree, out: PodSummary[][]): void {
  if (role.pods.length) out.push(role.pods);
  for (const r of role.roles) leafRolePods(r, out);
}

export function roleGpu(metrics: GpuMetrics | undefined, role: RoleTree): GroupGpu {
  const leaves: PodSummary[][] = [];
  leafRolePods(role, leaves);
  return groupGpu(metrics, rolePods(role), leaves);
}

export function workloadGpu(metrics: GpuMetrics | undefined, w: WorkloadTree): GroupGpu {
  // A tree sent without its pods carries its overlay, computed by this function in the engine worker.
  if (w.podsElided) return metrics ? (w.podsElided.gpu ?? NO_GROUP) : NO_GROUP;
  const leaves: PodSummary[][] = [];
  for (const r of w.roles) leafRolePods(r, leaves);
  return groupGpu(metrics, treePods(w), leaves);
}

export function nodeGpuUtilisation(metrics: GpuMetrics | undefined, node: Pick<NodeSummary, 'name'>): number | null {
  if (!metrics) return null;
  const readings = metrics.readings.byNode.get(node.name);
  return readings?.length ? rollupGpus(readings, metrics.scrapedAt, metrics.idle).utilisation : null;
}

/** Mean over every GPU that reports (the header). */
export function clusterGpuUtilisation(metrics: GpuMetrics | undefined): number | null {
  if (!metrics) return null;
  const all = new Set<GpuReading>();
  for (const list of metrics.readings.byNode.values()) for (const r of list) all.add(r);
  for (const list of metrics.readings.byPod.values()) for (const r of list) all.add(r);
  return clusterUtilisation(all);
}
