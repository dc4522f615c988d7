// GPUs from Dynamic Resource Allocation (resource.k8s.io v1, v1beta2,
// v1beta1): a pod's ResourceClaims and what they were allocated, and the
// devices ResourceSlices publish per node. Counted beside the device-plugin
// resources under `dra:<deviceClass>` keys. Pure functions over plain objects
// of any of the three versions (their shapes differ only in where a request's
// class and count sit, and in v1beta1's `basic` device wrapper).
import type { KubeObject } from './types.js';
import { parseQuantity } from './quantity.js';

type Obj = Record<string, unknown>;

function asObj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** The key a DRA GPU is counted under, beside `nvidia.com/gpu` and the like. */
export function draResourceKey(deviceClassName: string): string {
  return `dra:${deviceClassName}`;
}

/** Device classes (or drivers) that hand out GPUs: NVIDIA's `gpu.nvidia.com` / `mig.nvidia.com`, AMD's and Intel's `gpu.*`. */
export function isGpuDeviceClass(name: string): boolean {
  return /(^|[.-])(gpu|mig)([.-]|$)/i.test(name);
}

/** One request of a claim: what it asks for before anything is allocated. */
export interface DraRequest {
  name: string;
  deviceClassName: string | null;
  allocationMode: 'ExactCount' | 'All';
  /** ExactCount's count (default 1); for All, 1: at least one device, the rest unknown until allocated. */
  count: number;
}

function requestOf(name: string, r: Obj): DraRequest {
  const mode = r.allocationMode === 'All' ? 'All' : 'ExactCount';
  const count = mode === 'All' ? 1 : Math.max(1, Math.floor(parseQuantity(r.count ?? 1)));
  return { name, deviceClassName: str(r.deviceClassName), allocationMode: mode, count };
}

/**
 * The requests of a claim spec's `devices` (v1/v1beta2: `exactly` or
 * `firstAvailable`; v1beta1: class and count on the request itself). Of a
 * `firstAvailable` list the first alternative stands for the request until
 * allocation says which was taken; its name is `request/sub`, as results name it.
 */
export function claimSpecRequests(claimSpec: unknown): DraRequest[] {
  const out: DraRequest[] = [];
  for (const raw of asArray(asObj(asObj(claimSpec)?.devices)?.requests)) {
    const r = asObj(raw);
    const name = str(r?.name);
    if (!r || name === null) continue;
    const exactly = asObj(r.exactly);
    const first = asObj(asArray(r.firstAvailable)[0]);
    if (exactly) out.push(requestOf(name, exactly));
    else if (first) out.push(requestOf(`${name}/${str(first.name) ?? ''}`, first));
    else out.push(requestOf(name, r));
  }
  return out;
}

/** Every alternative a request names (firstAvailable's sub-requests too), by result name. */
function requestClasses(claimSpec: unknown): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const raw of asArray(asObj(asObj(claimSpec)?.devices)?.requests)) {
    const r = asObj(raw);
    const name = str(r?.name);
    if (!r || name === null) continue;
    out.set(name, str(asObj(r.exactly)?.deviceClassName) ?? str(r.deviceClassName));
    for (const sub of asArray(r.firstAvailable)) {
      const s = asObj(sub);
      if (s && str(s.name)) out.set(`${name}/${str(s.name)}`, str(s.deviceClassName));
    }
  }
  return out;
}

/** One device allocated to a claim. */
export interface DraDevice {
  /** The request (or `request/sub`) it satisfies. */
  request: string;
  driver: string;
  pool: string;
  device: string;
  /** Set when the device is shared between claims (consumable capacity). */
  shareId: string | null;
  deviceClassName: string | null;
}

/** The devices a claim was allocated, or null while it is not allocated. */
export function claimDevices(claim: KubeObject): DraDevice[] | null {
  const allocation = asObj(claim.status?.['allocation']);
  if (!allocation) return null;
  const classes = requestClasses(claim.spec);
  const out: DraDevice[] = [];
  for (const raw of asArray(asObj(allocation.devices)?.results)) {
    const r = asObj(raw);
    if (!r) continue;
    const request = str(r.request) ?? '';
    out.push({
      request,
      driver: str(r.driver) ?? '',
      pool: str(r.pool) ?? '',
      device: str(r.device) ?? '',
      shareId: str(r.shareID),
      deviceClassName: classes.get(request) ?? classes.get(request.split('/')[0]) ?? null,
    });
  }
  return out;
}

