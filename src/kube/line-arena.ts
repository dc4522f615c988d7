// Held watch lines as bytes in one buffer, off the JS heap. A line held for a
// catch-up window outlives two scavenges and would be promoted: at 2,000
// events/s that was 45 % of what the engine worker promoted, and so of its
// major GCs (src/kube/README.md "Catch-up"). Bytes here are copied in once and
// decoded back one line at a time, just before that line is handled. Between
// windows the arena holds no buffer (one per watch stream, ~24 MB in all after
// a sync when each kept its own); it remembers the room recent windows needed,
// so that the next one starts there instead of growing again from 1 MiB.
// Blocks that never move a line were measured and dropped: a fleet's RSS
// +80 MB (freed blocks stay in the malloc heap), no faster end to end.

const MIN_CAPACITY = 1 << 20;
/** Windows in a row that used under a quarter of the room before it is halved (no grow-shrink churn). */
const SHRINK_AFTER = 16;
const NO_BYTES = Buffer.alloc(0);

export class LineArena {
  private bytes = NO_BYTES;
  /** What the next window's buffer starts with. */
  private room = MIN_CAPACITY;
  private readonly ends: number[] = [];
  private used = 0;
  private smallWindows = 0;

  get lines(): number {
    return this.ends.length;
  }

  /** Bytes held. */
  get size(): number {
    return this.used;
  }

  /** Bytes reserved (what the process holds for the arena): none between windows. */
  get capacity(): number {
    return this.bytes.length;
  }

  /** What the next window starts with. */
  get nextRoom(): number {
    return this.room;
  }

  add(line: string): void {
    // A UTF-16 unit is at most 3 UTF-8 bytes: room for that, then one write (no byteLength pass).
    const room = this.used + 3 * line.length;
    if (room > this.bytes.length) {
      let capacity = Math.max(this.room, this.bytes.length * 2);
      while (capacity < room) capacity *= 2;
      const grown = Buffer.allocUnsafeSlow(capacity);
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
      this.room = capacity;
    }
    this.used += this.bytes.write(line, this.used, 'utf8');
    this.ends.push(this.used);
  }

  /** Line `i` as it was added (UTF-8 round trip: lines come from a decoder, so they are well formed). */
  line(i: number): string {
    return this.bytes.toString('utf8', i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  /** Empties the arena and gives its buffer back; room unused by many windows in a row is halved. */
  clear(): void {
    this.smallWindows = this.used < this.room / 4 ? this.smallWindows + 1 : 0;
    if (this.smallWindows >= SHRINK_AFTER && this.room > MIN_CAPACITY) {
      this.room /= 2;
      this.smallWindows = 0;
    }
    this.bytes = NO_BYTES;
    this.used = 0;
    this.ends.length = 0;
  }
}
