// The scale scenario, for benchmarks (up to 5,000 nodes and 100,000 pods on a
// 2-core machine): N GPU nodes, M workloads of K pods each, a mix of JobSets,
// PyTorchJobs and LeaderWorkerSets spread over 20 team namespaces. The real
// controllers create the children, but quietly and with every pod bound and
// Running before it is first stored (no scheduling pass, no kubelet stages,
// no per-pod timers, no events). Churn is one clock task per tick that flips
// readiness or bumps restart counts of random running pods.
import type { JobSetObject } from '../controllers/jobset.js';
import type { LeaderWorkerSetObject } from '../controllers/lws.js';
import type { TrainingJobObject } from '../controllers/kubeflow.js';
import { hash32 } from '../clock.js';
import { podRequests, readyConditions, runningPodStatus } from '../pods.js';
import type { Runtime } from '../runtime.js';
import { isPodTerminal, R, type ContainerStatus, type Pod, type PodTemplate } from '../types.js';
import { buildNode, createNamespaces, GPU_SELECTOR, GPU_TOLERATIONS, guaranteed, nvlinkClique } from './cluster.js';

export interface ScaleOptions {
  nodes: number;
  workloads: number;
  podsPerWorkload: number;
}

export interface ScaleResult {
  nodes: number;
  workloads: number;
  pods: number;
  /** Wall time to build everything, ms. */
  buildMs: number;
  /** Heap used after building, bytes. */
  heapUsed: number;
  /** Namespace and name of each pod churn may touch (parallel arrays: no per-pod strings). */
  podNamespaces: string[];
  podNames: string[];
}

const GPUS_PER_NODE = 8;

const imageIDs = new Map<string, string>();
/** One digest per image, as a registry gives (and one string shared by all pods). */
function imageID(image: string): string {
  let id = imageIDs.get(image);
  if (!id) {
    let hex = '';
    for (let i = 0; hex.length < 64; i++) hex += hash32(`${image}#${i}`).toString(16).padStart(8, '0');
    id = `${image.replace(/:[^/:]+$/, '')}@sha256:${hex}`;
    imageIDs.set(image, id);
  }
  return id;
}
const TEAMS = 20;

/** Nodes per NVLink domain: the 18 compute trays of a GB200 NVL72 (here of 8 GPUs each). */
export const NVLINK_DOMAIN_NODES = 18;
/** NVLink domains per `network.topology.kubernetes.io/rack` value (two NVL72s behind one leaf switch). */
export const DOMAINS_PER_RACK = 2;

/**
 * Where node `i` of `n` sits: consecutive nodes share an NVLink domain of 18, two domains make a rack,
 * and the racks are dealt in contiguous runs over 2–4 zones (one zone while there is one rack).
 */
export function scaleTopology(i: number, n: number): { zone: string; rack: string; clique: string } {
  const domain = Math.floor(i / NVLINK_DOMAIN_NODES);
  const rack = Math.floor(domain / DOMAINS_PER_RACK);
  const racks = Math.max(1, Math.ceil(n / (NVLINK_DOMAIN_NODES * DOMAINS_PER_RACK)));
  const zones = Math.min(4, racks);
  const zone = Math.floor((rack * zones) / racks);
  const rackName = `rack-${String(rack + 1).padStart(3, '0')}`;
  return {
    zone: `us-east-1${'abcd'[zone]}`,
    rack: rackName,
    clique: nvlinkClique(rackName, (domain % DOMAINS_PER_RACK) + 1),
  };
}

