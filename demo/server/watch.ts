// Watch streams. One store subscription feeds every open watch: each store
// event is routed to the watchers of its resource, and serialised at most once
// per (event type, format) and reused for every watcher that receives it, so
// many watchers over many resources stay cheap. Selector watches track which
// objects they have shown, so an object that stops matching is sent as
// DELETED and one that starts matching as ADDED, as the real apiserver does.
// The 'protobuf' format writes kube-apiserver's length-prefixed WatchEvent
// frames (protobuf-encode.ts) instead of JSON lines.
import type { ServerResponse } from 'node:http';
import type { ObjectStore, StoreEvent, StoredObject } from '../object-store.js';
import { apiVersionOf, present, storeKeyOf } from '../kinds.js';
import type { ServedKind } from '../kind-types.js';
import type { FieldSelector, LabelSelector } from './selectors.js';
import { partialObjectMetadata, tableColumns, tableRow, type IncludeObject, type MetaVersion } from './tables.js';
import { objectSortKey } from './lists.js';
import type { Faults } from './faults.js';
import type { StatusObject } from './status.js';
import { encodeWatchFrame, lengthPrefixed } from './protobuf-encode.js';

export type WatchEventKind = 'ADDED' | 'MODIFIED' | 'DELETED';
export type WatchFormat = 'json' | 'protobuf' | 'table' | 'metadata';
/** One serialised event: a JSON line, or a protobuf frame. */
type Chunk = string | Buffer;

export interface WatchOptions {
  kind: ServedKind;
  namespace?: string;
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
  /** Plain objects, Table rows (kubectl get -w) or PartialObjectMetadata (metadata informers). */
  format: WatchFormat;
  /** The meta.k8s.io version of Tables and PartialObjectMetadata. */
  metaVersion: MetaVersion;
  include: IncludeObject;
  bookmarks: boolean;
}

/** A malformed line the `malformedWatchLines` fault writes; clients must skip it. */
export const MALFORMED_WATCH_LINE = '{"type":"MODIFIED","object":{"kind": <<not json>>\n';
/** The same fault on a protobuf stream: a well-framed frame whose bytes are no WatchEvent (`{` is wire type 3). */
export const MALFORMED_WATCH_FRAME = lengthPrefixed(Buffer.from(MALFORMED_WATCH_LINE));

/** Per store event: its serialised watch lines, built lazily and shared. */
class EventLines {
  private readonly lines = new Map<string, Chunk>();

  constructor(
    private readonly kind: ServedKind,
    private readonly object: StoredObject,
  ) {}

  line(type: WatchEventKind, format: WatchFormat, version: MetaVersion, include: IncludeObject): Chunk {
    const key = `${type}|${format}|${version}|${include}`;
    let l = this.lines.get(key);
    if (l === undefined) {
      l = serialiseEvent(this.kind, type, this.object, format, version, include, false);
      this.lines.set(key, l);
    }
    return l;
  }
}

function serialiseEvent(
  kind: ServedKind,
  type: WatchEventKind,
  object: StoredObject,
  format: WatchFormat,
  version: MetaVersion,
  include: IncludeObject,
  withColumns: boolean,
): Chunk {
  if (format === 'json') return `${JSON.stringify({ type, object: present(kind, object) })}\n`;
  if (format === 'protobuf') return encodeWatchFrame(type, apiVersionOf(kind), kind.kind, present(kind, object));
  if (format === 'metadata') return `${JSON.stringify({ type, object: partialObjectMetadata(object, version) })}\n`;
  const table: Record<string, unknown> = {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: { resourceVersion: object.metadata.resourceVersion },
  };
  if (withColumns) table.columnDefinitions = tableColumns(kind);
  table.rows = [tableRow(kind, object, include, version)];
  return `${JSON.stringify({ type, object: table })}\n`;
}

/**
 * Bytes handed to the socket before further events wait in the watcher's own
 * queue. Events are queued unserialised (a closure over the stored object), so
 * a watch that resumes from a resourceVersion a minute old at thousands of
 * events/s replays its history as fast as the client reads it instead of
 * buffering hundreds of MB of text — kube-apiserver's watch cache also streams
 * its initial events through a bounded channel.
 */
const HIGH_WATER = 4 * 1024 * 1024;
/** Queued events past which a watcher that does not read is cut off. */
const MAX_QUEUED = 1_000_000;

