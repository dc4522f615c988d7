// Plain data the model produces and the UI / CLI consume. `WorkloadTree`,
// `RoleTree`, `PodSummary` and `NodeSummary` are also the `wlx get -o json`
// contract (see README): change them only compatibly. Kept in one file (over
// 650 lines) so the whole contract reads, and changes, in one place.
// It imports no model implementation: the modules that compute these shapes
// (trouble.ts, gpu-overlay.ts, utilisation.ts, scheduling/, nodes-from-pods.ts)
// import them from here; a fleet's and MultiKueue's are in fleet/types.ts
// (which imports nothing).
import type { DefinitionSourceKind, StatusName, DefinitionProblem, Gvk } from '../definitions/types.js';
import type { ClusterSummary, FleetLinks, MultiKueueView } from './fleet/types.js';

/** Any Kubernetes object as plain JSON (trimmed on ingest, see src/kube/trim.ts). */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: Record<string, unknown> & object;
  status?: Record<string, unknown> & object;
  [key: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  [key: string]: unknown;
}

export interface ReplicaCounts {
  desired: number;
  current: number;
  ready: number;
}

export interface GpuCounts {
  desired: number;
  requested: number;
  allocated: number;
  /**
   * The GPU kinds its pods not in a terminal phase request that `requested` leaves out, by resource name: MIG
   * slices, time-sliced shares, GPUs outside `--gpu-resource`. A workload on MIG slices never reads as holding
   * no GPU. Absent when none.
   */
  slices?: Record<string, number>;
}

export interface PodSummary {
  namespace: string;
  name: string;
  /** The word kubectl prints: Running, Pending, ContainerCreating, CrashLoopBackOff, OOMKilled, ... */
  status: string;
  phase: string;
  ready: boolean;
  node: string | null;
  gpus: number;
  restarts: number;
  /** Why it is not running, e.g. Unschedulable, ImagePullBackOff; null when nothing to say. */
  reason: string | null;
  // Fields below are not part of the JSON contract's required set but are emitted too.
  uid: string;
  /** "1/2" style ready containers. */
  readyContainers: string;
  message: string | null;
  createdAt: string | null;
  /** ISO time of the last restart, when known. */
  lastRestartAt?: string | null;
  /** What a container last died of (OOMKilled, Error, …), when one failed. */
  lastFailure?: string | null;
  /** Set when a container restarted within RECENT_RESTART_MS (src/model/pod-status.ts) of the summary. */
  recentRestart?: true;
  /** GPUs requested by resource name (MIG, shared, AMD, Intel, `--gpu-resource`), DRA claims under `dra:<class>`. */
  gpuResources?: Record<string, number>;
  /** Of `gpuResources`, the kinds `gpus` does not count (MIG slices, time-sliced shares): see GpuCounts.slices. */
  gpuSlices?: Record<string, number>;
  /** GPUs of each of its named DRA claims (`namespace/name` → `dra:<class>` → count): a group counts a shared claim once. */
  draClaims?: Record<string, Record<string, number>>;
  /** Its cluster's context, in a fleet's merged lists (src/model/fleet/merge.ts). */
  cluster?: string;
}

/**
 * A pod whose owner is not visible (its kind forbidden or not served, or the
 * object absent: a namespace's pods dumped alone): shown, never dropped.
 * `owner` is the first object missing on its controller chain.
 */
export interface OrphanPod extends PodSummary {
  owner: { apiVersion: string; kind: string; name: string };
}

export interface RoleTree {
  component: string;
  instance: string | null;
  replica: string | null;
  replicas: ReplicaCounts;
  gpus: GpuCounts;
  nodes: string[];
  pods: PodSummary[];
  roles: RoleTree[];
}

export interface GangSummary {
  name: string;
  key: string;
  members: number;
  scheduled: number;
  ready: number;
  /** The gang scheduler whose PodGroup speaks for this gang (`wlx get -o json`; see src/model/scheduling/). */
  scheduler?: 'kai' | 'volcano' | 'workload-api';
  /** The PodGroup's own verdict: why it cannot be placed, else null. */
  message?: string | null;
}

