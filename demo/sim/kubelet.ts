// The simulated kubelets: one per node conceptually, one object in practice,
// driven by pod events and by tasks on the simulated clock (one pending task
// per pod, never a timer per pod). Stages follow KWOK's pod stages and the
// real kubelet's status shapes: sync (ContainerCreating) → image pull →
// Created/Started → Ready; optional crash → CrashLoopBackOff with doubling
// back-off; completion for batch pods; ErrImagePull → ImagePullBackOff; graceful
// deletion. Every step writes the Events kubectl describe shows. Also the node
// heartbeat (Ready condition lastHeartbeatTime).
import type { StoreEvent } from '../object-store.js';
import { hash32, type TaskHandle } from './clock.js';
import type { LogStore } from './logs.js';
import type { Runtime } from './runtime.js';
import { runningPodStatus } from './pods.js';
import {
  isPodTerminal,
  podKey,
  R,
  type Condition,
  type ContainerSpec,
  type ContainerState,
  type ContainerStatus,
  type NodeObject,
  type Pod,
  type PodStatus,
} from './types.js';

/** How a pod's containers behave once started (chosen by the scenario). */
export interface PodBehaviour {
  /** The main container dies this long after becoming ready, every attempt. */
  crash?: { afterMs: [number, number]; reason: string; exitCode: number; message?: string; lastWords?: string[] };
  /** The container exits 0 this long after becoming ready (batch pods). */
  completeAfterMs?: [number, number];
  /** Pulling the image fails with this registry error. */
  imagePullError?: string;
  /** Extra pod conditions the kubelet keeps (readiness gates set by some other controller). */
  extraConditions?: Condition[];
}

export type BehaviourFor = (pod: Pod) => PodBehaviour | undefined;

export interface KubeletOptions {
  heartbeatMs: number;
  /** Image pull time when the node does not have the image yet (simulated ms). */
  pullMs: [number, number];
  /** From Started to Ready (readiness probe). */
  readyMs: [number, number];
}

const BACKOFF_START_MS = 10_000;
const BACKOFF_MAX_MS = 300_000;

type Stage =
  | 'syncing'
  | 'pulling'
  | 'starting'
  | 'running'
  | 'ready'
  | 'crashed'
  | 'backoff'
  | 'pullbackoff'
  | 'done'
  | 'terminating';

interface PodRun {
  uid: string;
  namespace: string;
  name: string;
  node: string;
  stage: Stage;
  task?: TaskHandle;
  backoffMs: number;
  behaviour: PodBehaviour | undefined;
}

export class Kubelet {
  private readonly runs = new Map<string, PodRun>(); // podKey → run
  private readonly nodeImages = new Map<string, Set<string>>();
  private readonly nextIp = new Map<string, number>();
  private readonly stopHeartbeat: () => void;
  private heartbeatRound = 0;

  constructor(
    private readonly rt: Runtime,
    private readonly logs: LogStore,
    private readonly behaviourFor: BehaviourFor,
    private readonly opts: KubeletOptions,
  ) {
    rt.hook((e) => this.onEvent(e));
    const batches = 10;
    this.stopHeartbeat = rt.clock.every(opts.heartbeatMs / batches, () => this.heartbeat(batches));
  }

  stop(): void {
    this.stopHeartbeat();
    for (const run of this.runs.values()) this.rt.clock.cancel(run.task);
  }