export class Watcher {
  private sentColumns = false;
  /** Keys of objects this (selector) watch has shown, to turn "stops matching" into DELETED. */
  private readonly shown: Set<string> | undefined;
  nextBookmarkAt = 0;
  closed = false;
  /** Events waiting for the socket to drain, oldest first from queueHead. */
  private queue: Array<(() => Chunk) | undefined> = [];
  private queueHead = 0;
  private waitingForDrain = false;
  private ending = false;

  constructor(
    readonly opts: WatchOptions,
    readonly res: ServerResponse,
    private readonly faults: Faults,
  ) {
    this.shown = opts.labelSelector || opts.fieldSelector ? new Set() : undefined;
  }

  private matches(o: StoredObject): boolean {
    if (this.opts.labelSelector && !this.opts.labelSelector(o.metadata.labels)) return false;
    if (this.opts.fieldSelector && !this.opts.fieldSelector(o)) return false;
    return true;
  }

  write(chunk: Chunk): void {
    this.writeLazy(() => chunk);
  }

  /** Writes now when the socket keeps up, else queues `make` (in order) until it drains. */
  private writeLazy(make: () => Chunk): void {
    if (this.closed || this.ending) return;
    if (this.queueHead < this.queue.length || this.res.writableLength > HIGH_WATER) {
      this.queue.push(make);
      if (this.queue.length - this.queueHead > MAX_QUEUED) {
        this.destroy();
        return;
      }
      this.awaitDrain();
      return;
    }
    this.emit(make());
  }

  private emit(chunk: Chunk): void {
    if (this.faults.malformedWatchLines)
      this.res.write(this.opts.format === 'protobuf' ? MALFORMED_WATCH_FRAME : MALFORMED_WATCH_LINE);
    this.res.write(chunk);
  }

  private awaitDrain(): void {
    if (this.waitingForDrain) return;
    this.waitingForDrain = true;
    this.res.once('drain', () => {
      this.waitingForDrain = false;
      this.pump();
    });
  }

  private pump(): void {
    while (!this.closed && this.queueHead < this.queue.length && this.res.writableLength <= HIGH_WATER) {
      const make = this.queue[this.queueHead]!;
      this.queue[this.queueHead++] = undefined;
      this.emit(make());
    }
    if (this.closed) return;
    if (this.queueHead >= this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
      if (this.ending) {
        this.closed = true;
        this.res.end();
      }
      return;
    }
    if (this.queueHead > 4096) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    this.awaitDrain();
  }

  private send(type: WatchEventKind, o: StoredObject, lines?: EventLines): void {
    const { format, metaVersion, include, kind } = this.opts;
    if (format === 'table' && !this.sentColumns) {
      this.sentColumns = true;
      this.writeLazy(() => serialiseEvent(kind, type, o, format, metaVersion, include, true));
    } else if (lines) {
      this.writeLazy(() => lines.line(type, format, metaVersion, include));
    } else {
      this.writeLazy(() => serialiseEvent(kind, type, o, format, metaVersion, include, false));
    }
  }

  /** Routes one change to this watcher, applying namespace and selectors. */
  deliver(type: WatchEventKind, o: StoredObject, lines?: EventLines): void {
    if (this.closed) return;
    if (this.opts.namespace !== undefined && o.metadata.namespace !== this.opts.namespace) return;
    if (!this.shown) {
      this.send(type, o, lines);
      return;
    }
    const key = objectSortKey(o);
    const was = this.shown.has(key);
    if (type === 'DELETED') {
      if (was) {
        this.shown.delete(key);
        this.send('DELETED', o, lines);
      }
      return;
    }
    if (this.matches(o)) {
      this.shown.add(key);
      this.send(was && type !== 'ADDED' ? 'MODIFIED' : 'ADDED', o, lines);
    } else if (was) {
      this.shown.delete(key);
      this.send('DELETED', o, lines);
    }
  }

  /** What a resumed selector watch has already "shown": the matching objects at its start resourceVersion. */
  seedShown(objects: StoredObject[]): void {
    if (!this.shown) return;
    for (const o of objects) {
      if (this.opts.namespace !== undefined && o.metadata.namespace !== this.opts.namespace) continue;
      if (this.matches(o)) this.shown.add(objectSortKey(o));
    }
  }

