// One list+watch loop per kind, with the guarantees of client-go's reflector
// (client-node's informer has none of them: it lists without paging, asks for
// no bookmarks, has no back-off and stops for good on connection errors):
//
// - paged list (`limit` + `continue`), restarted from scratch if a continue
//   token expires (list-pages.ts reads the pages);
// - watch from the list's resourceVersion with `allowWatchBookmarks=true` and a
//   randomised `timeoutSeconds`, so quiet kinds keep a fresh resourceVersion
//   and watches end (and reconnect) at staggered times;
// - resourceVersion advanced by every event and bookmark; a clean end of the
//   watch reconnects from it at once;
// - 410 Expired (as an HTTP status or as an ERROR event) → relist, and the
//   relist emits DELETED for objects that vanished while we were not watching
//   (and nothing for objects whose resourceVersion did not change);
// - connection errors → exponential back-off with jitter, state 'reconnecting',
//   with the cause and the time of the next attempt (for the header and flash);
// - stall detection: a response that sends no byte for longer than the watch
//   timeout plus a margin is cut and restarted (silent half-open connections);
// - a malformed watch line is reported (kind, first bytes) and skipped;
// - a watch line or list page over its size bound, and invalid UTF-8, are
//   reported with the object's name (README.md);
// - `wire: 'protobuf'`: core/v1 pods, nodes and events are asked for in
//   Kubernetes protobuf first (JSON second) and read by the Content-Type of
//   each answer (protobuf/ decodes into the JSON shape, then the same trim);
//   the same bounds apply to frames and pages, and catch-up coalescing is
//   skipped for protobuf frames (README.md);
// - 403 → state 'forbidden' (retried slowly, permissions can be granted);
//   403 for a kind that was readable → 'reconnecting' with back-off from 1 s
//   (a restarted kube-apiserver refuses while its RBAC cache fills);
//   401 → 'forbidden' too, retried with back-off (a token can be refreshed);
//   404 → 'not-served' (stops).
import type http from 'node:http';
import type { ConnectionCause, KubeObject, KindState } from '../model/types.js';
import { KubeApiError, describeFailure, type KubeTransport } from './client.js';
import { isRecord } from '../definitions/normalise.js';
import { withTypeMeta } from './trim.js';
import { CatchUpWindow, type CatchUpBounds } from './catch-up.js';
import { decoderFor, type ObjectDecoder } from './protobuf/core-v1.js';
import {
  decodeWatchEvent,
  type DecodedWatchEvent,
  objectNameInProtobuf,
  WatchFrameSplitter,
} from './protobuf/envelope.js';
import { ProtobufError } from './protobuf/wire.js';
import { Backoff, sleep, type BackoffOptions } from './backoff.js';
import { KnownObjects } from './known-objects.js';
import { listPages } from './list-pages.js';
import {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_PAGE_BYTES,
  framePreview,
  HEAD_BYTES,
  linePreview,
  megabytes,
  namesWithInvalidUtf8,
  nameOf,
  objectNameIn,
  isAbort,
  PROTOBUF_ACCEPT,
  isProtobuf,
  openWithIdle,
  WatchLineSplitter,
  type RequestOptions,
} from './response-bounds.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';
export type ReflectorState = KindState['state'];

export interface ReflectorHandlers {
  onEvent(type: WatchEventType, object: KubeObject): void;
  onState?(state: ReflectorState, message: string | undefined): void;
  /** A problem worth showing (malformed line, transient error); never a credential. */
  onProblem?(message: string): void;
}

