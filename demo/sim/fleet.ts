// The fleet's three simulated clusters (scenarios/fleet.ts) in one process:
// one store and control plane each, their dcgm-exporters, and the MultiKueue
// bridge from the manager to the workers (multikueue.ts).
import type { ObjectStore } from '../object-store.js';
import { SERVED_DRA_VERSIONS } from '../kinds.js';
import { dcgmExporterBackend, type PodProxyBackend } from '../server/pod-proxy.js';
import { assembleControlPlane, type ControlPlane } from './assemble.js';
import { isDcgmExporterPod, SimulatedDcgm } from './dcgm.js';
import type { LogProvider } from '../server/logs.js';
import { MultiKueueBridge } from './multikueue.js';
import {
  createFleetEast,
  createFleetManager,
  createFleetWest,
  FLEET_ADMISSION_CHECK,
  type FleetMember,
} from './scenarios/fleet.js';

export const FLEET_MEMBERS: readonly FleetMember[] = ['manager', 'east', 'west'];

export interface FleetMemberSimulation {
  readonly logs: LogProvider;
  readonly podProxy?: PodProxyBackend;
}

export interface FleetSimulation {
  readonly members: Readonly<Record<FleetMember, FleetMemberSimulation>>;
  stop(): void;
}

export function startFleetSimulation(
  stores: Readonly<Record<FleetMember, ObjectStore>>,
  options: { seed: number; speed: number },
): FleetSimulation {
  const planes = {} as Record<FleetMember, ControlPlane>;
  FLEET_MEMBERS.forEach((m, i) => {
    // Seeds of their own: uids, names and addresses differ from cluster to cluster.
    planes[m] = assembleControlPlane(stores[m], { seed: options.seed * 7 + i, speed: options.speed });
  });
  createFleetManager(planes.manager);
  createFleetEast(planes.east, options.seed);
  createFleetWest(planes.west, options.seed, SERVED_DRA_VERSIONS[0]);
  const members = {} as Record<FleetMember, FleetMemberSimulation>;
  for (const m of FLEET_MEMBERS) {
    const plane = planes[m];
    plane.rt.flush();
    const dcgm = m === 'manager' ? undefined : new SimulatedDcgm(stores[m], plane.rt.clock, options.seed);
    members[m] = {
      logs: plane.logs,
      ...(dcgm ? { podProxy: dcgmExporterBackend(isDcgmExporterPod, (node) => dcgm.metricsText(node)) } : {}),
    };
  }
  const bridge = new MultiKueueBridge(
    planes.manager,
    [
      { name: 'east', plane: planes.east },
      { name: 'west', plane: planes.west },
    ],
    { admissionCheck: FLEET_ADMISSION_CHECK },
  );
  bridge.sync();
  let stopped = false;
  return {
    members,
    stop() {
      if (stopped) return;
      stopped = true;
      bridge.stop();
      for (const m of FLEET_MEMBERS) planes[m].stop();
    },
  };
}
