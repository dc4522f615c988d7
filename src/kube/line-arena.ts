// Held watch lines as bytes in blocks, off the JS heap. A line held for a
// catch-up window outlives two scavenges and would be promoted: at 2,000
// events/s that was 45 % of what the engine worker promoted, and so of its
// major GCs (src/kube/README.md "Catch-up"). Bytes here are copied in once and
// decoded back one line at a time, just before that line is handled. The
// arena grows by whole blocks and never moves a line: one growing buffer
// copied itself at each doubling, and that copy into fresh pages was 8 % of a
// fleet's worker while its engines held their lines (test/bench/README.md).
// Between windows the arena holds no block.

/** The first block of a window; each next one is twice the last, up to MAX_BLOCK_BYTES. */
const FIRST_BLOCK_BYTES = 1 << 20;
/**
 * Above glibc's largest mmap threshold (32 MiB): such a block is its own
 * mapping, given back to the system when freed. Blocks are not that large from
 * the start: V8 counts each as allocated until a GC frees it, and every small
 * catch-up window would count 33 MiB.
 */
const MAX_BLOCK_BYTES = 33 << 20;

export class LineArena {
  private readonly blocks: Buffer[] = [];
  /** Per line: its block and the end of its bytes there (it starts where the block's previous line ended, or at 0). */
  private readonly blockOf: number[] = [];
  private readonly ends: number[] = [];
  /** Bytes written in the last block. */
  private filled = 0;
  private used = 0;
  private reserved = 0;

  /** `firstBlockBytes`: tests use small blocks to cross their ends. */
  constructor(private readonly firstBlockBytes = FIRST_BLOCK_BYTES) {}

  get lines(): number {
    return this.ends.length;
  }

  /** Bytes held. */
  get size(): number {
    return this.used;
  }

  /** Bytes of the blocks (address space: only written pages are resident); none between windows. */
  get capacity(): number {
    return this.reserved;
  }

  add(line: string): void {
    // A UTF-16 unit is at most 3 UTF-8 bytes: room for that, then one write (no byteLength pass).
    const room = 3 * line.length;
    let block = this.blocks[this.blocks.length - 1];
    if (!block || this.filled + room > block.length) {
      const next = block ? Math.min(2 * block.length, MAX_BLOCK_BYTES) : this.firstBlockBytes;
      block = Buffer.allocUnsafeSlow(Math.max(next, room));
      this.blocks.push(block);
      this.reserved += block.length;
      this.filled = 0;
    }
    const written = block.write(line, this.filled, 'utf8');
    this.filled += written;
    this.used += written;
    this.blockOf.push(this.blocks.length - 1);
    this.ends.push(this.filled);
  }

  /** Line `i` as it was added (UTF-8 round trip: lines come from a decoder, so they are well formed). */
  line(i: number): string {
    const block = this.blockOf[i];
    const start = i > 0 && this.blockOf[i - 1] === block ? this.ends[i - 1] : 0;
    return this.blocks[block].toString('utf8', start, this.ends[i]);
  }

  /** Empties the arena and gives its blocks back. */
  clear(): void {
    this.blocks.length = 0;
    this.blockOf.length = 0;
    this.ends.length = 0;
    this.filled = 0;
    this.used = 0;
    this.reserved = 0;
  }
}