export interface ReflectorOptions {
  transport: KubeTransport;
  /** Collection path, e.g. `/api/v1/pods`, `/apis/batch/v1/namespaces/ns/jobs`. */
  path: string;
  apiVersion: string;
  kind: string;
  /** Short name used in messages, e.g. `pods` or `jobsets.jobset.x-k8s.io`. */
  label?: string;
  labelSelector?: string;
  fieldSelector?: string;
  trim: (object: unknown) => KubeObject;
  /** false: list once and stop (`wlx get`). */
  watch?: boolean;
  pageSize?: number;
  /** Range for the randomised watch timeoutSeconds. */
  watchTimeoutSeconds?: [number, number];
  /** Extra silence tolerated beyond the watch timeout before a stream counts as stalled. */
  stallMarginMs?: number;
  /** A watch line (one event) longer than this is reported and skipped (bytes; default 16 MiB). */
  maxLineBytes?: number;
  /** A list page longer than this is fetched again an object per page; an object over it is reported and skipped (default 128 MiB). */
  maxPageBytes?: number;
  /** No byte for this long during a list → the request is cut and retried. */
  listIdleTimeoutMs?: number;
  /** No response headers for this long → the request is cut and retried (API servers answer at once, watches included). */
  headersTimeoutMs?: number;
  backoff?: Partial<BackoffOptions>;
  /** When a watch that is behind holds and coalesces its lines (catch-up.ts). */
  catchUp?: CatchUpBounds;
  /** Retry interval while forbidden (never listed). */
  forbiddenRetryMs?: number;
  /** Back-off of a kind that was listed and is now refused (default 1 s doubling to 30 s). */
  refusedBackoff?: Partial<BackoffOptions>;
  /**
   * 'protobuf': ask for Kubernetes protobuf first where protobuf/ has a decoder
   * (core/v1 Pod, Node, Event), JSON otherwise; default 'json'.
   */
  wire?: 'json' | 'protobuf';
  /**
   * Awaited after each list, before the watch that follows it opens (given
   * when the list began: the server must still hold the events since). The
   * engine delays a held engine's watches with it (heldWatch, flush-scheduler.ts).
   */
  beforeWatch?: (listStartedAt: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 800, maxMs: 30_000, factor: 2, jitter: 0.5 };
/** A kind that was readable and is refused: 1 s doubling to 30 s. */
const REFUSED_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 30_000, factor: 2, jitter: 0 };

class ExpiredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExpiredError';
  }
}

export class Reflector {
  /** The objects told about so far (a relist compares against them). */
  private readonly known: KnownObjects;
  private readonly controller = new AbortController();
  private readonly backoff: Backoff;
  /** Retries of a kind that was listed and is now refused (403). */
  private readonly refused: Backoff;
  private readonly random: () => number;
  private rv = '';
  private currentState: ReflectorState = 'syncing';
  private stateSince = new Date();
  private stateMessage: string | undefined;
  private failureCause: ConnectionCause | undefined;
  private nextAttempt: Date | undefined;
  private running: Promise<void> | undefined;
  private syncedResolve!: (err: Error | null) => void;
  /** Settles once: null after the first complete list (or forbidden / not served), an Error when list-only mode failed. */
  readonly firstSync: Promise<Error | null>;
  /** Lists done (for tests and stats). */
  lists = 0;
  /** Watch requests opened. */
  watches = 0;
  /** Watch events left out by catch-up coalescing (a later event of the same object followed). */
  coalesced = 0;
  /** The protobuf decoder of this kind when protobuf is asked for. */
  private readonly protobuf: ObjectDecoder | undefined;
  /** How lists and watches are asked for (the Accept header: protobuf first, or the transport's JSON). */
  private readonly request: RequestOptions;

  constructor(
    private readonly options: ReflectorOptions,
    private readonly handlers: ReflectorHandlers,
  ) {
    this.known = new KnownObjects(options.apiVersion, options.kind);
    this.random = options.random ?? Math.random;
    this.backoff = new Backoff({ ...DEFAULT_BACKOFF, ...options.backoff }, this.random);
    this.refused = new Backoff({ ...REFUSED_BACKOFF, ...options.refusedBackoff }, this.random);
    this.protobuf = options.wire === 'protobuf' ? decoderFor(options.apiVersion, options.kind) : undefined;
    this.request = {
      transport: options.transport,
      accept: this.protobuf ? PROTOBUF_ACCEPT : undefined,
      headersTimeoutMs: options.headersTimeoutMs,
      label: this.label,
    };
    this.firstSync = new Promise((resolve) => {
      this.syncedResolve = resolve;
    });
  }

  get label(): string {
    return this.options.label ?? this.options.path;
  }
  get resourceVersion(): string {
    return this.rv;
  }
  get count(): number {
    return this.known.size;
  }
  get state(): ReflectorState {
    return this.currentState;
  }
  get since(): Date {
    return this.stateSince;
  }
  get message(): string | undefined {
    return this.stateMessage;
  }
  /** Why the last attempt failed, while retrying. */
  get cause(): ConnectionCause | undefined {
    return this.failureCause;
  }
  /** When the next attempt starts, while retrying. */
  get retryAt(): Date | undefined {
    return this.nextAttempt;
  }

  start(): this {
    this.running ??= this.run();
    return this;
  }

