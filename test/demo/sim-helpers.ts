// Shared helpers for the simulation tests: a fresh store + simulation per
// test (stopped when the test ends), and polling for a condition.
import type { TestContext } from 'node:test';
import { ObjectStore, type StoredObject } from '../../demo/object-store.js';
import { startSimulation, type SimulationOptions, type SimulationWithStats } from '../../demo/sim/index.js';
import { R, type Pod } from '../../demo/sim/types.js';

export interface SimFixture {
  store: ObjectStore;
  sim: SimulationWithStats;
  pods(namespace?: string): Pod[];
  pod(namespace: string, name: string): Pod | undefined;
  get(resource: string, namespace: string | undefined, name: string): StoredObject | undefined;
  events(involvedName: string): StoredObject[];
}

export function startSim(t: TestContext, options: Partial<SimulationOptions> = {}): SimFixture {
  const store = new ObjectStore();
  const sim = startSimulation(store, { scenario: 'default', seed: 7, speed: 40, ...options });
  t.after(() => sim.stop());
  return {
    store,
    sim,
    pods: (ns) => store.list(R.pods, ns) as Pod[],
    pod: (ns, name) => store.get(R.pods, ns, name) as Pod | undefined,
    get: (resource, ns, name) => store.get(resource, ns, name),
    events: (name) => store.list(R.events).filter((e) => (e['involvedObject'] as { name: string }).name === name),
  };
}

/** Polls `check` every 20 ms until it returns something truthy. */
export function until<T>(what: string, check: () => T | undefined | false, timeoutMs = 8000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = (): void => {
      let v: T | undefined | false;
      try {
        v = check();
      } catch (err) {
        return reject(err);
      }
      if (v !== undefined && v !== false) return resolve(v);
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function isReady(p: Pod): boolean {
  return (
    p.status.phase === 'Running' && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}

export function condition(
  obj: StoredObject | undefined,
  type: string,
): { status: string; reason?: string; message?: string } | undefined {
  const conds = (
    obj?.['status'] as
      { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> } | undefined
  )?.conditions;
  return conds?.find((c) => c.type === type);
}