  private onEvent(e: StoreEvent): void {
    if (e.resourceKey !== R.pods) return;
    const pod = e.object as Pod;
    const key = podKey(pod);
    let run = this.runs.get(key);
    if (e.type === 'DELETED') {
      if (run && run.uid === pod.metadata.uid) {
        this.rt.clock.cancel(run.task);
        this.runs.delete(key);
      }
      this.logs.forget(
        pod.metadata.uid,
        pod.spec.containers.map((c) => c.name),
      );
      return;
    }
    if (run && run.uid !== pod.metadata.uid) {
      this.rt.clock.cancel(run.task); // same name, new pod (StatefulSet)
      this.runs.delete(key);
      run = undefined;
    }
    if (pod.metadata.deletionTimestamp) {
      if (run?.stage !== 'terminating') this.beginTermination(pod, run);
      return;
    }
    const node = pod.spec.nodeName;
    if (!node || run) return;
    // Built already running (the scale scenario): nothing to drive; its logs
    // are produced on first read.
    if (pod.status.containerStatuses?.length) return;
    run = {
      uid: pod.metadata.uid,
      namespace: pod.metadata.namespace!,
      name: pod.metadata.name,
      node,
      stage: 'syncing',
      backoffMs: BACKOFF_START_MS,
      behaviour: this.behaviourFor(pod),
    };
    this.runs.set(key, run);
    this.next(run, this.jitter(200, 900), () => this.sync(run));
  }

  /**
   * Gives a pod that is about to be stored the status of one running and
   * ready since `at` (scenario objects that predate the simulation); its node
   * keeps the images, so a restart finds them present.
   */
  settle(pod: Pod, at: string): void {
    const node = pod.spec.nodeName!;
    const hostIP = this.hostIP(node);
    const podIP = this.podIP(node);
    const images = this.nodeImages.get(node) ?? new Set<string>();
    this.nodeImages.set(node, images);
    for (const c of pod.spec.containers) images.add(c.image);
    pod.status = runningPodStatus(pod, {
      at,
      hostIP,
      podIP,
      qosClass: 'BestEffort',
      imageID: (image) => this.imageID(image),
      containerID: () => `containerd://${this.rt.rng.hex(64)}`,
    });
  }

  // ---- helpers -------------------------------------------------------------

  private jitter(min: number, max: number): number {
    return Math.round(this.rt.rng.between(min, max));
  }

  private next(run: PodRun, delayMs: number, fn: () => void): void {
    this.rt.clock.cancel(run.task);
    run.task = this.rt.clock.after(delayMs, () => {
      run.task = undefined;
      fn();
    });
  }

  /** The stored pod if it is still the one this run is for. */
  private current(run: PodRun): Pod | undefined {
    const pod = this.rt.store.get(R.pods, run.namespace, run.name) as Pod | undefined;
    if (!pod || pod.metadata.uid !== run.uid || pod.metadata.deletionTimestamp) return undefined;
    return pod;
  }

  private writeStatus(pod: Pod, status: PodStatus): Pod {
    return this.rt.update(R.pods, pod, { status });
  }

  private event(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string, container?: string): void {
    this.rt.events.record(pod, {
      type,
      reason,
      message,
      component: 'kubelet',
      host: pod.spec.nodeName,
      ...(container ? { fieldPath: `spec.containers{${container}}` } : {}),
    });
  }

  private conditions(
    pod: Pod,
    s: { readyToStart: boolean; containersReady: boolean; notReadyReason?: string; unready?: string[] },
  ): Condition[] {
    const rt = this.rt;
    let list = pod.status.conditions ?? [];
    list = rt.setCondition(list, { type: 'PodReadyToStartContainers', status: s.readyToStart ? 'True' : 'False' }, [
      'lastProbeTime',
      'lastTransitionTime',
    ]);
    list = rt.setCondition(list, { type: 'Initialized', status: 'True' }, ['lastProbeTime', 'lastTransitionTime']);
    const extra = this.runs.get(podKey(pod))?.behaviour?.extraConditions ?? [];
    const gates = pod.spec.readinessGates ?? [];
    const gateBlocked = gates.find((g) => !extra.some((c) => c.type === g.conditionType && c.status === 'True'));
    const ready = s.containersReady && !gateBlocked;
    const unreadyMsg = `containers with unready status: [${(s.unready ?? pod.spec.containers.map((c) => c.name)).join(' ')}]`;
    const notReady = (): Pick<Condition, 'reason' | 'message'> =>
      s.notReadyReason === 'PodCompleted'
        ? { reason: 'PodCompleted' }
        : !s.containersReady
          ? { reason: 'ContainersNotReady', message: unreadyMsg }
          : {
              reason: 'ReadinessGatesNotReady',
              message: `the status of pod readiness gate "${gateBlocked!.conditionType}" is not "True", but False`,
            };
    list = rt.setCondition(
      list,
      ready ? { type: 'Ready', status: 'True' } : { type: 'Ready', status: 'False', ...notReady() },
      ['lastProbeTime', 'lastTransitionTime'],
    );
    list = rt.setCondition(
      list,
      s.containersReady
        ? { type: 'ContainersReady', status: 'True' }
        : {
            type: 'ContainersReady',
            status: 'False',
            ...(s.notReadyReason === 'PodCompleted'
              ? { reason: 'PodCompleted' }
              : { reason: 'ContainersNotReady', message: unreadyMsg }),
          },
      ['lastProbeTime', 'lastTransitionTime'],
    );
    for (const c of extra)
      if (!list.some((x) => x.type === c.type))
        list.push({ ...c, lastProbeTime: null, lastTransitionTime: rt.clock.iso() });
    // kubectl describe lists them in this order.
    const order = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
    return list.sort((a, b) => rank(order, a.type) - rank(order, b.type));
  }