export interface WorkloadTree {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  definition: string;
  definitionSource: DefinitionSourceKind;
  status: StatusName[];
  replicas: ReplicaCounts;
  gpus: GpuCounts;
  roles: RoleTree[];
  unattributedPods: PodSummary[];
  gangs: GangSummary[];
  // Not in the required contract, emitted too:
  createdAt: string | null;
  /** Condition/phase message explaining the status (e.g. the Failed condition's message). */
  statusMessage: string | null;
  /** Problems evaluating this workload's definition against it (which expression, what error). */
  errors: string[];
  /** Set when the workload's object is being deleted (deletionTimestamp): its status reads Terminating. */
  terminating?: true;
  /**
   * Set when the tree's pods stayed in the engine worker (the UI thread holds
   * only the pods its views draw: src/app/worker/README.md "Pod scope"): its
   * pod lists are empty and these are what the workloads list reads of them.
   */
  podsElided?: ElidedPods;
  /** Its cluster's context, in a fleet's merged lists (src/model/fleet/merge.ts). */
  cluster?: string;
}

/** What the workloads list reads of a tree's pods when they are not sent (src/model/elided-pods.ts). */
export interface ElidedPods {
  /** How many pods the tree holds. */
  pods: number;
  /** The nodes they are bound to, each once. */
  nodes: string[];
  trouble: WorkloadTrouble;
  /** The GPU overlay against the snapshot's gpuMetrics (absent without metrics). */
  gpu?: GroupGpu;
}

export interface NodeSummary {
  name: string;
  ready: boolean;
  gpuCapacity: number;
  gpuAllocatable: number;
  gpuRequested: number;
  pods: number;
  // Not in the required contract, emitted too:
  unschedulable: boolean;
  conditions: { type: string; status: string; reason?: string; message?: string }[];
  taints: { key: string; value?: string; effect: string }[];
  labels: Record<string, string>;
  createdAt: string | null;
  /** Workloads with pods on this node, as `namespace/name`. */
  workloads: string[];
  /** `nvidia.com/gpu.product` or the AMD / Intel equivalent label; null when unlabelled. */
  gpuModel?: string | null;
  /** Each GPU resource kind by name (MIG profiles, shared, AMD, Intel, DRA `dra:<class>`). */
  gpuResources?: Record<string, { capacity: number; allocatable: number; requested: number }>;
  /** Its cluster's context, in a fleet's merged lists (src/model/fleet/merge.ts). */
  cluster?: string;
}

export interface ClusterTotals {
  gpuCapacity: number;
  gpuAllocatable: number;
  gpuRequested: number;
  gpuFree: number;
  /** GPUs requested by pods that are not bound to a node yet. */
  gpuPending: number;
  pods: number;
  nodes: number;
  /** Each GPU resource kind over the nodes (NodeSummary.gpuResources summed); absent unless there are two kinds or more. */
  byResource?: Record<string, { capacity: number; allocatable: number; requested: number }>;
}

/** Live state of one watched kind, for the header and `:defs`. */
export interface KindState {
  gvk: Gvk;
  resource: string;
  /** Short names the server publishes for the kind (`lws`): the explorer's `:TYPE` commands take them. */
  shortNames?: string[];
  state: 'syncing' | 'live' | 'reconnecting' | 'forbidden' | 'not-served' | 'error';
  since: string; // ISO time of the last state change
  message?: string;
  count: number;
  /** Why the last request failed, while it is retried (credential-free). */
  cause?: ConnectionCause;
  /** ISO time of the next attempt while retrying. */
  retryAt?: string;
}

/** Why the server could not be used, classified once (src/kube/client.ts describeFailure). */
export interface ConnectionCause {
  /** `kubeconfig`: the context's kubeconfig entry cannot be used (a fleet member that never opened). */
  kind: 'unreachable' | 'tls' | 'unauthorized' | 'forbidden' | 'credentials' | 'stalled' | 'server' | 'kubeconfig';
  /** Short and free of credentials, e.g. "connection refused". */
  text: string;
}

