// Topology domains from node labels: region → zone → rack/block → NVLink domain, most specific last.
// The one home of which labels count as topology and of a node's place in it; the GPU map, `:nodes`
// grouping, spread and the split rule all read it.

/** Rack / block labels in use on GPU clouds and in Kueue topology-aware-scheduling examples, most general first. */
export const RACK_LABEL_KEYS = [
  'cloud.google.com/gce-topology-block',
  'cloud.google.com/gce-topology-subblock',
  'topology.k8s.aws/network-node-layer-1',
  'topology.k8s.aws/network-node-layer-2',
  'topology.k8s.aws/network-node-layer-3',
  'network.topology.kubernetes.io/block',
  'network.topology.kubernetes.io/rack',
  'topology.kubernetes.io/rack',
] as const;

export const NVLINK_DOMAIN_KEY = 'nvidia.com/gpu.clique';

export const DEFAULT_TOPOLOGY_KEYS: readonly string[] = [
  'topology.kubernetes.io/region',
  'topology.kubernetes.io/zone',
  ...RACK_LABEL_KEYS,
  NVLINK_DOMAIN_KEY,
];

/**
 * The keys in effect: `--topology-key` values when given (in the order given), else the defaults restricted to
 * those some node carries, so an unlabelled level does not add an empty grouping step.
 */
export function topologyKeysInEffect(
  configured: readonly string[] | undefined,
  nodes: Iterable<{ labels: Record<string, string> }>,
): string[] {
  if (configured && configured.length) return [...configured];
  const seen = new Set<string>();
  for (const n of nodes) for (const k of DEFAULT_TOPOLOGY_KEYS) if (n.labels[k] !== undefined) seen.add(k);
  return DEFAULT_TOPOLOGY_KEYS.filter((k) => seen.has(k));
}

/** A node's `{key: value}` for the keys in effect that it carries (the JSON contract's `topology`). */
export function nodeTopology(labels: Record<string, string>, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (labels[k] !== undefined) out[k] = labels[k];
  return out;
}

/** A node's domain path, one value per key in effect (`null` where it lacks the label), most general first. */
export function domainPath(labels: Record<string, string>, keys: readonly string[]): (string | null)[] {
  return keys.map((k) => labels[k] ?? null);
}