export function createScaleScenario(rt: Runtime, o: ScaleOptions): ScaleResult {
  const started = Date.now();
  const created = rt.clock.iso(rt.clock.now() - 2 * 3_600_000 * rt.clock.speed);
  const width = Math.max(4, String(o.nodes).length);
  const nodeNames: string[] = [];
  for (let i = 0; i < o.nodes; i++) {
    const name = `gpu-node-${String(i + 1).padStart(width, '0')}`;
    nodeNames.push(name);
    rt.create(R.nodes, buildNode(rt, { name, index: i, gpus: GPUS_PER_NODE, ...scaleTopology(i, o.nodes) }, created));
  }
  const namespaces = Array.from({ length: TEAMS }, (_, i) => `team-${String(i).padStart(2, '0')}`);
  createNamespaces(rt, ['default', 'kube-system', ...namespaces], created);

  // Placement: GPU pods fill nodes' GPUs in order; CPU-only pods (once the
  // GPUs are spoken for) spread over the nodes' pod slots.
  const gpuFree = new Array<number>(o.nodes).fill(GPUS_PER_NODE);
  const podCount = new Array<number>(o.nodes).fill(0);
  const ipNext = new Array<number>(o.nodes).fill(2);
  let gpuCursor = 0;
  let cpuCursor = 0;
  const maxPods = Math.max(110, Math.ceil((o.workloads * o.podsPerWorkload) / Math.max(1, o.nodes)) + 1);
  const place = (gpus: number): number => {
    if (!o.nodes) return -1;
    if (gpus > 0) {
      for (let tries = 0; tries < o.nodes; tries++, gpuCursor = (gpuCursor + 1) % o.nodes) {
        if (gpuFree[gpuCursor] >= gpus && podCount[gpuCursor] < maxPods) return gpuCursor;
      }
      return -1;
    }
    for (let tries = 0; tries < o.nodes; tries++) {
      const i = cpuCursor;
      cpuCursor = (cpuCursor + 1) % o.nodes;
      if (podCount[i] < maxPods) return i;
    }
    return -1;
  };
  const podNamespaces: string[] = [];
  const podNames: string[] = [];
  const nowIso = rt.clock.iso();
  // Shared, never mutated: every settled pod's conditions are the same.
  const conditions = readyConditions(nowIso);
  rt.quiet = true;
  rt.admitPod = (pod: Pod): void => {
    const req = podRequests(pod.spec);
    const n = place(req.gpu);
    if (n < 0) return; // stays Pending; the scheduler will report why
    gpuFree[n] -= req.gpu;
    podCount[n] += 1;
    const ip = ipNext[n];
    ipNext[n] = ip >= 254 ? 2 : ip + 1;
    const podIP = `10.${64 + Math.floor(n / 256)}.${n % 256}.${ip}`;
    const hostIP = `10.0.${Math.floor(n / 250)}.${(n % 250) + 4}`;
    pod.spec.nodeName = nodeNames[n]!;
    pod.status = runningPodStatus(pod, {
      at: nowIso,
      hostIP,
      podIP,
      qosClass: 'Guaranteed',
      conditions,
      imageID,
      containerID: () => `containerd://${rt.rng.hex(64)}`,
    });
    podNamespaces.push(pod.metadata.namespace!);
    podNames.push(pod.metadata.name);
  };

  const K = Math.max(1, o.podsPerWorkload);
  const totalGpus = o.nodes * GPUS_PER_NODE;
  let gpuBudget = totalGpus;
  for (let w = 0; w < o.workloads; w++) {
    const ns = namespaces[w % TEAMS];
    const kind = w % 3;
    // GPU workloads while the cluster has GPUs left, CPU-only (data prep) after.
    const gpus = gpuBudget >= K ? 1 : 0;
    gpuBudget -= gpus * K;
    const template = (name: string): PodTemplate => ({
      metadata: { labels: { app: name } },
      spec: {
        containers: [
          {
            name: 'main',
            image: kind === 2 ? 'vllm/vllm-openai:v0.6.3.post1' : 'nvcr.io/nvidia/pytorch:24.07-py3',
            resources: guaranteed(gpus ? '8' : '2', gpus ? '64Gi' : '8Gi', gpus),
          },
        ],
        ...(gpus ? { tolerations: GPU_TOLERATIONS, nodeSelector: GPU_SELECTOR } : {}),
        restartPolicy: kind === 2 ? 'Always' : 'Never',
      },
    });
    const meta = (name: string) => ({
      name,
      namespace: ns,
      uid: '',
      resourceVersion: '',
      creationTimestamp: created,
      generation: 1,
      labels: { 'wlx.demo/scale': 'true' },
    });
    if (kind === 0) {
      const name = `pretrain-${String(w).padStart(5, '0')}`;
      const js: JobSetObject = {
        apiVersion: 'jobset.x-k8s.io/v1alpha2',
        kind: 'JobSet',
        metadata: meta(name),
        spec: {
          network: { enableDNSHostnames: true, subdomain: name },
          successPolicy: { operator: 'All', targetReplicatedJobs: [] },
          failurePolicy: { maxRestarts: 3 },
          replicatedJobs: [
            {
              name: 'worker',
              replicas: 1,
              template: {
                spec: {
                  parallelism: K,
                  completions: K,
                  backoffLimit: 0,
                  completionMode: 'Indexed',
                  template: template(name),
                },
              },
            },
          ],
        },
      };
      rt.create(R.jobsets, js);
    } else if (kind === 1) {
      const name = `finetune-${String(w).padStart(5, '0')}`;
      const job: TrainingJobObject = {
        apiVersion: 'kubeflow.org/v1',
        kind: 'PyTorchJob',
        metadata: meta(name),
        spec: {
          runPolicy: { cleanPodPolicy: 'None' },
          pytorchReplicaSpecs: {
            Master: { replicas: 1, restartPolicy: 'OnFailure', template: template(name) },
            ...(K > 1 ? { Worker: { replicas: K - 1, restartPolicy: 'OnFailure', template: template(name) } } : {}),
          },
        },
      };
      rt.create(R.pytorchjobs, job);
    } else {
      const name = `serve-${String(w).padStart(5, '0')}`;
      const size = K % 4 === 0 ? 4 : K % 2 === 0 ? 2 : 1;
      const lws: LeaderWorkerSetObject = {
        apiVersion: 'leaderworkerset.x-k8s.io/v1',
        kind: 'LeaderWorkerSet',
        metadata: meta(name),
        spec: {
          replicas: K / size,
          startupPolicy: 'LeaderCreated',
          leaderWorkerTemplate: { size, workerTemplate: template(name) },
        },
      };
      rt.create(R.leaderworkersets, lws);
    }
    // Let the controllers build this workload's children now, so memory for
    // the work queue stays small.
    rt.flush();
  }
  rt.quiet = false;
  rt.admitPod = undefined;
  const mem = process.memoryUsage();
  return {
    nodes: o.nodes,
    workloads: o.workloads,
    pods: podNames.length,
    buildMs: Date.now() - started,
    heapUsed: mem.heapUsed,
    podNamespaces,
    podNames,
  };
}