/**
 * The connection to the cluster summarised once from every kind (and from
 * discovery before any kind is watched): one state, one cause, one retry time.
 */
export interface ClusterConnection {
  /** connecting: nothing answered yet; retrying: failing, retried with back-off. */
  state: 'connecting' | 'syncing' | 'live' | 'retrying';
  cause?: ConnectionCause;
  /** ISO time of the earliest next attempt while retrying. */
  retryAt?: string;
  /** ISO time the current state began (the first failure while retrying). */
  since: string;
  /** Kinds that have completed their first list, of all watched. */
  synced: number;
  total: number;
  /** Kinds failing while others are live (empty when all fail). */
  failing: string[];
  /** Kinds answered 403 while the rest works. */
  forbidden: string[];
}

/** One line of the `:problems` view. */
export interface ProblemEntry {
  /** Where it comes from: connection, access, GPU metrics, forbidden, definition, watch, model, served version, … */
  source: string;
  text: string;
  /** ISO time it was first seen (it still holds). */
  since: string;
  /** 'fact': true and worth knowing, not wrong (a served older version): `:problems` and `wlx get -v` only. */
  level: 'problem' | 'fact';
}

export interface DefinitionInfo {
  name: string;
  kind: string; // group/version/Kind
  source: DefinitionSourceKind;
  location: string;
  valid: boolean;
  workloads: number;
  problems: DefinitionProblem[];
}

/** Where a pod on a node belongs, for the node view. */
export interface NodePodEntry {
  pod: PodSummary;
  workload: { kind: string; namespace: string; name: string; uid: string } | null;
}

export interface ModelSnapshot {
  /** Increases on every change batch. */
  version: number;
  workloads: WorkloadTree[];
  nodes: NodeSummary[];
  totals: ClusterTotals;
  kinds: KindState[];
  connection: ClusterConnection;
  definitions: DefinitionInfo[];
  /** Load/evaluation problems to show in the flash line (each also in problemEntries). */
  problems: string[];
  /**
   * Every problem with its source and since when, and the facts worth knowing
   * that are not problems (a kind watched at an older served version): the
   * `:problems` view and `wlx get -v`. Absent: none known (offline, tests).
   */
  problemEntries?: ProblemEntry[];
  /** uids of workloads whose tree changed in the last batch (for row highlighting). */
  changedWorkloads: string[];
  /** Pods whose owner is not visible, by namespace and name (see OrphanPod). */
  orphanPods: OrphanPod[];
  /**
   * Pods no defined workload holds (a DaemonSet's, orphans), by namespace and
   * name: with the trees, what a node's pod list is made of (pods-on-node.ts).
   */
  podsWithoutWorkload?: PodSummary[];
  /** Queues and gang verdicts per workload, ClusterQueues (src/model/scheduling/); absent: none known. */
  scheduling?: SchedulingView;
  /** What the user may read; absent: everything (offline, tests). */
  access?: AccessScope;
  /**
   * Set when node objects cannot be read: the nodes as the pods see them
   * (src/model/nodes-from-pods.ts), capacity unknown.
   */
  podNodes?: PodNode[];
  /** Set when cluster-wide lists were forbidden and namespaces are read instead: the one notice (also first in problems). */
  accessNotice?: string;
  /**
   * GPU readings from dcgm-exporter (src/model/gpu-overlay.ts rolls them up):
   * an overlay, not in the trees, since readings change every scrape. Absent:
   * never scraped (offline, or no view showing GPUs has asked yet).
   */
  gpuMetrics?: GpuMetrics;
  /**
   * Which trees carry their pods (absent: all): the engine worker sends only
   * the pods the UI's views draw (PodScope); the other trees are `podsElided`,
   * and without 'all' `podsWithoutWorkload` is not sent.
   */
  podScope?: PodScope;
  /** Each Kueue Topology's node labels, most general first (zone, rack, hostname); absent or empty: none served. */
  topologyLevels?: string[][];
  /** The topology label keys in effect, most general first (src/model/topology.ts `topologyKeysInEffect`). */
  topologyKeys?: readonly string[];
  /** Kueue MultiKueue as this cluster sees it (src/model/fleet/multikueue.ts); absent: none. */
  multiKueue?: MultiKueueView;
  /** Set on the merged snapshot of several clusters: each member's own, and the links between them. */
  fleet?: FleetView;
}

