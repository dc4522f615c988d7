// A kube-scheduler for the simulated cluster: one queue of unbound pods, one
// pass at a time (not a timer per pod). Filters in the default profile's order
// (NodeUnschedulable, TaintToleration, NodeAffinity/nodeSelector,
// NodeResourcesFit); the first failing plugin gives a node's reasons, and the
// FitError message counts nodes per reason exactly as the real one prints it.
// Scoring bin-packs GPUs (MostAllocated, as GPU clusters configure it) with
// ties going to the first node by name, so a seed gives one outcome.
import type { StoreEvent } from '../object-store.js';
import { parseQuantity, podRequests, tolerates, type PodRequests } from './pods.js';
import type { Runtime } from './runtime.js';
import { isPodTerminal, podKey, R, type NodeObject, type Pod } from './types.js';

const RETRY_UNSCHEDULABLE_MS = 60_000; // the unschedulable queue is flushed periodically
const PASS_DELAY_MS = 300; // pods are picked up shortly after they appear

interface NodeUsage {
  cpuMilli: number;
  memoryBytes: number;
  gpu: number;
  pods: number;
}

interface Placement {
  node: string;
  req: PodRequests;
}

export class Scheduler {
  private readonly nodes = new Map<string, NodeObject>();
  private sortedNodes: NodeObject[] | undefined;
  private readonly usage = new Map<string, NodeUsage>();
  private readonly placed = new Map<string, Placement>(); // pod uid → where its requests are counted
  /** podKey → first-seen order, for FIFO within a priority. */
  private readonly pending = new Map<string, number>();
  private readonly unschedulable = new Set<string>();
  private seq = 0;
  private passScheduled = false;
  private readonly stopRetry: () => void;

  constructor(private readonly rt: Runtime) {
    rt.hook((e) => this.onEvent(e));
    this.stopRetry = rt.clock.every(RETRY_UNSCHEDULABLE_MS, () => this.retryUnschedulable());
  }

  stop(): void {
    this.stopRetry();
  }

  /** GPUs requested by bound, non-terminal pods on `node`. */
  usedGpus(node: string): number {
    return this.usage.get(node)?.gpu ?? 0;
  }

  private onEvent(e: StoreEvent): void {
    if (e.resourceKey === R.nodes) {
      const node = e.object as NodeObject;
      const before = this.nodes.get(node.metadata.name);
      if (e.type === 'DELETED') this.nodes.delete(node.metadata.name);
      else this.nodes.set(node.metadata.name, node);
      if (!before || e.type === 'DELETED') this.sortedNodes = undefined;
      // Heartbeats do not change what fits; only schedulability does.
      if (!before || e.type === 'DELETED' || nodeSignature(before) !== nodeSignature(node)) this.retryUnschedulable();
      return;
    }
    if (e.resourceKey !== R.pods) return;
    const pod = e.object as Pod;
    const key = podKey(pod);
    const uid = pod.metadata.uid;
    if (e.type === 'DELETED') {
      this.unplace(uid);
      this.pending.delete(key);
      this.unschedulable.delete(key);
      this.retryUnschedulable();
      return;
    }
    const nodeName = pod.spec.nodeName;
    if (nodeName) {
      this.pending.delete(key);
      this.unschedulable.delete(key);
      if (isPodTerminal(pod)) {
        if (this.placed.has(uid)) {
          this.unplace(uid);
          this.retryUnschedulable();
        }
      } else if (this.placed.get(uid)?.node !== nodeName) {
        this.unplace(uid);
        this.place(uid, nodeName, podRequests(pod.spec));
      }
      return;
    }
    if (pod.metadata.deletionTimestamp || isPodTerminal(pod)) return;
    if ((pod.spec.schedulerName ?? 'default-scheduler') !== 'default-scheduler') return;
    if (!this.pending.has(key)) {
      this.pending.set(key, this.seq++);
      this.schedulePass();
    }
  }

  private place(uid: string, node: string, req: PodRequests): void {
    this.placed.set(uid, { node, req });
    const u = this.usage.get(node) ?? { cpuMilli: 0, memoryBytes: 0, gpu: 0, pods: 0 };
    this.usage.set(node, {
      cpuMilli: u.cpuMilli + req.cpuMilli,
      memoryBytes: u.memoryBytes + req.memoryBytes,
      gpu: u.gpu + req.gpu,
      pods: u.pods + 1,
    });
  }