  private statusOf(pod: Pod, name: string): ContainerStatus | undefined {
    return pod.status.containerStatuses?.find((c) => c.name === name);
  }

  private imageID(image: string): string {
    const repo = image.replace(/:[^/:]+$/, '');
    let hex = '';
    for (let i = 0; hex.length < 64; i++) hex += hash32(`${image}#${i}`).toString(16).padStart(8, '0');
    return `${repo.includes('/') && repo.split('/')[0].includes('.') ? repo : `docker.io/${repo.includes('/') ? repo : `library/${repo}`}`}@sha256:${hex}`;
  }

  private podIP(node: string): string {
    const n = this.rt.store.get(R.nodes, undefined, node) as NodeObject | undefined;
    const cidr = n?.spec.podCIDR ?? '10.244.0.0/24';
    const prefix = cidr.split('.').slice(0, 3).join('.');
    const next = this.nextIp.get(node) ?? 2;
    this.nextIp.set(node, next >= 254 ? 2 : next + 1);
    return `${prefix}.${next}`;
  }

  private hostIP(node: string): string {
    const n = this.rt.store.get(R.nodes, undefined, node) as NodeObject | undefined;
    return n?.status.addresses.find((a) => a.type === 'InternalIP')?.address ?? '10.0.0.1';
  }

  // ---- stages --------------------------------------------------------------

  /** First sync: the pod is accepted, sandbox and containers are being created. */
  private sync(run: PodRun): void {
    const pod = this.current(run);
    if (!pod) return;
    const hostIP = this.hostIP(run.node);
    const status: PodStatus = {
      ...pod.status,
      phase: 'Pending',
      conditions: this.conditions(pod, { readyToStart: false, containersReady: false }),
      hostIP,
      hostIPs: [{ ip: hostIP }],
      startTime: this.rt.clock.iso(),
      containerStatuses: pod.spec.containers.map((c) => ({
        name: c.name,
        state: { waiting: { reason: 'ContainerCreating' } },
        lastState: {},
        ready: false,
        restartCount: 0,
        image: c.image,
        imageID: '',
        started: false,
      })),
    };
    const updated = this.writeStatus(pod, status);
    run.stage = 'pulling';
    this.pull(run, updated, 0);
  }

