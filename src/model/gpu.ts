// GPU requests of pods and pod templates, computed the way the scheduler
// accounts for them (k8s.io/component-helpers resource.PodRequests), so that
// wlx's "requested" matches what a node's "Allocated resources" would say.
import { parseQuantity } from './quantity.js';

export const DEFAULT_GPU_RESOURCES: readonly string[] = ['nvidia.com/gpu', 'amd.com/gpu'];

type Obj = Record<string, unknown>;

function asObj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/**
 * A container's request of one resource: the request, else the limit (the API
 * server defaults requests to limits for extended resources such as GPUs, and
 * templates often only carry the limit).
 */
export function containerRequest(resources: unknown, resource: string): number {
  const r = asObj(resources);
  if (!r) return 0;
  const requests = asObj(r.requests);
  if (requests && requests[resource] !== undefined && requests[resource] !== null)
    return parseQuantity(requests[resource]);
  const limits = asObj(r.limits);
  if (limits && limits[resource] !== undefined && limits[resource] !== null) return parseQuantity(limits[resource]);
  return 0;
}

function isSidecar(container: Obj): boolean {
  return container.restartPolicy === 'Always';
}

/**
 * The effective request of one resource for a pod spec:
 * max(app containers + sidecars, the peak during init) + overhead, where the
 * peak of a regular init container also counts the sidecars started before it
 * (they keep running while it runs). A pod-level request (spec.resources)
 * replaces the container aggregate.
 */
export function podResourceRequest(podSpec: unknown, resource: string): number {
  const spec = asObj(podSpec);
  if (!spec) return 0;
  const overhead = parseQuantity(asObj(spec.overhead)?.[resource]);
  const podLevel = asObj(spec.resources);
  if (podLevel) {
    const v = containerRequest(podLevel, resource);
    if (v > 0) return v + overhead;
  }
  let app = 0;
  for (const c of asArray(spec.containers)) app += containerRequest(asObj(c)?.resources, resource);
  let sidecars = 0;
  let initPeak = 0;
  for (const raw of asArray(spec.initContainers)) {
    const c = asObj(raw);
    if (!c) continue;
    const req = containerRequest(c.resources, resource);
    if (isSidecar(c)) {
      sidecars += req;
      initPeak = Math.max(initPeak, sidecars);
    } else {
      initPeak = Math.max(initPeak, req + sidecars);
    }
  }
  return Math.max(app + sidecars, initPeak) + overhead;
}

/** The effective request of all listed GPU resources (summed) for a pod spec. */
export function podGpuRequest(podSpec: unknown, gpuResources: readonly string[] = DEFAULT_GPU_RESOURCES): number {
  let total = 0;
  for (const r of gpuResources) total += podResourceRequest(podSpec, r);
  return total;
}

/** GPUs of a bare container list (fragmented definitions' containersPath). */
export function containersGpuRequest(containers: unknown, gpuResources: readonly string[]): number {
  return podGpuRequest({ containers: Array.isArray(containers) ? containers : [containers] }, gpuResources);
}

/** The fragments of one pod a fragmentedPodSpecDefinition points at (each may be missing). */
export interface PodFragments {
  /** containersPath: the pod's containers (a list; a single container is read as a list of one). */
  containers?: unknown;
  /** containerPath: the main container. */
  container?: unknown;
  /** resourcesPath: a resources block ({requests, limits}) of the main container. */
  resources?: unknown;
}

function names(resources: unknown, resource: string): boolean {
  const r = asObj(resources);
  if (!r) return false;
  const given = (m: unknown) => {
    const v = asObj(m)?.[resource];
    return v !== undefined && v !== null;
  };
  return given(r.requests) || given(r.limits);
}

/**
 * The GPU request of a pod described by fragments. They describe one pod, so
 * each container is counted once:
 * - the main container is `container`; without it, the first of `containers`
 *   (the pod's first container is its main one, as kubectl's default
 *   container); without either, a container of its own holding `resources`;
 * - `container` whose name is also in `containers` is that listed container,
 *   not another one;
 * - `resources` is the main container's resources block: for each GPU
 *   resource it names (request, else limit) it replaces what the container
 *   itself says; resources it does not name keep the container's own value.
 */
