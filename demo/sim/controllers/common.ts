// What every simulated controller does the same way: create a pod for an
// owner (admission defaults, the SuccessfulCreate event) and count children.
import type { StoredObject } from '../../object-store.js';
import { buildPod, type PodBuild } from '../pods.js';
import type { Runtime } from '../runtime.js';
import { isPodReady, R, type Pod } from '../types.js';

export type PodMutator = (pod: Pod) => void;

/** Creates a pod owned by `owner` and records the owner's SuccessfulCreate event. */
export function createOwnedPod(
  rt: Runtime,
  owner: StoredObject,
  build: Omit<PodBuild, 'owner'>,
  event: { component: string; reason: string; message: (pod: Pod) => string },
  mutate?: PodMutator,
): Pod {
  const pod = buildPod({ ...build, owner }, rt.rng, rt.quiet);
  mutate?.(pod);
  rt.admitPod?.(pod);
  const created = rt.create(R.pods, pod);
  if (!rt.quiet)
    rt.events.record(owner, {
      type: 'Normal',
      reason: event.reason,
      message: event.message(created),
      component: event.component,
    });
  return created;
}

export interface PodCounts {
  active: number; // not terminal, not being deleted
  running: number;
  ready: number;
  succeeded: number;
  failed: number;
}

export function countPods(pods: Pod[]): PodCounts {
  const c: PodCounts = { active: 0, running: 0, ready: 0, succeeded: 0, failed: 0 };
  for (const p of pods) {
    const phase = p.status?.phase;
    if (phase === 'Succeeded') c.succeeded++;
    else if (phase === 'Failed') c.failed++;
    else if (!p.metadata.deletionTimestamp) {
      c.active++;
      if (phase === 'Running') c.running++;
      if (isPodReady(p)) c.ready++;
    }
  }
  return c;
}