/** A pod's reference to a claim: by name, or through a template (the generated name is in the pod's status). */
export interface PodClaimRef {
  /** The name the pod's containers use (spec.resourceClaims[].name). */
  podClaim: string;
  /** The ResourceClaim's name, once known. */
  claimName: string | null;
  /** The ResourceClaimTemplate, when the claim is generated from one. */
  template: string | null;
}

export function podClaimRefs(pod: KubeObject): PodClaimRef[] {
  const generated = new Map<string, string | null>();
  for (const raw of asArray(pod.status?.['resourceClaimStatuses'])) {
    const s = asObj(raw);
    if (s && str(s.name)) generated.set(str(s.name)!, str(s.resourceClaimName));
  }
  const out: PodClaimRef[] = [];
  for (const raw of asArray(pod.spec?.['resourceClaims'])) {
    const c = asObj(raw);
    const podClaim = str(c?.name);
    if (!c || podClaim === null) continue;
    const direct = str(c.resourceClaimName);
    const template = str(c.resourceClaimTemplateName);
    out.push({ podClaim, claimName: direct ?? generated.get(podClaim) ?? null, template: direct ? null : template });
  }
  return out;
}

/** Finds a namespaced object of resource.k8s.io by kind (any served version). */
export type DraLookup = (
  kind: 'ResourceClaim' | 'ResourceClaimTemplate',
  namespace: string,
  name: string,
) => KubeObject | undefined;

/** What one of a pod's claims gives it. */
export interface PodDraClaim {
  podClaim: string;
  /** `namespace/name` of the ResourceClaim: the key that counts a shared claim once. */
  claim: string | null;
  /** allocated; pending (not allocated yet); missing (not created yet, or not visible). */
  state: 'allocated' | 'pending' | 'missing';
  /** Allocated GPU devices (none until allocated). */
  devices: DraDevice[];
  /** GPUs by `dra:<deviceClass>`: the allocated devices, else what the requests ask for. */
  resources: Record<string, number>;
}

function add(into: Record<string, number>, key: string, n: number): void {
  into[key] = (into[key] ?? 0) + n;
}

function requestedResources(claimSpec: unknown, isGpu: (deviceClass: string) => boolean): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of claimSpecRequests(claimSpec))
    if (r.deviceClassName !== null && isGpu(r.deviceClassName)) add(out, draResourceKey(r.deviceClassName), r.count);
  return out;
}

/**
 * DRA GPUs one replica of a pod template asks for: the GPU requests of each
 * ResourceClaimTemplate its `spec.resourceClaims` name (every replica gets a
 * claim of its own from it). A claim named directly is shared by the
 * replicas, so it is not per replica and not counted here. `templates` lists
 * each template read (`namespace/name`), found or not: its arrival or change
 * makes the figure stale.
 */
export function templateDraGpus(
  podSpec: unknown,
  namespace: string,
  lookup: DraLookup,
  isGpu: (deviceClass: string) => boolean = isGpuDeviceClass,
): { gpus: number; templates: string[] } {
  let gpus = 0;
  const templates: string[] = [];
  for (const raw of asArray(asObj(podSpec)?.['resourceClaims'])) {
    const name = str(asObj(raw)?.resourceClaimTemplateName);
    if (name === null) continue;
    templates.push(`${namespace}/${name}`);
    const template = lookup('ResourceClaimTemplate', namespace, name);
    if (template) gpus += resourceTotal(requestedResources(asObj(template.spec)?.spec, isGpu));
  }
  return { gpus, templates };
}

/**
 * A pod's DRA GPU claims. An allocated claim counts its allocated GPU devices
 * (each device once, however many requests name it); a pending one its
 * requests; a claim not there yet its template's requests when the template
 * is visible, else nothing (and says so: state `missing`).
 */
