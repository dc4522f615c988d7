// A bounded record of every request the server saw (method, path with query,
// status, time), served at GET /debug/wlx/requests so tests can prove that a
// client only ever reads.

export interface RequestRecord {
  method: string;
  path: string;
  /** 0 until the response has started (a watch or a followed log shows 200 while still open). */
  status: number;
  time: string;
  durationMs?: number;
  watch?: boolean;
  /** The user the request was served as (the admin, or the restricted user). */
  user?: string;
  /** The request's Accept header, when it had one (which clients ask for protobuf). */
  accept?: string;
}

/** The part of a response the log reads: whether and what it answered so far. */
interface ResponseState {
  headersSent: boolean;
  statusCode: number;
}

export class RequestLog {
  private readonly ring: RequestRecord[] = [];
  /** Requests still answering (watches, followed logs): their status is read from the response. */
  private readonly open = new Map<RequestRecord, ResponseState>();
  private total = 0;

  constructor(readonly limit = 5000) {}

  start(method: string, path: string, res?: ResponseState, accept?: string): RequestRecord {
    const rec: RequestRecord = { method, path, status: 0, time: new Date().toISOString() };
    if (accept) rec.accept = accept;
    if (res) this.open.set(rec, res);
    this.ring.push(rec);
    this.total += 1;
    if (this.ring.length > this.limit) this.ring.splice(0, this.ring.length - this.limit);
    return rec;
  }

  /** The request has been answered completely (or cut). */
  finish(rec: RequestRecord, status: number, durationMs: number): void {
    rec.status = status;
    rec.durationMs = durationMs;
    this.open.delete(rec);
  }

  /** Oldest first. */
  records(): RequestRecord[] {
    return this.ring.map((r) => {
      const res = this.open.get(r);
      return res?.headersSent ? { ...r, status: res.statusCode } : { ...r };
    });
  }

  get count(): number {
    return this.total;
  }

  clear(): void {
    this.ring.length = 0;
    this.open.clear();
  }
}