  private unplace(uid: string): void {
    const p = this.placed.get(uid);
    if (!p) return;
    this.placed.delete(uid);
    const u = this.usage.get(p.node);
    if (u)
      this.usage.set(p.node, {
        cpuMilli: u.cpuMilli - p.req.cpuMilli,
        memoryBytes: u.memoryBytes - p.req.memoryBytes,
        gpu: u.gpu - p.req.gpu,
        pods: u.pods - 1,
      });
  }

  private retryUnschedulable(): void {
    if (!this.unschedulable.size) return;
    this.unschedulable.clear();
    this.schedulePass();
  }

  private schedulePass(): void {
    if (this.passScheduled) return;
    this.passScheduled = true;
    this.rt.clock.after(PASS_DELAY_MS, () => {
      this.passScheduled = false;
      this.pass();
    });
  }

  /** One scheduling cycle over every queued pod: priority first, then arrival. */
  private pass(): void {
    const queue = [...this.pending.entries()]
      .filter(([key]) => !this.unschedulable.has(key))
      .map(([key, seq]) => {
        const [ns, name] = splitKey(key);
        return { key, seq, pod: this.rt.store.get(R.pods, ns, name) as Pod | undefined };
      })
      .filter((q): q is { key: string; seq: number; pod: Pod } => q.pod !== undefined)
      .sort((a, b) => (b.pod.spec.priority ?? 0) - (a.pod.spec.priority ?? 0) || a.seq - b.seq);
    for (const { key, pod } of queue) {
      if (pod.spec.nodeName || pod.metadata.deletionTimestamp) {
        this.pending.delete(key);
        continue;
      }
      this.scheduleOne(key, pod);
    }
  }

