// Simulated time for the demo cluster. Every delay in the simulation is
// expressed in simulated milliseconds and runs on ONE real timer: tasks sit in
// a min-heap keyed by their simulated due time, and the timer is armed for the
// earliest. While a task runs, `now()` is pinned to its due time, so the order
// of everything the simulation does (and so every seeded random draw) depends
// only on the seed, never on how late the event loop woke up.

export type TaskHandle = number;

interface Task {
  due: number; // simulated ms since start
  seq: number; // tie-break: scheduling order
  id: TaskHandle;
  run: () => void;
}

export class SimClock {
  private readonly heap: Task[] = [];
  private readonly cancelled = new Set<TaskHandle>();
  private nextId = 1;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;
  private pinned: number | undefined;
  private stopped = false;
  private readonly realStart: number;
  /** Called after every task, while time is still pinned (the work queue flush). */
  afterTask: () => void = () => {};
  /** Called with what a task threw; the clock keeps running. */
  onError: (err: unknown) => void = (err) => {
    throw err;
  };

  /** @param speed simulated seconds per real second (delays are divided by it). */
  constructor(readonly speed: number) {
    if (!(speed > 0)) throw new Error(`speed must be > 0, got ${speed}`);
    this.realStart = Date.now();
  }

  /** Current simulated time in ms since the simulation started. */
  now(): number {
    return this.pinned ?? (Date.now() - this.realStart) * this.speed;
  }

  /** Wall-clock time that corresponds to a simulated instant (for timestamps). */
  wallMs(simMs = this.now()): number {
    return this.realStart + simMs / this.speed;
  }

  /** The simulated instant of a wall-clock time (inverse of wallMs). */
  simFromWall(wallMs: number): number {
    return (wallMs - this.realStart) * this.speed;
  }

  /** RFC 3339 with seconds, as metav1.Time serialises. */
  iso(simMs = this.now()): string {
    const second = Math.floor(this.wallMs(simMs) / 1000);
    if (second !== this.isoSecond) {
      this.isoSecond = second;
      this.isoText = new Date(second * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    }
    return this.isoText;
  }
  private isoSecond = NaN;
  private isoText = '';

  /** RFC 3339 with nanoseconds (log timestamps, MicroTime). */
  isoNano(simMs = this.now()): string {
    const ms = this.wallMs(simMs);
    const whole = Math.floor(ms);
    const nanos = Math.round((ms - whole) * 1e6);
    const base = new Date(whole).toISOString(); // ...T12:00:00.123Z
    return `${base.slice(0, -1)}${String(nanos).padStart(6, '0')}Z`;
  }

  /** Run `fn` after `delayMs` simulated milliseconds. */
  after(delayMs: number, fn: () => void): TaskHandle {
    const id = this.nextId++;
    if (this.stopped) return id;
    this.push({ due: this.now() + Math.max(0, delayMs), seq: this.seq++, id, run: fn });
    this.arm();
    return id;
  }

  /** Run `fn` every `periodMs` simulated ms (first run after one period). Returns a canceller. */
  every(periodMs: number, fn: () => void): () => void {
    let handle: TaskHandle;
    let active = true;
    const tick = (): void => {
      if (!active) return;
      handle = this.after(periodMs, tick);
      fn();
    };
    handle = this.after(periodMs, tick);
    return () => {
      active = false;
      this.cancel(handle);
    };
  }

  cancel(handle: TaskHandle | undefined): void {
    if (handle !== undefined) this.cancelled.add(handle);
  }

  /** Number of scheduled tasks (for tests and diagnostics). */
  get pending(): number {
    return this.heap.length - this.cancelled.size;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.heap.length = 0;
    this.cancelled.clear();
  }

  private arm(): void {
    const top = this.heap[0];
    if (!top || this.stopped) return;
    if (this.pinned !== undefined) return; // the running batch re-arms when it ends
    if (this.timer && top.due >= this.armedFor) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = top.due;
    const realDelay = Math.max(0, (top.due - this.now()) / this.speed);
    this.timer = setTimeout(() => this.runDue(), Math.min(realDelay, 2_147_483_647));
  }

  private runDue(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const realNow = (Date.now() - this.realStart) * this.speed;
    // Bound one batch so a long backlog cannot starve the event loop.
    const deadline = Date.now() + 50;
    while (!this.stopped) {
      const top = this.heap[0];
      if (!top || top.due > realNow) break;
      this.pop();
      if (this.cancelled.delete(top.id)) continue;
      this.pinned = top.due;
      try {
        top.run();
        this.afterTask();
      } catch (err) {
        this.onError(err);
      } finally {
        this.pinned = undefined;
      }
      if (Date.now() > deadline) break;
    }
    this.arm();
  }

  private push(task: Task): void {
    const h = this.heap;
    h.push(task);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  private pop(): Task | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

function before(a: Task, b: Task): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}

/** Seeded PRNG (mulberry32): the same seed gives the same names and jitter. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  hex(length: number): string {
    let s = '';
    while (s.length < length) s += ((this.next() * 4294967296) >>> 0).toString(16).padStart(8, '0');
    return s.length === length ? s : s.slice(0, length);
  }
  /** Kubernetes' generateName suffix alphabet (no vowels, no confusable digits). */
  suffix(length = 5): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
  uid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(4)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** A stable 32-bit hash of a string (FNV-1a), for per-object seeds and fake digests. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