export function podDraClaims(
  pod: KubeObject,
  lookup: DraLookup,
  isGpu: (deviceClass: string) => boolean = isGpuDeviceClass,
): PodDraClaim[] {
  const ns = pod.metadata.namespace ?? '';
  const out: PodDraClaim[] = [];
  for (const ref of podClaimRefs(pod)) {
    const claim = ref.claimName !== null ? lookup('ResourceClaim', ns, ref.claimName) : undefined;
    if (!claim) {
      const template = ref.template !== null ? lookup('ResourceClaimTemplate', ns, ref.template) : undefined;
      out.push({
        podClaim: ref.podClaim,
        claim: ref.claimName !== null ? `${ns}/${ref.claimName}` : null,
        state: 'missing',
        devices: [],
        resources: template ? requestedResources(asObj(template.spec)?.spec, isGpu) : {},
      });
      continue;
    }
    const key = `${ns}/${claim.metadata.name}`;
    const allocated = claimDevices(claim);
    if (allocated === null) {
      out.push({
        podClaim: ref.podClaim,
        claim: key,
        state: 'pending',
        devices: [],
        resources: requestedResources(claim.spec, isGpu),
      });
      continue;
    }
    const devices: DraDevice[] = [];
    const seen = new Set<string>();
    for (const d of allocated) {
      const cls = d.deviceClassName ?? d.driver;
      const id = `${d.driver}/${d.pool}/${d.device}/${d.shareId ?? ''}`;
      if (!isGpu(cls) || seen.has(id)) continue;
      seen.add(id);
      devices.push(d);
    }
    const resources: Record<string, number> = {};
    for (const d of devices) add(resources, draResourceKey(d.deviceClassName ?? d.driver), 1);
    out.push({ podClaim: ref.podClaim, claim: key, state: 'allocated', devices, resources });
  }
  return out;
}

/**
 * GPUs of a set of pods' claims (a role's, a workload's, a node's): a claim
 * several pods share counts once. Claims with no name yet count per pod.
 */
export function draGpuResources(claims: Iterable<PodDraClaim>): Record<string, number> {
  const seen = new Set<string>();
  const out: Record<string, number> = {};
  for (const c of claims) {
    if (c.claim !== null) {
      if (seen.has(c.claim)) continue;
      seen.add(c.claim);
    }
    for (const [k, v] of Object.entries(c.resources)) add(out, k, v);
  }
  return out;
}

// ---- node capacity from ResourceSlices --------------------------------------

/** A device attribute value as the API writes it (`{string: "gpu"}`, `{int: 0}`, `{bool: true}`, `{version: "1.0.0"}`). */
type AttributeValue = string | number | boolean;

/** A device a ResourceSlice publishes. */
export interface SliceDevice {
  name: string;
  driver: string;
  pool: string;
  /** Attributes by qualified name (`gpu.nvidia.com/type`; an unqualified one gets the driver's domain). */
  attributes: Record<string, AttributeValue>;
  /** Capacity in base units (`memory: 85899345920`). */
  capacity: Record<string, number>;
}

export interface SliceFacts {
  driver: string;
  pool: string;
  generation: number;
  /** The node of a node-local slice; null for one shared by several nodes (nodeSelector, allNodes). */
  node: string | null;
  devices: SliceDevice[];
}

function attributeValue(v: unknown): AttributeValue | undefined {
  const o = asObj(v);
  if (!o) return undefined;
  for (const k of ['string', 'version', 'int', 'bool'] as const) {
    const x = o[k];
    if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') return x;
  }
  return undefined;
}

/** What a ResourceSlice of any version says. */
export function sliceFacts(slice: KubeObject): SliceFacts {
  const spec = asObj(slice.spec) ?? {};
  const driver = str(spec.driver) ?? '';
  const pool = asObj(spec.pool) ?? {};
  const devices: SliceDevice[] = [];
  for (const raw of asArray(spec.devices)) {
    const d = asObj(raw);
    const name = str(d?.name);
    if (!d || name === null) continue;
    const body = asObj(d.basic) ?? d; // v1beta1 wraps attributes and capacity in `basic`
    const attributes: Record<string, AttributeValue> = {};
    for (const [k, v] of Object.entries(asObj(body.attributes) ?? {})) {
      const value = attributeValue(v);
      if (value !== undefined) attributes[k.includes('/') ? k : `${driver}/${k}`] = value;
    }
    const capacity: Record<string, number> = {};
    for (const [k, v] of Object.entries(asObj(body.capacity) ?? {})) capacity[k] = parseQuantity(asObj(v)?.value ?? v);
    devices.push({ name, driver, pool: str(pool.name) ?? '', attributes, capacity });
  }
  return {
    driver,
    pool: str(pool.name) ?? '',
    generation: typeof pool.generation === 'number' ? pool.generation : 0,
    node: str(spec.nodeName),
    devices,
  };
}

/**
 * A DeviceClass's selectors, when they are the simple CEL NVIDIA's and most
 * drivers' classes use: `device.driver == "d"` and
 * `device.attributes["domain"].name == value`, joined by `&&`. Anything else
 * gives null (unknown), and the class's devices are counted by driver.
 */
export type DeviceMatcher = (d: SliceDevice) => boolean;

