// Positions in line from Kueue's visibility API: a GET per ClusterQueue with
// pending workloads (`/apis/visibility.kueue.x-k8s.io/<v>/clusterqueues/<cq>/pendingworkloads`),
// or, when that is forbidden (a namespace-scoped user), per LocalQueue
// (`…/namespaces/<ns>/localqueues/<lq>/pendingworkloads`; its items carry the
// ClusterQueue position too). Asked while a view that shows positions holds
// it (and once by `wlx get`): Kueue computes the list on each request.
import type { SchedulingIndex } from '../model/scheduling/index.js';
import { parsePendingWorkloads } from '../model/scheduling/kueue.js';
import { KubeApiError, getJson, type KubeTransport } from './client.js';

export const VISIBILITY_GROUP = 'visibility.kueue.x-k8s.io';
const VERSIONS = ['v1beta2', 'v1beta1'];

export function pendingWorkloadsPath(version: string, clusterQueue: string): string {
  return `/apis/${VISIBILITY_GROUP}/${version}/clusterqueues/${encodeURIComponent(clusterQueue)}/pendingworkloads`;
}

export function localPendingWorkloadsPath(version: string, namespace: string, localQueue: string): string {
  return `/apis/${VISIBILITY_GROUP}/${version}/namespaces/${encodeURIComponent(namespace)}/localqueues/${encodeURIComponent(localQueue)}/pendingworkloads`;
}

type Answer = { ok: true; body: unknown } | { ok: false; forbidden: boolean; unserved: boolean };

export class QueuePositions {
  /** The version that answered; null until one did. */
  private version: string | null = null;
  /** Set when positions cannot be had (not served, or forbidden per LocalQueue too): not asked again. */
  private unavailable: string | null = null;
  /** ClusterQueue lists are forbidden: ask per LocalQueue. */
  private perLocalQueue = false;
  private holds = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly transport: KubeTransport,
    private readonly index: SchedulingIndex,
    private readonly onChange: () => void,
    private readonly onProblem: (message: string) => void,
    private readonly intervalMs = 5_000,
  ) {}

  /** Refresh while held; returns the release. */
  hold(): () => void {
    this.holds += 1;
    if (this.holds === 1) {
      void this.refresh();
      this.timer = setInterval(() => void this.refresh(), this.intervalMs);
      this.timer.unref?.();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.holds = 0;
  }

  /** One round of GETs (one at a time: a slow server is not asked twice at once). */
  refresh(): Promise<void> {
    this.running ??= this.refreshNow().finally(() => (this.running = null));
    return this.running;
  }

  private async refreshNow(): Promise<void> {
    if (this.unavailable) return;
    if (!this.perLocalQueue) {
      for (const cq of this.index.clusterQueuesWithPending()) {
        const a = await this.get((v) => pendingWorkloadsPath(v, cq));
        if (!a.ok && a.forbidden) {
          this.perLocalQueue = true;
          break;
        }
        if (!a.ok) return this.settle(a);
        this.index.setPositions(cq, parsePendingWorkloads(a.body));
      }
    }
    if (this.perLocalQueue) {
      for (const lq of this.index.localQueuesWithPending()) {
        const a = await this.get((v) => localPendingWorkloadsPath(v, lq.namespace, lq.name));
        if (!a.ok) return this.settle(a);
        this.index.setPositions(`${lq.namespace}/${lq.name}`, parsePendingWorkloads(a.body));
      }
    }
    this.onChange();
  }

  /** A failed round: forbidden or not served is final (told once); anything else is tried next round. */
  private settle(a: Extract<Answer, { ok: false }>): void {
    if (a.unserved) this.unavailable = `queue positions: ${VISIBILITY_GROUP} is not served`;
    else if (a.forbidden) {
      this.unavailable = `queue positions: ${VISIBILITY_GROUP} pendingworkloads is forbidden`;
      this.onProblem(this.unavailable);
    }
    if (this.unavailable) {
      this.index.setPositionsUnavailable(this.unavailable);
      this.onChange();
    }
  }

  private async get(path: (version: string) => string): Promise<Answer> {
    const versions = this.version ? [this.version] : VERSIONS;
    for (const v of versions) {
      try {
        const body = await getJson(this.transport, path(v));
        this.version = v;
        return { ok: true, body };
      } catch (err) {
        const status = err instanceof KubeApiError ? err.status : 0;
        if (status === 404 && !this.version) continue;
        // The queue went away between the watch and this GET.
        if (status === 404) return { ok: true, body: { items: [] } };
        return { ok: false, forbidden: status === 403 || status === 401, unserved: false };
      }
    }
    return { ok: false, forbidden: false, unserved: true };
  }
}
