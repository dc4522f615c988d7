// A bounded record of every request the server saw (method, path with query,
// status, time), served at GET /debug/wlx/requests so tests can prove that a
// client only ever reads.

export interface RequestRecord {
  method: string;
  path: string;
  /** 0 while a long request (a watch, a followed log) has not answered yet. */
  status: number;
  time: string;
  durationMs?: number;
  watch?: boolean;
}

export class RequestLog {
  private readonly ring: RequestRecord[] = [];
  private total = 0;

  constructor(readonly limit = 5000) {}

  start(method: string, path: string): RequestRecord {
    const rec: RequestRecord = { method, path, status: 0, time: new Date().toISOString() };
    this.ring.push(rec);
    this.total += 1;
    if (this.ring.length > this.limit) this.ring.splice(0, this.ring.length - this.limit);
    return rec;
  }

  /** Oldest first. */
  records(): RequestRecord[] {
    return this.ring.map((r) => ({ ...r }));
  }

  get count(): number {
    return this.total;
  }

  clear(): void {
    this.ring.length = 0;
  }
}