export function fragmentedGpuRequest(
  fragments: PodFragments,
  gpuResources: readonly string[] = DEFAULT_GPU_RESOURCES,
): number {
  const listed =
    fragments.containers === undefined || fragments.containers === null
      ? []
      : Array.isArray(fragments.containers)
        ? [...fragments.containers]
        : [fragments.containers];
  let main: unknown;
  const given = asObj(fragments.container);
  if (given) {
    const name = typeof given.name === 'string' && given.name !== '' ? given.name : null;
    const same = name === null ? -1 : listed.findIndex((c) => asObj(c)?.name === name);
    if (same >= 0) listed.splice(same, 1);
    main = given;
  } else if (listed.length > 0) {
    main = listed.shift();
  }
  const mainResources = asObj(main)?.resources;
  const block = fragments.resources;
  let total = containersGpuRequest(listed, gpuResources);
  for (const r of gpuResources)
    total += names(block, r) ? containerRequest(block, r) : containerRequest(mainResources, r);
  return total;
}

/** Sum of the listed GPU resources in a node's capacity or allocatable map. */
export function nodeGpuAmount(resourceMap: unknown, gpuResources: readonly string[]): number {
  const m = asObj(resourceMap);
  if (!m) return 0;
  let total = 0;
  for (const r of gpuResources) total += parseQuantity(m[r]);
  return total;
}

// ---- GPU kinds counted by resource name (MIG, shared, AMD, Intel) ----------

/**
 * Resource names that are GPUs (or slices of one) without configuration: the
 * NVIDIA device plugin's whole GPUs, MIG slices (mixed strategy) and
 * time-sliced GPUs renamed by `renameByDefault`; AMD; Intel's i915 and xe
 * devices. Not Intel's fractional resources (`gpu.intel.com/millicores`,
 * `memory.max`, `tiles`: 1000 millicores are one GPU, not a thousand). A
 * trailing `*` matches any suffix.
 */
export const GPU_RESOURCE_PATTERNS: readonly string[] = [
  'nvidia.com/gpu',
  'nvidia.com/gpu.shared',
  'nvidia.com/mig-*',
  'amd.com/gpu',
  'gpu.intel.com/i915',
  'gpu.intel.com/xe',
];

/** Which resource names count as GPUs; by name, so each kind keeps its own count. */
export type GpuResourceMatcher = (resourceName: string) => boolean;

/**
 * The matcher for the built-in patterns plus a `--gpu-resource` list (names,
 * or prefixes ending in `*`, e.g. a time-slicing rename `nvidia.com/gpu-shared`).
 */
export function gpuResourceMatcher(configured: readonly string[] = []): GpuResourceMatcher {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const p of [...GPU_RESOURCE_PATTERNS, ...configured]) {
    if (p.endsWith('*')) prefixes.push(p.slice(0, -1));
    else exact.add(p);
  }
  return (name) => exact.has(name) || prefixes.some((p) => name.startsWith(p) && name.length > p.length);
}

/**
 * What counts as a GPU, as every figure counts it: `counted`, the whole GPUs a figure sums (the
 * `--gpu-resource` names, else the defaults); `isGpu`, every GPU kind (MIG slices, shared, Intel, the
 * configured names), those `counted` leaves out shown beside the figure by name.
 */
export interface GpuAccounting {
  counted: readonly string[];
  isGpu: GpuResourceMatcher;
}

export function gpuAccounting(configured: readonly string[] = []): GpuAccounting {
  return {
    counted: configured.length > 0 ? [...configured] : [...DEFAULT_GPU_RESOURCES],
    isGpu: gpuResourceMatcher(configured),
  };
}

