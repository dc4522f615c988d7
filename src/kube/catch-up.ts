// Catch-up after a list under churn: a watch that resumes from a long list's
// resourceVersion replays every event that piled up meanwhile, and only the
// last version of each object matters. While the stream is behind, the
// reflector holds its lines in a bounded window (CatchUpWindow) and handles
// only what coalesceWatchLines keeps. See README.md ("Catch-up").
import { LineArena } from './line-arena.js';
import { ownCopy } from './trim-bounds.js';

/** What a cheap scan of a watch line finds (no JSON.parse): the event type and its object's uid and name. */
export interface WatchLineScan {
  type: string;
  uid: string;
  name: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** Index just past the string starting at `at` (a quote), or -1 when it does not end. */
function stringEnd(line: string, at: number): number {
  let i = at;
  for (;;) {
    i = line.indexOf('"', i + 1);
    if (i < 0) return -1;
    let slashes = 0;
    for (let j = i - 1; line.charCodeAt(j) === BACKSLASH; j--) slashes++;
    if (slashes % 2 === 0) return i + 1;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(line: string, at: number): number {
  while (at < line.length && isSpace(line.charCodeAt(at))) at++;
  return at;
}

/** Index just past the JSON value starting at `at`, or -1. Literals and numbers are not validated (JSON.parse does that). */
function valueEnd(line: string, at: number): number {
  const c = line.charCodeAt(at);
  if (c === QUOTE) return stringEnd(line, at);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    for (let i = at; i < line.length; i++) {
      const d = line.charCodeAt(i);
      if (d === QUOTE) {
        i = stringEnd(line, i) - 1;
        if (i < 0) return -1;
      } else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = at;
  while (i < line.length) {
    const d = line.charCodeAt(i);
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
    i++;
  }
  return i > at ? i : -1;
}

/** The plain string (no escapes) starting at `at`, or undefined. */
function plainString(line: string, at: number): string | undefined {
  if (line.charCodeAt(at) !== QUOTE) return undefined;
  const end = stringEnd(line, at);
  if (end < 0) return undefined;
  const s = line.slice(at + 1, end - 1);
  return s.includes('\\') ? undefined : s;
}

/**
 * Walks the members of the object starting at `at` ('{'), calling `member`
 * with each key and where its value starts; `member` returns true to stop
 * there (a value is skipped only when the walk goes on past it). Returns
 * false when the text is not an object of that shape.
 */
function members(line: string, at: number, member: (key: string, from: number) => boolean): boolean {
  if (line.charCodeAt(at) !== OPEN_BRACE) return false;
  let i = skipSpace(line, at + 1);
  if (line.charCodeAt(i) === CLOSE_BRACE) return true;
  for (;;) {
    if (line.charCodeAt(i) !== QUOTE) return false;
    const keyEnd = stringEnd(line, i);
    if (keyEnd < 0) return false;
    const key = line.slice(i + 1, keyEnd - 1);
    i = skipSpace(line, keyEnd);
    if (line.charCodeAt(i) !== COLON) return false;
    const from = skipSpace(line, i + 1);
    if (member(key, from)) return true;
    const to = valueEnd(line, from);
    if (to < 0) return false;
    i = skipSpace(line, to);
    const c = line.charCodeAt(i);
    if (c === CLOSE_BRACE) return true;
    if (c !== COMMA) return false;
    i = skipSpace(line, i + 1);
  }
}

/**
 * The event type and `object.metadata.uid` / `.name` of a watch line, found by
 * walking only the keys on that path (values before them are skipped by their
 * brackets and quotes, not parsed; the walk stops once all three are found).
 * Undefined when any of them is missing or not a plain string, or the line is
 * not shaped as a watch event (the caller then parses it).
 */
export function scanWatchLine(line: string): WatchLineScan | undefined {
  let type: string | undefined;
  let uid: string | undefined;
  let name: string | undefined;
  const found = () => type !== undefined && uid !== undefined && name !== undefined;
  const metadata = (key: string, from: number): boolean => {
    if (key === 'uid') uid = plainString(line, from);
    else if (key === 'name') name = plainString(line, from);
    return uid !== undefined && name !== undefined;
  };
  // Stops after metadata unless the type is still to be found (it comes first from API servers).
  const object = (key: string, from: number): boolean =>
    key === 'metadata' ? (members(line, from, metadata), type !== undefined) : false;
  const ok = members(line, skipSpace(line, 0), (key, from) => {
    if (key === 'type') type = plainString(line, from);
    else if (key === 'object') members(line, from, object);
    return found();
  });
  if (!ok || !found()) return undefined;
  return { type: type!, uid: uid!, name: name! };
}

/** The same facts from a full parse, for lines the scan cannot read: the type of any event, uid and name when present. */
function parsedWatchLine(line: string): Partial<WatchLineScan> | undefined {
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return undefined;
  }
  const record = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (!record(event) || typeof event.type !== 'string') return undefined;
  const meta = record(event.object) && record(event.object.metadata) ? event.object.metadata : {};
  return {
    type: event.type,
    uid: typeof meta.uid === 'string' ? meta.uid : undefined,
    name: typeof meta.name === 'string' ? meta.name : undefined,
  };
}

export interface CoalescedLines {
  /** The lines to handle, in their order. */
  lines: string[];
  /** Object events left out because a later event of the same object follows. */
  superseded: number;
}

const OBJECT_EVENT = new Set(['ADDED', 'MODIFIED', 'DELETED']);

/**
 * Keeps, of a run of watch lines, only the last event of each object (by
 * uid), at its own place; everything else keeps its place too. Handling the
 * result in order leaves the reflector and the store exactly as handling every
 * line would: an object's last event decides whether it is held and as what;
 * a name deleted and created again has a new uid, and the old object's last
 * event (its DELETED) comes before any event of the new one; BOOKMARKs stay
 * where they are and the last line is always kept, so the resourceVersion ends
 * at the last event's. Lines from the first ERROR on are returned untouched
 * (the stream stops there, so nothing before it may be left out in favour of
 * an event after it). A line is only left out when the line that supersedes it
 * names the object (type, uid and a non-empty name) and the line itself has no
 * U+FFFD (invalid UTF-8 is reported when a line is handled).
 */
export function coalesceWatchLines(lines: readonly string[]): CoalescedLines {
  const { keep, superseded } = coalesceLines(lines.map(lineFacts));
  return { lines: lines.filter((_, i) => keep[i]), superseded };
}

/** What coalescing reads of one line, found once when it arrives. */
export interface LineFacts {
  /** The event type; undefined when the line is not a readable event. */
  type: string | undefined;
  /** The object's uid when the line names the object (type, uid and a non-empty name). */
  uid: string | undefined;
  /** Whether the line holds U+FFFD (invalid UTF-8: reported when handled, so never left out). */
  replacement: boolean;
}

export function lineFacts(line: string): LineFacts {
  const scan = scanWatchLine(line) ?? parsedWatchLine(line);
  const named = !!scan?.type && OBJECT_EVENT.has(scan.type) && !!scan.uid && !!scan.name;
  // Copied out: the scan's slice would keep the line (and the chunk it was split from) alive while the window waits.
  const uid = named && scan?.uid ? ownCopy(scan.uid) : undefined;
  return { type: scan?.type, uid, replacement: line.includes('\uFFFD') };
}

/** The rule of coalesceWatchLines over each line's facts: which lines to handle, and how many are left out. */
export function coalesceLines(facts: readonly LineFacts[]): { keep: boolean[]; superseded: number } {
  let end = facts.length;
  const last = new Map<string, number>();
  for (let i = 0; i < facts.length; i++) {
    if (facts[i].type === 'ERROR') {
      end = i;
      break;
    }
    const uid = facts[i].uid;
    if (uid !== undefined) last.set(uid, i);
  }
  const keep = new Array<boolean>(facts.length).fill(true);
  let superseded = 0;
  for (let i = 0; i < end; i++) {
    const { uid, replacement } = facts[i];
    if (uid !== undefined && last.get(uid) !== i && !replacement) {
      keep[i] = false;
      superseded++;
    }
  }
  return { keep, superseded };
}

export interface CatchUpBounds {
  /** Lines arriving within one turn of the event loop that mean the stream is behind (default 256). */
  enterLines: number;
  /** A held window is handled once no chunk came for this long (default 50 ms). */
  quietMs: number;
  /** …or once it is this old (default 1,000 ms), */
  maxHoldMs: number;
  /** …or holds this many lines (default 20,000), */
  maxLines: number;
  /** …or this many bytes (default 64 MiB). */
  maxBytes: number;
}

export const DEFAULT_CATCH_UP: CatchUpBounds = {
  enterLines: 256,
  quietMs: 50,
  maxHoldMs: 1_000,
  maxLines: 20_000,
  maxBytes: 64 * 2 ** 20,
};

/**
 * When a watch stream's lines are handled. A stream is behind when more than
 * `enterLines` lines arrive within one turn of the event loop: the socket held
 * more than the reader had handled (a live stream that keeps up brings a few
 * events per turn; a replay of history brings full reads back to back). From
 * then on its lines are held, and handled together, coalesced, when the
 * stream goes quiet, or the window reaches its age or size bound. Otherwise
 * lines are handled as they come. Held lines are kept as bytes (line-arena.ts)
 * and handed over one at a time, so none lives on the JS heap while it waits.
 */
export class CatchUpWindow {
  private readonly held = new LineArena();
  private facts: LineFacts[] = [];
  /** Bumped by stop(): a window being handed over stops there. */
  private generation = 0;
  private linesThisTurn = 0;
  private turnEnd: NodeJS.Immediate | undefined;
  private quiet: NodeJS.Timeout | undefined;
  private maxAge: NodeJS.Timeout | undefined;
  /** Windows handled and lines left out by coalescing (for stats and tests). */
  windows = 0;
  superseded = 0;

  constructor(
    /** Handles lines in order; `superseded`: object events coalescing left out before them. */
    private readonly handle: (lines: Iterable<string>, superseded: number) => void,
    private readonly bounds: CatchUpBounds = DEFAULT_CATCH_UP,
  ) {}

  /** The complete lines of one chunk. */
  push(lines: readonly string[]): void {
    this.linesThisTurn += lines.length;
    this.turnEnd ??= setImmediate(() => {
      this.turnEnd = undefined;
      this.linesThisTurn = 0;
    });
    if (!this.facts.length && this.linesThisTurn <= this.bounds.enterLines) {
      this.handle(lines, 0);
      return;
    }
    if (!this.facts.length) this.maxAge = setTimeout(() => this.release(), this.bounds.maxHoldMs);
    for (const line of lines) {
      this.facts.push(lineFacts(line));
      this.held.add(line);
    }
    if (this.facts.length >= this.bounds.maxLines || this.held.size >= this.bounds.maxBytes) return this.release();
    if (this.quiet) this.quiet.refresh();
    else this.quiet = setTimeout(() => this.release(), this.bounds.quietMs);
  }

  /** Handles what is held now (the stream went quiet or ended, or a bound was reached). */
  release(): void {
    const facts = this.facts;
    this.clearTimers();
    if (!facts.length) return;
    this.facts = [];
    const { keep, superseded } = coalesceLines(facts);
    this.windows += 1;
    this.superseded += superseded;
    this.handle(this.keptLines(keep, this.generation), superseded);
    this.held.clear();
  }

  /** Drops what is held (the stream failed: its events are asked for again from the last handled resourceVersion). */
  stop(): void {
    this.generation += 1;
    this.facts = [];
    this.held.clear();
    this.clearTimers();
    if (this.turnEnd) clearImmediate(this.turnEnd);
    this.turnEnd = undefined;
  }

  /** The kept lines, each decoded when it is reached. */
  private *keptLines(keep: readonly boolean[], generation: number): Generator<string> {
    for (let i = 0; i < keep.length && this.generation === generation; i++) if (keep[i]) yield this.held.line(i);
  }

  private clearTimers(): void {
    if (this.quiet) clearTimeout(this.quiet);
    if (this.maxAge) clearTimeout(this.maxAge);
    this.quiet = this.maxAge = undefined;
  }
}