const CLAUSE_DRIVER = /^device\.driver\s*==\s*(['"])([^'"]*)\1$/;
const CLAUSE_ATTRIBUTE =
  /^device\.attributes\[(['"])([^'"]+)\1\](?:\.([A-Za-z_][A-Za-z0-9_]*)|\[(['"])([^'"]+)\4\])\s*==\s*(?:(['"])([^'"]*)\6|(true|false)|(-?\d+))$/;

export function deviceClassMatcher(deviceClass: KubeObject): DeviceMatcher | null {
  const tests: DeviceMatcher[] = [];
  for (const raw of asArray(asObj(deviceClass.spec)?.selectors)) {
    const expression = str(asObj(asObj(raw)?.cel)?.expression);
    if (expression === null) return null;
    for (const clause of expression.split('&&').map((c) =>
      c
        .trim()
        .replace(/^\((.*)\)$/, '$1')
        .trim(),
    )) {
      const d = CLAUSE_DRIVER.exec(clause);
      if (d) {
        const driver = d[2];
        tests.push((dev) => dev.driver === driver);
        continue;
      }
      const a = CLAUSE_ATTRIBUTE.exec(clause);
      if (!a) return null;
      const name = `${a[2]}/${a[3] ?? a[5]}`;
      const want: AttributeValue = a[7] !== undefined ? a[7] : a[8] !== undefined ? a[8] === 'true' : Number(a[9]);
      tests.push((dev) => dev.attributes[name] === want);
    }
  }
  return tests.length ? (dev) => tests.every((t) => t(dev)) : null;
}

/** DRA GPU capacity per node, by `dra:<deviceClass>`. */
export interface DraCapacity {
  byNode: Map<string, Record<string, number>>;
  /** Devices of slices that are not node-local (network-attached pools), by key. */
  shared: Record<string, number>;
}

/**
 * Counts the GPU devices of ResourceSlices under the first GPU DeviceClass
 * (by name) whose selectors match them; a device no class can be matched to
 * counts under `dra:<driver>` when the driver is a GPU driver. Only the
 * newest generation of each pool counts (older slices are being replaced).
 */
export function draCapacity(
  slices: readonly KubeObject[],
  deviceClasses: readonly KubeObject[],
  isGpu: (deviceClass: string) => boolean = isGpuDeviceClass,
): DraCapacity {
  const facts = slices.map(sliceFacts);
  const newest = new Map<string, number>();
  for (const f of facts) {
    const k = `${f.driver}/${f.pool}`;
    newest.set(k, Math.max(newest.get(k) ?? f.generation, f.generation));
  }
  const classes = deviceClasses
    .filter((c) => isGpu(c.metadata.name))
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
    .map((c) => ({ key: draResourceKey(c.metadata.name), matches: deviceClassMatcher(c) }));
  const out: DraCapacity = { byNode: new Map(), shared: {} };
  for (const f of facts) {
    if (f.generation !== newest.get(`${f.driver}/${f.pool}`)) continue;
    for (const d of f.devices) {
      const key = classes.find((c) => c.matches?.(d))?.key ?? (isGpu(d.driver) ? draResourceKey(d.driver) : null);
      if (key === null) continue;
      let into = out.shared;
      if (f.node !== null) {
        into = out.byNode.get(f.node) ?? {};
        out.byNode.set(f.node, into);
      }
      add(into, key, 1);
    }
  }
  return out;
}

// ---- a pod's claims in a group ------------------------------------------------

/** `namespace/name` of each of a pod's named claims → its GPUs by `dra:<deviceClass>` (PodSummary.draClaims). */
export function claimGpusByClaim(claims: readonly PodDraClaim[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const c of claims) if (c.claim !== null && Object.keys(c.resources).length) out[c.claim] = c.resources;
  return out;
}

/**
 * The GPUs of a pod's claims that a group (a role, a workload, a node) has
 * already counted through another pod sharing them, by resource key, or null
 * when there are none; the pod's claims are then marked `seen`. A group's sum
 * of pod GPUs minus these counts a shared claim once.
 */
export function repeatedClaimGpus(
  claims: Readonly<Record<string, Readonly<Record<string, number>>>> | undefined,
  seen: Set<string>,
): Record<string, number> | null {
  if (!claims) return null;
  let out: Record<string, number> | null = null;
  for (const [claim, resources] of Object.entries(claims)) {
    if (!seen.has(claim)) {
      seen.add(claim);
      continue;
    }
    out ??= {};
    for (const [k, v] of Object.entries(resources)) add(out, k, v);
  }
  return out;
}

/** The sum of a resource map's counts. */
export function resourceTotal(resources: Readonly<Record<string, number>> | null): number {
  let n = 0;
  for (const v of Object.values(resources ?? {})) n += v;
  return n;
}