/**
 * Pod status churn: `perSecond` changes per real second, made by one clock
 * task every 100 ms: mostly readiness flips, sometimes a container restart.
 */
export function startChurn(rt: Runtime, built: ScaleResult, perSecond: number): () => void {
  if (!(perSecond > 0) || !built.podNames.length) return () => {};
  const tickMs = 100 * rt.clock.speed; // 100 ms of real time
  let carry = 0;
  return rt.clock.every(tickMs, () => {
    carry += perSecond / 10;
    const n = Math.floor(carry);
    carry -= n;
    for (let i = 0; i < n; i++) {
      const j = rt.rng.int(built.podNames.length);
      churnOne(rt, built.podNamespaces[j], built.podNames[j]);
    }
  });
}

function churnOne(rt: Runtime, namespace: string, name: string): void {
  const pod = rt.store.get(R.pods, namespace, name) as Pod | undefined;
  if (!pod || pod.metadata.deletionTimestamp || isPodTerminal(pod) || !pod.status.containerStatuses?.length) return;
  const now = rt.clock.iso();
  const cs = pod.status.containerStatuses[0];
  const restart = rt.rng.next() < 0.25;
  let next: ContainerStatus;
  let ready: boolean;
  if (restart) {
    next = {
      ...cs,
      restartCount: cs.restartCount + 1,
      lastState: {
        terminated: {
          exitCode: 1,
          reason: 'Error',
          startedAt: cs.state.running?.startedAt ?? now,
          finishedAt: now,
          containerID: cs.containerID,
        },
      },
      state: { running: { startedAt: now } },
      containerID: `containerd://${rt.rng.hex(64)}`,
      ready: false,
    };
    ready = false;
  } else {
    ready = !cs.ready;
    next = { ...cs, ready };
  }
  const unready = { reason: 'ContainersNotReady', message: `containers with unready status: [${cs.name}]` };
  const conditions = (pod.status.conditions ?? []).map((c) =>
    c.type === 'Ready' || c.type === 'ContainersReady'
      ? ready
        ? { type: c.type, status: 'True' as const, lastProbeTime: null, lastTransitionTime: now }
        : { type: c.type, status: 'False' as const, ...unready, lastProbeTime: null, lastTransitionTime: now }
      : c,
  );
  rt.update(R.pods, pod, {
    status: { ...pod.status, conditions, containerStatuses: [next, ...pod.status.containerStatuses.slice(1)] },
  });
}
