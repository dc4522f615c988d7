// The bounds every trimmed object is held to: strings cut (into strings of
// their own), whole objects (a workload root, a Karta) walked and cut in
// place, and what was cut reported once per object.
import type { KubeObject, ObjectMeta } from '../model/types.js';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Container state messages longer than this are cut (termination messages can be 4 KB+). */
export const MAX_MESSAGE = 256;

/** Nesting levels kept of a whole object (a workload root, a Karta): deeper values become null. */
export const MAX_DEPTH = 64;
/** Characters kept of any one string of a whole object (a 5 MB annotation is cut). */
export const MAX_WHOLE_STRING = 64 * 1024;
/** Elements kept of any one list of a whole object. */
export const MAX_WHOLE_ARRAY = 10_000;

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string of its own: a slice or concatenation of a longer string would keep the whole original alive. */
export function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

export function truncate(text: unknown, max = MAX_MESSAGE): unknown {
  if (typeof text !== 'string' || text.length <= max) return text;
  return ownCopy(`${text.slice(0, max)}... (${text.length - max} more characters)`);
}

/** Reports what a bound cut from an object ("Pod training/llama-0: 9,744 containers beyond 256 dropped"). */
export type TrimReport = (message: string) => void;

/** What the bounds cut from one object, reported once per object. */
export class Cuts {
  private readonly notes: string[] = [];
  note(what: string): void {
    if (this.notes.length < 5) this.notes.push(what);
  }
  get any(): boolean {
    return this.notes.length > 0;
  }
  reportTo(report: TrimReport, kind: string, meta: ObjectMeta): void {
    if (!this.notes.length) return;
    const name = meta.namespace ? `${meta.namespace}/${meta.name}` : meta.name;
    report(`${kind} ${name}: ${this.notes.join('; ')} (over wlx's bounds)`);
  }
}

export const NO_CUTS = new Cuts();

/**
 * Bounds a whole object in place: values nested deeper than MAX_DEPTH become
 * null, strings longer than MAX_WHOLE_STRING are cut, arrays beyond
 * MAX_WHOLE_ARRAY dropped, numbers that are not finite become null. One walk,
 * iterative (a deeply nested object must not overflow the stack here).
 */
export function boundWhole(obj: KubeObject, cut: Cuts): KubeObject {
  let deep = 0;
  let longStrings = 0;
  let longArrays = 0;
  let numbers = 0;
  const stack: { holder: Json | unknown[]; depth: number }[] = [{ holder: obj, depth: 1 }];
  while (stack.length) {
    const { holder, depth } = stack.pop()!;
    if (Object.isFrozen(holder)) continue; // shared by the trimmer: bounded when it was made
    if (Array.isArray(holder) && holder.length > MAX_WHOLE_ARRAY) {
      longArrays++;
      holder.length = MAX_WHOLE_ARRAY;
    }
    const keys = Array.isArray(holder) ? holder.keys() : Object.keys(holder).values();
    for (const k of keys) {
      const v = (holder as Json)[k as string];
      if (typeof v === 'string') {
        if (v.length > MAX_WHOLE_STRING) {
          longStrings++;
          (holder as Json)[k as string] = truncate(v, MAX_WHOLE_STRING);
        }
      } else if (typeof v === 'number') {
        if (!Number.isFinite(v)) {
          numbers++;
          (holder as Json)[k as string] = null;
        }
      } else if (typeof v === 'object' && v !== null) {
        if (depth >= MAX_DEPTH) {
          deep++;
          (holder as Json)[k as string] = null;
        } else stack.push({ holder: v as Json, depth: depth + 1 });
      }
    }
  }
  if (deep) cut.note(`${deep} values nested deeper than ${MAX_DEPTH} levels dropped`);
  if (longStrings)
    cut.note(`${longStrings} strings longer than ${MAX_WHOLE_STRING.toLocaleString('en')} characters cut`);
  if (longArrays) cut.note(`${longArrays} lists longer than ${MAX_WHOLE_ARRAY.toLocaleString('en')} cut`);
  if (numbers) cut.note(`${numbers} numbers out of range dropped`);
  return obj;
}

/** A workload root or a Karta: everything but managedFields and the last-applied annotation, within the bounds. */
export function trimWhole(obj: unknown, report: TrimReport = () => undefined): KubeObject {
  const o = isObject(obj) ? obj : {};
  const meta: Json = isObject(o.metadata) ? { ...o.metadata } : {};
  delete meta.managedFields;
  if (isObject(meta.annotations) && LAST_APPLIED in meta.annotations) {
    const a = { ...meta.annotations };
    delete a[LAST_APPLIED];
    meta.annotations = a;
  }
  const cut = new Cuts();
  const kept = boundWhole({ ...o, metadata: meta as ObjectMeta }, cut);
  cut.reportTo(report, kept.kind ?? 'object', kept.metadata);
  return kept;
}
