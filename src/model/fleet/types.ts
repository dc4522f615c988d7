// The shapes of a fleet and of Kueue's MultiKueue, as plain data: a
// cluster's summary line (summary.ts), what one cluster's Kueue says of
// MultiKueue (multikueue.ts) and the links between clusters (link.ts). They
// import nothing, so model/types.ts (ModelSnapshot.fleet, .multiKueue) and the
// modules computing them both import from here without a cycle.

/**
 * A fleet member's connection, in the words of `wlx get -o json` `clusters[].state`;
 * `invalid`: its kubeconfig entry cannot be used (never a request sent).
 */
export type FleetState = 'live' | 'connecting' | 'unreachable' | 'unauthorized' | 'forbidden' | 'invalid';

export interface ModelGpus {
  allocatable: number;
  requested: number;
  free: number;
}

export interface ClusterSummary {
  context: string;
  server: string | null;
  version: string | null;
  state: FleetState;
  /** Why it is not live (credential-free), else null. */
  error: string | null;
  /** null: not known (not connected, or node objects not readable). */
  nodes: { ready: number; total: number } | null;
  gpus: {
    allocatable: number | null;
    requested: number;
    free: number | null;
    pending: number;
    byModel: Record<string, ModelGpus>;
  } | null;
  /** Mean GPU utilisation 0–100 over the GPUs that report; null without readings. */
  utilization: number | null;
  /** Workloads holding each status word (a workload counts once per word). */
  workloads: Record<string, number>;
  problems: string[];
}

/** A worker as the manager's MultiKueueCluster describes it. */
export interface MultiKueueWorker {
  name: string;
  /** Where the manager's kubeconfig for it is: a Secret's name or a path (v1beta2 spec.clusterSource.kubeConfig, v1beta1 spec.kubeConfig). */
  kubeconfig: { location: string; locationType: string } | null;
  /** A ClusterProfile instead of a kubeconfig (v1beta2). */
  clusterProfile: string | null;
  /** Condition Active: true connected, false not, null unknown. */
  active: boolean | null;
  message: string | null;
}

/** A manager's Kueue Workload under a MultiKueue check. */
export interface MultiKueueDispatch {
  /** The Kueue Workload. */
  namespace: string;
  name: string;
  /** The job it stands for (its controller owner), when known. */
  ownerUid: string | null;
  check: { name: string; state: string; message: string | null };
  /** The worker it runs on; null while no worker has admitted it. */
  cluster: string | null;
  /** Where `cluster` was read: Workload status.clusterName, or the check's message (older Kueue). */
  via: 'clusterName' | 'message' | null;
  /** Workers it was copied to (status.nominatedClusterNames), else those its MultiKueueConfig lists. */
  candidates: string[];
}

/** A Workload a manager copied here (worker side). */
export interface MultiKueueCopy {
  namespace: string;
  name: string;
  /** The origin label's value: the manager's origin name. */
  origin: string;
  /** The job copy that adopted it (controller owner), when there is one yet. */
  ownerUid: string | null;
  /** Kueue's state of the copy (scheduling/kueue.ts kueueState: Pending until this worker reserves quota); why, while Pending. */
  state: string;
  message: string | null;
}

export interface MultiKueueView {
  /** The MultiKueueClusters (manager side), by name. */
  workers: MultiKueueWorker[];
  /** Per job uid (the Kueue Workload's owner) on a manager: where it was dispatched. */
  dispatches: ReadonlyMap<string, MultiKueueDispatch>;
  /** Per `namespace/name` of the Kueue Workload, the copies a manager made here. */
  copies: ReadonlyMap<string, MultiKueueCopy>;
}

/** Where a manager's job runs (`remote` of `wlx get -o json`). */
export interface RemoteRun {
  /** The worker's context when it is in the fleet, else null. */
  cluster: string | null;
  /** The MultiKueueCluster's name. */
  worker: string;
  namespace: string;
  name: string;
  /** The job copy's uid in the worker (null: not seen). */
  uid: string | null;
  /** The copy's status words (null: not seen). */
  status: string[] | null;
}

/** Where a worker's copy came from. */
export interface RemoteOrigin {
  /** The manager's context when it is in the fleet, else null. */
  cluster: string | null;
  /** The origin label's value. */
  origin: string;
  namespace: string;
  name: string;
  /** The manager's job uid (null: the manager is not in the fleet). */
  uid: string | null;
}

/** A worker a waiting job was copied to, and what its Kueue says. */
export interface WorkerTry {
  worker: string;
  cluster: string | null;
  /** The copy's Kueue state; null when not seen (worker not in the fleet, not listed yet, or no copy there). */
  state: MultiKueueCopy['state'] | null;
  /** The worker is in the fleet but not listed yet: a copy not seen may yet be there. */
  listing?: boolean;
  message: string | null;
}

export interface FleetLinks {
  /** Per `fleetKey(manager context, job uid)`. */
  remote: ReadonlyMap<string, RemoteRun>;
  /** Per `fleetKey(worker context, copy uid)`. */
  origin: ReadonlyMap<string, RemoteOrigin>;
  /** Per `fleetKey(manager context, job uid)` of a job no worker has admitted yet. */
  tried: ReadonlyMap<string, WorkerTry[]>;
}
