// Held watch lines as bytes in one reused buffer, off the JS heap. A line held
// for a catch-up window outlives two scavenges and would be promoted: at
// 2,000 events/s that was 45 % of what the engine worker promoted, and so of
// its major GCs (src/kube/README.md "Catch-up"). Bytes here are copied in
// once and decoded back one line at a time, just before that line is handled.

const MIN_CAPACITY = 1 << 20;

export class LineArena {
  private bytes = Buffer.allocUnsafeSlow(MIN_CAPACITY);
  private readonly ends: number[] = [];
  private used = 0;

  get lines(): number {
    return this.ends.length;
  }

  /** Bytes held. */
  get size(): number {
    return this.used;
  }

  /** Bytes reserved (what the process holds for the arena). */
  get capacity(): number {
    return this.bytes.length;
  }

  add(line: string): void {
    const need = this.used + Buffer.byteLength(line, 'utf8');
    if (need > this.bytes.length) {
      let capacity = this.bytes.length * 2;
      while (capacity < need) capacity *= 2;
      const grown = Buffer.allocUnsafeSlow(capacity);
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.used += this.bytes.write(line, this.used, 'utf8');
    this.ends.push(this.used);
  }

  /** Line `i` as it was added (UTF-8 round trip: lines come from a decoder, so they are well formed). */
  line(i: number): string {
    return this.bytes.toString('utf8', i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  /** Empties the arena, giving back half its room when the last use took under a quarter of it. */
  clear(): void {
    if (this.used < this.bytes.length / 4 && this.bytes.length > MIN_CAPACITY)
      this.bytes = Buffer.allocUnsafeSlow(this.bytes.length / 2);
    this.used = 0;
    this.ends.length = 0;
  }
}
