// When the engine flushes the store: watch events are coalesced into at most
// one flush per interval, and during the initial sync a kind's list is
// flushed when it is complete, not page by page (a flush in the middle would
// build trees whose pods are still arriving, only to build them again).
// While a watch replays a backlog (catch-up after a list under churn), flushes
// are further apart: each patches trees and hands the UI a snapshot to draw,
// and the model is not current before the replay ends anyway.
// While a FlushHold is held (a synced engine of a shared worker waiting for
// the others' first lists: src/app/worker/first-lists.ts), events are applied
// as they come but nothing is flushed until the hold ends, and the watch of
// the kind listed last opens only then (heldWatch).

/**
 * During the initial sync, a flush asked for only because a kind finished its
 * list is skipped while more objects than this from lists still in progress
 * wait unflushed.
 */
const SYNC_DEFER_OBJECTS = 5_000;

/**
 * During the initial sync, while pages of a list arrive, flushes are at most
 * this often: watch events of kinds already listed (workload status under
 * churn) would otherwise flush every interval, and each flush builds the trees
 * of the pods applied since, which the next pages change again. An engine
 * sharing its worker with others in their first list waits this times their
 * number (FlushHold.listingEngines): the worker flushes its lists' progress
 * about once a second, as a single cluster's does.
 */
export const SYNC_INTERVAL_MS = 1_000;

/**
 * More events than this since the last flush mean a watch is replaying a
 * backlog (2,000 events/s of live churn bring ~160 per 80 ms interval).
 */
export const CATCH_UP_EVENTS = 1_500;
/** Flushes are at most this often while catching up. */
export const CATCH_UP_INTERVAL_MS = 500;

/**
 * How long after a list began its watch may still open. A held engine's
 * watches wait for its release (heldWatch) at most until then: the server
 * keeps the events meanwhile, as it does during a long list, and
 * kube-apiserver's watch cache keeps at least 75 s of them (up to 102,400
 * events per resource); a watch from an older resourceVersion would cost a
 * relist.
 */
export const HELD_WATCH_MAX_MS = 45_000;

/**
 * While held, a synced engine applies its watch events but flushes nothing
 * (no trees patched, no snapshot), and its connection reads 'syncing'. Given
 * by the engine's host (src/app/worker/first-lists.ts).
 */
export interface FlushHold {
  readonly held: boolean;
  /** Engines of the worker in their first list, this one included while it lists (1 or 0 alone). */
  readonly listingEngines?: number;
  /** Calls `changed` whenever `held` changes; returns the unsubscribe. */
  onChange(changed: () => void): () => void;
}

/**
 * Resolves when a watch may open: at once unless `hold` is held, else when it
 * is released, at `listStartedAt + HELD_WATCH_MAX_MS`, or on abort.
 */
export function heldWatch(hold: FlushHold | undefined, listStartedAt: number, signal: AbortSignal): Promise<void> {
  const waitMs = listStartedAt + HELD_WATCH_MAX_MS - Date.now();
  if (!hold?.held || waitMs <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    const unsubscribe = hold.onChange(() => {
      if (!hold.held) done();
    });
    signal.addEventListener('abort', done, { once: true });
  });
}

export class FlushScheduler {
  private timer: NodeJS.Timeout | undefined;
  private lastFlush = 0;
  /** True once every kind has listed: flushes are then at most intervalMs apart. */
  private synced = false;
  /** Objects applied from lists in progress since the last flush. */
  private unflushedListed = 0;
  /** Everything asked to be flushed since the last flush was progress of the initial sync. */
  private onlySyncProgress = true;
  private dirty = false;
  private stopped = false;
  /** markDirty() calls since the last flush. */
  private marked = 0;
  private readonly unsubscribeHold: (() => void) | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly flush: () => void,
    /** After the sync, nothing is flushed while it is held. */
    private readonly hold?: FlushHold,
  ) {
    // The connection turns live (or back to syncing) with the next flush.
    this.unsubscribeHold = hold?.onChange(() => this.markDirty());
  }

  /** An object of a list still in progress was applied: flushed with the list, not now. */
  listed(): void {
    this.dirty = true;
    this.unflushedListed += 1;
  }

  /** `syncProgress`: only a kind finishing its list. */
  markDirty(syncProgress = false): void {
    this.dirty = true;
    this.marked += 1;
    if (!syncProgress) this.onlySyncProgress = false;
    if (this.timer || this.stopped) return;
    // A burst arriving while idle is still given a few ms to gather.
    this.arm(Math.max(5, this.lastFlush + this.intervalMs - Date.now()));
  }

  private arm(wait: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.synced && this.hold?.held) return;
      // A kind done listing while others still list (their pages applied, not
      // flushed) is not worth a flush that would build the trees of everything
      // they applied so far, only to build them again at the end of the sync.
      if (!this.synced && this.onlySyncProgress && this.unflushedListed > SYNC_DEFER_OBJECTS) return;
      const pace = SYNC_INTERVAL_MS * Math.max(1, this.hold?.listingEngines ?? 1);
      const listing = !this.synced && this.unflushedListed > 0 ? this.lastFlush + pace - Date.now() : 0;
      if (listing > 0) return this.arm(listing);
      const catchingUp = this.marked > CATCH_UP_EVENTS ? this.lastFlush + CATCH_UP_INTERVAL_MS - Date.now() : 0;
      if (catchingUp > 0) return this.arm(catchingUp);
      this.flushNow();
    }, wait);
  }

  /** Every kind has listed: flush now, and from here on at most once per interval. */
  syncDone(): void {
    this.synced = true;
    this.flushNow();
  }

  flushNow(): void {
    if (this.stopped) return;
    this.lastFlush = Date.now();
    this.unflushedListed = 0;
    this.marked = 0;
    this.onlySyncProgress = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.flush();
  }

  /** Whether something was marked dirty since the last call (then clears it). */
  takeDirty(): boolean {
    const dirty = this.dirty;
    this.dirty = false;
    return dirty;
  }

  stop(): void {
    this.unsubscribeHold?.();
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