  private nodeList(): NodeObject[] {
    if (!this.sortedNodes)
      this.sortedNodes = [...this.nodes.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    return this.sortedNodes;
  }

  /**
   * Binds a pod that is about to be stored already running (a scenario's
   * settled objects): same filters and scoring as a scheduling pass, no
   * events. Returns false when nothing fits (the pod then queues normally).
   */
  bindSettled(pod: Pod): boolean {
    const req = podRequests(pod.spec);
    const found = this.findNode(pod, req);
    if (typeof found === 'string') return false;
    this.place(pod.metadata.uid, found.metadata.name, req);
    pod.spec = { ...pod.spec, nodeName: found.metadata.name };
    return true;
  }

  /** The best node for the pod, or kube-scheduler's FitError message. */
  private findNode(pod: Pod, req: PodRequests): NodeObject | string {
    const reasons = new Map<string, number>();
    const unresolvable = new Map<string, number>();
    let best: { node: NodeObject; score: number } | undefined;
    const nodes = this.nodeList().map((n) => this.nodes.get(n.metadata.name) ?? n);
    for (const node of nodes) {
      const failed = this.filter(pod, node, req);
      if (failed) {
        for (const r of failed.reasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
        const preemptionReason = failed.resolvable
          ? 'No preemption victims found for incoming pod'
          : 'Preemption is not helpful for scheduling';
        unresolvable.set(preemptionReason, (unresolvable.get(preemptionReason) ?? 0) + 1);
        continue;
      }
      const score = this.score(node, req);
      if (!best || score > best.score) best = { node, score };
    }
    if (best) return best.node;
    const total = nodes.length;
    if (total === 0) return 'no nodes available to schedule pods';
    return (
      `0/${total} nodes are available: ${histogram(reasons)}. ` +
      `preemption: 0/${total} nodes are available: ${histogram(unresolvable)}.`
    );
  }

  private scheduleOne(key: string, pod: Pod): void {
    const req = podRequests(pod.spec);
    const found = this.findNode(pod, req);
    if (typeof found === 'string') this.markUnschedulable(key, pod, found);
    else this.bind(key, pod, found.metadata.name, req);
  }

  private filter(pod: Pod, node: NodeObject, req: PodRequests): { reasons: string[]; resolvable: boolean } | undefined {
    if (node.spec.unschedulable) {
      if (!tolerates(pod.spec, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }))
        return { reasons: ['node(s) were unschedulable'], resolvable: false };
    }
    for (const taint of node.spec.taints ?? []) {
      if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
      if (!tolerates(pod.spec, taint))
        return { reasons: [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`], resolvable: false };
    }
    const selector = pod.spec.nodeSelector ?? {};
    const labels = node.metadata.labels ?? {};
    if (Object.entries(selector).some(([k, v]) => labels[k] !== v))
      return { reasons: ["node(s) didn't match Pod's node affinity/selector"], resolvable: false };
    const a = node.status.allocatable;
    const u = this.usage.get(node.metadata.name) ?? { cpuMilli: 0, memoryBytes: 0, gpu: 0, pods: 0 };
    const out: string[] = [];
    if (u.pods + 1 > Number(a['pods'] ?? 110)) out.push('Too many pods');
    if (req.cpuMilli && u.cpuMilli + req.cpuMilli > Math.round(parseQuantity(a['cpu']) * 1000))
      out.push('Insufficient cpu');
    if (req.memoryBytes && u.memoryBytes + req.memoryBytes > parseQuantity(a['memory']))
      out.push('Insufficient memory');
    if (req.gpu && u.gpu + req.gpu > Number(a['nvidia.com/gpu'] ?? 0)) out.push('Insufficient nvidia.com/gpu');
    return out.length ? { reasons: out, resolvable: true } : undefined;
  }

  /** MostAllocated: the fuller the node after placement, the better (GPUs dominate). */
  private score(node: NodeObject, req: PodRequests): number {
    const a = node.status.allocatable;
    const u = this.usage.get(node.metadata.name) ?? { cpuMilli: 0, memoryBytes: 0, gpu: 0, pods: 0 };
    const gpuCap = Number(a['nvidia.com/gpu'] ?? 0);
    const cpuCap = parseQuantity(a['cpu']) * 1000 || 1;
    const gpuFrac = gpuCap ? (u.gpu + req.gpu) / gpuCap : 0;
    const cpuFrac = (u.cpuMilli + req.cpuMilli) / cpuCap;
    // A pod without GPUs should not use up a GPU node's CPUs when a CPU node fits.
    const gpuPenalty = req.gpu === 0 && gpuCap > 0 ? -10 : 0;
    return gpuFrac * 10 + cpuFrac + gpuPenalty;
  }

  private bind(key: string, pod: Pod, nodeName: string, req: PodRequests): void {
    this.pending.delete(key);
    this.place(pod.metadata.uid, nodeName, req);
    const conditions = this.rt.setCondition(pod.status.conditions, { type: 'PodScheduled', status: 'True' }, [
      'lastProbeTime',
      'lastTransitionTime',
    ]);
    const bound = this.rt.update(R.pods, pod, {
      spec: { ...pod.spec, nodeName },
      status: { ...pod.status, conditions },
    });
    this.rt.events.record(bound, {
      type: 'Normal',
      reason: 'Scheduled',
      message: `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${nodeName}`,
      component: 'default-scheduler',
      instance: 'default-scheduler-control-plane',
    });
  }

  private markUnschedulable(key: string, pod: Pod, message: string): void {
    this.unschedulable.add(key);
    const conditions = this.rt.setCondition(
      pod.status.conditions,
      { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message },
      ['lastProbeTime', 'lastTransitionTime'],
    );
    const current = this.rt.putStatus(R.pods, pod, { ...pod.status, phase: 'Pending', conditions });
    this.rt.events.record(current, {
      type: 'Warning',
      reason: 'FailedScheduling',
      message,
      component: 'default-scheduler',
      instance: 'default-scheduler-control-plane',
    });
  }
}

/** "12 Insufficient nvidia.com/gpu, 2 node(s) didn't match ..." sorted as strings, as FitError does. */
function histogram(counts: Map<string, number>): string {
  return [...counts.entries()]
    .map(([reason, n]) => `${n} ${reason}`)
    .sort()
    .join(', ');
}

function nodeSignature(n: NodeObject): string {
  return JSON.stringify([
    n.spec.unschedulable ?? false,
    n.spec.taints ?? [],
    n.status.allocatable,
    n.metadata.labels ?? {},
  ]);
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}
