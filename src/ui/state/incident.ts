// What the incident views (why, timeline, describe, YAML, events, logs) are
// about, and the loaders that gather their data through the model source's
// read-only `access` (fresh objects, events, logs) and its snapshot, then hand
// plain objects to the model's pure functions (src/model/why.ts, timeline.ts).
import type { GpuMetrics, KubeObject, ModelSnapshot, PodSummary, RoleTree, WorkloadTree } from '../../model/types.js';
import type { ObjectAccess } from '../../model/source.js';
import { explainWhy, type WhyInput } from '../../model/why.js';
import type { WorkerTry } from '../../model/fleet/types.js';
import { roleGpu, workloadGpu } from '../../model/gpu-overlay.js';
import { buildTimeline, containerStatuses, type StartupTimeline } from '../../model/timeline.js';
import { findRole, rolePods } from '../render/roles.js';
import { roleName } from '../../model/role-name.js';
import { workloadPods } from '../render/workloads.js';

// Re-exported for callers that think of it as part of the incident state.
export { workloadPods };
import {
  dedupeEvents,
  describeNodeLines,
  describePodLines,
  describeWorkloadLines,
  eventLines,
  timelineLines,
  whyLines,
  yamlLines,
  type TextLine,
} from '../render/incident.js';

export type IncidentKind = 'why' | 'timeline' | 'describe' | 'yaml' | 'events' | 'logs';
export const INCIDENT_KINDS: readonly IncidentKind[] = ['why', 'timeline', 'describe', 'yaml', 'events', 'logs'];

export type IncidentTarget =
  | { kind: 'workload'; workloadUid: string }
  | { kind: 'role'; workloadUid: string; rolePath: string[] }
  | { kind: 'pod'; namespace: string; name: string; uid: string; workloadUid?: string }
  | { kind: 'node'; name: string }
  /** `:events`: a namespace's events (null: every namespace wlx reads). */
  | { kind: 'namespace'; namespace: string | null };

export function isIncidentKind(kind: string): kind is IncidentKind {
  return (INCIDENT_KINDS as readonly string[]).includes(kind);
}

/** The pod with this uid and the workload holding it. */
export function findPodSummary(
  snapshot: ModelSnapshot,
  uid: string,
): { pod: PodSummary; workload: WorkloadTree } | null {
  for (const w of snapshot.workloads) {
    const p = workloadPods(w).find((x) => x.uid === uid);
    if (p) return { pod: p, workload: w };
  }
  return null;
}

export function targetWorkload(snapshot: ModelSnapshot, t: IncidentTarget): WorkloadTree | null {
  if (t.kind === 'node' || t.kind === 'namespace') return null;
  if (t.kind === 'pod')
    return t.workloadUid
      ? (snapshot.workloads.find((w) => w.uid === t.workloadUid) ?? null)
      : (findPodSummary(snapshot, t.uid)?.workload ?? null);
  return snapshot.workloads.find((w) => w.uid === t.workloadUid) ?? null;
}

/** The pods a target covers (from the model's tree). */
export function targetPods(snapshot: ModelSnapshot, t: IncidentTarget): PodSummary[] {
  if (t.kind === 'node' || t.kind === 'namespace') return [];
  if (t.kind === 'pod') {
    const found = findPodSummary(snapshot, t.uid);
    return found ? [found.pod] : [{ namespace: t.namespace, name: t.name, uid: t.uid } as PodSummary];
  }
  const w = targetWorkload(snapshot, t);
  if (!w) return [];
  if (t.kind === 'role') {
    const r = findRole(w, t.rolePath);
    return r ? rolePods(r) : [];
  }
  return workloadPods(w);
}