  /** Pull images one container at a time (serialised image pulls, the kubelet default). */
  private pull(run: PodRun, pod: Pod, index: number): void {
    const c = pod.spec.containers[index];
    if (!c) {
      this.next(run, this.jitter(300, 900), () => this.startContainers(run, 0));
      return;
    }
    const images = this.nodeImages.get(run.node) ?? new Set<string>();
    this.nodeImages.set(run.node, images);
    if (run.behaviour?.imagePullError) {
      this.event(pod, 'Normal', 'Pulling', `Pulling image "${c.image}"`, c.name);
      this.next(run, this.jitter(1500, 4000), () => this.pullFailed(run, c));
      return;
    }
    if (images.has(c.image) && c['imagePullPolicy'] !== 'Always') {
      this.event(pod, 'Normal', 'Pulled', `Container image "${c.image}" already present on machine`, c.name);
      this.pull(run, pod, index + 1);
      return;
    }
    this.event(pod, 'Normal', 'Pulling', `Pulling image "${c.image}"`, c.name);
    const ms = this.jitter(this.opts.pullMs[0], this.opts.pullMs[1]);
    this.next(run, ms, () => {
      const now = this.current(run);
      if (!now) return;
      images.add(c.image);
      const size = 2_000_000_000 + (hash32(c.image) % 14_000_000_000);
      const secs = (ms / 1000).toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
      this.event(
        now,
        'Normal',
        'Pulled',
        `Successfully pulled image "${c.image}" in ${secs}s (${secs}s including waiting). Image size: ${size} bytes.`,
        c.name,
      );
      this.pull(run, now, index + 1);
    });
  }

  private pullFailed(run: PodRun, c: ContainerSpec): void {
    const pod = this.current(run);
    if (!pod) return;
    const err = `rpc error: code = NotFound desc = failed to pull and unpack image "${c.image}": ${run.behaviour?.imagePullError ?? 'not found'}`;
    this.event(pod, 'Warning', 'Failed', `Failed to pull image "${c.image}": ${err}`, c.name);
    this.event(pod, 'Warning', 'Failed', 'Error: ErrImagePull', c.name);
    const waiting = (reason: string, message: string): PodStatus => ({
      ...pod.status,
      containerStatuses: (pod.status.containerStatuses ?? []).map((s) =>
        s.name === c.name ? { ...s, state: { waiting: { reason, message } } } : s,
      ),
    });
    this.writeStatus(pod, waiting('ErrImagePull', err));
    run.stage = 'pullbackoff';
    this.next(run, this.jitter(800, 1500), () => {
      const p = this.current(run);
      if (!p) return;
      this.event(p, 'Normal', 'BackOff', `Back-off pulling image "${c.image}"`, c.name);
      this.event(p, 'Warning', 'Failed', 'Error: ImagePullBackOff', c.name);
      this.writeStatus(p, {
        ...p.status,
        containerStatuses: (p.status.containerStatuses ?? []).map((s) =>
          s.name === c.name
            ? {
                ...s,
                state: {
                  waiting: {
                    reason: 'ImagePullBackOff',
                    message: `Back-off pulling image "${c.image}": ErrImagePull: ${err}`,
                  },
                },
              }
            : s,
        ),
      });
      const wait = run.backoffMs;
      run.backoffMs = Math.min(run.backoffMs * 2, BACKOFF_MAX_MS);
      this.next(run, wait, () => {
        const again = this.current(run);
        if (again) this.pull(run, again, again.spec.containers.indexOf(c));
      });
    });
  }

  /** Created + Started for every container; phase Running, not ready yet. */
  private startContainers(run: PodRun, restartIncrement: number): void {
    const pod = this.current(run);
    if (!pod) return;
    const now = this.rt.clock.iso();
    const podIP = pod.status.podIP ?? this.podIP(run.node);
    const statuses = pod.spec.containers.map((c): ContainerStatus => {
      const old = this.statusOf(pod, c.name);
      const running = old?.state.running;
      if (!running) {
        this.event(pod, 'Normal', 'Created', `Created container: ${c.name}`, c.name);
        this.event(pod, 'Normal', 'Started', `Started container ${c.name}`, c.name);
      }
      return {
        name: c.name,
        state: running ? old.state : { running: { startedAt: now } },
        lastState: old?.lastState ?? {},
        ready: false,
        restartCount: (old?.restartCount ?? 0) + (running ? 0 : restartIncrement),
        image: c.image,
        imageID: this.imageID(c.image),
        containerID: running ? old.containerID! : `containerd://${this.rt.rng.hex(64)}`,
        started: true,
      };
    });
    const withIp: Pod = { ...pod, status: { ...pod.status, podIP, podIPs: [{ ip: podIP }] } };
    const status: PodStatus = {
      ...withIp.status,
      phase: 'Running',
      conditions: this.conditions(withIp, { readyToStart: true, containersReady: false }),
      containerStatuses: statuses,
    };
    const updated = this.writeStatus(pod, status);
    for (const c of pod.spec.containers) {
      if (!this.statusOf(pod, c.name)?.state.running) this.logs.start(updated, c.name);
    }
    run.stage = 'running';
    this.next(run, this.jitter(this.opts.readyMs[0], this.opts.readyMs[1]), () => this.becomeReady(run));
  }

