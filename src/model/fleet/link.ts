// MultiKueue across the fleet: a manager's job and its copy in the worker
// that runs it (same namespace and name; Kueue labels the copy with its
// origin), and, for a job still waiting on the manager, the workers it was
// copied to with what each worker's Kueue says. Pure: from each member's
// MultiKueueView (multikueue.ts) and workload list.
//
// A MultiKueueCluster name is a fleet context when, in this order: it is the
// context's name or its kubeconfig cluster's; it is one `-`/`_`/`.`/`:`/`/`
// separated word of exactly one context's name (`east` in `wlx-fleet-east`,
// `gke_proj_us-east1_east`); exactly one member holds a copy of the job's
// Workload adopted by a job (the running copy). wlx never reads the worker's
// kubeconfig Secret (it holds credentials).
import type { WorkloadTree } from '../types.js';
import type { FleetLinks, MultiKueueView, RemoteOrigin, RemoteRun, WorkerTry } from './types.js';

export interface FleetMemberModel {
  context: string;
  /** The kubeconfig cluster the context names. */
  clusterName?: string | null;
  multiKueue?: MultiKueueView;
  workloads: readonly Pick<WorkloadTree, 'uid' | 'namespace' | 'name' | 'kind' | 'apiVersion' | 'status'>[];
  /** Every kind listed once (absent: assumed): before that, a copy not seen may yet be there. */
  listed?: boolean;
}

export const EMPTY_LINKS: FleetLinks = { remote: new Map(), origin: new Map(), tried: new Map() };

export function fleetKey(context: string, uid: string): string {
  return `${context}\u0000${uid}`;
}

function words(name: string): string[] {
  return name.toLowerCase().split(/[-_.:/@]+/);
}

/** The fleet context a MultiKueueCluster name stands for, or null (see the file's comment). */
export function resolveWorker(
  worker: string,
  members: readonly FleetMemberModel[],
  copyHolder?: (m: FleetMemberModel) => boolean,
): string | null {
  const exact = members.find((m) => m.context === worker || m.clusterName === worker);
  if (exact) return exact.context;
  const w = worker.toLowerCase();
  const byWord = members.filter(
    (m) => words(m.context).includes(w) || (m.clusterName && words(m.clusterName).includes(w)),
  );
  if (byWord.length === 1) return byWord[0].context;
  if (copyHolder) {
    const holding = members.filter(copyHolder);
    if (holding.length === 1) return holding[0].context;
  }
  return null;
}

/** Links every manager job to its worker copy, and lists the workers a waiting job was tried on. */
export function linkFleet(members: readonly FleetMemberModel[]): FleetLinks {
  const remote = new Map<string, RemoteRun>();
  const origin = new Map<string, RemoteOrigin>();
  const tried = new Map<string, WorkerTry[]>();
  const byContext = new Map(members.map((m) => [m.context, m]));
  for (const manager of members) {
    const mk = manager.multiKueue;
    if (!mk?.dispatches.size) continue;
    const jobs = new Map(manager.workloads.map((w) => [w.uid, w]));
    for (const [jobUid, d] of mk.dispatches) {
      const job = jobs.get(jobUid);
      if (!job) continue;
      const copyKey = `${d.namespace}/${d.name}`;
      const copyIn = (m: FleetMemberModel) => m.multiKueue?.copies.get(copyKey);
      if (d.cluster) {
        const context = resolveWorker(d.cluster, members, (m) => m !== manager && !!copyIn(m)?.ownerUid);
        const member = context !== null ? byContext.get(context) : undefined;
        const copy = member ? copyIn(member) : undefined;
        // The job copy: the one that adopted the Workload copy, else the same kind, namespace and name.
        const tree =
          member?.workloads.find((w) => copy?.ownerUid && w.uid === copy.ownerUid) ??
          member?.workloads.find(
            (w) =>
              w.namespace === job.namespace &&
              w.name === job.name &&
              w.kind === job.kind &&
              w.apiVersion === job.apiVersion,
          );
        remote.set(fleetKey(manager.context, jobUid), {
          cluster: context,
          worker: d.cluster,
          namespace: job.namespace,
          name: job.name,
          uid: tree?.uid ?? null,
          status: tree ? [...tree.status] : null,
        });
        if (context !== null && tree)
          origin.set(fleetKey(context, tree.uid), {
            cluster: manager.context,
            origin: copy?.origin ?? '',
            namespace: job.namespace,
            name: job.name,
            uid: jobUid,
          });
        continue;
      }
      tried.set(
        fleetKey(manager.context, jobUid),
        d.candidates.map((worker) => {
          const context = resolveWorker(worker, members);
          const member = context !== null ? byContext.get(context) : undefined;
          const copy = member ? copyIn(member) : undefined;
          return {
            worker,
            cluster: context,
            state: copy?.state ?? null,
            message: copy?.message ?? null,
            ...(!copy && member?.listed === false ? { listing: true } : {}),
          };
        }),
      );
    }
  }
  // Copies whose manager is not in the fleet (or not linked): where they came from, as far as the label says.
  for (const worker of members) {
    for (const copy of worker.multiKueue?.copies.values() ?? []) {
      if (!copy.ownerUid || origin.has(fleetKey(worker.context, copy.ownerUid))) continue;
      origin.set(fleetKey(worker.context, copy.ownerUid), {
        cluster: null,
        origin: copy.origin,
        namespace: copy.namespace,
        name: worker.workloads.find((w) => w.uid === copy.ownerUid)?.name ?? copy.name,
        uid: null,
      });
    }
  }
  return remote.size || origin.size || tried.size ? { remote, origin, tried } : EMPTY_LINKS;
}
