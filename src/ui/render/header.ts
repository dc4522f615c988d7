// The header's figures as text: the connection state of the watches (live /
// syncing / unreachable since … / forbidden kinds), the flash line's cause and
// retry countdown, and workload counts by status.
import type {
  ClusterConnection,
  ConnectionCause,
  ConnectionInfo,
  ClusterTotals,
  ModelSnapshot,
  NodeSummary,
} from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import { workloadWords } from '../../model/workload-word.js';
import type { TroubleMemo } from '../../model/trouble.js';
import { clusterGpuUtilisation } from '../../model/gpu-overlay.js';
import { podsUnreadable } from '../../model/pods-readable.js';
import type { ClusterSummary, FleetState } from '../../model/fleet/types.js';

/** What the header shows, computed once per screen (src/ui/state/screen.ts). */
export interface HeaderModel {
  connection: ConnectionInfo;
  totals: ClusterTotals;
  summary: ConnectionSummary;
  /** workloadCounts for the namespace in scope. */
  workloads: string;
  /** The same, compact: what a narrow header shows (the counts that need a look first). */
  workloadsCompact: string;
  /** The GPU figures (gpuHeadline). */
  gpus: string;
  /** The node count, or `not readable` without node access (never 0). */
  nodes: string;
  namespace: string | null;
}

export interface ConnectionSummary {
  text: string;
  level: 'ok' | 'warn' | 'error';
}

function clock(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return sanitise(iso);
  return new Date(t).toISOString().slice(11, 19);
}

/** The header's word for a failure of the whole cluster. */
const FAILURE_WORD: Record<ConnectionCause['kind'], string> = {
  unreachable: 'unreachable',
  tls: 'TLS failure',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  credentials: 'credentials failed',
  stalled: 'reconnecting',
  server: 'server error',
  kubeconfig: 'kubeconfig error',
};

/** `pods,jobs,jobsets`: the resource names of kinds (`jobsets.jobset.x-k8s.io (training)`), pods first, each once. */
function refusedKinds(labels: readonly string[]): string {
  const names = [...new Set(labels.map((k) => sanitise(k.split(/[ .]/)[0])))].sort();
  return [...names.filter((n) => n === 'pods'), ...names.filter((n) => n !== 'pods')].join(',');
}

/** Failures a user must act on (as opposed to waiting for the server). */
function needsAction(cause: ConnectionCause | undefined): boolean {
  return !!cause && ['tls', 'unauthorized', 'forbidden', 'credentials', 'kubeconfig'].includes(cause.kind);
}

/**
 * One phrase for the cluster's connection (src/kube/snapshot.ts summariseConnection);
 * `scopedTo`: the namespaces read because cluster-wide lists are forbidden.
 */
export function connectionHeadline(c: ClusterConnection, scopedTo?: readonly string[]): ConnectionSummary {
  const parts: string[] = [];
  let level: ConnectionSummary['level'] = 'ok';
  if (c.state === 'retrying') {
    // Refused kinds are not being watched (and their rows may be stale): say which, by resource name.
    const what = c.failing.length
      ? c.cause?.kind === 'forbidden'
        ? `not watched: ${refusedKinds(c.failing)} (forbidden)`
        : `reconnecting ${c.failing.map(sanitise).join(',')}`
      : c.cause
        ? FAILURE_WORD[c.cause.kind]
        : 'reconnecting';
    parts.push(`${what} since ${clock(c.since)}`);
    level = needsAction(c.cause) && !c.failing.length ? 'error' : 'warn';
  } else if (c.state === 'connecting') {
    parts.push('connecting…');
    level = 'warn';
  } else if (c.state === 'syncing') {
    parts.push(`syncing ${c.synced}/${c.total}`);
    level = 'warn';
  } else {
    parts.push('live');
  }
  if (c.forbidden.length) {
    parts.push(`forbidden: ${c.forbidden.map(sanitise).join(',')}`);
    if (level === 'ok') level = 'warn';
  }
  if (scopedTo?.length) {
    parts.push(`namespace-scoped: ${scopedTo.map(sanitise).join(',')}`);
    if (level === 'ok') level = 'warn';
  }
  return { text: parts.join('  '), level };
}

/** The order a fleet's states are named in: the ones to act on first. */
const FLEET_ORDER: readonly FleetState[] = ['invalid', 'unreachable', 'unauthorized', 'forbidden', 'connecting'];