  private becomeReady(run: PodRun): void {
    const pod = this.current(run);
    if (!pod) return;
    const status: PodStatus = {
      ...pod.status,
      conditions: this.conditions(pod, { readyToStart: true, containersReady: true }),
      containerStatuses: (pod.status.containerStatuses ?? []).map((s) => ({ ...s, ready: true })),
    };
    this.writeStatus(pod, status);
    run.stage = 'ready';
    const b = run.behaviour;
    if (b?.crash) this.next(run, this.jitter(b.crash.afterMs[0], b.crash.afterMs[1]), () => this.crash(run));
    else if (b?.completeAfterMs)
      this.next(run, this.jitter(b.completeAfterMs[0], b.completeAfterMs[1]), () => this.complete(run));
  }

  /** The first container dies (OOMKilled, Error ...). */
  private crash(run: PodRun): void {
    const pod = this.current(run);
    const crash = run.behaviour?.crash;
    if (!pod || !crash) return;
    const main = pod.spec.containers[0];
    const now = this.rt.clock.iso();
    this.logs.terminate(pod.metadata.uid, main.name, crash.lastWords ?? []);
    const never = pod.spec.restartPolicy === 'Never';
    const statuses = (pod.status.containerStatuses ?? []).map((s): ContainerStatus => {
      if (s.name !== main.name) return s;
      const terminated: ContainerState = {
        terminated: {
          exitCode: crash.exitCode,
          reason: crash.reason,
          ...(crash.message ? { message: crash.message } : {}),
          startedAt: s.state.running?.startedAt ?? now,
          finishedAt: now,
          containerID: s.containerID,
        },
      };
      return { ...s, state: terminated, ready: false, started: false };
    });
    const next: Pod = { ...pod, status: { ...pod.status, containerStatuses: statuses } };
    const updated = this.writeStatus(pod, {
      ...next.status,
      ...(never ? { phase: 'Failed' as const } : {}),
      conditions: this.conditions(next, { readyToStart: !never, containersReady: false, unready: [main.name] }),
    });
    run.stage = 'crashed';
    if (never) {
      run.stage = 'done';
      return;
    }
    // The next sync puts the container into CrashLoopBackOff.
    this.next(run, this.jitter(500, 1500), () => this.backOff(run, updated.spec.containers[0].name));
  }

