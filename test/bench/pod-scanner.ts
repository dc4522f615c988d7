// Prototype for issue 15 option (b), measured by ingest-streaming-json.ts: a
// single pass over a PodList page's bytes that builds only the fields
// Trimmer.pod reads (src/kube/trim.ts) and skips the rest (managedFields,
// volumes, env, probes, imageIDs...) by scanning, without making strings or
// objects of it. Its output is a raw pod, fed to Trimmer.pod like a parsed
// one, so both paths keep exactly the same objects.
//
// Kept strings are made with latin1Slice (a fresh string; a slice of the
// page's text would keep the whole page alive through V8's sliced strings);
// strings with escapes or non-ASCII bytes go through JSON.parse. Skipped
// values are checked only as far as finding their end needs (and control
// characters in strings): JSON.parse rejects more malformed input.

type Json = Record<string, unknown>;

/** What to build of a value: all of it, or of an object only some keys (an array: each element so). */
type Shape = 'all' | ObjectShape | ArrayShape;
interface ObjectShape {
  kind: 'object';
  /** Wanted keys, as bytes, with their shape. */
  keys: { name: string; bytes: Uint8Array; shape: Shape }[];
}
interface ArrayShape {
  kind: 'array';
  of: Shape;
}

function object(keys: Record<string, Shape>): ObjectShape {
  return {
    kind: 'object',
    keys: Object.entries(keys).map(([name, shape]) => ({ name, bytes: Buffer.from(name, 'latin1'), shape })),
  };
}
const arrayOf = (of: Shape): ArrayShape => ({ kind: 'array', of });
const all = (...names: string[]): Record<string, Shape> => Object.fromEntries(names.map((n) => [n, 'all' as const]));

// What Trimmer.pod, metadata, ownerReferences, containers, conditions and
// containerStatuses read: keep this in step with trim.ts (the unit test
// compares both paths on the fixtures).
const STATE = object(all('reason', 'exitCode', 'startedAt', 'finishedAt', 'message', 'signal'));
const CONTAINER_STATUS = arrayOf(
  object({
    ...all('name', 'ready', 'restartCount', 'started'),
    state: object({ waiting: STATE, running: STATE, terminated: STATE }),
    lastState: object({ waiting: STATE, running: STATE, terminated: STATE }),
  }),
);
const CONTAINERS = arrayOf(object(all('name', 'image', 'resources', 'restartPolicy')));
const POD: ObjectShape = object({
  ...all('apiVersion', 'kind'),
  metadata: object({
    ...all('name', 'uid', 'namespace', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'generation'),
    ...all('labels', 'annotations'),
    ownerReferences: arrayOf(object(all('apiVersion', 'kind', 'name', 'uid', 'controller'))),
  }),
  spec: object({
    ...all('nodeName', 'overhead', 'resources', 'priorityClassName', 'schedulerName', 'nodeSelector'),
    ...all('tolerations', 'resourceClaims'),
    containers: CONTAINERS,
    initContainers: CONTAINERS,
  }),
  status: object({
    ...all('phase', 'reason', 'hostIP', 'podIP', 'startTime', 'nominatedNodeName', 'resourceClaimStatuses', 'message'),
    conditions: arrayOf(object(all('type', 'status', 'reason', 'message', 'lastTransitionTime'))),
    containerStatuses: CONTAINER_STATUS,
    initContainerStatuses: CONTAINER_STATUS,
  }),
});
const LIST = object({
  metadata: object(all('resourceVersion', 'continue')),
  items: arrayOf(POD),
});

/** Buffer's own slicers (fresh strings, no range checks), missing from @types/node. */
type Bytes = Buffer & {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
};

