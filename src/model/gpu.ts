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

/** GPUs of a resources block ({requests, limits}; fragmented definitions' resourcesPath). */
export function resourcesGpuRequest(resources: unknown, gpuResources: readonly string[]): number {
  let total = 0;
  for (const r of gpuResources) total += containerRequest(resources, r);
  return total;
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
