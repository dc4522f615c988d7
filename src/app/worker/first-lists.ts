// The engines of one worker in their first list, and what waits for the last
// of them: the heap bound (heap-growth.ts), and the synced engines' flushes.
// In a worker serving several engines (a fleet's), an engine that has listed
// applies its watch events as they come but flushes nothing (no trees
// patched, no snapshot) while another still lists, and flushes once after;
// the watch of the kind it listed last opens only then (heldWatch in
// flush-scheduler.ts: those events wait at the server meanwhile).
// Flushed as they came, the synced engines' churn cost the fleet's worker
// 2.0–2.4× the single cluster's CPU; their lines held as bytes until then
// cost more than applying them (every held byte lands on a fresh page, and
// fresh pages cost ~3 ms per MB here), left the last list 2–20 s a page and
// 870–1,040 MB of RSS (test/bench/README.md "Fleet" and "The fleet's slow
// sessions traced").
//
// One bad cluster never holds the others: an engine holds them only until its
// first sync settles, it stops, its whole connection fails (unreachable,
// unauthorized, nothing readable), or it has not answered within the connect
// timeout; and a synced engine waits at most as long again as it took to list
// (at least the connect timeout). Only first lists count: a relist (410)
// later holds nobody, and an engine, once released, is never held again. A
// lone engine is never held.
import type { FlushHold } from '../../kube/flush-scheduler.js';
import type { ClusterConnection } from '../../model/types.js';

/** One engine's part: its hold, and what it reports. */
export interface EngineListing {
  /** Its flushes' hold (EngineOptions.flushHold). */
  readonly hold: FlushHold;
  /** Its connection as its snapshots say it: an answer, or a failure that stops it counting. */
  connection(connection: ClusterConnection): void;
  /** Its first sync settled (or it could not open, or it stops). */
  done(): void;
}

export interface FirstListsOptions {
  /** Called when whether any engine is listing changes (the heap bound; heap-growth.ts). */
  listingChanged?: (listing: boolean) => void;
}

/** One engine of the worker; its own hold (a FlushHold). */
class Engine implements FlushHold {
  /** Holds the others: in its first list, answered in time, and not failing as a whole since (never again once not). */
  counting = true;
  /** Its first sync settled (or it could not open, or it stopped). */
  synced = false;
  answered = false;
  timedOut = false;
  /** Its hold ended for good: the others listed, it waited its bound, or it synced with none listing. */
  released = false;
  held = false;
  private readonly listeners = new Set<() => void>();
  private waiting: NodeJS.Timeout | undefined;
  private readonly joinedAt = Date.now();

  constructor(
    private readonly gate: FirstLists,
    /** The connect timeout: how long it may take to answer, and the least it waits for the others once synced. */
    private readonly boundMs: number,
  ) {
    setTimeout(() => {
      if (this.answered) return;
      this.timedOut = true;
      this.counting = false;
      this.gate.update();
    }, boundMs).unref();
  }

  /** Engines of the worker in their first list (their flushes share the worker's sync pace: SYNC_INTERVAL_MS). */
  get listingEngines(): number {
    return this.gate.listingEngines;
  }

  /** Listing for the heap bound: in its first list, unless it has not answered within the connect timeout. */
  get listing(): boolean {
    return !this.synced && (this.answered || !this.timedOut);
  }

  onChange(changed: () => void): () => void {
    this.listeners.add(changed);
    return () => this.listeners.delete(changed);
  }

  connection(c: ClusterConnection): void {
    const answered = this.answered || c.state === 'syncing' || c.state === 'live' || c.synced > 0;
    // Failing as a whole (unreachable, unauthorized, every kind refused), not one kind of several.
    const failing = c.state === 'retrying' && !c.failing.length;
    if (answered === this.answered && !(failing && this.counting)) return;
    this.answered = answered;
    if (failing) this.counting = false;
    this.gate.update();
  }

  done(): void {
    if (this.synced) return;
    this.synced = true;
    this.counting = false;
    if (!this.released) {
      // As long as it took to list itself, at least the connect timeout: the others share its thread and list as it did.
      this.waiting = setTimeout(
        () => {
          this.released = true;
          this.gate.update();
        },
        Math.max(this.boundMs, Date.now() - this.joinedAt),
      );
      this.waiting.unref();
    }
    this.gate.update();
  }

  setHeld(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    if (!held) {
      this.released = true;
      clearTimeout(this.waiting);
    }
    for (const l of [...this.listeners]) l();
  }
}

/** The engines of one worker (one per worker thread: engine-worker.ts, engines-worker.ts). */
export class FirstLists {
  private readonly engines = new Set<Engine>();
  /** Engines in their first list (Engine.listing), as of the last update. */
  private listingCount = 0;

  constructor(private readonly options: FirstListsOptions = {}) {}

  get listingEngines(): number {
    return this.listingCount;
  }

  /** An engine starts, its first list ahead; `connectTimeoutMs` bounds how long it may hold the others, and wait for them. */
  join(connectTimeoutMs: number): EngineListing {
    const engine = new Engine(this, connectTimeoutMs);
    this.engines.add(engine);
    this.update();
    return { hold: engine, connection: (c) => engine.connection(c), done: () => engine.done() };
  }

  /** Recomputes every engine's hold, and whether any is listing. */
  update(): void {
    const counting = [...this.engines].filter((e) => e.counting);
    for (const e of [...this.engines]) {
      const held = !e.released && counting.some((other) => other !== e);
      // Synced while no other lists: never held (a lone engine; one joining later holds nobody).
      if (!held && e.synced) e.released = true;
      e.setHeld(held);
      if (e.released && e.synced) this.engines.delete(e);
    }
    const wasListing = this.listingCount > 0;
    this.listingCount = [...this.engines].filter((e) => e.listing).length;
    const listing = this.listingCount > 0;
    if (listing !== wasListing) {
      this.options.listingChanged?.(listing);
    }
  }
}
