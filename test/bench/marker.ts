// A marker the harness writes at the server and then looks for in wlx: a pod's
// first container restart count set to a unique number by a status PATCH (the
// bench server runs with --allow-writes). Watch events arrive in order, so the
// marker being in wlx's model means every event before it has been applied.
import { readFileSync } from 'node:fs';
import type { ModelSnapshot } from '../../src/model/types.js';
import type { OpenOptions } from '../../src/app/connect.js';

/** How main.ts's `--wire` reaches the engines its child processes open (first-tree, catch-up, sessions). */
export const BENCH_WIRE_ENV = 'WLX_BENCH_WIRE';
/** '1': the sessions time each event's arrival in the engine's model too (tui-session.ts probeEvent). */
export const EVENT_PROBE_ENV = 'WLX_BENCH_EVENT_PROBE';

/**
 * How the bench opens wlx's model: this kubeconfig, all namespaces, the
 * built-in definitions only, and the wire format of `--wire` (default JSON).
 */
export function benchOpenOptions(kubeconfig: string): OpenOptions {
  const wire = process.env[BENCH_WIRE_ENV] === 'protobuf' ? 'protobuf' : 'json';
  return { kubeconfig, namespace: null, definitionPaths: [], definitionsEnv: '', gpuResources: [], demo: false, wire };
}

/** The API server URL written in a kubeconfig (the bench server's, http://127.0.0.1:PORT); '' when absent. */
export function serverUrlOf(kubeconfigPath: string): string {
  const url = /server:\s*(\S+)/.exec(readFileSync(kubeconfigPath, 'utf8'))?.[1] ?? '';
  return url.replace(/^['"]|['"]$/g, '');
}

export interface PodRef {
  namespace: string;
  name: string;
}

export interface RestartMarker {
  /** The restart count written: `marker`, or the pod's current count plus a million (unique on a reused server). */
  marker: number;
  send(): Promise<void>;
}

/**
 * Reads the pod and returns a send() that PATCHes its restart count to the
 * marker; null when the pod has no container status to mark. Split in two so
 * that the caller times only the write.
 */
export async function prepareRestartMarker(
  serverUrl: string,
  pod: PodRef,
  marker?: number,
): Promise<RestartMarker | null> {
  const path = `/api/v1/namespaces/${encodeURIComponent(pod.namespace)}/pods/${encodeURIComponent(pod.name)}`;
  const current = (await (await fetch(serverUrl + path)).json()) as {
    status?: { containerStatuses?: { restartCount: number }[] };
  };
  const statuses = current.status?.containerStatuses;
  if (!statuses?.length) return null;
  const restartCount = marker ?? statuses[0].restartCount + 1_000_000;
  const body = JSON.stringify({
    status: { containerStatuses: [{ ...statuses[0], restartCount }, ...statuses.slice(1)] },
  });
  const send = async () => {
    const res = await fetch(`${serverUrl}${path}/status`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body,
    });
    if (!res.ok) throw new Error(`PATCH ${path}/status: HTTP ${res.status}`);
    await res.arrayBuffer();
  };
  return { marker: restartCount, send };
}

/** A running pod of the cluster, asked of the server (before wlx has listed anything). */
export async function somePod(serverUrl: string): Promise<PodRef> {
  const list = (await (await fetch(`${serverUrl}/api/v1/pods?limit=50`)).json()) as {
    items?: { metadata: PodRef; status?: { phase?: string; containerStatuses?: unknown[] } }[];
  };
  const pod = list.items?.find((p) => p.status?.phase === 'Running' && p.status.containerStatuses?.length);
  if (!pod) throw new Error('no running pod with a container status among the first 50');
  return { namespace: pod.metadata.namespace, name: pod.metadata.name };
}

/** The uid of the workload whose tree holds the pod (one walk of every tree). */
export function workloadOf(snapshot: ModelSnapshot, pod: PodRef): string | undefined {
  return snapshot.workloads.find((w) => restartsInRoles(w.roles, pod) !== undefined)?.uid;
}

/** The pod's restart count as the snapshot holds it (looked up in its workload's tree only). */
export function restartsIn(snapshot: ModelSnapshot, pod: PodRef, workloadUid: string): number | undefined {
  const w = snapshot.workloads.find((x) => x.uid === workloadUid);
  return w ? restartsInRoles(w.roles, pod) : undefined;
}

function restartsInRoles(roles: ModelSnapshot['workloads'][number]['roles'], pod: PodRef): number | undefined {
  for (const r of roles) {
    const p = r.pods.find((x) => x.name === pod.name && x.namespace === pod.namespace);
    if (p) return p.restarts;
    const nested = restartsInRoles(r.roles, pod);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

/**
 * Subscribes to the source, then sends the marker: `sent` when the server
 * took it, `seen` when (performance.now()) the source first holds it on the
 * pod, or undefined after `timeoutMs`.
 */
export function watchForMarker(
  source: { getSnapshot(): ModelSnapshot; subscribe(l: (s: ModelSnapshot) => void): () => void },
  pod: PodRef,
  marker: RestartMarker,
  timeoutMs: number,
): { sent: Promise<void>; seen: Promise<number | undefined> } {
  const workloadUid = workloadOf(source.getSnapshot(), pod);
  if (!workloadUid) throw new Error(`${pod.namespace}/${pod.name} is in no workload`);
  const seen = new Promise<number | undefined>((resolve) => {
    const done = (t: number | undefined) => {
      unsubscribe();
      clearTimeout(timer);
      resolve(t);
    };
    const unsubscribe = source.subscribe((s) => {
      if ((restartsIn(s, pod, workloadUid) ?? 0) >= marker.marker) done(performance.now());
    });
    const timer = setTimeout(() => done(undefined), timeoutMs);
  });
  return { sent: marker.send(), seen };
}