/**
 * A fleet's connection in one phrase, each cluster in the words of `:clusters`
 * and `clusters[].state`: `3 clusters: 1 live, east unreachable, west
 * connecting` (clusters of one state named together); `forbidden`: kinds a
 * cluster may not list, as `context/kind`.
 */
export function fleetHeadline(
  members: readonly Pick<ClusterSummary, 'context' | 'state'>[],
  forbidden: readonly string[],
): ConnectionSummary {
  const live = members.filter((m) => m.state === 'live').length;
  const down = FLEET_ORDER.flatMap((state) => {
    const names = members.filter((m) => m.state === state).map((m) => sanitise(m.context));
    return names.length ? [`${names.join(', ')} ${state}`] : [];
  });
  const states = live === members.length ? ['all live'] : [...(live ? [`${live} live`] : []), ...down];
  const parts = [`${members.length} clusters: ${states.join(', ')}`];
  if (forbidden.length) parts.push(`forbidden: ${forbidden.map(sanitise).join(',')}`);
  const failing = members.some((m) => m.state !== 'live' && m.state !== 'connecting');
  const level = live === 0 && failing ? 'error' : live === members.length && !forbidden.length ? 'ok' : 'warn';
  return { text: parts.join('  '), level };
}

/** ` — retry in 3 s` until the next attempt (empty when none is planned). */
function retryCountdown(c: ClusterConnection, nowMs: number): string {
  const at = c.retryAt ? Date.parse(c.retryAt) : NaN;
  const seconds = Math.ceil((at - nowMs) / 1000);
  return Number.isNaN(at) ? '' : seconds > 0 ? ` — retry in ${seconds} s` : ' — retrying…';
}

/**
 * The flash line of a fleet with clusters down: each with its own cause
 * (`refused: connection refused; broken: context "broken": …`), an error
 * when one needs the user (credentials, permissions, its kubeconfig entry).
 */
export function fleetFlash(
  members: readonly Pick<ClusterSummary, 'context' | 'state' | 'error'>[],
  c: ClusterConnection,
  nowMs: number,
): { text: string; level: 'warn' | 'error' } | null {
  const down = members.filter((m) => m.error !== null);
  if (!down.length) return null;
  const text = down.map((m) => `${sanitise(m.context)}: ${sanitise(m.error!)}`).join('; ');
  const act = down.some((m) => m.state === 'unauthorized' || m.state === 'forbidden' || m.state === 'invalid');
  return { text: text + (c.state === 'retrying' ? retryCountdown(c, nowMs) : ''), level: act ? 'error' : 'warn' };
}

/** The flash line while the connection fails: the cause and the countdown to the next attempt. */
export function connectionFlash(
  c: ClusterConnection,
  nowMs: number,
  /** The API server's URL: named when the whole cluster fails (which server is down is the first question). */
  server?: string,
): { text: string; level: 'warn' | 'error' } | null {
  if (c.state !== 'retrying' || !c.cause) return null;
  const next = retryCountdown(c, nowMs);
  const which = c.failing.length
    ? `${c.failing.map(sanitise).join(',')}: `
    : server && c.cause.kind !== 'forbidden'
      ? `${sanitise(server)}: `
      : '';
  return { text: `${which}${sanitise(c.cause.text)}${next}`, level: needsAction(c.cause) ? 'error' : 'warn' };
}

/** Screens this wide or narrower get the compact GPU totals by kind. */
const COMPACT_COLUMNS = 100;

/**
 * `48/64 req/alloc  free 16  pending 8`; with more than one GPU kind, by kind
 * (`61/96 nvidia.com/gpu · 1/56 mig-1g.10gb · 1/8 dra:gpu.nvidia.com  pending 8`,
 * shorter names on a screen of `columns` ≤ 100); without node access what the
 * pods request and that capacity is unknown (never 0).
 */
