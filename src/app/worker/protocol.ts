// The messages between the UI thread and the engine worker (README.md).
// Plain, structured-cloneable data only.
import type { Definition } from '../../definitions/types.js';
import type { ConnectionInfo, PodScope, ResourceInfo } from '../../model/types.js';
import type { OpenOptions } from '../connect.js';
import type { Delta } from './delta.js';
import type { RowWindow, RowWindowRequest } from '../../ui/state/served-rows.js';

/** workerData: what the worker opens. Without `demo` (the UI thread runs the demo and passes its kubeconfig). */
export interface WorkerStart {
  options: OpenOptions;
  /** Whose pods to send (ModelSource.setPodScope), until a 'scope' message says otherwise. */
  podScope: PodScope;
}

/** What the UI keeps besides the snapshot; sent when it changes. */
export interface EngineInfo {
  connection: ConnectionInfo;
  definitions: Definition[];
  resources: ResourceInfo[];
}

export type WorkerMessage =
  /** The engine started (discovery may still be retrying): the source can be handed to the UI. */
  | { type: 'opened'; info: EngineInfo }
  /** One engine flush; the first after 'opened' carries the whole snapshot. */
  | { type: 'snapshot'; seq: number; delta: Delta; info?: EngineInfo; rows?: RowWindow; probe?: PodProbe }
  /** Every kind listed once (error: why the first sync failed). */
  | { type: 'synced'; error?: string }
  /** The engine could not be opened (a kubeconfig error, say); the worker ends. */
  | { type: 'fatal'; message: string }
  /** A 'refresh' done (error: why it failed). */
  | { type: 'refreshed'; id: number; error?: string }
  /** The engine stopped after 'stop'; the worker ends. */
  | { type: 'stopped' }
  /** The worker's heap, answering 'heap'. */
  | { type: 'heap'; id: number; usedBytes: number; totalBytes: number };

/** A probed pod's restart count in the engine's model (null: not there), for measurements. */
export interface PodProbe {
  namespace: string;
  name: string;
  restarts: number | null;
}

/** What a hold keeps fresh (ModelSource.holdQueuePositions / holdGpuMetrics). */
export type HoldKind = 'queuePositions' | 'gpuMetrics';

export type UiMessage =
  | { type: 'hold'; id: number; what: HoldKind }
  | { type: 'release'; id: number }
  /** Once, now (`wlx get`'s refreshQueuePositions / scrapeGpuMetrics), answered by 'refreshed'. */
  | { type: 'refresh'; id: number; what: HoldKind }
  /** The worker's heap (after a full GC when `gc` and the process runs with --expose-gc): measurements. */
  | { type: 'heap'; id: number; gc: boolean }
  /** Derive this served view's rows with each snapshot (null: none); answered by a snapshot at once. */
  | { type: 'rows'; request: RowWindowRequest | null }
  /** Report this pod's restart count with each snapshot (null: stop): the benchmark's catch-up marker. */
  | { type: 'probe'; pod: { namespace: string; name: string } | null }
  /** Send only these pods from now on (the views' PodScope); answered by a snapshot at once. */
  | { type: 'scope'; scope: PodScope }
  | { type: 'stop' };