  /** Stops the loop and cuts any open request; resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.controller.abort();
    this.syncedResolve(new Error(`${this.label}: stopped`));
    await this.running;
  }

  private setState(state: ReflectorState, message?: string): void {
    if (state === 'live' || state === 'syncing') {
      this.failureCause = undefined;
      this.nextAttempt = undefined;
    }
    if (state === this.currentState && message === this.stateMessage) return;
    // "reconnecting since T" keeps its first T while retries continue.
    if (state !== this.currentState) this.stateSince = new Date();
    this.currentState = state;
    this.stateMessage = message;
    this.handlers.onState?.(state, message);
  }

  /** A failed attempt: the state with its cause and the next attempt's time (reported each time), then the wait. */
  private async retryAfter(state: ReflectorState, err: unknown, delayMs: number, signal: AbortSignal): Promise<void> {
    this.failureCause = describeFailure(err);
    this.nextAttempt = new Date(Date.now() + delayMs);
    const message = (err as Error).message;
    if (state === this.currentState && message === this.stateMessage) this.handlers.onState?.(state, message);
    else this.setState(state, message);
    await sleep(delayMs, signal);
  }

  private query(extra: Record<string, string>): string {
    const params = new URLSearchParams();
    if (this.options.labelSelector) params.set('labelSelector', this.options.labelSelector);
    if (this.options.fieldSelector) params.set('fieldSelector', this.options.fieldSelector);
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    return `${this.options.path}?${params.toString()}`;
  }

  private async run(): Promise<void> {
    const signal = this.controller.signal;
    const watch = this.options.watch !== false;
    let needList = true;
    while (!signal.aborted) {
      try {
        if (needList) {
          const listStartedAt = Date.now();
          await this.list(signal);
          needList = false;
          this.backoff.reset();
          this.refused.reset();
          this.setState('live');
          this.syncedResolve(null);
          if (!watch) return;
          await this.options.beforeWatch?.(listStartedAt, signal);
          if (signal.aborted) break;
        }
        const started = Date.now();
        const events = await this.watchOnce(signal);
        // A watch that ends at once with nothing in it is a misbehaving
        // server or proxy: back off instead of reconnecting in a storm.
        if (events === 0 && Date.now() - started < 1000) await sleep(this.backoff.next(), signal);
        else this.backoff.reset();
      } catch (err) {
        if (signal.aborted || isAbort(err)) break;
        if (err instanceof ExpiredError || (err instanceof KubeApiError && err.status === 410)) {
          // The resourceVersion is too old: relist (emitting deletes for what vanished).
          needList = true;
          continue;
        }
        if (err instanceof KubeApiError && err.status === 403 && this.lists > 0 && watch) {
          // It was readable: not a permission never granted but one refused for now (a restarted
          // server's RBAC cache, a binding being replaced). Not watched meanwhile, and said so; what was
          // listed stays until the relist.
          needList = true;
          await this.retryAfter('reconnecting', err, this.refused.next(), signal);
          continue;
        }
        if (err instanceof KubeApiError && (err.status === 403 || err.status === 401)) {
          this.setState('forbidden', err.message);
          this.handlers.onProblem?.(
            `${this.label}: ${err.status === 403 ? 'forbidden' : 'unauthorized'}: ${err.message}`,
          );
          this.syncedResolve(null);
          if (!watch) return;
          needList = true;
          // Permissions are granted rarely; an expired token is often refreshed soon (exec plugins).
          const delay = err.status === 403 ? (this.options.forbiddenRetryMs ?? 60_000) : this.backoff.next();
          await this.retryAfter('forbidden', err, delay, signal);
          continue;
        }
        if (err instanceof KubeApiError && err.status === 404) {
          this.setState('not-served', err.message);
          this.syncedResolve(null);
          return;
        }
        const message = (err as Error).message;
        if (!watch) {
          this.setState('error', message);
          this.syncedResolve(err as Error);
          return;
        }
        await this.retryAfter('reconnecting', err, this.backoff.next(), signal);
      }
    }
  }

  private async list(signal: AbortSignal): Promise<void> {
    // Each page is applied as soon as it is trimmed (ADDED for new objects,
    // MODIFIED for changed ones, nothing for unchanged ones), so the model
    // works while the server still sends. Objects that vanished are only
    // known after the last page: they are deleted then. `seen` (uids) is
    // only needed when something was held before this list began.
    let seen: Set<string> | null = this.known.size ? new Set() : null;
    const rv = await listPages(
      {
        request: this.request,
        query: (extra) => this.query(extra),
        apiVersion: this.options.apiVersion,
        kind: this.options.kind,
        label: this.label,
        trim: this.options.trim,
        protobuf: this.protobuf,
        pageSize: this.options.pageSize ?? 500,
        idleMs: this.options.listIdleTimeoutMs ?? 60_000,
        maxPageBytes: this.options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES,
      },
      {
        listed: (obj) => this.listed(obj, seen),
        restarted: () => (seen = new Set()),
        problem: (message) => this.handlers.onProblem?.(message),
        invalidUtf8: (names) => this.reportInvalidUtf8Names(names),
      },
      signal,
    );
    if (seen) this.known.forgetUnseen(seen, (prev) => this.handlers.onEvent('DELETED', this.known.tombstone(prev)));
    this.rv = rv;
    this.lists += 1;
  }