export function gpuHeadline(
  snapshot: Pick<ModelSnapshot, 'totals' | 'podNodes' | 'gpuMetrics' | 'nodes'> &
    Partial<Pick<ModelSnapshot, 'connection' | 'access' | 'fleet'>>,
  columns = Infinity,
  /** gpuKindTotals(snapshot.nodes), asked only when needed: the caller may keep it (the screen model, per nodes array). */
  kindTotals: () => string = () => gpuKindTotals(snapshot.nodes),
): string {
  const t = snapshot.totals;
  // Nothing listed yet (connecting, or the server down from the start): not known, never 0.
  if (!t.nodes && !t.pods && !snapshot.podNodes && snapshot.connection && snapshot.connection.state !== 'live')
    return 'not read yet';
  const util = clusterGpuUtilisation(snapshot.gpuMetrics);
  const utilText = util === null ? '' : `  util ${Math.round(util)}%`;
  // Nodes readable, pods not cluster-wide: their requests are those of the namespaces read, and say so.
  const podsIn = snapshot.access?.podsIn;
  // A fleet whose clusters may not read pods: their requests are missing from the sums, and said so.
  const members = snapshot.fleet && snapshot.fleet.members.length > 1 ? snapshot.fleet.members : null;
  const blind = members?.filter((m) => podsUnreadable(m.snapshot?.access)).map((m) => sanitise(m.context)) ?? [];
  if (!members && podsUnreadable(snapshot.access)) {
    if (snapshot.access!.forbidden.includes('nodes')) return 'not readable (nodes and pods forbidden)';
    const alloc = t.byResource
      ? Object.entries(t.byResource)
          .map(
            ([name, r]) => `?/${r.allocatable} ${sanitise(columns <= COMPACT_COLUMNS ? compactGpuKind(name) : name)}`,
          )
          .join(' · ')
      : `?/${t.gpuAllocatable} req/alloc  free ?`;
    return `${alloc}  pending ?  (pods not readable)`;
  }
  const partial =
    podsIn && !snapshot.podNodes
      ? `  (requests of pods in ${podsIn.map(sanitise).join(', ')} only)`
      : blind.length
        ? `  (requests without ${blind.join(', ')}: pods not readable)`
        : '';
  if (t.byResource && !snapshot.podNodes)
    return `${gpuTotalsByKind(t.byResource, columns <= COMPACT_COLUMNS)}  pending ${t.gpuPending}${utilText}${partial}`;
  const tail = utilText + kindTotals();
  if (snapshot.podNodes) {
    const requested = snapshot.podNodes.reduce((n, x) => n + x.gpuRequested, 0);
    return `${requested} req on ${snapshot.podNodes.length} nodes  capacity unknown (nodes not readable)  pending ${t.gpuPending}${tail}`;
  }
  return `${t.gpuRequested}/${t.gpuAllocatable} req/alloc  free ${t.gpuFree}  pending ${t.gpuPending}${tail}${partial}`;
}

/**
 * `  +56 mig-1g.10gb 16 mig-3g.40gb`: allocatable GPU kinds besides the whole
 * GPUs the totals count, by kind (empty when there are none).
 */
export function gpuKindTotals(nodes: readonly NodeSummary[]): string {
  return formatKindTotals(otherGpuKinds(nodes));
}

/** Allocatable GPUs of each kind besides whole GPUs (what gpuKindTotals shows), by resource name. */
export function otherGpuKinds(nodes: readonly NodeSummary[]): Map<string, number> {
  const byKind = new Map<string, number>();
  for (const n of nodes)
    for (const [name, r] of Object.entries(n.gpuResources ?? {}))
      if (name !== 'nvidia.com/gpu') byKind.set(name, (byKind.get(name) ?? 0) + r.allocatable);
  return byKind;
}

/** gpuKindTotals of kinds already summed (a fleet's, each member's nodes walked on their own). */
export function formatKindTotals(byKind: ReadonlyMap<string, number>): string {
  const parts = [...byKind].filter(([, v]) => v > 0).map(([k, v]) => `${v} ${sanitise(shortGpuKind(k))}`);
  return parts.length ? `  +${parts.join(' ')}` : '';
}

/**
 * `61/96 nvidia.com/gpu · 1/56 mig-1g.10gb · 1/8 dra:gpu.nvidia.com`: requested /
 * allocatable of each kind, whole GPUs first; `compact`: `61/96 gpu · 1/56 1g.10gb · 1/8 dra:gpu`.
 */
export function gpuTotalsByKind(byResource: NonNullable<ClusterTotals['byResource']>, compact: boolean): string {
  const whole = 'nvidia.com/gpu';
  return Object.entries(byResource)
    .sort(([a], [b]) => (a === whole ? -1 : b === whole ? 1 : a.localeCompare(b)))
    .map(([name, r]) => {
      const label = compact ? compactGpuKind(name) : name === whole ? name : shortGpuKind(name);
      return `${r.requested}/${r.allocatable} ${sanitise(label)}`;
    })
    .join(' · ');
}

