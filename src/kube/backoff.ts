// Exponential back-off with jitter, for every retry loop of the kube layer
// (reflectors, the engine's discovery, the engine worker's restart), and the
// abortable wait between attempts.

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** Each delay is multiplied by a random factor in [1 - jitter, 1 + jitter]. */
  jitter: number;
}

/** Exponential back-off with jitter; reset after a success. */
export class Backoff {
  private attempt = 0;
  constructor(
    private readonly options: BackoffOptions,
    private readonly random: () => number = Math.random,
  ) {}
  next(): number {
    const base = Math.min(this.options.maxMs, this.options.initialMs * this.options.factor ** this.attempt);
    this.attempt += 1;
    const j = this.options.jitter;
    return Math.round(base * (1 - j + 2 * j * this.random()));
  }
  reset(): void {
    this.attempt = 0;
  }
  get attempts(): number {
    return this.attempt;
  }
}

/** Sleeps, or resolves early when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
