// The simulated GPU cluster's behaviour: controllers (JobSet, Job,
// StatefulSet, LeaderWorkerSet, PyTorchJob/TFJob, RayCluster), a scheduler and
// kubelets, driving objects in the demo ObjectStore the API server serves.
// Everything reacts to store events (so a pod deleted through the server is
// recreated by its owner) and runs on one simulated clock scaled by `speed`,
// with every random choice drawn from a PRNG seeded by `seed`.
import type { ObjectStore } from '../store.js';
import { Random, SimClock } from './clock.js';
import { JobController } from './controllers/job.js';
import { JobSetController } from './controllers/jobset.js';
import { PYTORCH, TENSORFLOW, TrainingJobController } from './controllers/kubeflow.js';
import { LeaderWorkerSetController } from './controllers/lws.js';
import { RayClusterController } from './controllers/raycluster.js';
import { StatefulSetController } from './controllers/statefulset.js';
import { Kubelet, type BehaviourFor } from './kubelet.js';
import { LogStore, type LogLine, type LogProvider } from './logs.js';
import { Runtime } from './runtime.js';
import { Scheduler } from './scheduler.js';
import { createDefaultScenario, defaultBehaviour } from './scenarios/default.js';
import { createScaleScenario, startChurn, type ScaleResult } from './scenarios/scale.js';

export type { LogLine, LogProvider };

export interface SimulationOptions {
  scenario: 'default' | 'scale';
  seed: number;
  /** Simulated seconds per real second; every delay is divided by it. */
  speed: number;
  nodes?: number;
  workloads?: number;
  podsPerWorkload?: number;
  /** Pod status events per second (scale scenario). */
  churn?: number;
}

export interface Simulation {
  readonly logs: LogProvider;
  stop(): void;
}

/** What the scale scenario built (for benchmarks); undefined for the default one. */
export interface SimulationWithStats extends Simulation {
  readonly scale?: ScaleResult;
}

export function startSimulation(store: ObjectStore, options: SimulationOptions): SimulationWithStats {
  const clock = new SimClock(options.speed);
  const rng = new Random(options.seed);
  const scale = options.scenario === 'scale';
  const rt = new Runtime(store, clock, rng, scale ? 20_000 : 5_000);
  const logs = new LogStore(store, clock, options.seed);

  const sts = new StatefulSetController(rt);
  rt.register(new JobController(rt));
  rt.register(new JobSetController(rt));
  rt.register(sts);
  rt.register(new LeaderWorkerSetController(rt, sts));
  rt.register(new TrainingJobController(rt, PYTORCH));
  rt.register(new TrainingJobController(rt, TENSORFLOW));
  rt.register(new RayClusterController(rt));
  const scheduler = new Scheduler(rt);
  const behaviour: BehaviourFor = scale ? () => undefined : defaultBehaviour;
  const kubelet = new Kubelet(rt, logs, behaviour, {
    heartbeatMs: scale ? 300_000 : 20_000,
    pullMs: [6_000, 18_000],
    readyMs: [2_000, 6_000],
  });

  let stopChurn = (): void => {};
  let result: ScaleResult | undefined;
  if (scale) {
    result = createScaleScenario(rt, {
      nodes: options.nodes ?? 100,
      workloads: options.workloads ?? 50,
      podsPerWorkload: options.podsPerWorkload ?? 8,
    });
    stopChurn = startChurn(rt, result, options.churn ?? 0);
  } else {
    createDefaultScenario(rt);
  }
  // Controllers create the first children now, so a server started right
  // after this call already lists them.
  rt.flush();

  let stopped = false;
  return {
    logs,
    ...(result ? { scale: result } : {}),
    stop(): void {
      if (stopped) return;
      stopped = true;
      stopChurn();
      scheduler.stop();
      kubelet.stop();
      logs.stop();
      rt.stop();
      clock.stop();
    },
  };
}
