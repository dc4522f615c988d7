// The MultiKueue links in words, one home for the tree printer, the
// workload's panel and the why-panel: "runs on cluster wlx-fleet-east
// (MultiKueue worker east): Running", "from cluster wlx-fleet-manager
// (MultiKueue)", and for a job still waiting on the manager each worker tried
// with what its Kueue says. Raw text: callers sanitise.
import type { RemoteOrigin, RemoteRun, WorkerTry } from './types.js';

function where(cluster: string | null, worker: string): string {
  if (cluster === null) return `MultiKueue worker ${worker} (not in this fleet)`;
  return cluster === worker ? `cluster ${cluster}` : `cluster ${cluster} (MultiKueue worker ${worker})`;
}

/** `runs on cluster wlx-fleet-east (MultiKueue worker east): Running`. */
export function remoteRunText(run: RemoteRun): string {
  const status = run.status ? `: ${run.status.join(',')}` : run.cluster !== null ? ': its copy is not there yet' : '';
  return `runs on ${where(run.cluster, run.worker)}${status}`;
}

/** `from cluster wlx-fleet-manager (MultiKueue origin multikueue)`. */
export function originText(o: RemoteOrigin): string {
  const origin = o.origin ? ` (MultiKueue origin ${o.origin})` : ' (MultiKueue)';
  return o.cluster !== null ? `from cluster ${o.cluster}${origin}` : `copied here by a MultiKueue manager${origin}`;
}

/** One line per worker a waiting job was copied to: `east (cluster wlx-fleet-east): Pending: insufficient …`. */
export function workerTryLines(tries: readonly WorkerTry[]): string[] {
  return tries.map((t) => {
    const at =
      t.cluster === null ? 'not in this fleet' : t.cluster === t.worker ? 'in the fleet' : `cluster ${t.cluster}`;
    const said =
      t.state === null
        ? t.cluster === null
          ? 'not seen'
          : t.listing
            ? 'not listed yet'
            : 'no copy there'
        : t.message
          ? `${t.state}: ${t.message}`
          : t.state;
    return `${t.worker} (${at}): ${said}`;
  });
}

/** The why-panel's cause for a job waiting on the manager: how many workers were tried, none with room. */
export function waitingText(tries: readonly WorkerTry[]): string {
  const n = tries.length;
  return n
    ? `MultiKueue: no worker has admitted it yet (tried ${n} worker${n === 1 ? '' : 's'})`
    : 'MultiKueue: not dispatched to a worker yet';
}
