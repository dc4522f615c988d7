// Worker B of ingest-second-worker.ts (issue 15 option (c)): parses and trims
// list pages with its own Trimmer and posts the trimmed pods to A, encoded as
// the run asks. Pages come from shared memory (as if B had fetched them
// itself) or are transferred to it by A, one ArrayBuffer per page.
import { parentPort } from 'node:worker_threads';
import { serialize } from 'node:v8';
import { Trimmer, withTypeMeta } from '../../src/kube/trim.js';
import type { KubeObject } from '../../src/model/types.js';
import { threadCpuMs } from './ingest-common.js';

/** How B posts a page's trimmed pods: structured clone, v8.serialize'd bytes (transferred), or their JSON text. */
export type PostMode = 'clone' | 'serialized' | 'json';

export type ToWorker =
  | { type: 'run'; mode: PostMode; shared?: { data: SharedArrayBuffer; ends: number[] } }
  | { type: 'page'; bytes: ArrayBuffer; last: boolean };

export type FromWorker =
  | { type: 'pods'; pods: KubeObject[] }
  | { type: 'serialized'; bytes: ArrayBuffer }
  | { type: 'json'; text: string }
  | { type: 'done'; cpuMs: number; heapBytes: number };

const port = parentPort!;
const gc = (globalThis as { gc?: () => void }).gc;
let trimmer = new Trimmer();
let mode: PostMode = 'clone';
let cpuAtStart = 0;

function post(page: Buffer): void {
  const trim = trimmer.for('pod');
  const items = (JSON.parse(page.toString('utf8')) as { items: unknown[] }).items;
  const pods = new Array<KubeObject>(items.length);
  for (let i = 0; i < items.length; i++) {
    pods[i] = trim(withTypeMeta(items[i], 'v1', 'Pod'));
    items[i] = undefined;
  }
  if (mode === 'clone') port.postMessage({ type: 'pods', pods } satisfies FromWorker);
  else if (mode === 'json') port.postMessage({ type: 'json', text: JSON.stringify(pods) } satisfies FromWorker);
  else {
    const bytes = serialize(pods);
    // A Buffer from v8.serialize owns its ArrayBuffer whole (not the pool): it can be transferred.
    const ab =
      bytes.buffer.byteLength === bytes.length
        ? bytes.buffer
        : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    port.postMessage({ type: 'serialized', bytes: ab } satisfies FromWorker, [ab]);
  }
}

function done(): void {
  const cpuMs = threadCpuMs() - cpuAtStart;
  gc?.();
  gc?.();
  port.postMessage({ type: 'done', cpuMs, heapBytes: process.memoryUsage().heapUsed } satisfies FromWorker);
}

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'run') {
    trimmer = new Trimmer();
    mode = msg.mode;
    cpuAtStart = threadCpuMs();
    if (!msg.shared) return; // pages follow, transferred
    let start = 0;
    for (const end of msg.shared.ends) {
      // A copy out of shared memory, as a socket's bytes would be B's own.
      post(Buffer.from(new Uint8Array(msg.shared.data, start, end - start)));
      start = end;
    }
    done();
  } else {
    post(Buffer.from(msg.bytes));
    if (msg.last) done();
  }
});
