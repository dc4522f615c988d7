// The cluster options `wlx` (the TUI) and `wlx get` share, and opening a live
// ModelSource over them.
//
// Namespace scope: like k9s (not kubectl), wlx shows ALL namespaces unless
// `-n NS` is given (repeatable: `-n a -n b`); `-A` says so explicitly. The
// context's namespace is not a filter (AI workloads of one team often span
// namespaces), but it is where wlx reads when cluster-wide lists are
// forbidden (a namespace-scoped user), unless `-n` names the namespaces.
import type { ModelSource, ObjectAccess } from '../model/types.js';
import type { ClusterEngine } from '../kube/engine-types.js';
import type { HttpKubeTransport } from '../kube/client.js';
import type { Definition } from '../definitions/types.js';
import type { ResourceInfo } from '../kube/discovery.js';
import { UsageError } from './usage.js';
import { parseLabelSelector } from '../kube/selector.js';
import { parsePrometheusTarget, type PrometheusTarget } from '../kube/dcgm-scrape.js';

/** node:util parseArgs option specs of the shared cluster options. */
export const CLUSTER_OPTIONS = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  namespace: { type: 'string', short: 'n', multiple: true },
  'all-namespaces': { type: 'boolean', short: 'A' },
  definitions: { type: 'string', multiple: true },
  'gpu-resource': { type: 'string', multiple: true },
  'dcgm-selector': { type: 'string' },
  'idle-after': { type: 'string' },
  prometheus: { type: 'string' },
  'topology-key': { type: 'string', multiple: true },
  demo: { type: 'boolean' },
  protobuf: { type: 'boolean' },
} as const;

export const CLUSTER_OPTIONS_HELP = `Cluster options:
  --kubeconfig FILE       kubeconfig (default: $KUBECONFIG, then ~/.kube/config)
  --context NAME          kubeconfig context (default: current-context)
  -n, --namespace NS      only this namespace (repeatable; default: all, like
                          k9s; when cluster-wide lists are forbidden, these or
                          the context's namespace are read instead)
  -A, --all-namespaces    all namespaces (the default)
  --definitions PATH      Workload Map definition file or directory (repeatable;
                          also $WLX_DEFINITIONS, ':'-separated)
  --gpu-resource NAME     extended resource counted as GPUs (repeatable;
                          default nvidia.com/gpu and amd.com/gpu); also listed
                          by name beside the built-in kinds (MIG, shared, Intel)
  --dcgm-selector SEL     label selector of the dcgm-exporter pods (default:
                          the GPU Operator's and the Helm chart's labels)
  --idle-after DURATION   an allocated GPU under 5 % this long is idle
                          (default 60s; e.g. 90s, 5m)
  --prometheus URL        read the DCGM series from Prometheus instead of the
                          exporters: http(s)://host:port (its own TLS, no
                          cluster credentials) or svc/NAMESPACE/NAME:PORT
                          (through the API server's service proxy)
  --topology-key LABEL    node label of a topology level, most general first
                          (repeatable; default: region, zone, the Kueue
                          Topology's or known rack/block labels, NVLink domain)
  --demo                  run the built-in simulated GPU cluster and use it
  --protobuf              ask for pods and nodes in Kubernetes protobuf (JSON
                          when the server does not serve it; default JSON)
`;

export interface ClusterOptions {
  kubeconfig?: string;
  context?: string;
  /** A namespace (the first `-n`), or null for all namespaces. */
  namespace: string | null;
  /** Every `-n` given (empty or absent: all namespaces). */
  namespaces?: string[];
  /** `--definitions` files/directories, in command-line order. */
  definitionPaths: string[];
  /** The `$WLX_DEFINITIONS` value (':'-separated; read by the definitions loader, lower precedence than --definitions). */
  definitionsEnv: string;
  /** Empty = the model's defaults. */
  gpuResources: string[];
  /** `--dcgm-selector`: the exporter pods' label selector instead of the built-in ones. */
  dcgmSelector?: string;
  /** `--idle-after` in ms (default: the model's 60 s). */
  idleAfterMs?: number;
  /** `--prometheus`: where to read DCGM series instead of the exporters. */
  prometheus?: PrometheusTarget;
  /** `--topology-key` values in order; empty: the defaults (src/model/topology.ts). */
  topologyKeys?: string[];
  demo: boolean;
  /** `--protobuf`: the wire format of pod and node lists and watches (EngineOptions.wire). */
  wire?: 'json' | 'protobuf';
}

/** `--idle-after`: `90s`, `5m`, `1h` or plain seconds. */
export function parseIdleAfter(text: string, hint: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m?.[2] ?? 's'] ?? 1000;
  const ms = m ? Number(m[1]) * unit : NaN;
  if (!Number.isFinite(ms) || ms <= 0)
    throw new UsageError(`--idle-after "${text}" is not a duration (e.g. 60s, 5m)`, hint);
  return ms;
}