/** What one GPU resource name is. */
export interface GpuResourceKind {
  vendor: 'nvidia' | 'amd' | 'intel' | 'other';
  /** gpu: a whole device; mig: a MIG slice; shared: a time-sliced share of a device. */
  kind: 'gpu' | 'mig' | 'shared';
  /** The MIG profile of a slice (`1g.10gb`), else null. */
  migProfile: string | null;
}

export function gpuResourceKind(resourceName: string): GpuResourceKind {
  const slash = resourceName.indexOf('/');
  const domain = slash >= 0 ? resourceName.slice(0, slash) : '';
  const name = slash >= 0 ? resourceName.slice(slash + 1) : resourceName;
  const vendor =
    domain === 'nvidia.com' ? 'nvidia' : domain === 'amd.com' ? 'amd' : domain === 'gpu.intel.com' ? 'intel' : 'other';
  if (vendor === 'nvidia' && name.startsWith('mig-')) return { vendor, kind: 'mig', migProfile: name.slice(4) };
  if (/(^|[.-])shared$/.test(name)) return { vendor, kind: 'shared', migProfile: null };
  return { vendor, kind: 'gpu', migProfile: null };
}

function addResourceNames(into: Set<string>, resources: unknown, matches: GpuResourceMatcher): void {
  const r = asObj(resources);
  if (!r) return;
  for (const m of [asObj(r.requests), asObj(r.limits)])
    if (m) for (const k of Object.keys(m)) if (matches(k)) into.add(k);
}

/** The GPU resource names a pod spec mentions anywhere the scheduler counts requests. */
export function podGpuResourceNames(podSpec: unknown, matches: GpuResourceMatcher): string[] {
  const spec = asObj(podSpec);
  if (!spec) return [];
  const names = new Set<string>();
  for (const c of [...asArray(spec.containers), ...asArray(spec.initContainers)])
    addResourceNames(names, asObj(c)?.resources, matches);
  addResourceNames(names, spec.resources, matches);
  for (const k of Object.keys(asObj(spec.overhead) ?? {})) if (matches(k)) names.add(k);
  return [...names].sort();
}

/**
 * A pod's effective request per GPU resource name (`{"nvidia.com/mig-1g.10gb": 1}`),
 * each by the scheduler's rule (podResourceRequest); names it requests 0 of are left out.
 */
export function podGpuResources(podSpec: unknown, matches: GpuResourceMatcher): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of podGpuResourceNames(podSpec, matches)) {
    const n = podResourceRequest(podSpec, name);
    if (n > 0) out[name] = n;
  }
  return out;
}

/** Capacity and allocatable of one GPU resource on a node. */
export interface NodeGpuResource {
  capacity: number;
  allocatable: number;
}

/** A node's GPU resources by name, from status.capacity / status.allocatable. */
export function nodeGpuResources(nodeStatus: unknown, matches: GpuResourceMatcher): Record<string, NodeGpuResource> {
  const status = asObj(nodeStatus);
  const capacity = asObj(status?.capacity) ?? {};
  const allocatable = asObj(status?.allocatable) ?? {};
  const out: Record<string, NodeGpuResource> = {};
  for (const name of new Set([...Object.keys(capacity), ...Object.keys(allocatable)])) {
    if (!matches(name)) continue;
    const c = parseQuantity(capacity[name]);
    const a = parseQuantity(allocatable[name]);
    if (c > 0 || a > 0) out[name] = { capacity: c, allocatable: a };
  }
  return out;
}

/**
 * Of a pod's GPUs by resource name, those its GPU count leaves out (MIG slices, time-sliced shares, kinds
 * outside `--gpu-resource`): null when there are none. DRA claims (`dra:<class>`) are counted, so never slices.
 */
export function gpuSlicesOf(
  byName: Readonly<Record<string, number>>,
  counted: readonly string[],
): Record<string, number> | null {
  let out: Record<string, number> | null = null;
  for (const [name, n] of Object.entries(byName))
    if (n > 0 && !name.startsWith('dra:') && !counted.includes(name)) (out ??= {})[name] = n;
  return out;
}