  bookmark(rv: number, initialEventsEnd = false): void {
    const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
    if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
    const { kind } = this.opts;
    if (this.opts.format === 'protobuf')
      return this.write(encodeWatchFrame('BOOKMARK', apiVersionOf(kind), kind.kind, { metadata }));
    const object = { kind: kind.kind, apiVersion: apiVersionOf(kind), metadata };
    this.write(`${JSON.stringify({ type: 'BOOKMARK', object })}\n`);
  }

  error(status: StatusObject): void {
    if (this.opts.format === 'protobuf')
      return this.write(encodeWatchFrame('ERROR', 'v1', 'Status', status as unknown as Record<string, unknown>));
    this.write(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
  }

  /** Ends the stream cleanly once every queued event has been written. */
  end(): void {
    if (this.closed || this.ending) return;
    this.ending = true;
    if (this.queueHead < this.queue.length) return; // pump() ends it
    this.closed = true;
    this.res.end();
  }

  /** Cuts the connection without a clean end (a dropped watch). */
  destroy(): void {
    this.closed = true;
    this.queue = [];
    this.queueHead = 0;
    this.res.destroy();
  }
}

export class WatchHub {
  private readonly byKey = new Map<string, Set<Watcher>>();
  private readonly unsubscribe: () => void;
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly store: ObjectStore,
    readonly bookmarkIntervalMs: number,
  ) {
    this.unsubscribe = store.subscribe((e) => this.onEvent(e));
    // One timer for every watcher's periodic bookmark.
    this.ticker = setInterval(() => this.sendDueBookmarks(), Math.max(50, Math.min(1000, bookmarkIntervalMs / 4)));
    this.ticker.unref();
  }

  get size(): number {
    let n = 0;
    for (const s of this.byKey.values()) n += s.size;
    return n;
  }

  /** Sends the initial state or history, then registers; all in one tick, so nothing is missed. */
  start(
    w: Watcher,
    from:
      | { kind: 'initial'; bookmarkAfter: boolean }
      | { kind: 'history'; events: StoreEvent[]; stateAtStart: StoredObject[] },
  ): void {
    if (from.kind === 'initial') {
      for (const o of this.store.list(storeKeyOf(w.opts.kind), w.opts.namespace)) w.deliver('ADDED', o);
      if (from.bookmarkAfter) w.bookmark(this.store.currentRv, true);
    } else {
      w.seedShown(from.stateAtStart);
      for (const e of from.events) w.deliver(e.type, e.object);
    }
    const key = storeKeyOf(w.opts.kind);
    let set = this.byKey.get(key);
    if (!set) {
      set = new Set();
      this.byKey.set(key, set);
    }
    set.add(w);
    w.nextBookmarkAt = Date.now() + this.bookmarkIntervalMs;
  }

  remove(w: Watcher): void {
    const key = storeKeyOf(w.opts.kind);
    const set = this.byKey.get(key);
    if (set) {
      set.delete(w);
      if (!set.size) this.byKey.delete(key);
    }
  }

  /** Cuts every open watch connection (the drop-watches fault, a restart). */
  dropAll(): number {
    let n = 0;
    for (const set of this.byKey.values()) {
      for (const w of set) {
        w.destroy();
        n++;
      }
      set.clear();
    }
    this.byKey.clear();
    return n;
  }

  close(): void {
    clearInterval(this.ticker);
    this.unsubscribe();
    this.dropAll();
  }

  private onEvent(e: StoreEvent): void {
    const set = this.byKey.get(e.resourceKey);
    if (!set || !set.size) return;
    // Lines are shared per served version (two versions of a CRD watch the same objects).
    const linesOf = new Map<ServedKind, EventLines>();
    for (const w of set) {
      let lines = linesOf.get(w.opts.kind);
      if (!lines) linesOf.set(w.opts.kind, (lines = new EventLines(w.opts.kind, e.object)));
      w.deliver(e.type, e.object, lines);
    }
  }

  private sendDueBookmarks(): void {
    const now = Date.now();
    for (const set of this.byKey.values()) {
      for (const w of set) {
        if (w.opts.bookmarks && now >= w.nextBookmarkAt) {
          w.nextBookmarkAt = now + this.bookmarkIntervalMs;
          w.bookmark(this.store.currentRv);
        }
      }
    }
  }
}
