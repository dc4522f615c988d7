// The snapshot delta codec: structural sharing by identity across the thread
// boundary. The worker encodes each snapshot against the one it sent last;
// the UI thread decodes against its mirror of that one. A part identical
// (===) to what was sent last at the same place (or, in an array, anywhere in
// the previous array) crosses as a small marker and decodes to the mirror's
// own object, so unchanged trees, roles, pods and nodes keep their identity on
// the UI side (its row caches are keyed by identity). A part rebuilt equal
// to the previous one (a rollup recomputed to the same counts) decodes to the
// mirror's previous object too. See README.md.
//
// Every object or array on the wire is a tagged array; primitives are sent
// as themselves. Values are plain data, Arrays and Maps (structured clone
// keeps Maps; class instances are turned into plain data by wire.ts first).

/** What crosses: a primitive, or an op (a tagged array). */
export type Delta = string | number | boolean | null | undefined | DeltaOp;
export type DeltaOp = unknown[];

const SAME = 0; // [SAME]: the previous value at this place
const TAKE = 1; // [TAKE, j, n]: in an array, n elements of the previous array from index j
const LITERAL = 2; // [LITERAL, value]: a new value, whole
const OBJECT = 3; // [OBJECT, deletedKeys, k1, d1, k2, d2, …]: the previous object with these keys changed
const ARRAY = 4; // [ARRAY, op…]: each op an element (a primitive, [TAKE], [EDIT], a literal)
const EDIT = 5; // [EDIT, j, d]: in an array, the previous array's element j changed by d
const MAP = 6; // [MAP, deletedKeys, k1, d1, …]: the previous Map with these entries changed

const SAME_OP: DeltaOp = [SAME];

type Plain = Record<string, unknown>;

function isObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

function isPlainObject(v: unknown): v is Plain {
  return isObject(v) && !Array.isArray(v) && !(v instanceof Map);
}

/**
 * What identifies an array element between two snapshots when it is not the
 * same object: a uid (workloads, pods), else a name (nodes, kinds, definitions),
 * else a role's component/instance/replica; null: match by position.
 */
function elementKey(v: unknown): string | null {
  if (!isPlainObject(v)) return null;
  if (typeof v.uid === 'string') return `u:${v.uid}`;
  if (typeof v.name === 'string') return `n:${v.name}`;
  if (typeof v.component === 'string') return `c:${v.component}/${String(v.instance)}/${String(v.replica)}`;
  return null;
}

function checkPlain(v: object): void {
  if (Array.isArray(v) || v instanceof Map) return;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null)
    throw new Error(`delta: a ${v.constructor?.name ?? 'class'} instance cannot cross the thread boundary`);
}

function literal(v: unknown): Delta {
  if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint')
    throw new Error(`delta: a ${typeof v} cannot cross the thread boundary`);
  if (!isObject(v)) return v as Delta;
  checkPlain(v);
  return [LITERAL, v];
}

/** The delta turning `prev` (what was sent last; undefined: nothing) into `next`. */
export function encodeDelta(next: unknown, prev: unknown): Delta {
  if (next === prev) return SAME_OP;
  if (!isObject(next) || !isObject(prev)) return literal(next);
  if (Array.isArray(next)) return Array.isArray(prev) ? encodeArray(next, prev) : literal(next);
  if (next instanceof Map) return prev instanceof Map ? encodeMap(next, prev) : literal(next);
  if (!isPlainObject(prev)) return literal(next);
  checkPlain(next);
  const out: unknown[] = [OBJECT, 0];
  const n = next as Plain;
  for (const k of Object.keys(n)) {
    const v = n[k];
    if (Object.prototype.hasOwnProperty.call(prev, k)) {
      const d = v === prev[k] ? SAME_OP : encodeDelta(v, prev[k]);
      if (d !== SAME_OP) out.push(k, d);
    } else out.push(k, literal(v));
  }
  const deleted = Object.keys(prev).filter((k) => !Object.prototype.hasOwnProperty.call(n, k));
  if (deleted.length) out[1] = deleted;
  // Rebuilt but equal (a rollup recomputed to the same counts): the mirror keeps its object.
  return out.length === 2 && !deleted.length ? SAME_OP : out;
}

