// The simulated GPU cluster's behaviour: controllers (JobSet, Job,
// StatefulSet, LeaderWorkerSet, PyTorchJob/TFJob, RayCluster), a scheduler and
// kubelets, driving objects in the demo ObjectStore the API server serves.
// Everything reacts to store events (so a pod deleted through the server is
// recreated by its owner) and runs on one simulated clock scaled by `speed`,
// with every random choice drawn from a PRNG seeded by `seed`.
import type { ObjectStore } from '../object-store.js';
import { assembleControlPlane } from './assemble.js';
import type { LogLine, LogProvider } from '../server/logs.js';
import { createDefaultScenario, defaultBehaviour } from './scenarios/default.js';
import { createScaleScenario, startChurn, type ScaleResult } from './scenarios/scale.js';
import { addGpuExtras } from './scenarios/gpu-extras.js';
import { addTroubledNodes } from './scenarios/troubled-nodes.js';
import { isDcgmExporterPod, SimulatedDcgm } from './dcgm.js';
import { dcgmExporterBackend, type PodProxyBackend } from '../server/pod-proxy.js';
import type { ServiceProxyBackend } from '../server/service-proxy.js';
import { addPrometheusService, prometheusBackend } from './prometheus.js';
import { SERVED_DRA_VERSIONS } from '../kinds.js';
import { R, type NodeObject } from './types.js';

export type { LogLine, LogProvider };
export type { ScaleResult };

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
  /** What answers the pods proxy: the dcgm-exporters' /metrics (default scenario only). */
  readonly podProxy?: PodProxyBackend;
  /** What answers the services proxy: the simulated Prometheus (default scenario only). */
  readonly serviceProxy?: ServiceProxyBackend;
  stop(): void;
}

/** A Simulation plus, for the scale scenario, what was built (for benchmarks). */
export interface SimulationWithStats extends Simulation {
  readonly scale?: ScaleResult;
}

export function startSimulation(store: ObjectStore, options: SimulationOptions): SimulationWithStats {
  const scale = options.scenario === 'scale';
  const plane = assembleControlPlane(store, {
    seed: options.seed,
    speed: options.speed,
    behaviour: scale ? () => undefined : defaultBehaviour,
    // Real kubelets post node status every 5 min when nothing changes; at scale that is what keeps churn sane.
    kubelet: { heartbeatMs: scale ? 300_000 : 20_000 },
    eventLimit: scale ? 20_000 : 5_000,
  });
  const rt = plane.rt;
  let stopChurn = (): void => {};
  let result: ScaleResult | undefined;
  let podProxy: PodProxyBackend | undefined;
  let serviceProxy: ServiceProxyBackend | undefined;
  if (scale) {
    result = createScaleScenario(rt, {
      nodes: options.nodes ?? 100,
      workloads: options.workloads ?? 50,
      podsPerWorkload: options.podsPerWorkload ?? 8,
    });
    stopChurn = startChurn(rt, result, options.churn ?? 0);
  } else {
    createDefaultScenario(plane);
    // After the default scenario, so its names, uids and placements stay as they were.
    const gpuNodes = (rt.store.list(R.nodes) as NodeObject[])
      .filter((n) => n.status.capacity['nvidia.com/gpu'] !== undefined)
      .map((n) => n.metadata.name);
    const draVersion = SERVED_DRA_VERSIONS[0];
    if (draVersion) addGpuExtras(rt, { seed: options.seed, draVersion, gpuNodes });
    // After the extras: no exporter on them (one is silent, the other drained), the extras' stream unchanged.
    addTroubledNodes(rt, options.seed);
    const dcgm = new SimulatedDcgm(store, rt.clock, options.seed);
    podProxy = dcgmExporterBackend(isDcgmExporterPod, (node) => dcgm.metricsText(node));
    addPrometheusService(rt, options.seed);
    serviceProxy = prometheusBackend(
      dcgm,
      rt.clock,
      () => rt.store.list(R.nodes) as NodeObject[],
      () => rt.store.list(R.pods),
    );
  }
  // Controllers create the first children now, so a server started right
  // after this call already lists them.
  rt.flush();

  let stopped = false;
  return {
    logs: plane.logs,
    ...(result ? { scale: result } : {}),
    ...(podProxy ? { podProxy } : {}),
    ...(serviceProxy ? { serviceProxy } : {}),
    stop(): void {
      if (stopped) return;
      stopped = true;
      stopChurn();
      plane.stop();
    },
  };
}
