// The fallback engine's main-thread side: jq-wasm runs in a worker thread
// (wasm-worker.ts) so that a call can be cut off. One protocol, awaited two
// ways: the worker posts its reply on a MessagePort and bumps a counter in a
// SharedArrayBuffer; runJq blocks in Atomics.wait on that counter (a
// synchronous API, for `wlx eval` and compile()), runJqAsync awaits
// Atomics.waitAsync (the thread stays free: an explorer keeps drawing). Either
// way, when the deadline (the evaluation budget's wall time) passes first the
// worker is terminated, the next call starts a fresh one, and the call raises
// the budget JqError.
//
// Each way has its own worker (a lane): a synchronous call must never queue
// behind an asynchronous one that may be looping until its deadline. Calls of
// a lane are serial — the synchronous ones because the thread blocks, the
// asynchronous ones through a queue — so one worker serves each lane.
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

/** Counters for tests and benchmarks (both lanes together). */
export const wasmStats = { instances: 0, calls: 0, retries: 0, workers: 0, overruns: 0 };

type Lane = 'sync' | 'async';

// Atomics.waitAsync (Node 16+) is in TypeScript's ES2024 lib; tsconfig's is ES2023.
type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeoutMs: number,
) => { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

interface Engine {
  lane: Lane;
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
const engines: Record<Lane, Engine | null> = { sync: null, async: null };

function engineFor(lane: Lane): Engine {
  const running = engines[lane];
  if (running) return running;
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
  const e: Engine = { lane, worker, port: port1, signal, seen: 0, ready: false, instances: 0, retries: 0 };
  engines[lane] = e;
  return e;
}

function stop(e: Engine): void {
  if (engines[e.lane] === e) engines[e.lane] = null;
  e.port.close();
  // terminate() interrupts running wasm too; its promise only reports the exit.
  e.worker.terminate().catch(() => {});
}

/** The worker's reply when it has signalled one since the last; null when it has not. */
function takeReply(e: Engine): Reply | null {
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

/** Blocks until the worker's next reply; null when `timeoutMs` passes first. */
function awaitReply(e: Engine, timeoutMs: number): Reply | null {
  const end = performance.now() + timeoutMs;
  // A wake-up without a reply (spurious, or a stale notification) is not the deadline: wait out the rest.
  for (;;) {
    Atomics.wait(e.signal, 0, e.seen, Math.max(0, end - performance.now()));
    const reply = takeReply(e);
    if (reply || performance.now() >= end - CLOCK_SLACK_MS) return reply;
  }
}

/** Timers may fire this much before performance.now() reaches their deadline. */
const CLOCK_SLACK_MS = 2;

/** awaitReplyOnce until a reply comes or the whole deadline has passed. */
async function awaitReplyAsync(e: Engine, timeoutMs: number): Promise<Reply | null> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const reply = await awaitReplyOnce(e, Math.max(0, end - performance.now()));
    if (reply || performance.now() >= end - CLOCK_SLACK_MS) return reply;
  }
}

/**
 * awaitReply without blocking. A pending Atomics.waitAsync does not keep
 * Node's event loop alive, so the deadline is a (ref'd) timer: an awaited
 * evaluation finishes even when nothing else is left to run.
 */
function awaitReplyOnce(e: Engine, timeoutMs: number): Promise<Reply | null> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = () => {
      // Whichever of the two comes second must not take the next job's reply.
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      try {
        resolve(takeReply(e));
      } catch (err) {
        reject(err);
      }
    };
    const deadline = setTimeout(settle, timeoutMs);
    const wait = waitAsync(e.signal, 0, e.seen, timeoutMs);
    if (wait.async) void wait.value.then(settle);
    else settle();
  });
}

/** A new worker's first reply says it is ready (and hands over the compiled wasm). */
function started(e: Engine, reply: Reply | null): Engine {
  if (!reply || !reply.ok) {
    stop(e);
    throw new Error(`jq-wasm worker did not start: ${reply && 'failure' in reply ? reply.failure : 'timed out'}`);
  }
  wasm ??= reply.wasm ?? null;
  e.ready = true;
  return e;
}

/** Posts a job; returns its deadline in ms. */
function post(e: Engine, input: string, args: string[], inputs: number): number {
  const budget = evaluationBudget();
  const job: Job = { input: new TextEncoder().encode(input), args, outputBytes: budget.outputBytes };
  wasmStats.calls++;
  e.worker.postMessage(job, [job.input.buffer as ArrayBuffer]);
  return budget.timeMs + Math.max(inputs - 1, 0) * budget.batchMsPerInput;
}

/** The job's result, or its error; no reply (the deadline passed) replaces the worker. */
function outcome(e: Engine, reply: Reply | null): WasmResult {
  if (!reply) {
    wasmStats.overruns++;
    stop(e);
    throw budgetError('time');
  }
  if (reply.ok) return reply;
  if ('exceeded' in reply) throw budgetError(reply.exceeded);
  throw new Error(reply.failure);
}

/** Starts the synchronous lane's worker (and compiles the wasm) ahead of the first call; optional. */
export function prepareWasm(): Promise<void> {
  engineFor('sync');
  return Promise.resolve();
}

/**
 * Runs `jq ARGS` over `input` (JSON text: `inputs` values) within the
 * evaluation budget's wall time and output size, blocking the thread; over
 * budget raises the budget JqError, a failure of jq-wasm itself an Error.
 */
export function runJq(input: string, args: string[], inputs = 1): WasmResult {
  const e = engineFor('sync');
  if (!e.ready) started(e, awaitReply(e, START_TIMEOUT_MS));
  return outcome(e, awaitReply(e, post(e, input, args, inputs)));
}

/** The asynchronous lane's calls, one after another. */
let asyncQueue: Promise<unknown> = Promise.resolve();

/** runJq without blocking the thread: the same deadline, termination and errors. */
export function runJqAsync(input: string, args: string[], inputs = 1): Promise<WasmResult> {
  const call = asyncQueue.then(async () => {
    const e = engineFor('async');
    if (!e.ready) started(e, await awaitReplyAsync(e, START_TIMEOUT_MS));
    return outcome(e, await awaitReplyAsync(e, post(e, input, args, inputs)));
  });
  asyncQueue = call.catch(() => {});
  return call;
}
