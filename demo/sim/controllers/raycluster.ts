// KubeRay RayCluster controller (ray.io/v1, as KubeRay 1.2 behaves): a head pod
// <cluster>-head-<5 chars> and per worker group pods
// <cluster>-<group>-worker-<5 chars>, with the ray.io labels; status state
// ready, worker replica counts, desired resources, head endpoints and the
// HeadPodReady/RayClusterProvisioned conditions.
import type { StoredObject } from '../../object-store.js';
import { podRequests } from '../pods.js';
import type { Controller, Runtime } from '../runtime.js';
import { isPodReady, R, type Condition, type Pod, type PodTemplate } from '../types.js';
import { createOwnedPod } from './common.js';

export interface WorkerGroupSpec {
  groupName: string;
  replicas?: number;
  minReplicas?: number;
  maxReplicas?: number;
  rayStartParams?: Record<string, string>;
  template: PodTemplate;
}

export interface RayClusterObject extends StoredObject {
  spec: {
    rayVersion?: string;
    headGroupSpec: { rayStartParams?: Record<string, string>; template: PodTemplate; serviceType?: string };
    workerGroupSpecs?: WorkerGroupSpec[];
    suspend?: boolean;
    [k: string]: unknown;
  };
  status?: { conditions?: Condition[]; [k: string]: unknown };
}

export class RayClusterController implements Controller {
  readonly resource = R.rayclusters;
  constructor(private readonly rt: Runtime) {}

  reconcile(namespace: string | undefined, name: string): void {
    const rt = this.rt;
    const rc = rt.store.get(R.rayclusters, namespace, name) as RayClusterObject | undefined;
    if (!rc || rc.metadata.deletionTimestamp) return;
    const pods = rt.children<Pod>(rc.metadata.uid, R.pods).filter((p) => !p.metadata.deletionTimestamp);
    const heads = pods.filter((p) => p.metadata.labels?.['ray.io/node-type'] === 'head');
    if (!rc.spec.suspend) {
      if (!heads.length) this.createPod(rc, 'head', 'headgroup', rc.spec.headGroupSpec.template);
      for (const g of rc.spec.workerGroupSpecs ?? []) {
        const want = clamp(g.replicas ?? 1, g.minReplicas ?? 0, g.maxReplicas ?? 2147483647);
        const have = pods.filter(
          (p) =>
            p.metadata.labels?.['ray.io/node-type'] === 'worker' && p.metadata.labels?.['ray.io/group'] === g.groupName,
        ).length;
        for (let i = have; i < want; i++) this.createPod(rc, 'worker', g.groupName, g.template);
      }
    }

    const current = rt.store.get(R.rayclusters, namespace, name) as RayClusterObject;
    const now = rt.isoNow();
    const live = rt.children<Pod>(rc.metadata.uid, R.pods).filter((p) => !p.metadata.deletionTimestamp);
    const head = live.find((p) => p.metadata.labels?.['ray.io/node-type'] === 'head');
    const workers = live.filter((p) => p.metadata.labels?.['ray.io/node-type'] === 'worker');
    const groups = rc.spec.workerGroupSpecs ?? [];
    const desiredWorkers = groups.reduce(
      (a, g) => a + clamp(g.replicas ?? 1, g.minReplicas ?? 0, g.maxReplicas ?? 2147483647),
      0,
    );
    const readyWorkers = workers.filter((p) => p.status.phase === 'Running' && isPodReady(p)).length;
    const headReady = !!head && head.status.phase === 'Running' && isPodReady(head);
    const allReady = headReady && readyWorkers >= desiredWorkers;
    // Desired resources over the head and every desired worker.
    let cpu = 0;
    let mem = 0;
    let gpu = 0;
    const add = (t: PodTemplate, n: number): void => {
      const r = podRequests(t.spec);
      cpu += (r.cpuMilli / 1000) * n;
      mem += r.memoryBytes * n;
      gpu += r.gpu * n;
    };
    add(rc.spec.headGroupSpec.template, 1);
    for (const g of groups) add(g.template, clamp(g.replicas ?? 1, g.minReplicas ?? 0, g.maxReplicas ?? 2147483647));

    let conditions = current.status?.conditions ?? [];
    conditions = rt.setCondition(
      conditions,
      headReady
        ? { type: 'HeadPodReady', status: 'True', reason: 'HeadPodRunningAndReady' }
        : { type: 'HeadPodReady', status: 'False', reason: head ? 'HeadPodNotReady' : 'HeadPodNotFound' },
    );
    const provisioned = conditions.find((c) => c.type === 'RayClusterProvisioned')?.status === 'True';
    if (!provisioned) {
      conditions = rt.setCondition(
        conditions,
        allReady
          ? {
              type: 'RayClusterProvisioned',
              status: 'True',
              reason: 'AllPodRunningAndReadyFirstTime',
              message: 'All Ray Pods are ready for the first time',
            }
          : {
              type: 'RayClusterProvisioned',
              status: 'False',
              reason: 'RayClusterPodsProvisioning',
              message: 'RayCluster Pods are being provisioned for first time',
            },
      );
    }
    const prev = current.status ?? {};
    const state = allReady || prev['state'] === 'ready' ? 'ready' : undefined;
    const status: Record<string, unknown> = {
      ...(state ? { state } : {}),
      ...(state && !prev['readyTimestamp']
        ? { readyTimestamp: now }
        : prev['readyTimestamp']
          ? { readyTimestamp: prev['readyTimestamp'] }
          : {}),
      availableWorkerReplicas: readyWorkers,
      readyWorkerReplicas: readyWorkers,
      desiredWorkerReplicas: desiredWorkers,
      minWorkerReplicas: groups.reduce((a, g) => a + (g.minReplicas ?? 0), 0),
      maxWorkerReplicas: groups.reduce((a, g) => a + (g.maxReplicas ?? g.replicas ?? 1), 0),
      desiredCPU: formatCpu(cpu),
      desiredMemory: formatMemory(mem),
      desiredGPU: String(gpu),
      desiredTPU: '0',
      endpoints: { client: '10001', dashboard: '8265', 'gcs-server': '6379', metrics: '8080' },
      head: {
        ...(head?.status.podIP ? { podIP: head.status.podIP } : {}),
        ...(head ? { podName: head.metadata.name } : {}),
        serviceIP: '10.96.34.12',
        serviceName: `${name}-head-svc`,
      },
      observedGeneration: rc.metadata.generation ?? 1,
      conditions,
    };
    const same =
      JSON.stringify({ ...(prev as object), lastUpdateTime: undefined }) ===
      JSON.stringify({ ...status, lastUpdateTime: undefined });
    if (!same) rt.putStatus(R.rayclusters, current, { ...status, lastUpdateTime: now });
  }

