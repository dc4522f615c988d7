// The fallback engine's main-thread side: jq-wasm runs in a worker thread
// (wasm-worker.ts) so that a call can be cut off. The API stays synchronous:
// runJq posts the job and blocks in Atomics.wait on a SharedArrayBuffer until
// the worker signals its reply or the deadline (the evaluation budget's wall
// time) passes; then the worker is terminated, the next call starts a fresh
// one, and the call raises the budget JqError. Calls are serial (the main
// thread blocks), so one worker serves them all.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { budgetError, evaluationBudget } from './budget.js';
import type { Job, Reply, WasmModule, WorkerInit } from './wasm-worker.js';

/** A new worker must be ready within this (start-up, glue, compiling the wasm on the first one). */
const START_TIMEOUT_MS = 60_000;

export interface WasmResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Counters for tests and benchmarks. */
export const wasmStats = { instances: 0, calls: 0, retries: 0, workers: 0, overruns: 0 };

interface Engine {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
  /** signal[0] as of the last reply read. */
  seen: number;
  ready: boolean;
  /** The worker's cumulative counters as of its last reply. */
  instances: number;
  retries: number;
}

/** The compiled jq wasm, handed to each new worker (compiled by the first). */
let wasm: WasmModule | null = null;
let engine: Engine | null = null;

function startEngine(): Engine {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const init: WorkerInit = { wasm, port: port2, signal: signal.buffer };
  const worker = new Worker(new URL('./wasm-worker.js', import.meta.url), {
    workerData: init,
    transferList: [port2],
  });
  // Neither may keep the process alive (a CLI exits when its work is done).
  worker.unref();
  port1.unref();
  wasmStats.workers++;
  return { worker, port: port1, signal, seen: 0, ready: false, instances: 0, retries: 0 };
}

function stop(e: Engine): void {
  if (engine === e) engine = null;
  e.port.close();
  // terminate() interrupts running wasm too; its promise only reports the exit.
  e.worker.terminate().catch(() => {});
}

/** Waits for the worker's next reply; null when `timeoutMs` passes first. */
function awaitReply(e: Engine, timeoutMs: number): Reply | null {
  Atomics.wait(e.signal, 0, e.seen, timeoutMs);
  const now = Atomics.load(e.signal, 0);
  if (now === e.seen) return null;
  e.seen = now;
  const message = receiveMessageOnPort(e.port);
  if (!message) throw new Error('jq-wasm worker signalled without a reply');
  const reply = message.message as Reply;
  wasmStats.instances += reply.instances - e.instances;
  wasmStats.retries += reply.retries - e.retries;
  e.instances = reply.instances;
  e.retries = reply.retries;
  return reply;
}

function readyEngine(): Engine {
  const e = engine ?? (engine = startEngine());
  if (e.ready) return e;
  const reply = awaitReply(e, START_TIMEOUT_MS);
  if (!reply || !reply.ok) {
    stop(e);
    throw new Error(`jq-wasm worker did not start: ${reply && 'failure' in reply ? reply.failure : 'timed out'}`);
  }
  wasm ??= reply.wasm ?? null;
  e.ready = true;
  return e;
}

/** Starts the worker (and compiles the wasm) ahead of the first call; optional. */
export function prepareWasm(): Promise<void> {
  engine ??= startEngine();
  return Promise.resolve();
}

/**
 * Runs `jq ARGS` over `input` (JSON text: `inputs` values) within the
 * evaluation budget's wall time and output size; over budget raises the budget JqError, a failure of
 * jq-wasm itself an Error.
 */
export function runJq(input: string, args: string[], inputs = 1): WasmResult {
  const e = readyEngine();
  const budget = evaluationBudget();
  const job: Job = { input: new TextEncoder().encode(input), args, outputBytes: budget.outputBytes };
  wasmStats.calls++;
  e.worker.postMessage(job, [job.input.buffer as ArrayBuffer]);
  const reply = awaitReply(e, budget.timeMs + Math.max(inputs - 1, 0) * budget.batchMsPerInput);
  if (!reply) {
    wasmStats.overruns++;
    stop(e);
    throw budgetError('time');
  }
  if (reply.ok) return reply;
  if ('exceeded' in reply) {
    throw budgetError(reply.exceeded);
  }
  throw new Error(reply.failure);
}