function encodeMap(next: Map<unknown, unknown>, prev: Map<unknown, unknown>): Delta {
  const out: unknown[] = [MAP, 0];
  for (const [k, v] of next) {
    if (prev.has(k)) {
      const d = v === prev.get(k) ? SAME_OP : encodeDelta(v, prev.get(k));
      if (d !== SAME_OP) out.push(k, d);
    } else out.push(k, literal(v));
  }
  const deleted = [...prev.keys()].filter((k) => !next.has(k));
  if (deleted.length) out[1] = deleted;
  return out.length === 2 && !deleted.length ? SAME_OP : out;
}

function encodeArray(next: readonly unknown[], prev: readonly unknown[]): Delta {
  const ops: unknown[] = [ARRAY];
  let byIdentity: Map<unknown, number> | null = null;
  let byKey: Map<string, number> | null = null;
  // The last op while it is a TAKE run that the next taken element may extend.
  let run: [number, number, number] | null = null;
  const take = (j: number) => {
    if (run && run[1] + run[2] === j) run[2]++;
    else ops.push((run = [TAKE, j, 1]));
  };
  for (let i = 0; i < next.length; i++) {
    const v = next[i];
    if (i < prev.length && prev[i] === v) {
      take(i);
      continue;
    }
    if (isObject(v)) {
      if (!byIdentity) {
        byIdentity = new Map();
        for (let j = 0; j < prev.length; j++) if (isObject(prev[j])) byIdentity.set(prev[j], j);
      }
      const moved = byIdentity.get(v);
      if (moved !== undefined) {
        take(moved);
        continue;
      }
      const key = elementKey(v);
      let base: number | undefined;
      if (key !== null) {
        if (!byKey) {
          byKey = new Map();
          for (let j = 0; j < prev.length; j++) {
            const k = elementKey(prev[j]);
            if (k !== null) byKey.set(k, j);
          }
        }
        base = byKey.get(key);
      } else if (i < prev.length && isObject(prev[i]) && Array.isArray(prev[i]) === Array.isArray(v)) base = i;
      const d = base !== undefined ? encodeDelta(v, prev[base]) : null;
      if (d === SAME_OP) take(base!);
      else {
        run = null;
        ops.push(d !== null ? [EDIT, base, d] : literal(v));
      }
      continue;
    }
    run = null;
    ops.push(literal(v));
  }
  const whole = ops.length === 1 || (ops.length === 2 && run !== null && run[1] === 0 && run[2] === prev.length);
  return whole && next.length === prev.length ? SAME_OP : ops;
}

/** `delta` applied to `prev` (the decoded value of what the encoder had as prev). */
export function applyDelta(delta: Delta, prev: unknown): unknown {
  if (!Array.isArray(delta)) return delta;
  switch (delta[0]) {
    case SAME:
      return prev;
    case LITERAL:
      return delta[1];
    case OBJECT: {
      const out: Plain = { ...(prev as Plain) };
      const deleted = delta[1] as string[] | 0;
      if (deleted) for (const k of deleted) delete out[k];
      for (let i = 2; i < delta.length; i += 2) {
        const k = delta[i] as string;
        out[k] = applyDelta(delta[i + 1] as Delta, (prev as Plain)[k]);
      }
      return out;
    }
    case MAP: {
      const before = prev as Map<unknown, unknown>;
      const out = new Map(before);
      const deleted = delta[1] as unknown[] | 0;
      if (deleted) for (const k of deleted) out.delete(k);
      for (let i = 2; i < delta.length; i += 2)
        out.set(delta[i], applyDelta(delta[i + 1] as Delta, before.get(delta[i])));
      return out;
    }
    case ARRAY: {
      const before = prev as readonly unknown[];
      const out: unknown[] = [];
      for (let i = 1; i < delta.length; i++) {
        const op = delta[i] as Delta;
        if (!Array.isArray(op)) out.push(op);
        else if (op[0] === TAKE) {
          const [, j, n] = op as [number, number, number];
          for (let k = j; k < j + n; k++) out.push(before[k]);
        } else if (op[0] === EDIT) out.push(applyDelta(op[2] as Delta, before[op[1] as number]));
        else out.push(applyDelta(op, undefined));
      }
      return out;
    }
    default:
      throw new Error(`delta: unknown op ${String(delta[0])}`);
  }
}