export function targetLabel(snapshot: ModelSnapshot, t: IncidentTarget): string {
  switch (t.kind) {
    case 'node':
      return `node/${t.name}`;
    case 'namespace':
      return t.namespace === null ? 'all namespaces' : `namespace ${t.namespace}`;
    case 'pod':
      return `pod/${t.namespace}/${t.name}`;
    default: {
      const w = targetWorkload(snapshot, t);
      const base = w ? `${w.kind.toLowerCase()}/${w.namespace}/${w.name}` : 'workload';
      return t.kind === 'role'
        ? `${base} role ${t.rolePath.map((k) => k.split('\u0000').filter(Boolean).join('/')).join(' › ')}`
        : base;
    }
  }
}

/** Pods of the target, whole and fresh; only those the tree attributes to it. */
export async function freshPods(access: ObjectAccess, pods: readonly PodSummary[]): Promise<KubeObject[]> {
  // A few pods: one GET each (a namespace can hold thousands); more: one list per namespace.
  if (pods.length <= 10) {
    const got = await Promise.all(
      pods.map((p) =>
        access.getObject({ apiVersion: 'v1', kind: 'Pod', namespace: p.namespace, name: p.name }).catch(() => null),
      ),
    );
    return got.filter((p): p is KubeObject => p !== null && pods.some((s) => s.uid === p.metadata.uid));
  }
  const namespaces = [...new Set(pods.map((p) => p.namespace))];
  const uids = new Set(pods.map((p) => p.uid));
  const lists = await Promise.all(namespaces.map((ns) => access.listPods(ns)));
  return lists.flat().filter((p) => uids.has(p.metadata.uid));
}

/** Owners of pods (Jobs, StatefulSets, ReplicaSets): uid and reference. */
function podOwners(
  pods: readonly KubeObject[],
): Map<string, { apiVersion: string; kind: string; name: string; namespace: string }> {
  const out = new Map<string, { apiVersion: string; kind: string; name: string; namespace: string }>();
  for (const p of pods)
    for (const o of p.metadata.ownerReferences ?? [])
      out.set(o.uid, { apiVersion: o.apiVersion, kind: o.kind, name: o.name, namespace: p.metadata.namespace ?? '' });
  return out;
}

async function eventsFor(
  access: ObjectAccess,
  namespaces: readonly string[],
  uids: readonly string[],
): Promise<KubeObject[]> {
  const lists = await Promise.all(namespaces.map((ns) => access.listEvents(ns, { uids })));
  return lists.flat();
}

/**
 * The events of a namespace, or of all: one list when wlx reads cluster-wide,
 * else one per namespace it reads (a namespace-scoped user's).
 */
async function namespaceEvents(
  access: ObjectAccess,
  snapshot: ModelSnapshot,
  namespace: string | null,
): Promise<KubeObject[]> {
  const scoped = snapshot.access && !snapshot.access.clusterWide ? snapshot.access.namespaces : [];
  if (namespace !== null || !scoped.length) return access.listEvents(namespace);
  return (await Promise.all(scoped.map((ns) => access.listEvents(ns)))).flat();
}

const MAX_LOG_TAILS = 200;

export interface LoadContext {
  access: ObjectAccess;
  snapshot: ModelSnapshot;
  target: IncidentTarget;
  nowMs: number;
  signal?: AbortSignal;
  /**
   * Last words of crashed containers by pod uid, container and restart count, kept by the open view across its
   * refreshes (a previous log changes only on a restart); read afresh each time without it.
   */
  crashLogTails?: Map<string, string[]>;
  /** The pane's columns and rows (the startup waterfall's layout); 120 columns, no summary bands when absent. */
  width?: number;
  rows?: number;
  /** A fleet's MultiKueue job waiting on its manager: the workers tried (src/model/fleet/link.ts). */
  multiKueueTries?: readonly WorkerTry[];
}