/** Whose pods a snapshot carries: every tree's and the pods without a workload, or these workloads' (uids). */
export type PodScope = 'all' | { workloads: readonly string[] };

/** The last DCGM scrape as the views and `wlx get` read it. */
export interface GpuMetrics {
  readings: ReadingIndex;
  /** Why metrics are missing, wholly or in part; null when all is well. */
  notice: { kind: 'no-exporter' | 'forbidden' | 'failed'; text: string } | null;
  /** When the last scrape round ended (ms). */
  scrapedAt: number;
  idle: IdleRule;
}

/** What the user may read: the `access` of `wlx get -o json` and the header's notice. */
export interface AccessScope {
  clusterWide: boolean;
  /** Namespaces read one by one (the fallback, or `-n` given several times); empty: all, or the one `-n`. */
  namespaces: string[];
  /** Resources still forbidden (cluster-scoped kinds, or a namespace's kind). */
  forbidden: string[];
  /** `-n`'s namespaces where every kind answered 403 (src/model/namespace-access.ts); absent: none. */
  unreadable?: string[];
  /** The user the server's 403s name (`User "researcher" cannot …`); absent: none named. */
  user?: string;
  /** With `unreadable`: the namespaces that did answer (`-n`'s others, the context's). */
  readable?: string[];
  /** Set when pods could not be listed cluster-wide: the namespaces whose pods the nodes' requests count. */
  podsIn?: string[];
}

/** A namespace's answer to a list (ObjectAccess.namespaceReadable). */
export interface NamespaceReadable {
  readable: boolean | null;
  /** The user a 403 names. */
  user: string | null;
}

export interface ConnectionInfo {
  context: string;
  cluster: string;
  user: string;
  server: string;
  /** e.g. v1.32.0; null until /version answered. */
  serverVersion: string | null;
  /** Namespace scope: a name, or null for all namespaces. */
  namespace: string | null;
}

// ---- pods in trouble (trouble.ts)

export type TroubleSeverity = 'error' | 'warn';

export interface TroubleCount {
  /** OOMKilled, CrashLoopBackOff, ImagePullBackOff, Unschedulable, … */
  reason: string;
  pods: number;
  severity: TroubleSeverity;
}

export interface WorkloadTrouble {
  /** The worst of the counts; null when no pod is in trouble. */
  severity: TroubleSeverity | null;
  /** Most severe first, then most pods. */
  counts: TroubleCount[];
  /** Restarts of the pods in trouble. */
  restarts: number;
}

// ---- GPU utilisation (utilisation.ts, gpu-overlay.ts)

/** A role's or workload's utilisation, its idle GPUs and its stragglers. */
export interface GroupGpu {
  /** Mean over the group's GPUs (each once); null when none reports. */
  utilisation: number | null;
  /**
   * Idle GPUs; null when not known: no metrics, a running pod with GPUs and
   * no reading, or a GPU low for less than the idle window since first seen
   * (one DCGM scrape cannot tell; Prometheus' window can).
   */
  idle: number | null;
  idleForMs: number | null;
  stragglers: Straggler[];
  /** The least busy pod ("min rank": the one to look at first); null when none reports. */
  lowest: PodUtilisationEntry | null;
  /** Summed over the GPUs that report power; null when none does. */
  powerWatts: number | null;
  /** GPUs whose last XID error is not 0; null without metrics. */
  xidErrors: number | null;
}

/** A pod a GPU is assigned to, as the exporter's pod mapping names it. */
export interface GpuPodRef {
  namespace: string;
  name: string;
  container: string | null;
}

