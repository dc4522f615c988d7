// What a dcgm-exporter on each GPU node of the simulated cluster would say,
// made from the simulation's state on its clock: which pod holds which GPU
// (device-plugin requests handed out in pod order, MIG instances by profile,
// DRA devices from the pods' allocated ResourceClaims) and how busy each is:
// training 70–95 %, broken-finetune's GPUs idle, llama-pretrain's second
// worker a straggler, inference varying with a slow wave, free GPUs at 0
// without pod labels. Every number comes from the seed and the simulated
// time (5 s steps, dcgm-exporter's default collection interval).
import type { ObjectStore, StoredObject } from '../object-store.js';
import { DRA_GROUP } from '../kinds-dra.js';
import { resourceKey } from '../object-store.js';
import { hash32, type SimClock } from './clock.js';
import { parseQuantity } from './pods.js';
import { isPodTerminal, R, type NodeObject, type Pod } from './types.js';

/** One device the exporter reports: a whole GPU or a MIG instance. */
export interface SimGpu {
  index: number;
  uuid: string;
  model: string;
  memoryMiB: number;
  migProfile: string | null;
  migInstance: number | null;
  /** DRA device name when a ResourceSlice publishes it. */
  draDevice: string | null;
  pod: { namespace: string; name: string; container: string; uid: string; running: boolean } | null;
}

/** How busy a pod keeps its GPUs at a simulated instant. */
export interface GpuLoad {
  utilisation: number;
  /** Of the device's memory. */
  memoryFraction: number;
}

/** A pod's load; `noise` is in [0, 1), drawn per GPU per 5 s step. */
export type GpuLoadFor = (pod: { namespace: string; name: string }, simMs: number, noise: number) => GpuLoad;

/** dcgm-exporter's default collection interval: values change in steps of it. */
export const STEP_MS = 5_000;

/** One device's labels and its DCGM fields' values (as the exporter formats them). */
export interface DcgmDeviceSamples {
  labels: Record<string, string>;
  values: Record<string, string>;
}

/** The families the simulated exporter writes, in its order (all gauges, as dcgm-exporter types them). */
const DCGM_FAMILIES: readonly { name: string; help: string }[] = [
  { name: 'DCGM_FI_DEV_SM_CLOCK', help: 'SM clock frequency (in MHz).' },
  { name: 'DCGM_FI_DEV_GPU_TEMP', help: 'GPU temperature (in C).' },
  { name: 'DCGM_FI_DEV_POWER_USAGE', help: 'Power draw (in W).' },
  { name: 'DCGM_FI_DEV_GPU_UTIL', help: 'GPU utilization (in %).' },
  { name: 'DCGM_FI_DEV_FB_FREE', help: 'Framebuffer memory free (in MiB).' },
  { name: 'DCGM_FI_DEV_FB_USED', help: 'Framebuffer memory used (in MiB).' },
  { name: 'DCGM_FI_DEV_FB_RESERVED', help: 'Framebuffer memory reserved (in MiB).' },
  { name: 'DCGM_FI_DEV_XID_ERRORS', help: 'Value of the last XID error encountered.' },
  { name: 'DCGM_FI_PROF_GR_ENGINE_ACTIVE', help: 'Ratio of time the graphics engine is active.' },
];

/** The default scenario's behaviour (see demo/sim/README.md). */
export const defaultGpuLoad: GpuLoadFor = (pod, simMs, noise) => {
  const wave = (periodMs: number) => Math.sin((2 * Math.PI * simMs) / periodMs + (hash32(pod.name) % 628) / 100);
  if (pod.namespace === 'training' && pod.name.startsWith('broken-finetune-'))
    return { utilisation: Math.round(noise * 2), memoryFraction: 0.008 }; // a CUDA context, nothing running
  if (pod.namespace === 'training' && pod.name.startsWith('llama-pretrain-worker-1-'))
    return { utilisation: Math.round(14 + noise * 8), memoryFraction: 0.62 };
  if (pod.namespace === 'inference')
    return {
      utilisation: Math.round(Math.min(90, Math.max(25, 55 + 28 * wave(300_000) + (noise - 0.5) * 10))),
      memoryFraction: 0.9,
    };
  return {
    utilisation: Math.round(Math.min(95, Math.max(70, 83 + 8 * wave(180_000) + (noise - 0.5) * 8))),
    memoryFraction: 0.78,
  };
};

