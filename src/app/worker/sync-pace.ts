// A worker serving several engines (a fleet's) runs them on one thread: while
// one still lists, the others, already synced, flush at most once a second,
// as an engine does during its own sync (kube/flush-scheduler.ts). The
// fleet's view is not complete before the last list anyway, and each flush
// of a synced engine under churn rebuilds the trees its few events touched
// and posts a delta the UI thread merges and draws: measured, those flushes
// took the thread from the lists still running (test/bench/README.md "Fleet").

/** How often a synced engine flushes while another engine of its worker lists. */
export const PACE_WHILE_OTHERS_LIST_MS = 1_000;

/** The pace: WLX_SYNC_PACE_MS (0: none, the benchmark's comparison), else PACE_WHILE_OTHERS_LIST_MS. */
export function syncPaceMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WLX_SYNC_PACE_MS;
  if (raw === undefined || raw === '') return PACE_WHILE_OTHERS_LIST_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > 60_000)
    throw new Error(`WLX_SYNC_PACE_MS: expected a whole number of ms from 0 to 60000, got ${JSON.stringify(raw)}`);
  return ms;
}

export class SyncPace {
  private listing = 0;
  /** The synced engines' pace setters. */
  private readonly synced = new Set<(ms: number) => void>();

  constructor(private readonly paceMs: number = PACE_WHILE_OTHERS_LIST_MS) {}

  /**
   * An engine starts its first list. `synced` once it has synced (or failed):
   * from then on it is paced while others list. `stopped` when it ends.
   */
  list(pace: (ms: number) => void): { synced: () => void; stopped: () => void } {
    this.listing += 1;
    if (this.listing === 1 && this.paceMs) for (const p of this.synced) p(this.paceMs);
    let listing = true;
    const listed = () => {
      if (!listing) return;
      listing = false;
      this.listing -= 1;
      if (this.listing === 0 && this.paceMs) for (const p of this.synced) p(0);
    };
    return {
      synced: () => {
        listed();
        this.synced.add(pace);
        if (this.paceMs) pace(this.listing > 0 ? this.paceMs : 0);
      },
      stopped: () => {
        listed();
        this.synced.delete(pace);
      },
    };
  }
}