/** The slices of these pods summed by name (PodSummary.gpuSlices), undefined when none has any. */
export function sumGpuSlices(
  pods: Iterable<{ gpuSlices?: Record<string, number> }>,
): Record<string, number> | undefined {
  let out: Record<string, number> | undefined;
  for (const p of pods) if (p.gpuSlices) addGpuResources((out ??= {}), p.gpuSlices);
  return out;
}

/** How slices are named: `names` each resource (`1×mig-1g.10gb`), `kinds` only what kind they are (`1 mig`). */
export type SlicesStyle = 'names' | 'kinds';

const KIND_ORDER: readonly GpuResourceKind['kind'][] = ['mig', 'shared', 'gpu'];

/**
 * GPU slices as a phrase, '' for none. `names`: `1×mig-1g.10gb + 2×gpu.shared` (each resource name without
 * its vendor domain); `kinds`, for table cells where STATUS needs the width: `1 mig + 2 shared`. Names come
 * from the cluster: sanitise before printing.
 */
export function slicesPhrase(
  slices: Readonly<Record<string, number>> | undefined,
  style: SlicesStyle = 'names',
): string {
  if (!slices) return '';
  if (style === 'names')
    return Object.keys(slices)
      .sort()
      .map((name) => `${slices[name]}×${name.slice(name.indexOf('/') + 1)}`)
      .join(' + ');
  const byKind = new Map<GpuResourceKind['kind'], number>();
  for (const [name, n] of Object.entries(slices)) {
    const kind = gpuResourceKind(name).kind;
    byKind.set(kind, (byKind.get(kind) ?? 0) + n);
  }
  return KIND_ORDER.filter((k) => byKind.has(k))
    .map((k) => `${byKind.get(k)} ${k}`)
    .join(' + ');
}

/**
 * A GPU figure with the slices beside it, `8 + 1×mig-1g.10gb`, or the slices alone when the figure counts
 * nothing (`1×mig-1g.10gb`: a pod on a MIG slice never reads as holding no GPU). Sanitise before printing.
 */
export function withSlices(
  figure: string,
  countsNothing: boolean,
  slices?: Readonly<Record<string, number>>,
  style: SlicesStyle = 'names',
): string {
  const phrase = slicesPhrase(slices, style);
  if (phrase === '') return figure;
  return countsNothing ? phrase : `${figure} + ${phrase}`;
}

/** Adds `{name: count}` maps (role and workload rollups, node requested). */
export function addGpuResources(into: Record<string, number>, add: Readonly<Record<string, number>>): void {
  for (const [k, v] of Object.entries(add)) into[k] = (into[k] ?? 0) + v;
}

/** The GPU model and MIG set-up GPU feature discovery labels a node with. */
export interface NodeGpuModel {
  /** `nvidia.com/gpu.product` (MIG nodes: `NVIDIA-A100-SXM4-80GB-MIG-1g.10gb` under the single strategy). */
  product: string | null;
  /** `nvidia.com/mig.strategy`: none, single or mixed. */
  migStrategy: string | null;
  /** `nvidia.com/gpu.count`: physical GPUs (a MIG node's slices are more). */
  count: number | null;
  /** `nvidia.com/gpu.memory` in MiB. */
  memoryMiB: number | null;
}

const countLabel = (v: string | undefined): number | null => {
  if (v === undefined || !/^\d+$/.test(v)) return null;
  return Number(v);
};

export function nodeGpuModel(labels: Readonly<Record<string, string>> | undefined): NodeGpuModel {
  const l = labels ?? {};
  return {
    product: l['nvidia.com/gpu.product'] || l['amd.com/gpu.product-name'] || l['gpu.intel.com/product'] || null,
    migStrategy: l['nvidia.com/mig.strategy'] || null,
    count: countLabel(l['nvidia.com/gpu.count']),
    memoryMiB: countLabel(l['nvidia.com/gpu.memory']),
  };
}
