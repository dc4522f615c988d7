// A worker serving several engines (a fleet's) runs them on one thread: with
// WLX_SYNC_PACE_MS set, while one still lists, the others, already synced,
// flush at most that often, as an engine does during its own sync
// (kube/flush-scheduler.ts): each flush of a synced engine under churn
// rebuilds the trees its few events touched and posts a delta the UI thread
// merges and draws, work the lists still running wait behind. Off by default:
// measured on the shared machine it did not shorten the fleet's complete view
// (test/bench/README.md "Fleet"); the benchmark's `shared-paced` arm runs it.

/** The pace the benchmark's `shared-paced` arm sets: the engine's own flush interval during a sync. */
export const PACE_WHILE_OTHERS_LIST_MS = 1_000;

/** The pace: WLX_SYNC_PACE_MS, 0 (none) when unset. */
export function syncPaceMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WLX_SYNC_PACE_MS;
  if (raw === undefined || raw === '') return 0;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > 60_000)
    throw new Error(`WLX_SYNC_PACE_MS: expected a whole number of ms from 0 to 60000, got ${JSON.stringify(raw)}`);
  return ms;
}

export class SyncPace {
  private listing = 0;
  /** The synced engines' pace setters. */
  private readonly synced = new Set<(ms: number) => void>();

  constructor(private readonly paceMs: number) {}

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