/** `nvidia.com/gpu` → `gpu`, `nvidia.com/mig-1g.10gb` → `1g.10gb`, `dra:gpu.nvidia.com` → `dra:gpu`. */
export function compactGpuKind(resourceName: string): string {
  const short = shortGpuKind(resourceName);
  if (short.startsWith('dra:')) return short.replace(/^(dra:[^.]+)\..*$/, '$1');
  return short.replace(/^mig-/, '');
}

/** `nvidia.com/mig-1g.10gb` → `mig-1g.10gb`: the vendor's domain says little in a narrow column. */
export function shortGpuKind(resourceName: string): string {
  return resourceName.startsWith('nvidia.com/') ? resourceName.slice('nvidia.com/'.length) : resourceName;
}

/** The header's order of status words. */
const COUNT_ORDER = [
  'Running',
  'Failed',
  'Degraded',
  'Initializing',
  'Queued',
  'Preempted',
  'Evicted',
  'Unschedulable',
  'Suspended',
  'Suspending',
  'Resuming',
  'Completed',
  'Undefined',
];

/**
 * A narrow header's order and words: what needs a look first, so a cut line
 * loses the Running count, never the Queued or Unschedulable ones.
 */
const COMPACT_ORDER: [string, string][] = [
  ['Failed', 'Failed'],
  ['Degraded', 'Deg'],
  ['Queued', 'Queued'],
  ['Unschedulable', 'Unsched'],
  ['Preempted', 'Preempt'],
  ['Evicted', 'Evicted'],
  ['Initializing', 'Init'],
  ['Suspending', 'Susp…'],
  ['Resuming', 'Resum…'],
  ['Suspended', 'Susp'],
  ['Undefined', 'Undef'],
  ['Running', 'Run'],
  ['Completed', 'Done'],
];

/** Workloads in scope and how many hold each status word (counted once per workload). */
export interface WorkloadWordCounts {
  n: number;
  counts: ReadonlyMap<string, number>;
}

/** Counts the words of `snapshot`'s workloads in `namespace` (null: all), once for both header forms. */
export function countWorkloadWords(
  snapshot: Pick<ModelSnapshot, 'workloads' | 'scheduling'>,
  namespace: string | null,
  trouble?: TroubleMemo,
): WorkloadWordCounts {
  const counts = new Map<string, number>();
  let n = 0;
  for (const w of snapshot.workloads) {
    if (namespace !== null && w.namespace !== namespace) continue;
    n++;
    for (const s of workloadWords(w, snapshot.scheduling?.queues.get(w.uid), trouble))
      counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return { n, counts };
}

/** Counts of several lists as one (a fleet's members, each counted on its own). */
export function sumWordCounts(all: readonly WorkloadWordCounts[]): WorkloadWordCounts {
  const counts = new Map<string, number>();
  let n = 0;
  for (const c of all) {
    n += c.n;
    for (const [s, k] of c.counts) counts.set(s, (counts.get(s) ?? 0) + k);
  }
  return { n, counts };
}

/**
 * `7  4 Running 1 Failed …`: workloads in scope, then each status a workload
 * holds; `compact`: short words, the ones that need a look first
 * (`7  1 Failed 2 Queued 4 Run`).
 */
export function formatWorkloadCounts({ n, counts }: WorkloadWordCounts, compact = false): string {
  let parts: string[];
  if (compact) {
    const known = new Set(COMPACT_ORDER.map(([s]) => s));
    parts = [
      ...COMPACT_ORDER.filter(([s]) => counts.has(s)).map(([s, short]) => `${counts.get(s)} ${short}`),
      ...[...counts].filter(([s]) => !known.has(s)).map(([s, c]) => `${c} ${s}`),
    ];
  } else
    parts = [...counts.entries()]
      .sort(([a], [b]) => COUNT_ORDER.indexOf(a) - COUNT_ORDER.indexOf(b))
      .map(([s, c]) => `${c} ${s}`);
  return `${n}${parts.length ? '  ' + parts.join(' ') : ''}`;
}

/** The header's workload counts of `snapshot` in `namespace` (see formatWorkloadCounts). */
export function workloadCounts(
  snapshot: ModelSnapshot,
  namespace: string | null,
  compact = false,
  trouble?: TroubleMemo,
): string {
  return formatWorkloadCounts(countWorkloadWords(snapshot, namespace, trouble), compact);
}
