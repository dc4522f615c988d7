// The one contract between a cluster's model and what reads it (the
// explorer's views, `wlx get`): the cluster engine in this thread
// (src/kube/engine.ts), the engine worker's mirror on the UI thread
// (src/app/worker/worker-source.ts), or a test's in-memory source.
import type { Definition } from '../definitions/types.js';
import type {
  ConnectionInfo,
  KubeObject,
  ModelSnapshot,
  NamespaceReadable,
  NodePodEntry,
  PodScope,
  ResourceInfo,
} from './types.js';

export interface ModelSource {
  getSnapshot(): ModelSnapshot;
  /** Called after each coalesced batch of watch events; returns an unsubscribe function. */
  subscribe(listener: (snapshot: ModelSnapshot) => void): () => void;
  /** Pods bound to a node, with the workload each belongs to (unowned pods too). */
  getNodePods(nodeName: string): NodePodEntry[];
  getConnectionInfo(): ConnectionInfo;
  /** On-demand reads (fresh objects, events, logs) for the incident views; absent where no cluster can be asked. */
  access?: ObjectAccess;
  /** Resolves when every kind has been listed once (or found forbidden / not served) and the trees are built. */
  whenSynced(): Promise<void>;
  /** The definitions in effect (built-in, files, and the cluster's Kartas once listed). */
  definitions(): Definition[];
  /** What discovery said of each watched kind (plural, short names such as `lws`). */
  resources(): ResourceInfo[];
  /** Keep queue positions fresh while a view shows them; returns the release. */
  holdQueuePositions(): () => void;
  /** Asks Kueue's visibility API for queue positions once and flushes (`wlx get`). */
  refreshQueuePositions(): Promise<void>;
  /** Scrape GPU metrics while a view that shows them is open; returns the release. */
  holdGpuMetrics(): () => void;
  /** Scrapes the dcgm-exporters (or queries Prometheus) once and flushes (`wlx get`). */
  scrapeGpuMetrics(): Promise<void>;
  /**
   * Whose pods the views draw: a source that can leave the others out of its
   * snapshots (the engine worker's) sends only these; others ignore it.
   */
  setPodScope(scope: PodScope): void;
  /** The kubeconfig file in use when one was named (`--kubeconfig`, the demo's); undefined: kubectl's defaults. */
  kubeconfigPath(): string | undefined;
  /** Stops watches and what the source was opened with (its transport, the demo). Idempotent. */
  stop(): Promise<void>;
  /**
   * A fleet's (src/app/fleet.ts) cluster by context: that cluster's own
   * source, which the views of one cluster read; absent on a single cluster.
   */
  member?(context: string): ModelSource | undefined;
}

/** Which object to read: apiVersion/kind as in ownerReferences. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string | null;
  name: string;
}

export interface LogOptions {
  container?: string;
  follow?: boolean;
  previous?: boolean;
  timestamps?: boolean;
  tailLines?: number;
  signal?: AbortSignal;
}

/**
 * Read-only on-demand access to the cluster (src/kube/access.ts): GETs through
 * the same transport and auth as the watches. Everything returned is raw
 * cluster text: sanitise before display.
 */
export interface ObjectAccess {
  /** The whole object, fetched fresh (the model keeps trimmed copies). */
  getObject(ref: ObjectRef): Promise<KubeObject>;
  /** Pods of a namespace, whole. */
  listPods(namespace: string): Promise<KubeObject[]>;
  /** core/v1 Events of a namespace (null = all) whose involvedObject uid or name (with kind) is in the filter; no filter = all. */
  listEvents(
    namespace: string | null,
    filter?: { uids?: readonly string[]; names?: readonly { kind: string; name: string }[] },
  ): Promise<KubeObject[]>;
  /** Every namespace (GET /api/v1/namespaces); throws when the user may not list them. Absent: not offered. */
  listNamespaces?(): Promise<KubeObject[]>;
  /** Streams a container's log lines to onLine; resolves when the stream ends or is aborted. */
  streamLogs(namespace: string, pod: string, options: LogOptions, onLine: (line: string) => void): Promise<void>;
  /**
   * Whether the user may list a namespace's pods (one GET of at most one pod):
   * null when the server could not say (unreachable, another error).
   */
  namespaceReadable?(namespace: string): Promise<NamespaceReadable>;
}