const DRA_VERSIONS = ['v1', 'v1beta2', 'v1beta1'] as const;
const DRIVER_VERSION = '550.90.07';

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function hex(seed: string, n: number): string {
  let s = '';
  for (let i = 0; s.length < n; i++) s += hash32(`${seed}#${i}`).toString(16).padStart(8, '0');
  return s.slice(0, n);
}

/** A stable GPU UUID for a node's device (as nvidia-smi prints them). */
export function simGpuUuid(node: string, index: number): string {
  const h = hex(`${node}/gpu${index}`, 32);
  return `GPU-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A MIG profile's memory in MiB (`3g.40gb` → about 40 GB). */
function migMemoryMiB(profile: string): number {
  const m = /\.(\d+)gb$/.exec(profile);
  return m ? Number(m[1]) * 1000 : 10_000;
}

/** MIG instance ids the driver gives each profile on an A100/H100 (GPU_I_ID). */
const MIG_FIRST_ID: Record<string, number> = { '1g.10gb': 7, '2g.20gb': 3, '3g.40gb': 1, '7g.80gb': 0 };

function podRequest(pod: Pod, resource: string): number {
  let app = 0;
  for (const c of pod.spec.containers)
    app += parseQuantity(c.resources?.requests?.[resource] ?? c.resources?.limits?.[resource]);
  let init = 0;
  for (const c of pod.spec.initContainers ?? [])
    init = Math.max(init, parseQuantity(c.resources?.requests?.[resource] ?? c.resources?.limits?.[resource]));
  return Math.max(app, init);
}

function containerFor(pod: Pod, resource: string | null): string {
  const c = resource
    ? pod.spec.containers.find((x) => (x.resources?.limits ?? x.resources?.requests ?? {})[resource] !== undefined)
    : undefined;
  return (c ?? pod.spec.containers[0])?.name ?? '';
}

function running(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && (pod.status.containerStatuses ?? []).some((s) => s.state.running);
}

export class SimulatedDcgm {
  constructor(
    private readonly store: ObjectStore,
    private readonly clock: SimClock,
    private readonly seed: number,
    private readonly load: GpuLoadFor = defaultGpuLoad,
  ) {}

  /** The devices of a node and the pods holding them (empty for a node without GPUs). */
  devices(nodeName: string): SimGpu[] {
    const node = this.store.get(R.nodes, undefined, nodeName) as NodeObject | undefined;
    if (!node) return [];
    const labels = node.metadata.labels ?? {};
    const model = (labels['nvidia.com/gpu.product'] ?? 'NVIDIA GPU').replace(/-/g, ' ');
    const memoryMiB = Number(labels['nvidia.com/gpu.memory'] ?? 81559);
    const capacity = node.status.capacity;
    const gpus: SimGpu[] = [];
    const whole = parseQuantity(capacity['nvidia.com/gpu']);
    for (let i = 0; i < whole; i++)
      gpus.push({
        index: i,
        uuid: simGpuUuid(nodeName, i),
        model,
        memoryMiB,
        migProfile: null,
        migInstance: null,
        draDevice: null,
        pod: null,
      });
    // MIG (mixed strategy): each profile's instances spread evenly over the physical GPUs.
    const physical = Number(labels['nvidia.com/gpu.count'] ?? 0) || 1;
    for (const [resource, amount] of Object.entries(capacity).sort()) {
      const m = /^nvidia\.com\/mig-(.+)$/.exec(resource);
      if (!m) continue;
      const perGpu = Math.max(1, Math.floor(parseQuantity(amount) / physical));
      for (let g = 0; g < physical; g++)
        for (let k = 0; k < perGpu; k++)
          gpus.push({
            index: g,
            uuid: simGpuUuid(nodeName, g),
            model,
            memoryMiB: migMemoryMiB(m[1]),
            migProfile: m[1],
            migInstance: (MIG_FIRST_ID[m[1]] ?? 1) + k,
            draDevice: null,
            pod: null,
          });
    }
    for (const d of this.sliceDevices(nodeName))
      gpus.push({
        index: d.index,
        uuid: d.uuid ?? simGpuUuid(nodeName, d.index),
        // A DRA node has no device-plugin product label: the driver's slice names the model.
        model: d.productName ?? model,
        memoryMiB,
        migProfile: null,
        migInstance: null,
        draDevice: d.name,
        pod: null,
      });
    this.assign(nodeName, gpus);
    return gpus;
  }

  /**
   * What the node's exporter reports at a simulated instant (default: now),
   * one entry per device: its labels and each DCGM field's value. The
   * exporter's text and the simulated Prometheus both read it.
   */
  samples(nodeName: string, simMs = this.clock.now()): DcgmDeviceSamples[] {
    const step = Math.floor(simMs / STEP_MS);
    return this.devices(nodeName).map((g) => {
      let util = 0;
      let memFrac = 0;
      if (g.pod?.running) {
        const noise = hash32(`${this.seed}/${g.pod.uid}/${g.index}/${g.migInstance ?? ''}/${step}`) / 2 ** 32;
        const l = this.load(g.pod, step * STEP_MS, noise);
        util = l.utilisation;
        memFrac = l.memoryFraction;
      }
      const reserved = g.migProfile ? 0 : 559;
      const used = Math.round((g.memoryMiB - reserved) * memFrac);
      const labels: Record<string, string> = {
        gpu: String(g.index),
        UUID: g.uuid,
        pci_bus_id: `00000000:${(0x18 + g.index * 0x10).toString(16).toUpperCase().padStart(2, '0')}:00.0`,
        device: `nvidia${g.index}`,
        modelName: g.model,
        ...(g.migProfile ? { GPU_I_PROFILE: g.migProfile, GPU_I_ID: String(g.migInstance) } : {}),
        Hostname: nodeName,
        DCGM_FI_DRIVER_VERSION: DRIVER_VERSION,
        ...(g.pod ? { container: g.pod.container, namespace: g.pod.namespace, pod: g.pod.name } : {}),
      };
      const whole = !g.migProfile;
      const values: Record<string, string> = {};
      if (whole) {
        values['DCGM_FI_DEV_SM_CLOCK'] = String(util > 0 ? 1980 : 345);
        values['DCGM_FI_DEV_GPU_TEMP'] = String(31 + Math.round(util * 0.4));
        values['DCGM_FI_DEV_POWER_USAGE'] = (70 + util * 6.3).toFixed(3);
        values['DCGM_FI_DEV_GPU_UTIL'] = String(util);
      }
      values['DCGM_FI_DEV_FB_FREE'] = String(g.memoryMiB - reserved - used);
      values['DCGM_FI_DEV_FB_USED'] = String(used);
      if (whole) {
        values['DCGM_FI_DEV_FB_RESERVED'] = String(reserved);
        values['DCGM_FI_DEV_XID_ERRORS'] = '0';
      }
      values['DCGM_FI_PROF_GR_ENGINE_ACTIVE'] = (util / 100).toFixed(6);
      return { labels, values };
    });
  }

  /** The exporter's /metrics text for a node, or null when the node has no GPUs. */
  metricsText(nodeName: string): string | null {
    const rows = this.samples(nodeName);
    if (rows.length === 0) return null;
    const out: string[] = [];
    for (const f of DCGM_FAMILIES) {
      const list = rows.filter((r) => r.values[f.name] !== undefined);
      if (!list.length) continue;
      out.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} gauge`);
      for (const r of list) {
        const labels = Object.entries(r.labels)
          .map(([k, v]) => `${k}="${v}"`)
          .join(',');
        out.push(`${f.name}{${labels}} ${r.values[f.name]}`);
      }
    }
    return `${out.join('\n')}\n`;
  }

  /** GPU devices ResourceSlices publish for the node (any served DRA version). */
  private sliceDevices(
    nodeName: string,
  ): { name: string; index: number; uuid: string | null; productName: string | null }[] {
    const out: { name: string; index: number; uuid: string | null; productName: string | null }[] = [];
    for (const v of DRA_VERSIONS)
      for (const slice of this.store.list(resourceKey(DRA_GROUP, v, 'resourceslices'))) {
        const spec = asObj(slice['spec']);
        if (spec?.nodeName !== nodeName) continue;
        for (const raw of asArray(spec.devices)) {
          const d = asObj(raw);
          const body = asObj(d?.basic) ?? d;
          const attrs = asObj(body?.attributes) ?? {};
          if (asObj(attrs.type)?.string !== 'gpu' || typeof d?.name !== 'string') continue;
          const index = asObj(attrs.index)?.int;
          const uuid = asObj(attrs.uuid)?.string;
          const productName = asObj(attrs.productName)?.string;
          out.push({
            name: d.name,
            index: typeof index === 'number' ? index : out.length,
            uuid: typeof uuid === 'string' ? uuid : null,
            productName: typeof productName === 'string' ? productName : null,
          });
        }
      }
    return out;
  }

  /** The devices of a pod's allocated claims on this node (by device name). */
  private claimedDevices(pod: Pod): Set<string> {
    const names = new Set<string>();
    const generated = new Map<string, string>();
    for (const s of asArray(asObj(pod.status)?.['resourceClaimStatuses'])) {
      const o = asObj(s);
      if (typeof o?.name === 'string' && typeof o.resourceClaimName === 'string')
        generated.set(o.name, o.resourceClaimName);
    }
    for (const raw of asArray(pod.spec['resourceClaims'])) {
      const c = asObj(raw);
      const claimName = typeof c?.resourceClaimName === 'string' ? c.resourceClaimName : generated.get(String(c?.name));
      if (!claimName) continue;
      for (const v of DRA_VERSIONS) {
        const claim = this.store.get(resourceKey(DRA_GROUP, v, 'resourceclaims'), pod.metadata.namespace, claimName);
        for (const r of asArray(asObj(asObj(asObj(claim?.['status'])?.allocation)?.devices)?.results)) {
          const device = asObj(r)?.device;
          if (typeof device === 'string') names.add(device);
        }
      }
    }
    return names;
  }

  /** Hands the node's devices to its pods: oldest pod first, whole GPUs and MIG instances in order, DRA by claim. */
  private assign(nodeName: string, gpus: SimGpu[]): void {
    const pods = (this.store.list(R.pods) as Pod[])
      .filter((p) => p.spec.nodeName === nodeName && !isPodTerminal(p))
      .sort(
        (a, b) =>
          a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp) ||
          a.metadata.name.localeCompare(b.metadata.name),
      );
    const holder = (p: Pod, resource: string | null): SimGpu['pod'] => ({
      namespace: p.metadata.namespace ?? '',
      name: p.metadata.name,
      container: containerFor(p, resource),
      uid: p.metadata.uid,
      running: running(p),
    });
    for (const p of pods) {
      const take = (resource: string, fits: (g: SimGpu) => boolean) => {
        let n = podRequest(p, resource);
        for (const g of gpus) {
          if (n <= 0) break;
          if (g.pod || !fits(g)) continue;
          g.pod = holder(p, resource);
          n--;
        }
      };
      take('nvidia.com/gpu', (g) => g.migProfile === null && g.draDevice === null);
      const migResources = new Set<string>();
      for (const c of [...p.spec.containers, ...(p.spec.initContainers ?? [])])
        for (const r of Object.keys({ ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) }))
          if (r.startsWith('nvidia.com/mig-')) migResources.add(r);
      for (const r of migResources) {
        const profile = r.slice('nvidia.com/mig-'.length);
        take(r, (g) => g.migProfile === profile);
      }
      const claimed = this.claimedDevices(p);
      if (claimed.size)
        for (const g of gpus) if (g.draDevice !== null && claimed.has(g.draDevice) && !g.pod) g.pod = holder(p, null);
    }
  }
}

/** Whether a stored object is one of a node's dcgm-exporter pods (the label the GPU Operator sets). */
export function isDcgmExporterPod(obj: StoredObject): boolean {
  return obj.metadata.labels?.['app'] === 'nvidia-dcgm-exporter';
}
