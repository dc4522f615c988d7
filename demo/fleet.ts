// The simulated fleet as one object (`wlx demo serve --fleet`, `wlx --demo
// --fleet`): three clusters from one process, each its own store, simulation
// and API server on loopback (demo/sim/fleet.ts), and one kubeconfig with a
// context per cluster: wlx-fleet-manager (current), wlx-fleet-east,
// wlx-fleet-west.
import { writeFile } from 'node:fs/promises';
import { ObjectStore } from './object-store.js';
import { startDemoCluster, type DemoCluster, type FaultConfig } from './index.js';
import { fleetKubeconfig } from './server/kubeconfig.js';
import { FLEET_MEMBERS, startFleetSimulation } from './sim/fleet.js';
import type { FleetMember } from './sim/scenarios/fleet.js';

export type { FleetMember } from './sim/scenarios/fleet.js';
export { FLEET_DISPATCHED, FLEET_WAITING, FLEET_WORKERS } from './sim/scenarios/fleet.js';

export const FLEET_CONTEXTS: Readonly<Record<FleetMember, string>> = {
  manager: 'wlx-fleet-manager',
  east: 'wlx-fleet-east',
  west: 'wlx-fleet-west',
};

export interface DemoFleetOptions {
  seed?: number;
  speed?: number;
  /** Every cluster requires "Authorization: Bearer T". */
  token?: string;
  protobuf?: boolean;
  /** Fault switches of every cluster (each can be changed later through `members[m].faults`). */
  faults?: Partial<FaultConfig>;
  kubeconfigPath?: string;
}

export interface DemoFleet {
  readonly members: Readonly<Record<FleetMember, DemoCluster>>;
  readonly kubeconfigPath: string | undefined;
  /** The kubeconfig text: a context per cluster (FLEET_CONTEXTS), the manager's current. */
  kubeconfig(): string;
  stop(): Promise<void>;
}

export async function startDemoFleet(options: DemoFleetOptions = {}): Promise<DemoFleet> {
  const stores = {} as Record<FleetMember, ObjectStore>;
  for (const m of FLEET_MEMBERS) stores[m] = new ObjectStore(10_000, undefined, 75_000);
  const sim = startFleetSimulation(stores, { seed: options.seed ?? 1, speed: options.speed ?? 1 });
  const members = {} as Record<FleetMember, DemoCluster>;
  try {
    for (const m of FLEET_MEMBERS) {
      members[m] = await startDemoCluster({
        store: stores[m],
        simulate: false,
        logs: sim.members[m].logs,
        token: options.token,
        protobuf: options.protobuf,
        speed: options.speed,
        faults: options.faults,
      });
      members[m].api.setPodProxyBackend(sim.members[m].podProxy);
    }
  } catch (err) {
    sim.stop();
    await Promise.all(Object.values(members).map((c) => c.stop()));
    throw err;
  }
  const kubeconfig = () =>
    fleetKubeconfig(
      FLEET_MEMBERS.map((m) => ({ context: FLEET_CONTEXTS[m], server: members[m].server, token: options.token })),
    );
  // 0600: the file may hold tokens.
  if (options.kubeconfigPath) await writeFile(options.kubeconfigPath, kubeconfig(), { mode: 0o600 });
  let stopped: Promise<void> | undefined;
  return {
    members,
    kubeconfigPath: options.kubeconfigPath,
    kubeconfig,
    stop: () => {
      stopped ??= (async () => {
        sim.stop();
        await Promise.all(FLEET_MEMBERS.map((m) => members[m].stop()));
      })();
      return stopped;
    },
  };
}
