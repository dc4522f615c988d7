// The jq-wasm worker: jq 1.7.1 (the jq-wasm package's WebAssembly build)
// driven synchronously, in a worker thread so that the main thread can cut a
// call off at its deadline (wasm.ts terminates the whole worker).
//
// Why not jq-wasm's own API: it is async only, keeps one Emscripten instance
// for the whole process, and that instance dies after ~314 calls — every
// `callMain` leaks its argv strings on the 64 KiB wasm stack, and the build
// exports no stackRestore to undo it. Its stdin/stdout shims also copy the
// whole buffer per byte (quadratic: ~20 s for 10,000 small objects).
//
// So we load jq-wasm's Emscripten glue ourselves, replacing only its I/O shim
// (the code between `let stdinString` and `var moduleOverrides`) with linear
// buffers and a synchronous `wlxRun(input, args)`. The wasm binary (embedded in
// the glue as base64) is compiled once per process (the main thread hands the
// compiled module to each new worker); each instance is a new
// `WebAssembly.Instance` of it with its own memory and stack, created
// synchronously through Emscripten's `instantiateWasm` hook (~5 ms). An
// instance is retired long before its stack runs out: after MAX_CALLS calls or
// once the argv bytes it has leaked pass STACK_BUDGET, whichever comes first;
// if one still aborts, the call is retried once on a fresh instance — unless it
// aborted for running out of memory or output, which a retry would repeat.
//
// Protocol (wasm.ts): a job arrives on parentPort; the reply goes to `port`,
// then signal[0] is incremented and notified (the main thread waits on it
// with Atomics.wait or Atomics.waitAsync). The first increment says the worker is ready.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';

// tsconfig's lib has no DOM, so the WebAssembly global is untyped here: the
// little of it we use, declared locally.
export type WasmModule = object;
interface WasmInstance {
  exports: unknown;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: unknown) => WasmInstance;
}
const WebAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const MAX_CALLS = 200;
/** Bytes of leaked argv we allow per instance (the stack is 64 KiB; jq itself needs the rest). */
const STACK_BUDGET = 16 * 1024;

export interface WorkerInit {
  wasm: WasmModule | null;
  port: MessagePort;
  signal: SharedArrayBuffer;
}

export interface Job {
  input: Uint8Array;
  args: string[];
  outputBytes: number;
}

export type Reply = (
  | { ok: true; status: number; stdout: string; stderr: string }
  | { ok: false; exceeded: 'output' | 'memory' }
  | { ok: false; failure: string }
) & { instances: number; retries: number; wasm?: WasmModule };

interface EmscriptenModule {
  wlxRun(input: Uint8Array, args: string[], outputBytes: number): { status: number; stdout: string; stderr: string };
  wlxExceeded: 'output' | 'memory' | null;
}

type Factory = (moduleArg: Record<string, unknown>) => Promise<unknown>;

const SHIM_START = 'let stdinString = "";';
const SHIM_END = 'var moduleOverrides = Object.assign({}, Module);';
const WASM_DATA = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/;

// Replaces jq-wasm's I/O shim. Runs inside the Emscripten factory's scope (it
// sees `Module`, `FS` and `moduleArg` there). Output beyond the call's limit
// is dropped and flagged; wrapImports (below) then stops jq at its next write.
const SHIM = `
let wlxIn = new Uint8Array(0), wlxInPos = 0;
let wlxOut = new Uint8Array(65536), wlxOutLen = 0, wlxOutLimit = Infinity;
let wlxErr = new Uint8Array(4096), wlxErrLen = 0;
const wlxDecoder = new TextDecoder('utf-8');
function wlxGrow(b) { const t = new Uint8Array(b.length * 2); t.set(b); return t; }
Module = { ...Module, noInitialRun: true, noExitRuntime: true, wlxExceeded: null,
  print() {}, printErr() {},
  preRun() { FS.init(
    () => (wlxInPos < wlxIn.length ? wlxIn[wlxInPos++] : null),
    (c) => { if (c == null) return; if (wlxOutLen >= wlxOutLimit) { Module.wlxExceeded = 'output'; return; }
      if (wlxOutLen === wlxOut.length) wlxOut = wlxGrow(wlxOut); wlxOut[wlxOutLen++] = c; },
    (c) => { if (c == null) return; if (wlxErrLen === wlxErr.length) { if (wlxErrLen >= 65536) return; wlxErr = wlxGrow(wlxErr); } wlxErr[wlxErrLen++] = c; }); },
  wlxRun(input, args, outputBytes) {
    wlxIn = input; wlxInPos = 0; wlxOutLen = 0; wlxErrLen = 0; wlxOutLimit = outputBytes;
    const status = Module.callMain(args.slice());
    return { status, stdout: wlxDecoder.decode(wlxOut.subarray(0, wlxOutLen)), stderr: wlxDecoder.decode(wlxErr.subarray(0, wlxErrLen)) };
  } };
moduleArg.wlxModule = Module;
`;

class OverBudget extends Error {}

interface Loaded {
  factory: Factory;
  wasm: WasmModule;
}

