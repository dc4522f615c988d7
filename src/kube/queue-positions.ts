// Positions in line from Kueue's visibility API (a GET per ClusterQueue with
// pending workloads: `/apis/visibility.kueue.x-k8s.io/<v>/clusterqueues/<cq>/pendingworkloads`).
// Asked while a view that shows positions holds it (and once by `wlx get`):
// the list is computed by Kueue on each request, so it is not polled idly.
import type { SchedulingIndex } from '../model/scheduling.js';
import { parsePendingWorkloads } from '../model/scheduling.js';
import { KubeApiError, getJson, type KubeTransport } from './client.js';

export const VISIBILITY_GROUP = 'visibility.kueue.x-k8s.io';
const VERSIONS = ['v1beta2', 'v1beta1'];

export function pendingWorkloadsPath(version: string, clusterQueue: string): string {
  return `/apis/${VISIBILITY_GROUP}/${version}/clusterqueues/${encodeURIComponent(clusterQueue)}/pendingworkloads`;
}

export class QueuePositions {
  /** The version that answered; null until one did. */
  private version: string | null = null;
  /** Not served or forbidden: not asked again (positions stay unknown). */
  private unavailable: string | null = null;
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

  /** Why positions are unknown (told once), or null. */
  get problem(): string | null {
    return this.unavailable;
  }

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
    for (const cq of this.index.clusterQueuesWithPending()) {
      const body = await this.get(cq);
      if (body === undefined) return;
      this.index.setPositions(cq, parsePendingWorkloads(body));
    }
    this.onChange();
  }

  /** The pending workloads of one ClusterQueue; undefined when the API cannot be used. */
  private async get(clusterQueue: string): Promise<unknown> {
    const versions = this.version ? [this.version] : VERSIONS;
    for (const v of versions) {
      try {
        const body = await getJson(this.transport, pendingWorkloadsPath(v, clusterQueue));
        this.version = v;
        return body;
      } catch (err) {
        if (err instanceof KubeApiError && err.status === 404 && !this.version) continue;
        if (err instanceof KubeApiError && err.status === 404) return { items: [] };
        if (err instanceof KubeApiError && (err.status === 403 || err.status === 401)) {
          this.unavailable = `queue positions: ${VISIBILITY_GROUP} forbidden: ${err.message}`;
          this.onProblem(this.unavailable);
          return undefined;
        }
        // Unreachable or a server error: try again next round.
        return undefined;
      }
    }
    this.unavailable = `queue positions: ${VISIBILITY_GROUP} is not served`;
    return undefined;
  }
}