type ParsedValues = {
  [K in keyof typeof CLUSTER_OPTIONS]?: (typeof CLUSTER_OPTIONS)[K] extends { multiple: true }
    ? string[]
    : (typeof CLUSTER_OPTIONS)[K]['type'] extends 'boolean'
      ? boolean
      : string;
};

/** Builds ClusterOptions from parseArgs values (which must include CLUSTER_OPTIONS). */
export function clusterOptionsFrom(
  values: Record<string, unknown>,
  hint: string,
  env: NodeJS.ProcessEnv = process.env,
): ClusterOptions {
  const v = values as ParsedValues;
  if (v.namespace !== undefined && v['all-namespaces'])
    throw new UsageError('-n/--namespace and -A/--all-namespaces cannot be combined', hint);
  if (v.namespace?.some((n) => n === '')) throw new UsageError('-n/--namespace needs a namespace name', hint);
  if (v.demo && (v.kubeconfig || v.context))
    throw new UsageError('--demo cannot be combined with --kubeconfig or --context', hint);
  const gpuResources = v['gpu-resource'] ?? [];
  for (const r of gpuResources) {
    if (!/^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?(\/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/.test(r)) {
      throw new UsageError(`--gpu-resource "${r}" is not a resource name (e.g. nvidia.com/gpu)`, hint);
    }
  }
  const dcgmSelector = v['dcgm-selector'];
  if (dcgmSelector !== undefined) {
    try {
      if (!parseLabelSelector(dcgmSelector).length) throw new Error('it selects nothing');
    } catch (err) {
      throw new UsageError(`--dcgm-selector "${dcgmSelector}": ${(err as Error).message}`, hint);
    }
  }
  const topologyKeys = v['topology-key'] ?? [];
  for (const k of topologyKeys) {
    if (!/^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(k))
      throw new UsageError(`--topology-key "${k}" is not a node label key (e.g. topology.kubernetes.io/zone)`, hint);
  }
  let prometheus: PrometheusTarget | undefined;
  if (v.prometheus !== undefined) {
    try {
      prometheus = parsePrometheusTarget(v.prometheus);
    } catch (err) {
      throw new UsageError(`--prometheus: ${(err as Error).message}`, hint);
    }
  }
  return {
    kubeconfig: v.kubeconfig,
    dcgmSelector,
    prometheus,
    idleAfterMs: v['idle-after'] !== undefined ? parseIdleAfter(v['idle-after'], hint) : undefined,
    context: v.context,
    namespace: v.namespace?.[0] ?? null,
    namespaces: [...new Set(v.namespace ?? [])],
    definitionPaths: v.definitions ?? [],
    definitionsEnv: env.WLX_DEFINITIONS ?? '',
    gpuResources,
    topologyKeys,
    demo: v.demo === true,
    wire: v.protobuf ? 'protobuf' : 'json',
  };
}

/** A running model source plus what it took to open it. */
export interface OpenedModelSource extends ModelSource {
  /** Resolves when every kind has been listed once and the trees are built. */
  whenSynced(): Promise<void>;
  /** The definitions in effect (built-in, files, and the cluster's Kartas once listed). */
  definitions(): Definition[];
  /** Discovery facts of the watched kinds (plural, short names such as `lws`). */
  resources(): ResourceInfo[];
  /** Asks Kueue's visibility API for queue positions once (`wlx get`). */
  refreshQueuePositions(): Promise<void>;
  /** Scrapes the dcgm-exporters (or queries Prometheus) once and flushes (`wlx get`). */
  scrapeGpuMetrics(): Promise<void>;
  /** Stops watches and the background demo (if any). Idempotent. */
  stop(): Promise<void>;
}

export interface OpenOptions extends ClusterOptions {
  /** false: list once without watching (`wlx get`). Default true. */
  watch?: boolean;
  /** Label selector for workload roots. */
  labelSelector?: string;
  /** List workloads controlled by other workloads too (see EngineOptions.includeNested). */
  includeNested?: boolean;
  /**
   * Where the engine runs: 'inline' (default) on the caller's event loop
   * (`wlx get`), 'worker' in a worker thread so that the explorer's keys and
   * frames never wait behind ingestion (src/kube/worker/README.md).
   */
  engineThread?: 'worker' | 'inline';
}

/** The engine opened over a kubeconfig, and its transport (closed by the caller after the engine stops). */
export interface OpenedEngine {
  engine: ClusterEngine;
  transport: HttpKubeTransport;
}

/**
 * The one opener of the engine, in-thread or in the worker: the kubeconfig
 * (`kubeconfig`/`context` already resolved, the demo's when `--demo`), the
 * definitions, and the engine over client-node's auth.
 */
export async function openEngine(
  options: OpenOptions,
  cluster: { kubeconfig?: string; context?: string },
): Promise<OpenedEngine> {
  const { startEngine } = await import('../kube/engine.js');
  const { loadDefinitions } = await import('../definitions/index.js');
  const { loaded, transport } = await connect(cluster);
  try {
    const definitions = loadDefinitions({ userPaths: options.definitionPaths, envPaths: options.definitionsEnv });
    const engine = await startEngine({
      transport,
      connection: {
        context: loaded.context,
        cluster: loaded.cluster,
        user: loaded.user,
        server: loaded.server,
        namespace: options.namespace,
      },
      namespace: options.namespace,
      namespaces: (options.namespaces?.length ?? 0) > 1 ? options.namespaces : undefined,
      // No guess: a context without a namespace keeps a forbidden kind forbidden (reported as such).
      fallbackNamespaces: options.namespaces?.length
        ? options.namespaces
        : loaded.contextNamespace
          ? [loaded.contextNamespace]
          : [],
      definitions,
      gpuResources: options.gpuResources.length ? options.gpuResources : undefined,
      labelSelector: options.labelSelector,
      watch: options.watch,
      wire: options.wire,
      includeNested: options.includeNested,
      dcgmSelector: options.dcgmSelector,
      prometheus: options.prometheus,
      idleAfterMs: options.idleAfterMs,
      topologyKeys: options.topologyKeys?.length ? options.topologyKeys : undefined,
    });
    return { engine, transport };
  } catch (err) {
    transport.close();
    throw err;
  }
}

/** On-demand reads (incident views) over their own transport from the kubeconfig. */
export async function openAccess(cluster: {
  kubeconfig?: string;
  context?: string;
}): Promise<{ access: ObjectAccess; close(): void }> {
  const { createAccess } = await import('../kube/access.js');
  const { transport } = await connect(cluster);
  return { access: createAccess(transport), close: () => transport.close() };
}

/** The kubeconfig loaded and a transport over its credentials (one per engine, one for on-demand reads). */
async function connect(cluster: { kubeconfig?: string; context?: string }) {
  const { loadKubeconfig } = await import('../kube/kubeconfig.js');
  const { HttpKubeTransport } = await import('../kube/client.js');
  const loaded = loadKubeconfig(cluster);
  return { loaded, transport: new HttpKubeTransport(loaded.kubeConfig, loaded.server, loaded.context) };
}

/**
 * With `--demo`, starts the simulated cluster in a background process (so it
 * never stalls the caller's event loop): its kubeconfig, and how to stop it.
 */
export async function resolveCluster(
  options: OpenOptions,
): Promise<{ kubeconfig?: string; context?: string; stopDemo?: () => Promise<void> }> {
  if (!options.demo) return { kubeconfig: options.kubeconfig, context: options.context };
  const { startDemoInBackground } = await import('../../demo/index.js');
  const demo = await startDemoInBackground({});
  return { kubeconfig: demo.kubeconfigPath, stopDemo: () => demo.stop() };
}

/**
 * Opens the live model: the cluster (the demo's with `--demo`), then the
 * engine over HTTP through client-node's auth, exactly as for a real cluster;
 * in a worker thread with `engineThread: 'worker'`.
 */
export async function openModelSource(options: OpenOptions): Promise<OpenedModelSource> {
  if (options.engineThread === 'worker') {
    const { openWorkerModelSource } = await import('../kube/worker/worker-source.js');
    return openWorkerModelSource(options);
  }
  const { createAccess } = await import('../kube/access.js');
  const cluster = await resolveCluster(options);
  try {
    const { engine, transport } = await openEngine(options, cluster);
    let stopped = false;
    return {
      getSnapshot: () => engine.getSnapshot(),
      subscribe: (l) => engine.subscribe(l),
      getNodePods: (n) => engine.getNodePods(n),
      getConnectionInfo: () => engine.getConnectionInfo(),
      access: createAccess(transport),
      holdQueuePositions: () => engine.holdQueuePositions(),
      holdGpuMetrics: () => engine.holdGpuMetrics(),
      scrapeGpuMetrics: () => engine.scrapeGpuMetrics(),
      refreshQueuePositions: () => engine.refreshQueuePositions(),
      whenSynced: () => engine.whenSynced(),
      definitions: () => engine.definitions(),
      resources: () => engine.resources(),
      async stop() {
        if (stopped) return;
        stopped = true;
        await engine.stop();
        transport.close();
        await cluster.stopDemo?.();
      },
    };
  } catch (err) {
    await cluster.stopDemo?.();
    throw err;
  }
}