function load(wasm: WasmModule | null): Loaded {
  const require = createRequire(import.meta.url);
  const path = require.resolve('jq-wasm/dist/build/jq.js');
  const src = readFileSync(path, 'utf8');
  const start = src.indexOf(SHIM_START);
  const end = src.indexOf(SHIM_END);
  const data = WASM_DATA.exec(src);
  if (start < 0 || end < start || !data) {
    throw new Error(`jq-wasm: unsupported build at ${path} (its I/O shim or embedded wasm was not found)`);
  }
  const patched = src.slice(0, start) + SHIM + src.slice(end);
  const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${patched}\n})`, {
    filename: path,
  }) as (e: unknown, r: NodeRequire, m: { exports: unknown }, f: string, d: string) => void;
  const mod: { exports: unknown } = { exports: {} };
  wrapper(mod.exports, require, mod, path, dirname(path));
  return { factory: mod.exports as Factory, wasm: wasm ?? new WebAssembly.Module(Buffer.from(data[1], 'base64')) };
}

/**
 * Stops jq as soon as it has overrun its output (at its next write) or its
 * heap (when growing memory fails): a JavaScript exception thrown from an
 * import unwinds the wasm call. The imports are found by their glue names.
 */
function wrapImports(imports: unknown, module: () => EmscriptenModule | undefined): void {
  const table = (imports as { a?: Record<string, unknown> }).a ?? {};
  for (const [key, fn] of Object.entries(table)) {
    if (typeof fn !== 'function') continue;
    const original = fn as (...a: unknown[]) => unknown;
    if (original.name === '_fd_write') {
      table[key] = (...a: unknown[]) => {
        const r = original(...a);
        if (module()?.wlxExceeded) throw new OverBudget('output');
        return r;
      };
    } else if (original.name === '_emscripten_resize_heap') {
      table[key] = (...a: unknown[]) => {
        const r = original(...a);
        const m = module();
        if (!r && m) {
          m.wlxExceeded = 'memory';
          throw new OverBudget('memory');
        }
        return r;
      };
    }
  }
}

let loaded: Loaded | null = null;
let instance: EmscriptenModule | null = null;
let callsOnInstance = 0;
let stackUsed = 0;
const counts = { instances: 0, retries: 0 };

function freshInstance(): EmscriptenModule {
  const l = loaded!;
  const moduleArg: Record<string, unknown> = {
    instantiateWasm(imports: unknown, receive: (i: WasmInstance, m: WasmModule) => unknown) {
      wrapImports(imports, () => moduleArg['wlxModule'] as EmscriptenModule | undefined);
      const inst = new WebAssembly.Instance(l.wasm, imports);
      receive(inst, l.wasm);
      return inst.exports;
    },
  };
  // The factory's promise settles later; with a synchronous instantiateWasm the
  // runtime is already initialised when the factory returns.
  l.factory(moduleArg).catch(() => {});
  const module = moduleArg['wlxModule'] as EmscriptenModule | undefined;
  if (!module) throw new Error('jq-wasm: the instance did not initialise synchronously');
  counts.instances++;
  return module;
}

function argvBytes(args: string[]): number {
  // Each argv string is 16-byte aligned on the stack, plus the pointer array.
  let n = 16 + (args.length + 2) * 4;
  for (const a of args) n += (Buffer.byteLength(a) + 16) & ~15;
  return n + 32;
}

function run(job: Job): Reply {
  const cost = argvBytes(job.args);
  const stats = () => ({ instances: counts.instances, retries: counts.retries });
  for (let attempt = 0; ; attempt++) {
    if (!instance || callsOnInstance >= MAX_CALLS || stackUsed + cost > STACK_BUDGET) {
      instance = freshInstance();
      callsOnInstance = 0;
      stackUsed = 0;
    }
    callsOnInstance++;
    stackUsed += cost;
    const current = instance;
    current.wlxExceeded = null;
    try {
      return { ok: true, ...current.wlxRun(job.input, job.args, job.outputBytes), ...stats() };
    } catch (err) {
      // An abort kills the instance for good; retry once on a new one.
      instance = null;
      if (current.wlxExceeded) return { ok: false, exceeded: current.wlxExceeded, ...stats() };
      if (attempt >= 1) return { ok: false, failure: `jq-wasm aborted: ${(err as Error).message}`, ...stats() };
      counts.retries++;
    }
  }
}

if (parentPort) {
  const init = workerData as WorkerInit;
  const signal = new Int32Array(init.signal);
  const done = (reply: Reply) => {
    init.port.postMessage(reply);
    Atomics.add(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  try {
    loaded = load(init.wasm);
    done({ ok: true, status: 0, stdout: '', stderr: '', instances: 0, retries: 0, wasm: loaded.wasm });
  } catch (err) {
    done({ ok: false, failure: (err as Error).message, instances: 0, retries: 0 });
  }
  parentPort.on('message', (job: Job) => {
    let reply: Reply;
    try {
      reply = run(job);
    } catch (err) {
      reply = { ok: false, failure: (err as Error).message, ...counts };
    }
    done(reply);
  });
}
