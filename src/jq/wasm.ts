// The fallback engine: jq 1.7.1 compiled to WebAssembly (the jq-wasm package),
// driven synchronously.
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
// the glue as base64) is compiled once; each instance is a new
// `WebAssembly.Instance` of it with its own memory and stack, created
// synchronously through Emscripten's `instantiateWasm` hook (~5 ms). An
// instance is retired long before its stack runs out: after MAX_CALLS calls or
// once the argv bytes it has leaked pass STACK_BUDGET, whichever comes first;
// if one still aborts, the call is retried once on a fresh instance.
// Everything is synchronous, so calls are naturally serial.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

// tsconfig's lib has no DOM, so the WebAssembly global is untyped here: the
// little of it we use, declared locally.
type WasmModule = object;
interface WasmInstance {
  exports: unknown;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: unknown) => WasmInstance;
  compile(bytes: Uint8Array): Promise<WasmModule>;
}
const WebAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const MAX_CALLS = 200;
/** Bytes of leaked argv we allow per instance (the stack is 64 KiB; jq itself needs the rest). */
const STACK_BUDGET = 16 * 1024;

export interface WasmResult {
  status: number;
  stdout: string;
  stderr: string;
}

interface EmscriptenModule {
  wlxRun(input: Uint8Array, args: string[]): WasmResult;
}

type Factory = (moduleArg: Record<string, unknown>) => Promise<unknown>;

const SHIM_START = 'let stdinString = "";';
const SHIM_END = 'var moduleOverrides = Object.assign({}, Module);';
const WASM_DATA = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/;

// Replaces jq-wasm's I/O shim. Runs inside the Emscripten factory's scope (it
// sees `Module`, `FS` and `moduleArg` there).
const SHIM = `
let wlxIn = new Uint8Array(0), wlxInPos = 0;
let wlxOut = new Uint8Array(65536), wlxOutLen = 0;
let wlxErr = new Uint8Array(4096), wlxErrLen = 0;
const wlxDecoder = new TextDecoder('utf-8');
function wlxGrow(b) { const t = new Uint8Array(b.length * 2); t.set(b); return t; }
Module = { ...Module, noInitialRun: true, noExitRuntime: true,
  print() {}, printErr() {},
  preRun() { FS.init(
    () => (wlxInPos < wlxIn.length ? wlxIn[wlxInPos++] : null),
    (c) => { if (c == null) return; if (wlxOutLen === wlxOut.length) wlxOut = wlxGrow(wlxOut); wlxOut[wlxOutLen++] = c; },
    (c) => { if (c == null) return; if (wlxErrLen === wlxErr.length) wlxErr = wlxGrow(wlxErr); wlxErr[wlxErrLen++] = c; }); },
  wlxRun(input, args) {
    wlxIn = input; wlxInPos = 0; wlxOutLen = 0; wlxErrLen = 0;
    const status = Module.callMain(args.slice());
    return { status, stdout: wlxDecoder.decode(wlxOut.subarray(0, wlxOutLen)), stderr: wlxDecoder.decode(wlxErr.subarray(0, wlxErrLen)) };
  } };
moduleArg.wlxModule = Module;
`;

interface Loaded {
  factory: Factory;
  wasm: WasmModule | null;
  bytes: Uint8Array;
}

let loaded: Loaded | null = null;
let instance: EmscriptenModule | null = null;
let callsOnInstance = 0;
let stackUsed = 0;

/** Counters for tests and benchmarks. */
export const wasmStats = { instances: 0, calls: 0, retries: 0 };

function load(): Loaded {
  if (loaded) return loaded;
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
  loaded = { factory: mod.exports as Factory, wasm: null, bytes: Buffer.from(data[1], 'base64') };
  return loaded;
}

/** Compiles the wasm off the main thread's critical path; optional (sync use compiles on demand). */
export async function prepareWasm(): Promise<void> {
  const l = load();
  if (!l.wasm) l.wasm = await WebAssembly.compile(l.bytes);
}

function freshInstance(): EmscriptenModule {
  const l = load();
  l.wasm ??= new WebAssembly.Module(l.bytes);
  const wasm = l.wasm;
  const moduleArg: Record<string, unknown> = {
    instantiateWasm(imports: unknown, receive: (i: WasmInstance, m: WasmModule) => unknown) {
      const inst = new WebAssembly.Instance(wasm, imports);
      receive(inst, wasm);
      return inst.exports;
    },
  };
  // The factory's promise settles later; with a synchronous instantiateWasm the
  // runtime is already initialised when the factory returns.
  l.factory(moduleArg).catch(() => {});
  const module = moduleArg['wlxModule'] as EmscriptenModule | undefined;
  if (!module) throw new Error('jq-wasm: the instance did not initialise synchronously');
  wasmStats.instances++;
  return module;
}

function argvBytes(args: string[]): number {
  // Each argv string is 16-byte aligned on the stack, plus the pointer array.
  let n = 16 + (args.length + 2) * 4;
  for (const a of args) n += (Buffer.byteLength(a) + 16) & ~15;
  return n + 32;
}

/** Runs `jq ARGS` over `input` (JSON text) on a healthy instance. */
export function runJq(input: string, args: string[]): WasmResult {
  const bytes = new TextEncoder().encode(input);
  const cost = argvBytes(args);
  for (let attempt = 0; ; attempt++) {
    if (!instance || callsOnInstance >= MAX_CALLS || stackUsed + cost > STACK_BUDGET) {
      instance = freshInstance();
      callsOnInstance = 0;
      stackUsed = 0;
    }
    callsOnInstance++;
    stackUsed += cost;
    wasmStats.calls++;
    // Emscripten's quit_ sets process.exitCode to jq's status; it is not ours.
    const exitCode = process.exitCode;
    try {
      return instance.wlxRun(bytes, args);
    } catch (err) {
      // An abort kills the instance for good; retry once on a new one.
      instance = null;
      if (attempt >= 1) throw new Error(`jq-wasm aborted: ${(err as Error).message}`);
      wasmStats.retries++;
    } finally {
      process.exitCode = exitCode;
    }
  }
}