/** The startup timeline of the target's workload from fresh pods and their events; null when the workload is gone. */
export async function loadStartupTimeline(
  ctx: Pick<LoadContext, 'access' | 'snapshot' | 'target' | 'nowMs'>,
): Promise<StartupTimeline | null> {
  const { access, snapshot, target, nowMs } = ctx;
  const w = targetWorkload(snapshot, target);
  if (!w) return null;
  const summaries = workloadPods(w);
  const namespaces = [...new Set([w.namespace, ...summaries.map((p) => p.namespace)])];
  const pods = await freshPods(access, summaries);
  const uids = [w.uid, ...podOwners(pods).keys(), ...summaries.map((p) => p.uid)];
  const rawEvents = await eventsFor(access, namespaces, uids);
  return buildTimeline(w, pods, rawEvents, nowMs, snapshot.scheduling?.facts.get(w.uid)?.steps);
}

/** The lines of a why / timeline / describe / YAML / events view (logs stream separately). */
export async function loadIncidentLines(kind: Exclude<IncidentKind, 'logs'>, ctx: LoadContext): Promise<TextLine[]> {
  const { access, snapshot, target, nowMs } = ctx;
  if (target.kind === 'namespace') {
    if (kind !== 'events') return [{ text: `${kind} is for workloads, roles, pods and nodes`, tone: 'dim' }];
    return eventLines(dedupeEvents(await namespaceEvents(access, snapshot, target.namespace), true), nowMs, true);
  }
  const w = targetWorkload(snapshot, target);
  // Why on a role explains the whole workload, the role's causes first: a
  // healthy role under the cursor must not hide a crash loop next to it.
  const role = kind === 'why' && target.kind === 'role' && w ? findRole(w, target.rolePath) : null;
  const summaries = role && w ? workloadPods(w) : targetPods(snapshot, target);
  const namespaces = [...new Set([...(w ? [w.namespace] : []), ...summaries.map((p) => p.namespace)])];

  if (target.kind === 'node') {
    const node = snapshot.nodes.find((n) => n.name === target.name) ?? null;
    if (kind === 'yaml')
      return yamlLines(await access.getObject({ apiVersion: 'v1', kind: 'Node', name: target.name }));
    const events = dedupeEvents(await access.listEvents(null, { names: [{ kind: 'Node', name: target.name }] }));
    if (kind === 'events') return eventLines(events, nowMs, false);
    if (kind === 'describe') return describeNodeLines(node, null, events, nowMs);
    return [{ text: `${kind} is for workloads, roles and pods; on a node use d, y or e`, tone: 'dim' }];
  }

  if (kind === 'timeline') {
    const timeline = await loadStartupTimeline(ctx);
    if (!timeline) return [{ text: 'the workload no longer exists', tone: 'error' }];
    return timelineLines(timeline, nowMs, { width: ctx.width ?? 120, rows: ctx.rows });
  }

  if (kind === 'yaml') {
    if (target.kind === 'pod')
      return yamlLines(
        await access.getObject({ apiVersion: 'v1', kind: 'Pod', namespace: target.namespace, name: target.name }),
      );
    if (!w) return [{ text: 'the workload no longer exists', tone: 'error' }];
    return yamlLines(
      await access.getObject({ apiVersion: w.apiVersion, kind: w.kind, namespace: w.namespace, name: w.name }),
    );
  }

  const pods = await freshPods(access, summaries);
  const owners = podOwners(pods);
  const uids = [
    ...(w && target.kind !== 'pod' ? [w.uid] : []),
    ...(target.kind !== 'pod' ? [...owners.keys()] : []),
    ...summaries.map((p) => p.uid),
  ];
  const rawEvents = await eventsFor(access, namespaces, uids);

  switch (kind) {
    case 'events':
      return eventLines(dedupeEvents(rawEvents), nowMs, target.kind !== 'pod');
    case 'describe': {
      if (target.kind === 'pod') {
        const pod =
          pods[0] ??
          (await access.getObject({ apiVersion: 'v1', kind: 'Pod', namespace: target.namespace, name: target.name }));
        return describePodLines(pod, summaries[0] ?? null, dedupeEvents(rawEvents), nowMs);
      }
      if (!w) return [{ text: 'the workload no longer exists', tone: 'error' }];
      const obj = await access
        .getObject({ apiVersion: w.apiVersion, kind: w.kind, namespace: w.namespace, name: w.name })
        .catch(() => null);
      return describeWorkloadLines(w, obj, dedupeEvents(rawEvents), nowMs);
    }
    case 'why': {
      // Failed Jobs among the owners, and the last words of crashed containers.
      const jobs = [...owners.values()].filter((o) => o.kind === 'Job').slice(0, 20);
      const ownerObjects = (await Promise.all(jobs.map((o) => access.getObject(o).catch(() => null)))).filter(
        (o): o is KubeObject => o !== null,
      );
      const crashed = pods
        .filter((p) => containerStatuses(p).some((c) => (c.restartCount ?? 0) > 0 && c.lastState?.terminated))
        .slice(0, 5);
      const logTails = new Map<string, string[]>();
      await Promise.all(
        crashed.map(async (p) => {
          const c = containerStatuses(p).find((s) => (s.restartCount ?? 0) > 0 && s.lastState?.terminated);
          const key = `${p.metadata.uid}/${c?.name ?? ''}/${c?.restartCount ?? 0}`;
          const known = ctx.crashLogTails?.get(key);
          if (known) {
            if (known.length) logTails.set(p.metadata.uid, known);
            return;
          }
          const lines: string[] = [];
          try {
            await access.streamLogs(
              p.metadata.namespace ?? '',
              p.metadata.name,
              { container: c?.name, previous: true, tailLines: 3, signal: ctx.signal },
              (l) => lines.push(l),
            );
          } catch {
            // No previous log (already rotated away): the cause stands without it.
          }
          if (ctx.signal?.aborted) return;
          if (ctx.crashLogTails) {
            if (ctx.crashLogTails.size >= MAX_LOG_TAILS) ctx.crashLogTails.clear();
            ctx.crashLogTails.set(key, lines.slice(-3));
          }
          if (lines.length) logTails.set(p.metadata.uid, lines.slice(-3));
        }),
      );
      const report = explainWhy({
        workload: target.kind === 'pod' ? null : w,
        pods,
        events: rawEvents,
        nodes: snapshot.nodes,
        owners: ownerObjects,
        logTails,
        focus: role ? { name: roleName(role), podUids: new Set(rolePods(role).map((p) => p.uid)) } : undefined,
        queue: w && target.kind !== 'pod' ? snapshot.scheduling?.facts.get(w.uid) : undefined,
        multiKueueTries: w && target.kind !== 'pod' ? ctx.multiKueueTries : undefined,
        gangVerdicts: w && target.kind !== 'pod' ? snapshot.scheduling?.gangs.get(w.uid) : undefined,
        nowMs,
        gpu: w && target.kind !== 'pod' && snapshot.gpuMetrics ? whyGpu(snapshot.gpuMetrics, w, role) : undefined,
        // Without node objects there is no topology to judge a split by.
        topologyKeys: w && target.kind !== 'pod' && !snapshot.podNodes ? snapshot.topologyKeys : undefined,
      });
      return whyLines(report);
    }
  }
}

/** The GPU verdicts of a workload (or the selected role) for the why-panel. */
function whyGpu(metrics: GpuMetrics, w: WorkloadTree, role: RoleTree | null | undefined): WhyInput['gpu'] {
  const g = role ? roleGpu(metrics, role) : workloadGpu(metrics, w);
  return { workload: `${w.namespace}/${w.name}`, idle: g.idle, idleForMs: g.idleForMs, stragglers: g.stragglers };
}

/** Containers of a pod object, the default one first (kubectl's annotation, else the first). */
export function podContainers(pod: KubeObject): string[] {
  const spec = (pod.spec ?? {}) as { containers?: Array<{ name: string }> };
  const names = (spec.containers ?? []).map((c) => c.name);
  const d = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
  if (d && names.includes(d)) return [d, ...names.filter((n) => n !== d)];
  return names;
}