  private backOff(run: PodRun, container: string): void {
    const pod = this.current(run);
    if (!pod) return;
    const wait = run.backoffMs;
    run.backoffMs = Math.min(run.backoffMs * 2, BACKOFF_MAX_MS);
    const who = `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
    const statuses = (pod.status.containerStatuses ?? []).map((s): ContainerStatus => {
      if (s.name !== container) return s;
      return {
        ...s,
        lastState: s.state.terminated ? { terminated: s.state.terminated } : s.lastState,
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: `back-off ${formatDuration(wait)} restarting failed container=${container} pod=${who}`,
          },
        },
      };
    });
    this.writeStatus(pod, { ...pod.status, containerStatuses: statuses });
    this.event(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${container} in pod ${who}`, container);
    run.stage = 'backoff';
    this.next(run, wait, () => this.restart(run, container));
  }

  private restart(run: PodRun, container: string): void {
    const pod = this.current(run);
    if (!pod) return;
    const c = pod.spec.containers.find((x) => x.name === container)!;
    this.event(pod, 'Normal', 'Pulled', `Container image "${c.image}" already present on machine`, c.name);
    // Only the crashed container restarts (its state is waiting); running ones are kept.
    this.startContainers(run, 1);
  }

  private complete(run: PodRun): void {
    const pod = this.current(run);
    if (!pod) return;
    const now = this.rt.clock.iso();
    for (const c of pod.spec.containers)
      this.logs.terminate(pod.metadata.uid, c.name, [`${c.name}: finished, exiting 0`]);
    const statuses = (pod.status.containerStatuses ?? []).map((s): ContainerStatus => ({
      ...s,
      state: {
        terminated: {
          exitCode: 0,
          reason: 'Completed',
          startedAt: s.state.running?.startedAt ?? now,
          finishedAt: now,
          containerID: s.containerID,
        },
      },
      ready: false,
      started: false,
    }));
    const always = pod.spec.restartPolicy === 'Always';
    const next: Pod = { ...pod, status: { ...pod.status, containerStatuses: statuses } };
    this.writeStatus(pod, {
      ...next.status,
      phase: always ? 'Running' : 'Succeeded',
      conditions: this.conditions(next, {
        readyToStart: false,
        containersReady: false,
        notReadyReason: 'PodCompleted',
      }),
    });
    run.stage = 'done';
  }

  /** Graceful deletion: stop containers, then the pod object goes away. */
  private beginTermination(pod: Pod, run: PodRun | undefined): void {
    if (run) this.rt.clock.cancel(run.task);
    const r: PodRun = run ?? {
      uid: pod.metadata.uid,
      namespace: pod.metadata.namespace!,
      name: pod.metadata.name,
      node: pod.spec.nodeName ?? '',
      stage: 'terminating',
      backoffMs: BACKOFF_START_MS,
      behaviour: undefined,
    };
    r.stage = 'terminating';
    this.runs.set(podKey(pod), r);
    if (!pod.spec.nodeName || isPodTerminal(pod)) {
      r.task = this.rt.clock.after(0, () => this.finishDeletion(r));
      return;
    }
    for (const s of pod.status.containerStatuses ?? []) {
      if (!s.state.running) continue;
      this.event(pod, 'Normal', 'Killing', `Stopping container ${s.name}`, s.name);
      this.logs.terminate(pod.metadata.uid, s.name, []);
    }
    const grace = Math.min((pod.spec.terminationGracePeriodSeconds ?? 30) * 1000, this.jitter(1000, 3000));
    r.task = this.rt.clock.after(grace, () => this.finishDeletion(r));
  }

  private finishDeletion(run: PodRun): void {
    const pod = this.rt.store.get(R.pods, run.namespace, run.name);
    if (pod && pod.metadata.uid === run.uid) this.rt.store.delete(R.pods, run.namespace, run.name);
  }

  /** Node status heartbeats, spread over `batches` ticks so churn stays even. */
  private heartbeat(batches: number): void {
    const round = this.heartbeatRound++ % batches;
    const now = this.rt.clock.iso();
    const nodes = this.rt.store.list(R.nodes) as NodeObject[];
    for (let i = round; i < nodes.length; i += batches) {
      const n = nodes[i];
      // A node whose kubelet is gone (Ready Unknown) posts nothing.
      if (n.status.conditions.some((c) => c.type === 'Ready' && c.status === 'Unknown')) continue;
      const conditions = n.status.conditions.map((c) => ({ ...c, lastHeartbeatTime: now }));
      this.rt.update(R.nodes, n, { status: { ...n.status, conditions } });
    }
  }
}

function rank(order: string[], type: string): number {
  const i = order.indexOf(type);
  return i < 0 ? order.length : i;
}

/** Go's time.Duration String for whole seconds/minutes: 10s, 40s, 1m20s, 5m0s. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m${s % 60}s`;
}