  private createPod(rc: RayClusterObject, nodeType: 'head' | 'worker', group: string, template: PodTemplate): void {
    const name = rc.metadata.name;
    const prefix = nodeType === 'head' ? `${name}-head-` : `${name}-${group}-worker-`;
    createOwnedPod(
      this.rt,
      rc,
      {
        namespace: rc.metadata.namespace!,
        name: `${prefix}${this.rt.rng.suffix(5)}`,
        generateName: prefix,
        template,
        labels: {
          'ray.io/cluster': name,
          'ray.io/node-type': nodeType,
          'ray.io/group': group,
          'ray.io/identifier': `${name}-${nodeType}`,
          'ray.io/is-ray-node': 'yes',
          'app.kubernetes.io/name': 'kuberay',
          'app.kubernetes.io/created-by': 'kuberay-operator',
        },
        annotations: { 'ray.io/ft-enabled': 'false' },
      },
      {
        component: 'raycluster-controller',
        reason: nodeType === 'head' ? 'CreatedHeadPod' : 'CreatedWorkerPod',
        message: (p) => `Created ${nodeType} Pod ${p.metadata.namespace}/${p.metadata.name}`,
      },
    );
  }
}

function clamp(v: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, v));
}

function formatCpu(cores: number): string {
  return Number.isInteger(cores) ? String(cores) : `${Math.round(cores * 1000)}m`;
}

function formatMemory(bytes: number): string {
  const gi = bytes / 2 ** 30;
  return Number.isInteger(gi) ? `${gi}Gi` : `${Math.round(bytes / 2 ** 20)}Mi`;
}
