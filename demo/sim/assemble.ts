// Wires one simulated control plane together: the runtime, every controller,
// the scheduler, the kubelets and the log store. startSimulation adds a
// scenario; tests use this directly with their own objects and behaviours.
import type { ObjectStore } from '../object-store.js';
import { Random, SimClock } from './clock.js';
import { JobController } from './controllers/job.js';
import { JobSetController } from './controllers/jobset.js';
import { PYTORCH, TENSORFLOW, TrainingJobController } from './controllers/kubeflow.js';
import { KaiPodGroupController } from './controllers/kai.js';
import { KueueController } from './controllers/kueue.js';
import { LeaderWorkerSetController } from './controllers/lws.js';
import { RayClusterController } from './controllers/raycluster.js';
import { StatefulSetController } from './controllers/statefulset.js';
import { Kubelet, type BehaviourFor, type KubeletOptions } from './kubelet.js';
import { LogStore } from './logs.js';
import { Runtime } from './runtime.js';
import { Scheduler } from './scheduler.js';

export interface ControlPlaneOptions {
  seed: number;
  speed: number;
  behaviour?: BehaviourFor;
  kubelet?: Partial<KubeletOptions>;
  /** Events kept before the oldest are deleted. */
  eventLimit?: number;
}

export interface ControlPlane {
  readonly rt: Runtime;
  readonly logs: LogStore;
  readonly scheduler: Scheduler;
  readonly kubelet: Kubelet;
  readonly kueue: KueueController;
  stop(): void;
}

export function assembleControlPlane(store: ObjectStore, o: ControlPlaneOptions): ControlPlane {
  const clock = new SimClock(o.speed);
  const rt = new Runtime(store, clock, new Random(o.seed), o.eventLimit ?? 5_000);
  const logs = new LogStore(store, clock, o.seed);
  const sts = new StatefulSetController(rt);
  rt.register(new JobController(rt));
  rt.register(new JobSetController(rt));
  rt.register(sts);
  rt.register(new LeaderWorkerSetController(rt, sts));
  rt.register(new TrainingJobController(rt, PYTORCH));
  rt.register(new TrainingJobController(rt, TENSORFLOW));
  rt.register(new RayClusterController(rt));
  const kueue = new KueueController(rt);
  rt.register(kueue);
  rt.register(new KaiPodGroupController(rt));
  const scheduler = new Scheduler(rt);
  const kubelet = new Kubelet(rt, logs, o.behaviour ?? (() => undefined), {
    heartbeatMs: 20_000,
    pullMs: [6_000, 18_000],
    readyMs: [2_000, 6_000],
    ...o.kubelet,
  });
  let stopped = false;
  return {
    rt,
    logs,
    scheduler,
    kubelet,
    kueue,
    stop(): void {
      if (stopped) return;
      stopped = true;
      scheduler.stop();
      kubelet.stop();
      logs.stop();
      rt.stop();
      clock.stop();
    },
  };
}
