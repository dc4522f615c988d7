// Several engines in one worker thread (a fleet's: src/app/fleet.ts): one
// Worker running engines-worker.ts, and per engine a MessageChannel that its
// WorkerSource uses as it would use a worker of its own — the same messages,
// 'exit' when the engine's port closes (it stopped, or could not open) or the
// shared worker ends. One isolate and one module load for every cluster: the
// fleet benchmark measured a worker per cluster at ~100 MB and several
// seconds of start-up each (test/bench/README.md "Fleet").
import { EventEmitter } from 'node:events';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { UiMessage, WorkerMessage, WorkerStart } from './protocol.js';

/** What a WorkerSource talks to: a Worker of its own, or its channel to a shared one. */
export interface EngineChannel {
  postMessage(message: UiMessage): void;
  on(event: 'message', listener: (message: WorkerMessage) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  once(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<unknown>;
  /** A worker of its own: its event loop's use (the benchmark's per-thread figures); absent on a shared one. */
  readonly performance?: Worker['performance'];
}

/** Hands out channels to engines served by one worker. */
export interface EngineHost {
  channel(start: WorkerStart): EngineChannel;
  /** Ends the shared worker (after its engines stopped). */
  close(): Promise<void>;
}

const ENGINES_URL = new URL('./engines-worker.js', import.meta.url);

class Channel extends EventEmitter implements EngineChannel {
  private exited = false;

  constructor(private readonly port: MessagePort) {
    super();
    port.on('message', (m) => this.emit('message', m));
    port.on('close', () => this.exit(0));
  }

  postMessage(message: UiMessage): void {
    if (!this.exited) this.port.postMessage(message);
  }

  /** The engine ended (its port closed) or the shared worker did: as a worker of its own exiting. */
  exit(code: number, error?: Error): void {
    if (this.exited) return;
    this.exited = true;
    if (error) this.emit('error', error);
    this.emit('exit', code);
  }

  terminate(): Promise<void> {
    this.port.close();
    this.exit(1);
    return Promise.resolve();
  }
}

export class SharedEngineHost implements EngineHost {
  private worker: Worker | null = null;
  private readonly channels = new Set<Channel>();
  private closed = false;

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(ENGINES_URL);
    this.worker = worker;
    let error: Error | undefined;
    worker.on('error', (err) => (error = err));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      // Every engine it served ended with it; each source restarts its own (on a new worker).
      for (const c of [...this.channels]) c.exit(code, error);
      this.channels.clear();
    });
    return worker;
  }

  channel(start: WorkerStart): EngineChannel {
    const { port1, port2 } = new MessageChannel();
    const channel = new Channel(port1);
    if (this.closed) {
      // Closed (its fleet stopped): an engine asked for now ends at once, as a worker that could not start.
      setImmediate(() => channel.exit(1, new Error('the engine host is closed')));
      return channel;
    }
    this.channels.add(channel);
    channel.once('exit', () => this.channels.delete(channel));
    this.ensureWorker().postMessage({ type: 'engine', start, port: port2 }, [port2]);
    return channel;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate().catch(() => undefined);
    this.worker = null;
  }
}