  /** One object of a list: ADDED or MODIFIED when new or changed (a new uid under a held name: DELETED for the old one first). */
  private listed(obj: KubeObject, seen: Set<string> | null): void {
    const meta = obj.metadata;
    if (!meta || !meta.name) return;
    seen?.add(meta.uid);
    const prev = this.known.get(meta.namespace, meta.name);
    if (prev && prev.uid === meta.uid && (prev.resourceVersion ?? '') === (meta.resourceVersion ?? '')) return;
    if (prev && prev.uid !== meta.uid) {
      // Same name, new object: the old one was deleted while we were away.
      this.handlers.onEvent('DELETED', this.known.tombstone(prev));
    }
    this.known.remember(meta);
    this.handlers.onEvent(prev && prev.uid === meta.uid ? 'MODIFIED' : 'ADDED', obj);
  }

  /** One watch request; resolves with the number of events when the server ends it cleanly. */
  private async watchOnce(signal: AbortSignal): Promise<number> {
    const [min, max] = this.options.watchTimeoutSeconds ?? [300, 600];
    const timeoutSeconds = Math.round(min + (max - min) * this.random());
    const idleMs = timeoutSeconds * 1000 + (this.options.stallMarginMs ?? 30_000);
    const path = this.query({
      watch: '1',
      allowWatchBookmarks: 'true',
      resourceVersion: this.rv,
      timeoutSeconds: String(timeoutSeconds),
    });
    const maxLine = this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    const oversize = (name: string, length: number) =>
      this.handlers.onProblem?.(
        `${this.label}: watch event${name ? ` for ${this.options.kind} ${name}` : ''} of ${megabytes(length)} over the limit of ${megabytes(maxLine)} skipped`,
      );
    const lines = new WatchLineSplitter(maxLine, (head, length) => oversize(objectNameIn(head), length));
    let events = 0;
    let failure: Error | undefined;
    const attempt = new AbortController();
    const onAbort = () => attempt.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    this.watches += 1;
    /** One event (a line or a frame); an ERROR event throws and stops reading this stream. */
    const handleOne = <T>(handle: (event: T) => boolean, event: T): void => {
      if (failure) return;
      try {
        if (handle(event)) events += 1;
      } catch (err) {
        failure = err as Error;
        attempt.abort();
      }
    };
    const onLine = (line: string) => this.handleLine(line);
    const onFrame = (frame: Buffer) => this.handleFrame(frame);
    // Lines are handled as they come, or held and coalesced while the stream is behind (catch-up.ts).
    const catchUp = new CatchUpWindow((lines, superseded) => {
      events += superseded;
      this.coalesced += superseded;
      for (const line of lines) handleOne(onLine, line);
    }, this.options.catchUp);
    // A protobuf stream (decided by the answer's Content-Type): length-prefixed
    // frames, bounded like lines; handled as they come, without catch-up coalescing.
    let frames: WatchFrameSplitter | undefined;
    try {
      const onOpen = (res: http.IncomingMessage) => {
        if (this.protobuf && isProtobuf(res))
          frames = new WatchFrameSplitter(maxLine, HEAD_BYTES, (head, length) =>
            oversize(objectNameInProtobuf(head, true), length),
          );
        if (this.currentState !== 'live') this.setState('live');
      };
      await openWithIdle(
        this.request,
        path,
        attempt.signal,
        idleMs,
        (chunk) => {
          if (failure) return;
          if (frames) {
            for (const frame of frames.push(chunk)) handleOne(onFrame, frame);
            return;
          }
          catchUp.push(lines.push(chunk));
        },
        onOpen,
      );
      catchUp.release();
    } catch (err) {
      if (failure) throw failure;
      throw err;
    } finally {
      catchUp.stop();
      signal.removeEventListener('abort', onAbort);
    }
    if (failure) throw failure;
    if (frames?.leftover)
      this.handlers.onProblem?.(`${this.label}: watch stream ended ${frames.leftover} bytes into a frame`);
    const partial = lines.end();
    if (partial.trim()) this.handleLine(partial);
    // Headers arrived and the stream ended cleanly: we were live.
    if (this.currentState !== 'live') this.setState('live');
    return events;
  }

