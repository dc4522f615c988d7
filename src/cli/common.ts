// The cluster options `wlx` (the TUI) and `wlx get` share: their argument
// specs, their help, and the ClusterOptions they parse into (src/app/connect.ts
// opens a cluster over them).
import type { ClusterOptions } from '../app/connect.js';
import { UsageError } from './usage.js';
import type { PrometheusTarget } from '../kube/dcgm-scrape.js';
import {
  checkDcgmSelector,
  checkGpuResource,
  checkTopologyKey,
  parseDuration,
  parsePrometheus,
} from '../app/config/option-values.js';

/** node:util parseArgs option specs of the shared cluster options. */
export const CLUSTER_OPTIONS = {
  kubeconfig: { type: 'string' },
  context: { type: 'string', multiple: true },
  'all-contexts': { type: 'boolean' },
  'connect-timeout': { type: 'string' },
  fleet: { type: 'boolean' },
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
  --context NAME          kubeconfig context (default: current-context);
                          several (a,b,c or repeated): a fleet, every
                          cluster at once (docs/fleet.md)
  --all-contexts          every context of the kubeconfig, as a fleet
  --connect-timeout DUR   how long a fleet's cluster may take to answer
                          before it reads as unreachable (default 10s)
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
  --fleet                 with --demo: the simulated fleet of three clusters
                          (a Kueue MultiKueue manager, two GPU workers)
  --protobuf              ask for pods and nodes in Kubernetes protobuf (JSON
                          when the server does not serve it; default JSON)
`;

/** `--idle-after`: `90s`, `5m`, `1h` or plain seconds. */
export function parseIdleAfter(text: string, hint: string): number {
  return checked('--idle-after', hint, () => parseDuration(text));
}

/** A value checked by its parser (src/app/config/option-values.ts); its error as a usage error naming the flag. */
function checked<T>(flag: string, hint: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new UsageError(`${flag} ${(err as Error).message}`, hint);
  }
}

/** Several clusters at once: `--context a,b`, `--all-contexts` or `--demo --fleet` (src/app/fleet.ts). */
export function isFleet(options: ClusterOptions): boolean {
  return (
    (options.contexts?.length ?? 0) > 1 || options.allContexts === true || (options.demo && options.fleet === true)
  );
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
  if (v.demo && (v.kubeconfig || v.context || v['all-contexts']))
    throw new UsageError('--demo cannot be combined with --kubeconfig, --context or --all-contexts', hint);
  if (v.fleet && !v.demo) throw new UsageError('--fleet runs the simulated fleet: give it with --demo', hint);
  // Repeatable; a context from config or `:ctx` arrives as one string.
  const given = v.context === undefined ? [] : Array.isArray(v.context) ? v.context : [v.context as string];
  const contexts = [...new Set(given.flatMap((c) => c.split(',')).map((c) => c.trim()))];
  if (given.length && contexts.some((c) => c === ''))
    throw new UsageError('--context needs a context name (several: a,b,c)', hint);
  if (v['all-contexts'] && contexts.length)
    throw new UsageError('--all-contexts and --context cannot be combined', hint);
  const connectTimeout = v['connect-timeout'];
  const connectTimeoutMs =
    connectTimeout !== undefined ? checked('--connect-timeout', hint, () => parseDuration(connectTimeout)) : undefined;
  const gpuResources = v['gpu-resource'] ?? [];
  for (const r of gpuResources) checked('--gpu-resource', hint, () => checkGpuResource(r));
  const dcgmSelector = v['dcgm-selector'];
  if (dcgmSelector !== undefined) checked('--dcgm-selector', hint, () => checkDcgmSelector(dcgmSelector));
  const topologyKeys = v['topology-key'] ?? [];
  for (const k of topologyKeys) checked('--topology-key', hint, () => checkTopologyKey(k));
  let prometheus: PrometheusTarget | undefined;
  if (v.prometheus !== undefined) {
    const text = v.prometheus;
    prometheus = checked('--prometheus:', hint, () => parsePrometheus(text));
  }
  return {
    kubeconfig: v.kubeconfig,
    dcgmSelector,
    prometheus,
    idleAfterMs: v['idle-after'] !== undefined ? parseIdleAfter(v['idle-after'], hint) : undefined,
    context: contexts.length === 1 ? contexts[0] : undefined,
    ...(contexts.length > 1 ? { contexts } : {}),
    ...(v['all-contexts'] ? { allContexts: true } : {}),
    ...(v.fleet ? { fleet: true } : {}),
    ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
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