// Recently made short strings, by a hash of their bytes: keys and repeated
// values (label values, times, images) are compared with the bytes instead of
// being made again by a call into C++ (JSON.parse keeps such a cache for keys).
const CACHE_SIZE = 8192;
const MAX_CACHED = 48;
const cache: (string | undefined)[] = new Array<string | undefined>(CACHE_SIZE).fill(undefined);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class Scanner {
  private at = 0;
  /** Where the string just read by `stringEnd` starts (after its quote), and whether it needs JSON.parse. */
  private strStart = 0;
  private strEscaped = false;

  constructor(
    private readonly b: Bytes,
    private readonly onItem?: (item: Json) => void,
  ) {}

  fail(what: string): never {
    throw new SyntaxError(`${what} at byte ${this.at}`);
  }

  private ws(): number {
    const b = this.b;
    let c = b[this.at];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++this.at];
    return c;
  }

  private expect(c: number): void {
    if (this.ws() !== c) this.fail(`expected '${String.fromCharCode(c)}'`);
    this.at++;
  }

  /** Past a string whose opening quote is at `at`; `strStart`..returned index is its content. */
  private stringEnd(): number {
    const b = this.b;
    let i = this.at + 1;
    this.strStart = i;
    let special = false;
    for (;;) {
      const c = b[i];
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        special = true;
        i += 2;
        continue;
      }
      // Also the end of the page (undefined): a control character or no closing quote.
      if (!(c >= 0x20)) this.fail('bad string');
      if (c >= 0x80) special = true;
      i++;
    }
    this.strEscaped = special;
    this.at = i + 1;
    return i;
  }

  private string(): string {
    const b = this.b;
    const start = this.at + 1;
    let i = start;
    let h = 0;
    let special = false;
    for (;;) {
      const c = b[i];
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        special = true;
        i += 2;
        continue;
      }
      if (!(c >= 0x20)) this.fail('bad string');
      if (c >= 0x80) special = true;
      h = (Math.imul(h, 31) + c) | 0;
      i++;
    }
    this.at = i + 1;
    if (special) return JSON.parse(b.utf8Slice(start - 1, i + 1)) as string;
    const len = i - start;
    if (len > MAX_CACHED) return b.latin1Slice(start, i);
    const slot = (h ^ (h >>> 13)) & (CACHE_SIZE - 1);
    const hit = cache[slot];
    if (hit !== undefined && hit.length === len) {
      let k = 0;
      while (k < len && hit.charCodeAt(k) === b[start + k]) k++;
      if (k === len) return hit;
    }
    const made = b.latin1Slice(start, i);
    cache[slot] = made;
    return made;
  }

  /** The wanted key the string at `at` names, or undefined (the key is skipped either way). */
  private wantedKey(shape: ObjectShape): ObjectShape['keys'][number] | undefined {
    const end = this.stringEnd();
    const start = this.strStart;
    const len = end - start;
    if (this.strEscaped) {
      // A key spelled with escapes: compare its decoded text.
      const name = JSON.parse(this.b.utf8Slice(start - 1, end + 1)) as string;
      return shape.keys.find((k) => k.name === name);
    }
    const b = this.b;
    for (const k of shape.keys) {
      const kb = k.bytes;
      if (kb.length !== len) continue;
      let i = 0;
      while (i < len && kb[i] === b[start + i]) i++;
      if (i === len) return k;
    }
    return undefined;
  }

  /** Any value, whole, as JSON.parse makes it. */
  value(): unknown {
    const c = this.ws();
    if (c === QUOTE) return this.string();
    if (c === 0x7b) {
      this.at++;
      const out: Json = {};
      if (this.ws() === 0x7d) {
        this.at++;
        return out;
      }
      for (;;) {
        if (this.ws() !== QUOTE) this.fail('expected a key');
        const key = this.string();
        this.expect(0x3a);
        const v = this.value();
        if (key === '__proto__')
          Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
        else out[key] = v;
        const d = this.ws();
        this.at++;
        if (d === 0x7d) return out;
        if (d !== 0x2c) this.fail("expected ',' or '}'");
      }
    }
    if (c === 0x5b) {
      this.at++;
      const out: unknown[] = [];
      if (this.ws() === 0x5d) {
        this.at++;
        return out;
      }
      for (;;) {
        out.push(this.value());
        const d = this.ws();
        this.at++;
        if (d === 0x5d) return out;
        if (d !== 0x2c) this.fail("expected ',' or ']'");
      }
    }
    return this.scalar();
  }

  private scalar(): unknown {
    const b = this.b;
    const c = b[this.at];
    if (c === 0x74 && b[this.at + 1] === 0x72 && b[this.at + 2] === 0x75 && b[this.at + 3] === 0x65) {
      this.at += 4;
      return true;
    }
    if (c === 0x66 && b.latin1Slice(this.at, this.at + 5) === 'false') {
      this.at += 5;
      return false;
    }
    if (c === 0x6e && b[this.at + 1] === 0x75 && b[this.at + 2] === 0x6c && b[this.at + 3] === 0x6c) {
      this.at += 4;
      return null;
    }
    // A number: small non-negative integers (restart counts, exit codes) without a string.
    const start = this.at;
    let i = start;
    let n = 0;
    let simple = true;
    for (;;) {
      const d = b[i];
      if (d >= 0x30 && d <= 0x39) n = n * 10 + (d - 0x30);
      else if (d === 0x2d || d === 0x2b || d === 0x2e || d === 0x65 || d === 0x45) simple = false;
      else break;
      i++;
    }
    if (i === start) this.fail('unexpected character');
    this.at = i;
    if (simple && i - start < 16 && !(b[start] === 0x30 && i - start > 1)) return n;
    const v = JSON.parse(b.latin1Slice(start, i)) as number;
    return v;
  }

  /** Past any value, making nothing of it. */
  skip(): void {
    const b = this.b;
    let depth = 0;
    for (;;) {
      const c = this.ws();
      if (c === QUOTE) this.stringEnd();
      else if (c === 0x7b || c === 0x5b) {
        depth++;
        this.at++;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
        this.at++;
      } else if (c === 0x2c || c === 0x3a) {
        if (depth === 0) this.fail('unexpected separator');
        this.at++;
      } else if (this.at >= b.length) this.fail('unexpected end');
      else {
        // true, false, null or a number: to the next delimiter.
        let i = this.at;
        let d = b[i];
        const n = b.length;
        while (i < n && d !== 0x2c && d !== 0x7d && d !== 0x5d && d !== 0x20 && d !== 0x0a && d !== 0x0d && d !== 0x09)
          d = b[++i];
        this.at = i;
      }
      if (depth === 0) return;
    }
  }

  /** A value built as `shape` says; when it is not the object or array `shape` expects, whole. */
  shaped(shape: Shape, emit?: (item: Json) => void): unknown {
    if (shape === 'all') return this.value();
    const c = this.ws();
    if (shape.kind === 'array') {
      if (c !== 0x5b) return this.value();
      this.at++;
      const out: unknown[] = [];
      if (this.ws() === 0x5d) {
        this.at++;
        return out;
      }
      for (;;) {
        const v = this.shaped(shape.of);
        // The list's items are handed over one by one (like the reflector's loop), not kept.
        if (emit) emit(v as Json);
        else out.push(v);
        const d = this.ws();
        this.at++;
        if (d === 0x5d) return out;
        if (d !== 0x2c) this.fail("expected ',' or ']'");
      }
    }
    if (c !== 0x7b) return this.value();
    this.at++;
    const out: Json = {};
    if (this.ws() === 0x7d) {
      this.at++;
      return out;
    }
    for (;;) {
      if (this.ws() !== QUOTE) this.fail('expected a key');
      const key = this.wantedKey(shape);
      this.expect(0x3a);
      // `items` is the list's own key (no key of the pod schema is named so): its pods go to onItem.
      if (key === undefined) this.skip();
      else out[key.name] = key.name === 'items' ? this.shaped(key.shape, this.onItem) : this.shaped(key.shape);
      const d = this.ws();
      this.at++;
      if (d === 0x7d) return out;
      if (d !== 0x2c) this.fail("expected ',' or '}'");
    }
  }

  end(): void {
    this.ws();
    if (this.at < this.b.length) this.fail('unexpected data after the list');
  }
}

/**
 * Scans a PodList page: each item, built only as far as Trimmer.pod reads
 * it, is handed to `onItem` as it is read; returns the list's metadata
 * (resourceVersion, continue). Throws SyntaxError on malformed JSON met on the way.
 */
export function scanPodList(
  page: Buffer,
  onItem: (pod: Json) => void,
): { resourceVersion?: string; continue?: string } {
  const s = new Scanner(page as Bytes, onItem);
  const list = s.shaped(LIST) as Json;
  s.end();
  const meta = (typeof list.metadata === 'object' && list.metadata !== null ? list.metadata : {}) as Json;
  return {
    ...(typeof meta.resourceVersion === 'string' ? { resourceVersion: meta.resourceVersion } : {}),
    ...(typeof meta.continue === 'string' ? { continue: meta.continue } : {}),
  };
}

/** Any JSON text parsed by the scanner's whole-value path (for its tests: the same result as JSON.parse). */
export function scanValue(text: string): unknown {
  const s = new Scanner(Buffer.from(text, 'utf8') as Bytes);
  const v = s.value();
  s.end();
  return v;
}
