// Reading one response within its bounds: no byte for too long (a stalled
// connection), a list page or a watch line over its size; and the short names
// and previews the reflector's problem reports use.
import type http from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { KubeTransport } from './client.js';
import { PROTOBUF_MEDIA_TYPE } from './protobuf/envelope.js';

/** Bounds on what one response may make wlx hold (see README.md). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_PAGE_BYTES = 128 * 1024 * 1024;
/** Bytes kept of a response over its bound: enough for its list metadata and the first object's names. */
export const HEAD_BYTES = 64 * 1024;

/** A list page over maxPageBytes: its first bytes only. */
export class PageTooLargeError extends Error {
  constructor(
    readonly head: Buffer,
    readonly protobuf: boolean,
    readonly bytes: number,
  ) {
    super(`list page over ${bytes} bytes`);
    this.name = 'PageTooLargeError';
  }
}

/** "namespace/name" of the first object in the first bytes of a line or page, for reports; '' when not found. */
export function objectNameIn(head: string): string {
  const meta = head.indexOf('"metadata"', head.indexOf('"items"') + 1);
  const from = meta < 0 ? head : head.slice(meta);
  const name = /"name"\s*:\s*"([^"\\]{1,253})"/.exec(from)?.[1];
  const ns = /"namespace"\s*:\s*"([^"\\]{1,63})"/.exec(from)?.[1];
  return name ? (ns ? `${ns}/${name}` : name) : '';
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * A list page's continue token, read from the text before it is parsed: API
 * servers write the list's metadata before its items. Empty when it is not
 * found there (the caller then waits for the parsed page).
 */
export function peekContinue(text: string): string {
  const itemsAt = text.indexOf('"items"');
  const head = itemsAt < 0 ? text.slice(0, 4096) : text.slice(0, itemsAt);
  const m = /"continue"\s*:\s*"([^"\\]*)"/.exec(head);
  return m ? m[1] : '';
}

/** "namespace/name" of an object's metadata (trimmed or as decoded), for reports; '' without a name. */
export function nameOf(meta: { namespace?: unknown; name?: unknown }): string {
  const name = typeof meta.name === 'string' ? meta.name : '';
  return typeof meta.namespace === 'string' && meta.namespace && name ? `${meta.namespace}/${name}` : name;
}

/** First bytes of a protobuf frame in hex, for problem reports. */
export function framePreview(frame: Buffer, max = 24): string {
  return `${frame.length} bytes: ${frame.subarray(0, max).toString('hex')}${frame.length > max ? '…' : ''}`;
}

/**
 * Objects (up to five) whose text has bytes that were not UTF-8, decoded as
 * U+FFFD: each the one whose metadata precedes the bad byte most closely.
 */
export function namesWithInvalidUtf8(text: string): string[] {
  const names: string[] = [];
  let at = text.indexOf('\uFFFD');
  while (at >= 0 && names.length < 5) {
    // The search goes on from the next object's metadata (one pass over the text).
    const meta = text.lastIndexOf('"metadata"', at);
    const name = objectNameIn(meta < 0 ? text.slice(0, HEAD_BYTES) : text.slice(meta, meta + HEAD_BYTES));
    if (name && !names.includes(name)) names.push(name);
    const next = text.indexOf('"metadata"', at);
    at = next < 0 ? -1 : text.indexOf('\uFFFD', next);
  }
  return names;
}

/** First bytes of a line, printable, for problem reports. */
export function linePreview(line: string, max = 60): string {
  const cut = line.length > max ? `${line.slice(0, max)}…` : line;
  return JSON.stringify(cut);
}

/** Accept of a reflector that reads protobuf: what client-go's protobuf clients send. */
export const PROTOBUF_ACCEPT = `${PROTOBUF_MEDIA_TYPE}, application/json`;

export function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as NodeJS.ErrnoException).code === 'ABORT_ERR');
}

class StalledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StalledError';
  }
}

export function isProtobuf(res: http.IncomingMessage): boolean {
  return (res.headers['content-type'] ?? '').startsWith(PROTOBUF_MEDIA_TYPE);
}

/** How a reflector's requests are made: its transport, Accept header and name in messages. */
export interface RequestOptions {
  transport: KubeTransport;
  /** The Accept header (undefined: the transport's JSON). */
  accept: string | undefined;
  /** No response headers for this long → the request is cut (API servers answer at once, watches included). */
  headersTimeoutMs: number | undefined;
  label: string;
}