/** One GPU (or MIG instance) as last scraped, with how long it has been under the idle threshold. */
export interface GpuReading {
  /** `node/UUID`, `/GPU_I_ID` appended for a MIG instance: one key per device for as long as it exists. */
  key: string;
  node: string | null;
  uuid: string | null;
  /** The exporter's `gpu` label (the device index on its node). */
  index: string | null;
  model: string | null;
  /** MIG profile (`1g.10gb`) and GPU instance id when this is a MIG instance. */
  migProfile: string | null;
  migInstance: string | null;
  /** 0–100. */
  utilisation: number | null;
  memoryUsedBytes: number | null;
  /** Used + free (+ reserved when the exporter reports it). */
  memoryTotalBytes: number | null;
  powerWatts: number | null;
  /** The last XID error the driver reported (0: none since the exporter started). */
  xid: number | null;
  /** Pods the GPU is assigned to (several for a time-sliced GPU; none for a free one). */
  pods: GpuPodRef[];
  /** When it was scraped (ms). */
  at: number;
  /**
   * Since when (ms) every scrape has read it under the idle threshold, or null
   * when the last one did not (or none said).
   */
  lowSince: number | null;
  /**
   * Since when (ms) its utilisation is known without a break: the first
   * scrape of it (DCGM), or the start of Prometheus' window when the series
   * covers it; null when not known. A GPU low since it was first seen, for
   * less than the idle window, may or may not be idle: unknown, not idle.
   */
  coveredSince: number | null;
}

export interface IdleRule {
  /** Utilisation under this (%) counts as idle. */
  thresholdPercent: number;
  /** …for at least this long, in scrapes (`--idle-after`). */
  windowMs: number;
}

/** Readings by the pods they are assigned to (a shared GPU under each of its pods) and by node. */
export interface ReadingIndex {
  byPod: Map<string, GpuReading[]>;
  byNode: Map<string, GpuReading[]>;
}

/** One pod of a group (a role with its sub-roles, a workload) and its utilisation. */
export interface PodUtilisationEntry<P = string> {
  /** `namespace/name` (or the pod itself, keyed only when it is reported: see groupGpu). */
  pod: P;
  utilisation: number | null;
}

export interface Straggler<P = string> extends PodUtilisationEntry<P> {
  utilisation: number;
  median: number;
}

// ---- nodes as the pods see them (nodes-from-pods.ts)

export interface PodNode {
  name: string;
  /** GPUs requested by the non-terminal pods seen on it. */
  gpuRequested: number;
  pods: number;
  /** Workloads with pods on it, as `namespace/name`. */
  workloads: string[];
}

// ---- queues and gang schedulers (scheduling/)

export type QueueSystem = 'kueue' | 'kai' | 'volcano';

/** `workloads[].queue` of `wlx get -o json` (README contract). */
export interface WorkloadQueue {
  system: QueueSystem;
  /** The LocalQueue (Kueue) or the scheduler's queue. */
  name: string | null;
  clusterQueue: string | null;
  /** Kueue: Pending | QuotaReserved | Admitted | Evicted | Preempted | Finished; others: the PodGroup phase. */
  state: string;
  /** 0-based within the ClusterQueue (Kueue's own number; screens show positionText's); null when not pending or unknown. */
  position: number | null;
  reason: string | null;
  message: string | null;
}

export type GangScheduler = 'kai' | 'volcano' | 'workload-api';

/** A PodGroup's own verdict (KAI, Volcano) or a Workload API pod group's policy. */
export interface GangVerdict {
  scheduler: GangScheduler;
  name: string;
  minMember: number;
  /** Members the scheduler counts as running (Volcano/KAI status.running), else null. */
  running: number | null;
  phase: string | null;
  reason: string | null;
  message: string | null;
  queue: string | null;
  /** The scheduler queue's GPU quota and usage, when its Queue object is readable. */
  queueGpu: { quota: number | null; usage: number | null } | null;
}

export interface TimedCondition {
  type: string;
  status: string;
  reason: string | null;
  message: string | null;
  at: string | null;
}

/** `insufficient unused quota for nvidia.com/gpu in flavor h100, 4 more needed`. */
export interface QuotaShortfall {
  resource: string;
  flavor: string | null;
  /** How much more is needed, as the message says it (a quantity); null when it does not say. */
  more: string | null;
}

