// Fault injection for reliability tests: what the server should do wrong, and
// when. Settable by flags, by `POST /debug/wlx/faults` (JSON) and
// programmatically (`cluster.faults.set`). Faults never touch cluster objects.

export interface FaultConfig {
  /** Cut every open watch connection every this many seconds (0 = never). */
  dropWatchesEverySeconds: number;
  /** Answer this many upcoming watch requests with an ERROR 410 Expired event. */
  expireNextWatches: number;
  /** Delay every API response by this many milliseconds. */
  delayMs: number;
  /** Write an unparsable line before every watch event. */
  malformedWatchLines: boolean;
  /** Kinds answering 403 Forbidden to list/watch/get: `plural` (core) or `plural.group`. */
  forbid: string[];
}

export const NO_FAULTS: FaultConfig = {
  dropWatchesEverySeconds: 0,
  expireNextWatches: 0,
  delayMs: 0,
  malformedWatchLines: false,
  forbid: [],
};

export class FaultError extends Error {}

/** Checks a partial fault config from JSON or flags; throws FaultError on a bad field. */
export function validateFaults(input: unknown): Partial<FaultConfig> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new FaultError('faults must be a JSON object');
  const out: Partial<FaultConfig> = {};
  for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
    switch (k) {
      case 'dropWatchesEverySeconds':
      case 'expireNextWatches':
      case 'delayMs':
        if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
          throw new FaultError(`${k} must be a non-negative number`);
        out[k] = v;
        break;
      case 'malformedWatchLines':
        if (typeof v !== 'boolean') throw new FaultError(`${k} must be a boolean`);
        out[k] = v;
        break;
      case 'forbid':
        if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
          throw new FaultError('forbid must be an array of strings');
        out.forbid = v;
        break;
      default:
        throw new FaultError(`unknown fault "${k}"`);
    }
  }
  return out;
}

/** The live fault settings; `onChange` lets the server re-arm its drop timer. */
export class Faults {
  private config: FaultConfig;
  private readonly listeners = new Set<(c: FaultConfig) => void>();

  constructor(initial: Partial<FaultConfig> = {}) {
    this.config = { ...NO_FAULTS, ...initial, forbid: [...(initial.forbid ?? [])] };
  }

  get(): FaultConfig {
    return { ...this.config, forbid: [...this.config.forbid] };
  }

  set(partial: Partial<FaultConfig>): FaultConfig {
    this.config = { ...this.config, ...validateFaults(partial) };
    for (const l of this.listeners) l(this.get());
    return this.get();
  }

  clear(): FaultConfig {
    return this.set({ ...NO_FAULTS });
  }

  onChange(listener: (c: FaultConfig) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  isForbidden(qualifiedResource: string): boolean {
    return this.config.forbid.includes(qualifiedResource);
  }

  get delayMs(): number {
    return this.config.delayMs;
  }

  get malformedWatchLines(): boolean {
    return this.config.malformedWatchLines;
  }

  /** Consumes one pending forced expiry; true when this watch must get 410. */
  takeWatchExpiry(): boolean {
    if (this.config.expireNextWatches <= 0) return false;
    this.config.expireNextWatches -= 1;
    return true;
  }
}
