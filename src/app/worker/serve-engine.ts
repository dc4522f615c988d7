// One engine served over a port (the worker's parentPort, or a MessagePort of
// a worker serving several: engines-worker.ts): opens the engine exactly as
// the in-thread path does (app/connect.ts openEngine), posts one delta per
// engine flush, answers holds and stops on request. See README.md.
import { getHeapStatistics } from 'node:v8';
import type { MessagePort } from 'node:worker_threads';
import { DEFAULT_CONNECT_TIMEOUT_MS, openEngine } from '../connect.js';
import type { ClusterEngine } from '../../kube/engine.js';
import type { EngineInfo, UiMessage, WorkerMessage, WorkerStart } from './protocol.js';
import { SnapshotEncoder } from './wire.js';
import { PodElision, sameScope } from '../../model/elided-pods.js';
import type { ModelSnapshot, PodScope, PodSummary } from '../../model/types.js';
import { treePods } from '../../model/tree-pods.js';
import type { RowWindowRequest } from '../../ui/state/served-rows.js';
import { RowServer } from '../../ui/state/row-server.js';
import { startHeapTrace } from './heap-trace.js';
import type { FirstLists } from './first-lists.js';

/** Where one engine's messages go and come from. */
export type EnginePort = Pick<MessagePort, 'postMessage' | 'on' | 'close'>;

function infoOf(engine: ClusterEngine): EngineInfo {
  return { connection: engine.getConnectionInfo(), definitions: engine.definitions(), resources: engine.resources() };
}

/** The info when it differs from the last sent (definitions by identity, the rest by value). */
function infoChange(engine: ClusterEngine, last: { info: EngineInfo; text: string }): EngineInfo | undefined {
  const info = infoOf(engine);
  const text = JSON.stringify([info.connection, info.resources]);
  if (info.definitions === last.info.definitions && text === last.text) return undefined;
  last.info = info;
  last.text = text;
  return info;
}

/** A pod's restart count in the whole snapshot (its trees, then the pods without a workload); null: not there. */
function restartsOf(snapshot: ModelSnapshot, pod: { namespace: string; name: string }): number | null {
  const match = (p: PodSummary) => p.namespace === pod.namespace && p.name === pod.name;
  for (const w of snapshot.workloads) {
    if (w.namespace !== pod.namespace) continue;
    const found = treePods(w).find(match);
    if (found) return found.restarts;
  }
  return snapshot.podsWithoutWorkload?.find(match)?.restarts ?? null;
}

/**
 * Serves one engine over `port` until 'stop' (then the port is closed).
 * `worker`: what the worker's engines share: their first lists, which the
 * heap bound and, with several engines, the synced engines' watch events wait
 * for (first-lists.ts).
 */
export async function serveEngine(
  port: EnginePort,
  data: WorkerStart,
  worker: { firstLists: FirstLists },
): Promise<void> {
  const post = (message: WorkerMessage): void => port.postMessage(message);
  const { options: start, podScope } = data;
  // A Prometheus URL crossed as its text (worker-source.ts startData).
  const p = start.prometheus;
  const options = p?.kind === 'url' ? { ...start, prometheus: { ...p, url: new URL(String(p.url)) } } : start;
  let engine: ClusterEngine;
  const listing = worker.firstLists.join(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  const listed = () => listing.done();
  try {
    engine = await openEngine(
      options,
      { kubeconfig: options.kubeconfig, context: options.context },
      { flushHold: listing.hold },
    );
  } catch (err) {
    listed();
    post({ type: 'fatal', message: (err as Error).message });
    port.close();
    return;
  }
  const first = infoOf(engine);
  const last = { info: first, text: JSON.stringify([first.connection, first.resources]) };
  post({ type: 'opened', info: first });

  startHeapTrace();
  const encoder = new SnapshotEncoder();
  // Only the pods the UI's views draw cross (README.md "Pod scope").
  const elision = new PodElision();
  let scope: PodScope = podScope;
  // The served view's rows, derived from the whole snapshot (README.md "Served rows").
  const rowServer = new RowServer();
  let rowRequest: RowWindowRequest | null = null;
  let probed: { namespace: string; name: string } | null = null;
  let seq = 0;
  const send = () => {
    const whole = engine.getSnapshot();
    listing.connection(whole.connection);
    const snapshot = elision.apply(whole, scope);
    const rows = rowRequest ? rowServer.window(whole, rowRequest) : undefined;
    const probe = probed ? { ...probed, restarts: restartsOf(whole, probed) } : undefined;
    post({
      type: 'snapshot',
      seq: ++seq,
      delta: encoder.encode(snapshot),
      info: infoChange(engine, last),
      rows,
      probe,
    });
  };
  send();
  const unsubscribe = engine.subscribe(send);
  engine.whenSynced().then(
    () => {
      listed();
      post({ type: 'synced' });
    },
    (err: Error) => {
      listed();
      post({ type: 'synced', error: err.message });
    },
  );

  const holds = new Map<number, () => void>();
  port.on('message', (message: UiMessage) => {
    switch (message.type) {
      case 'hold':
        holds.get(message.id)?.();
        holds.set(message.id, message.what === 'gpuMetrics' ? engine.holdGpuMetrics() : engine.holdQueuePositions());
        break;
      case 'release':
        holds.get(message.id)?.();
        holds.delete(message.id);
        break;
      case 'refresh':
        (message.what === 'gpuMetrics' ? engine.scrapeGpuMetrics() : engine.refreshQueuePositions()).then(
          () => post({ type: 'refreshed', id: message.id }),
          (err: Error) => post({ type: 'refreshed', id: message.id, error: err.message }),
        );
        break;
      case 'rows':
        rowRequest = message.request;
        if (rowRequest) send();
        break;
      case 'probe':
        probed = message.pod;
        if (probed) send();
        break;
      case 'scope':
        if (sameScope(scope, message.scope)) break;
        scope = message.scope;
        send();
        break;
      case 'heap': {
        if (message.gc) (globalThis as { gc?: () => void }).gc?.();
        const h = getHeapStatistics();
        post({ type: 'heap', id: message.id, usedBytes: h.used_heap_size, totalBytes: h.total_heap_size });
        break;
      }
      case 'stop':
        listed();
        unsubscribe();
        for (const release of holds.values()) release();
        holds.clear();
        void engine
          .stop()
          .catch(() => undefined)
          .then(() => {
            post({ type: 'stopped' });
            port.close();
          });
        break;
    }
  });
}
