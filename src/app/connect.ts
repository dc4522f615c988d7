// Opening a cluster: the kubeconfig and its transport, the engine over them
// (in this thread or in the engine worker), on-demand reads, and the demo's
// simulated cluster behind `--demo`.
//
// Namespace scope: like k9s (not kubectl), wlx shows ALL namespaces unless
// `-n NS` is given (repeatable: `-n a -n b`); `-A` says so explicitly. The
// context's namespace is not a filter (AI workloads of one team often span
// namespaces), but it is where wlx reads when cluster-wide lists are
// forbidden (a namespace-scoped user), unless `-n` names the namespaces.
import type { ObjectAccess } from '../model/source.js';
import type { ClusterEngine, EngineOptions } from '../kube/engine.js';
import type { PrometheusTarget } from '../kube/dcgm-scrape.js';

/** How long a fleet's cluster may take to answer at all before it reads as unreachable (`--connect-timeout`). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export interface ClusterOptions {
  kubeconfig?: string;
  context?: string;
  /** Several contexts (`--context a,b` or repeated): a fleet (src/app/fleet.ts); `context` is then unset. */
  contexts?: string[];
  /** `--all-contexts`: every context of the kubeconfig, as a fleet. */
  allContexts?: boolean;
  /** With `demo`: the simulated fleet of three clusters. */
  fleet?: boolean;
  /** `--connect-timeout`: how long a fleet's cluster may take to answer at all. */
  connectTimeoutMs?: number;
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
   * frames never wait behind ingestion (src/app/worker/README.md).
   */
  engineThread?: 'worker' | 'inline';
  /** Aborting closes the engine's connections, also while it is still opening (a fleet gives up on a cluster). */
  signal?: AbortSignal;
}

/**
 * The one opener of the engine, in-thread or in the worker: the kubeconfig
 * (`kubeconfig`/`context` already resolved, the demo's when `--demo`), the
 * definitions, and the engine over client-node's auth. The engine owns its
 * transport and the demo: its stop() closes and stops them. `host`: what
 * the engine's host adds (a shared worker's hold on the flushes).
 */
export async function openEngine(
  options: OpenOptions,
  cluster: { kubeconfig?: string; context?: string; stopDemo?: () => Promise<void> },
  host: Pick<EngineOptions, 'flushHold'> = {},
): Promise<ClusterEngine> {
  const { startEngine } = await import('../kube/engine.js');
  const { loadDefinitions } = await import('../definitions/index.js');
  const { loaded, transport } = await connect(cluster);
  // Closing the agent ends requests in flight: an opening stuck on a server that never answers fails now.
  options.signal?.addEventListener('abort', () => transport.close(), { once: true });
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
      ...(loaded.contextNamespace ? { contextNamespace: loaded.contextNamespace } : {}),
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
      kubeconfigPath: cluster.kubeconfig,
      ...host,
      onStop: async () => {
        transport.close();
        await cluster.stopDemo?.();
      },
    });
    return engine;
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
  return { loaded, transport: new HttpKubeTransport(() => loaded.credentials(), loaded.server, loaded.context) };
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
