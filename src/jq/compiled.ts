// What a jq expression compiles to: a generator in callback form and, when it
// always yields one value, a direct function; and the few ways of running one
// (first output, all outputs, emitting a list) that evaluate.ts and the
// builtins share.
import { tick } from './budget.js';

export type Emit = (value: unknown) => void;
export type Gen = (input: unknown, emit: Emit) => void;
export type One = (input: unknown) => unknown;

export interface Compiled {
  gen: Gen;
  /** Present when the node yields exactly one value (or throws). */
  one?: One;
}

/** Thrown through a generator to stop it early (first/1, any/2, all/2, …). */
export class Stop {}

export function single(one: One): Compiled {
  return { one, gen: (input, emit) => emit(one(input)) };
}

/** Runs a generator until its first output; `found` says whether there was one. */
export function firstOf(gen: Gen, input: unknown): { found: boolean; value: unknown } {
  const stop = new Stop();
  let value: unknown;
  let found = false;
  try {
    gen(input, (v) => {
      value = v;
      found = true;
      throw stop;
    });
  } catch (err) {
    if (err !== stop) throw err;
  }
  return { found, value };
}

export function collect(gen: Gen, input: unknown): unknown[] {
  const out: unknown[] = [];
  gen(input, (v) => {
    tick();
    out.push(v);
  });
  return out;
}

/** Emits each item of `items`, one step each. */
export function emitAll(items: unknown[], emit: Emit): void {
  tick();
  for (let i = 0; i < items.length; i++) {
    tick();
    emit(items[i]);
  }
}