/** Opens a request with an idle timer: no byte for idleMs → the request is cut with a StalledError. */
export async function openWithIdle(
  request: RequestOptions,
  path: string,
  signal: AbortSignal,
  idleMs: number,
  onChunk: (chunk: Buffer) => void,
  onOpen?: (res: http.IncomingMessage) => void,
): Promise<void> {
  const attempt = new AbortController();
  const abortAttempt = () => attempt.abort();
  signal.addEventListener('abort', abortAttempt, { once: true });
  let stalled = false;
  let timer: NodeJS.Timeout | undefined;
  let waitedMs = idleMs;
  const arm = (ms: number) => {
    if (timer) clearTimeout(timer);
    waitedMs = ms;
    timer = setTimeout(() => {
      stalled = true;
      attempt.abort();
    }, ms);
  };
  arm(Math.min(idleMs, request.headersTimeoutMs ?? 30_000));
  let res: http.IncomingMessage | undefined;
  try {
    res = await request.transport.open(
      path,
      request.accept ? { signal: attempt.signal, accept: request.accept } : { signal: attempt.signal },
    );
    arm(idleMs);
    onOpen?.(res);
    for await (const chunk of res) {
      arm(idleMs);
      onChunk(chunk as Buffer);
    }
  } catch (err) {
    if (stalled)
      throw new StalledError(
        `${request.label}: no ${res ? 'data' : 'response'} for ${Math.round(waitedMs / 1000)}s, restarting`,
      );
    throw err;
  } finally {
    if (timer) clearTimeout(timer);
    signal.removeEventListener('abort', abortAttempt);
    res?.destroy();
  }
}

/** A list page's bytes and whether the server answered protobuf. */
export interface Page {
  bytes: Buffer;
  protobuf: boolean;
}

/** A list page asked for: its continue token and limit, its body to come, and how to cut it. */
export interface PageRequest {
  cont: string;
  limit: number;
  body: Promise<Page>;
  abort: AbortController;
}

/** Asks for one list page; a page over maxPageBytes is cut and rejects with PageTooLargeError (its first bytes). */
export function fetchListPage(
  request: RequestOptions,
  path: string,
  page: { cont: string; limit: number; signal: AbortSignal; idleMs: number; maxPageBytes: number },
): PageRequest {
  const { signal, maxPageBytes } = page;
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let bytes = 0;
  let over = false;
  let protobuf = false;
  const body = openWithIdle(
    request,
    path,
    abort.signal,
    page.idleMs,
    (c) => {
      if (over) return;
      bytes += c.length;
      if (bytes <= maxPageBytes) return void chunks.push(c);
      over = true;
      abort.abort();
    },
    (res) => (protobuf = isProtobuf(res)),
  )
    .catch((err: unknown) => {
      if (!over) throw err;
    })
    .then((): Page => {
      const all = Buffer.concat(chunks);
      if (over) throw new PageTooLargeError(all.subarray(0, HEAD_BYTES), protobuf, bytes);
      return { bytes: all, protobuf };
    })
    .finally(() => signal.removeEventListener('abort', onAbort));
  body.catch(() => undefined); // awaited by the caller, or abandoned (aborted)
  return { cont: page.cont, limit: page.limit, body, abort };
}

/**
 * A JSON watch stream's lines, as its chunks come: complete non-blank lines
 * within maxLine; a line over it is reported (its first bytes, to name the
 * object, and its length) and skipped up to its newline.
 */
export class WatchLineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  /** A line over maxLine: its first bytes and its length so far, until its newline. */
  private skipping: { head: string; length: number } | null = null;

  constructor(
    private readonly maxLine: number,
    private readonly skipped: (head: string, length: number) => void,
  ) {}

  push(chunk: Buffer): string[] {
    let text = this.decoder.write(chunk);
    if (this.skipping) {
      const nl = text.indexOf('\n');
      if (nl < 0) {
        this.skipping.length += text.length;
        return [];
      }
      this.skipped(this.skipping.head, this.skipping.length + nl);
      this.skipping = null;
      text = text.slice(nl + 1);
    }
    text = this.partial + text;
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    if (this.partial.length > this.maxLine) {
      this.skipping = { head: this.partial.slice(0, HEAD_BYTES), length: this.partial.length };
      this.partial = '';
    }
    const complete: string[] = [];
    for (const line of lines) {
      if (!line.trim()) continue;
      if (line.length > this.maxLine) this.skipped(line.slice(0, HEAD_BYTES), line.length);
      else complete.push(line);
    }
    return complete;
  }

  /** The stream ended: a line being skipped is reported; returns the last line, which had no newline. */
  end(): string {
    if (this.skipping) this.skipped(this.skipping.head, this.skipping.length);
    this.skipping = null;
    const last = this.partial;
    this.partial = '';
    return last;
  }
}
