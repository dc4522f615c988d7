// The log view's lines: a ring of the newest ones, so a log that streams for
// hours keeps a fixed number of lines and each new line costs the same.

/** Lines a log view keeps by default (the newest). */
export const DEFAULT_LOG_LINES = 5000;

/** The newest `capacity` items pushed; older ones are overwritten. */
export class Ring<T> {
  private readonly items: T[] = [];
  /** Index of the oldest item once the ring is full. */
  private start = 0;

  constructor(readonly capacity: number = DEFAULT_LOG_LINES) {
    if (!(capacity >= 1)) throw new RangeError(`ring capacity must be at least 1, not ${capacity}`);
  }

  push(item: T): void {
    if (this.items.length < this.capacity) this.items.push(item);
    else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  get size(): number {
    return this.items.length;
  }

  /** Oldest first. */
  toArray(): T[] {
    return this.start === 0 ? [...this.items] : [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }

  clear(): void {
    this.items.length = 0;
    this.start = 0;
  }
}