  /** Handles one watch line; returns true for an object event. Throws on ERROR events. */
  private handleLine(line: string): boolean {
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      this.handlers.onProblem?.(`${this.label}: malformed watch line skipped: ${linePreview(line)}`);
      return false;
    }
    if (!isRecord(event) || typeof event.type !== 'string' || !isRecord(event.object)) {
      this.handlers.onProblem?.(`${this.label}: malformed watch event skipped: ${linePreview(line)}`);
      return false;
    }
    if (line.includes('\uFFFD')) this.reportInvalidUtf8(line);
    return this.handleEvent(event.type, event.object, () => linePreview(line));
  }

  /** Handles one protobuf watch frame, as handleLine does a line. */
  private handleFrame(frame: Buffer): boolean {
    let event: DecodedWatchEvent;
    try {
      event = decodeWatchEvent(frame, this.protobuf!);
    } catch (err) {
      if (!(err instanceof ProtobufError)) throw err;
      this.handlers.onProblem?.(
        `${this.label}: malformed watch frame skipped (${framePreview(frame)}): ${err.message}`,
      );
      return false;
    }
    if (event.invalidUtf8) {
      const name = nameOf(isRecord(event.object.metadata) ? event.object.metadata : {});
      this.reportInvalidUtf8Names(name ? [name] : []);
    }
    return this.handleEvent(event.type, event.object, () => framePreview(frame));
  }

  /** One decoded watch event (from a line or a frame); `preview` names it in reports. */
  private handleEvent(type: string, object: Record<string, unknown>, preview: () => string): boolean {
    const meta = isRecord(object.metadata) ? object.metadata : {};
    switch (type) {
      case 'BOOKMARK':
        if (typeof meta.resourceVersion === 'string' && meta.resourceVersion) this.rv = meta.resourceVersion;
        if (this.currentState !== 'live') this.setState('live');
        return false;
      case 'ERROR': {
        const code = typeof object.code === 'number' ? object.code : 0;
        const message = typeof object.message === 'string' ? object.message : 'watch error';
        if (code === 410 || object.reason === 'Expired' || object.reason === 'Gone') throw new ExpiredError(message);
        throw new KubeApiError(
          `${this.label}: watch error: ${message}`,
          code,
          typeof object.reason === 'string' ? object.reason : null,
        );
      }
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED': {
        if (typeof meta.name !== 'string' || !meta.name) {
          this.handlers.onProblem?.(`${this.label}: watch event without metadata.name skipped: ${preview()}`);
          return false;
        }
        if (this.currentState !== 'live') this.setState('live');
        const obj = this.options.trim(withTypeMeta(object, this.options.apiVersion, this.options.kind));
        const rv = obj.metadata.resourceVersion ?? '';
        if (rv) this.rv = rv;
        if (type === 'DELETED') {
          const held = this.known.get(obj.metadata.namespace, obj.metadata.name);
          if (!held || !this.known.forget(held)) return true;
          this.handlers.onEvent('DELETED', obj);
        } else {
          const prev = this.known.get(obj.metadata.namespace, obj.metadata.name);
          if (prev && prev.uid !== obj.metadata.uid) this.handlers.onEvent('DELETED', this.known.tombstone(prev));
          this.known.remember(obj.metadata);
          this.handlers.onEvent(prev && prev.uid === obj.metadata.uid ? 'MODIFIED' : 'ADDED', obj);
        }
        return true;
      }
      default:
        this.handlers.onProblem?.(`${this.label}: unknown watch event type skipped: ${preview()}`);
        return false;
    }
  }

  /**
   * Bytes that are not UTF-8 were decoded as U+FFFD (kept that way: the
   * terminal never sees raw bytes); which objects had them is reported.
   */
  private reportInvalidUtf8(text: string): void {
    this.reportInvalidUtf8Names(namesWithInvalidUtf8(text));
  }

  /** The invalid-UTF-8 report, naming up to five objects. */
  private reportInvalidUtf8Names(names: string[]): void {
    this.handlers.onProblem?.(
      `${this.label}: invalid UTF-8 (shown as U+FFFD) in ${names.length ? `${this.options.kind} ${names.join(', ')}` : 'a response'}`,
    );
  }

  /** A DELETED-style stub of every object held (to take them out of a store). */
  tombstones(): KubeObject[] {
    return this.known.tombstones();
  }

  /** uid → resourceVersion of every object held (for consistency checks). */
  snapshotVersions(): Map<string, string> {
    return this.known.versions();
  }
}
