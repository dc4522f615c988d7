// What the engine is given and what it offers.
import type { Definition, DefinitionProblem } from '../definitions/types.js';
import type { ConnectionInfo } from '../model/types.js';
import type { ClusterStore, ClusterStoreOptions } from '../model/cluster-store.js';
import type { KubeTransport } from './client.js';
import type { PrometheusTarget } from './dcgm-scrape.js';
import type { ReflectorOptions } from './reflector.js';
import type { FlushHold } from './flush-scheduler.js';

/** What the engine needs of a definition set (src/definitions' DefinitionSet). */
export interface DefinitionSetLike {
  definitions: Definition[];
  problems: DefinitionProblem[];
  withCluster(objects: unknown[]): DefinitionSetLike;
}

/** The part of ClusterStore the engine drives. */
export type ModelStoreLike = Pick<
  ClusterStore,
  | 'setDefinitions'
  | 'setListingKinds'
  | 'apply'
  | 'flush'
  | 'workloads'
  | 'nodes'
  | 'totals'
  | 'getNodePods'
  | 'problems'
  | 'brokenDefinitions'
  | 'orphanPods'
> &
  Partial<
    Pick<
      ClusterStore,
      | 'podObjects'
      | 'podObject'
      | 'workloadObjects'
      | 'kueueTopologyLevels'
      | 'podsWithoutWorkload'
      | 'nextRestartExpiry'
    >
  >;

export interface EngineOptions {
  transport: KubeTransport;
  connection: Omit<ConnectionInfo, 'serverVersion'>;
  /** Namespace scope; null = all namespaces. */
  namespace: string | null;
  /** `-n` given more than once: each namespace listed on its own (namespace is then the first). */
  namespaces?: string[];
  /**
   * Where to read when a cluster-wide list is forbidden (the context's
   * namespace, or the `-n` ones): a namespace-scoped user's view.
   */
  fallbackNamespaces?: string[];
  /** The kubeconfig context's namespace: offered as readable when a `-n` namespace is not. */
  contextNamespace?: string;
  /** Built-in + file definitions; cluster Kartas are added by the engine. */
  definitions: DefinitionSetLike;
  gpuResources?: string[];
  /** dcgm-exporter pods' label selector (`--dcgm-selector`); default: the operator's and chart's labels. */
  dcgmSelector?: string;
  /** Read DCGM series from this Prometheus instead of the exporters (`--prometheus`). */
  prometheus?: PrometheusTarget;
  /** How long an allocated GPU must stay under 5 % to count as idle (`--idle-after`). */
  idleAfterMs?: number;
  /** `--topology-key`: the topology levels instead of the defaults (src/model/topology.ts). */
  topologyKeys?: string[];
  /** DCGM scrape interval (clamped to 5–15 s). */
  gpuScrapeIntervalMs?: number;
  /** Applied to the lists/watches of workload roots only (`wlx get -l`). */
  labelSelector?: string;
  /** false: list every kind once, no watches (`wlx get`). */
  watch?: boolean;
  /** `--protobuf`: read pods and nodes in Kubernetes protobuf where served (ReflectorOptions.wire); default 'json'. */
  wire?: 'json' | 'protobuf';
  /** Minimum time between two flushes. */
  flushIntervalMs?: number;
  /** Reflector tuning (tests shorten timeouts and back-off). */
  reflector?: Partial<
    Pick<
      ReflectorOptions,
      | 'pageSize'
      | 'watchTimeoutSeconds'
      | 'stallMarginMs'
      | 'backoff'
      | 'forbiddenRetryMs'
      | 'refusedBackoff'
      | 'listIdleTimeoutMs'
      | 'headersTimeoutMs'
    >
  >;
  /**
   * While held, watch events are applied but not flushed and the connection
   * reads 'syncing', not live (a synced engine of a shared worker waiting for
   * the others' first lists: src/app/worker/first-lists.ts).
   */
  flushHold?: FlushHold;
  /**
   * Also list workloads whose controller is another workload (a JobSet's
   * Jobs, a LeaderWorkerSet's StatefulSets). Default false: they are parts of
   * their parent's tree, not workloads of their own.
   */
  includeNested?: boolean;
  /** Store factory (tests); defaults to the model's ClusterStore with these options. */
  createStore?: (options: ClusterStoreOptions) => ModelStoreLike;
  /** The kubeconfig file the engine was opened with, when one was named (`--kubeconfig`, the demo's). */
  kubeconfigPath?: string;
  /** What the engine's opener hands over, released after the engine stops (its transport, the demo). */
  onStop?: () => Promise<void> | void;
}