/** One (flavor, GPU resource) of a ClusterQueue. */
export interface FlavorQuota {
  flavor: string;
  resource: string;
  nominal: number;
  /** null: no limit (in a cohort) or no cohort. */
  borrowingLimit: number | null;
  usage: number;
  borrowed: number;
}

export interface ClusterQueueSummary {
  name: string;
  cohort: string | null;
  gpu: FlavorQuota[];
  pending: number;
  admitted: number;
  reserving: number;
}

/** A pending Kueue workload in line (the `:queues` drill-down). */
export interface PendingEntry {
  /** The Kueue Workload's namespace/name. */
  namespace: string;
  name: string;
  /** The wlx workload (its owner), when it is one. */
  ownerUid: string | null;
  ownerName: string | null;
  localQueue: string | null;
  clusterQueue: string;
  positionInClusterQueue: number | null;
  positionInLocalQueue: number | null;
  /** Whole GPUs asked, and the other GPU kinds by name beside them (as GpuCounts.slices). */
  gpus: number;
  gpuSlices?: Record<string, number>;
  since: string | null;
}

/** Everything the why-panel says about a Kueue-held workload. */
export interface QueueFacts {
  queue: WorkloadQueue;
  positionInLocalQueue: number | null;
  /** Positions cannot be had (visibility API forbidden or not served): a null one is unknown, not being fetched. */
  positionsUnavailable: boolean;
  kueueWorkload: string;
  queuedSince: string | null;
  /** Whole GPUs asked, and the other GPU kinds by name beside them (as GpuCounts.slices). */
  gpusAsked: number;
  gpuSlicesAsked?: Record<string, number>;
  shortfalls: QuotaShortfall[];
  clusterQueue: ClusterQueueSummary | null;
  admissionChecks: { name: string; state: string; message: string | null }[];
  /** Evicted / Preempted / Requeued conditions, newest last. */
  history: TimedCondition[];
  /** queued → quota reserved → admitted (ISO times or null). */
  steps: { label: 'queued' | 'quota reserved' | 'admitted'; at: string | null }[];
}

/** One item of the visibility API's pendingworkloads list. */
export interface PendingPosition {
  namespace: string;
  name: string;
  localQueue: string | null;
  positionInClusterQueue: number | null;
  positionInLocalQueue: number | null;
}

export interface SchedulingView {
  /** Per wlx workload uid. */
  queues: ReadonlyMap<string, WorkloadQueue>;
  gangs: ReadonlyMap<string, GangVerdict[]>;
  clusterQueues: ClusterQueueSummary[];
  /** Per ClusterQueue, its pending workloads in line (see pendingIn). */
  pending: ReadonlyMap<string, PendingEntry[]>;
  /** Per wlx workload uid held by Kueue: the why-panel's facts. */
  facts: ReadonlyMap<string, QueueFacts>;
  /** Whether any queue or gang kind holds objects (the QUEUE column shows only then). */
  active: boolean;
  /** Why Kueue's positions cannot be had (visibility API forbidden or not served); absent: asked, or to be. */
  positionsUnavailable?: string;
}

// ---- discovery (src/kube/discovery.ts)

/** What discovery says of a served kind. */
export interface ResourceInfo {
  gvk: Gvk;
  /** Plural resource name, e.g. `jobsets`. */
  resource: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
}

// ---- fleets (fleet/merge.ts)

/** One cluster of a fleet: its own snapshot and its summary line. */
export interface FleetMember {
  context: string;
  /** The kubeconfig cluster the context names (MultiKueue worker names are matched against it too). */
  clusterName?: string | null;
  /** The kubeconfig user the context names (a plugin's $USER on its rows). */
  user?: string | null;
  /** null: never connected (its summary says why). */
  snapshot: ModelSnapshot | null;
  summary: ClusterSummary;
}

/** `ModelSnapshot.fleet`: set when more than one cluster is shown. */
export interface FleetView {
  members: readonly FleetMember[];
  links: FleetLinks;
}
