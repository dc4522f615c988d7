// Where the incident keys lead from the row under the cursor: `w` why, `s`
// startup timeline, `d` describe, `y` YAML, `e` events, `l` logs, `o` the
// pod's owner workload, `n` the pod's node. Pure: returns the frames to push
// (or a flash message), so the App only dispatches.
import type { ModelSnapshot, NodePodEntry, WorkloadTree } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import type { Row } from '../render/table.js';
import { roleName, UNATTRIBUTED } from '../../model/role-name.js';
import { findPodRolePath, findRole } from '../render/roles.js';
import type { PanelLine } from '../render/panels.js';
import type { ViewFrame } from './ui-state.js';
import { findPodSummary, targetLabel, type IncidentKind, type IncidentTarget } from './incident.js';

export type IncidentAction = 'why' | 'timeline' | 'describe' | 'yaml' | 'events' | 'logs' | 'owner' | 'node';

type FrameInit = Partial<ViewFrame> & Pick<ViewFrame, 'kind' | 'label'>;
export type NavResult = { frames: FrameInit[] } | { flash: string };

const VIEW_OF: Record<Exclude<IncidentAction, 'owner' | 'node'>, IncidentKind> = {
  why: 'why',
  timeline: 'timeline',
  describe: 'describe',
  yaml: 'yaml',
  events: 'events',
  logs: 'logs',
};

/** What the cursor is on, as an incident target. */
export function targetOf(
  frame: Pick<ViewFrame, 'kind' | 'workloadUid' | 'nodeName'>,
  row: Row | undefined,
  snapshot: ModelSnapshot,
  getNodePods?: (node: string) => NodePodEntry[],
): IncidentTarget | null {
  switch (frame.kind) {
    case 'workloads':
    case 'queue':
      return row?.target?.kind === 'workload' ? { kind: 'workload', workloadUid: row.target.uid } : null;
    case 'workload': {
      if (!frame.workloadUid) return null;
      const t = row?.target;
      if (t?.kind === 'pods' && t.rolePath && t.rolePath[0] !== UNATTRIBUTED)
        return { kind: 'role', workloadUid: frame.workloadUid, rolePath: t.rolePath };
      return { kind: 'workload', workloadUid: frame.workloadUid };
    }
    case 'pods': {
      if (!row) return null;
      // The row says which pod and workload (`:pods`' rows come from the engine worker without the pods).
      if (row.pod && row.workloadUid !== undefined && snapshot.workloads.some((w) => w.uid === row.workloadUid))
        return {
          kind: 'pod',
          namespace: row.pod.namespace,
          name: row.pod.name,
          uid: row.key,
          workloadUid: row.workloadUid,
        };
      return podTarget(snapshot, row.key);
    }
    case 'node': {
      const t = row?.target;
      if (t?.kind === 'podInWorkload') {
        return podTarget(snapshot, t.podUid);
      }
      if (t?.kind === 'workload') return { kind: 'workload', workloadUid: t.uid };
      // A pod no workload owns (a debug pod, a bare pod): still describable, with logs and events.
      const bare =
        row && frame.nodeName
          ? getNodePods?.(frame.nodeName).find((e) => e.pod.uid === row.key && !e.workload)
          : undefined;
      return bare ? { kind: 'pod', namespace: bare.pod.namespace, name: bare.pod.name, uid: bare.pod.uid } : null;
    }
    case 'nodes':
      return row ? { kind: 'node', name: row.key } : null;
    default:
      return null;
  }
}

/**
 * A pod shown in its workload: the workload's view, then the pods of the
 * deepest role holding it (the unattributed group, or all pods when it is in
 * neither) with the pod selected. Enter on a node's pod and `o` both lead here.
 */
export function framesToPod(w: WorkloadTree, podUid: string): FrameInit[] {
  const path = findPodRolePath(w, podUid);
  const role = path && path[0] !== UNATTRIBUTED ? findRole(w, path) : null;
  const label = path?.[0] === UNATTRIBUTED ? UNATTRIBUTED : role ? sanitise(roleName(role)) : 'pods';
  return [
    { kind: 'workload', workloadUid: w.uid, label: sanitise(w.name) },
    { kind: 'pods', workloadUid: w.uid, rolePath: path, label, selectedKey: podUid },
  ];
}

/** The frames an incident key pushes from the current frame and row. */
export function incidentNavigation(
  action: IncidentAction,
  frame: ViewFrame,
  row: Row | undefined,
  snapshot: ModelSnapshot,
  getNodePods?: (node: string) => NodePodEntry[],
): NavResult {
  // Inside an incident view, keys act on the view's own target.
  const target = frame.incident ?? targetOf(frame, row, snapshot, getNodePods);
  if (!target) return { flash: 'nothing selected to open' };
  if (action === 'owner') {
    if (target.kind !== 'pod') return { flash: 'o jumps from a pod to its workload' };
    const found = findPodSummary(snapshot, target.uid);
    if (found) return { frames: framesToPod(found.workload, found.pod.uid) };
    const w =
      target.workloadUid === undefined ? undefined : snapshot.workloads.find((x) => x.uid === target.workloadUid);
    if (!w) return { flash: 'the pod belongs to no workload wlx knows' };
    // Its tree came without its pods (its role not known here): the workload's pods, the pod selected.
    return {
      frames: [
        { kind: 'workload', workloadUid: w.uid, label: sanitise(w.name) },
        {
          kind: 'pods',
          workloadUid: w.uid,
          rolePath: null,
          label: `${sanitise(w.name)} pods`,
          selectedKey: target.uid,
        },
      ],
    };
  }
  if (action === 'node') {
    if (target.kind === 'node')
      return { frames: [{ kind: 'node', nodeName: target.name, label: sanitise(target.name) }] };
    if (target.kind !== 'pod') return { flash: 'n jumps from a pod to its node' };
    const node =
      findPodSummary(snapshot, target.uid)?.pod.node ??
      (frame.kind === 'node'
        ? frame.nodeName
        : row?.key === target.uid && row.target?.kind === 'node'
          ? row.target.name
          : undefined);
    if (!node) return { flash: 'the pod is not bound to a node yet' };
    return { frames: [{ kind: 'node', nodeName: node, label: sanitise(node) }] };
  }
  const view = VIEW_OF[action];
  if (target.kind === 'namespace') return { flash: `on :events, ${action} needs a workload, pod or node: open one` };
  let t: IncidentTarget = target;
  if (view === 'timeline' && (t.kind === 'role' || t.kind === 'pod')) {
    const uid = t.workloadUid ?? findPodSummary(snapshot, t.kind === 'pod' ? t.uid : '')?.workload.uid;
    if (uid) t = { kind: 'workload', workloadUid: uid };
  }
  if (view === 'timeline' && t.kind !== 'workload')
    return { flash: 's shows a workload’s startup: open it on a workload' };
  if ((view === 'yaml' || view === 'describe') && t.kind === 'role')
    t = { kind: 'workload', workloadUid: t.workloadUid };
  if (view === 'logs' && t.kind === 'node') return { flash: 'logs are per pod: open the node (Enter) and pick a pod' };
  if (view === 'why' && t.kind === 'node')
    return { flash: 'w explains workloads, roles and pods; d describes the node' };
  return { frames: [{ kind: view, label: `${view} ${sanitise(targetLabel(snapshot, t))}`, incident: t }] };
}

/** Frames for the why view's digit keys: the workload's pods, filtered to the named ones. */
export function jumpToPods(snapshot: ModelSnapshot, target: IncidentTarget, names: readonly string[]): FrameInit[] {
  const uid =
    target.kind === 'pod'
      ? (target.workloadUid ?? findPodSummary(snapshot, target.uid)?.workload.uid)
      : target.kind === 'node' || target.kind === 'namespace'
        ? undefined
        : target.workloadUid;
  const w = uid ? snapshot.workloads.find((x) => x.uid === uid) : undefined;
  if (!w) return [];
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return [
    {
      kind: 'pods',
      workloadUid: w.uid,
      rolePath: null,
      label: `${sanitise(w.name)} pods`,
      filter: `^(${escaped.join('|')}) `,
    },
  ];
}

/** Initializing longer than this counts as stuck for the why line. */
export const STUCK_INITIALIZING_MS = 120_000;

/**
 * The why line at the top of the workload view when it is Failed, Degraded
 * or Initializing for too long: the most common reason among its pods, from
 * the model alone (the `w` view fetches the details).
 */
export function whyPanelLines(w: WorkloadTree, nowMs: number, stuckMs = STUCK_INITIALIZING_MS): PanelLine[] {
  const created = w.createdAt ? Date.parse(w.createdAt) : NaN;
  const stuck = w.status.includes('Initializing') && Number.isFinite(created) && nowMs - created > stuckMs;
  if (!w.status.includes('Failed') && !w.status.includes('Degraded') && !stuck) return [];
  const counts = new Map<string, number>();
  const walk = (pods: readonly { reason: string | null; status: string; ready: boolean; restarts: number }[]) => {
    for (const p of pods) {
      if (p.ready && p.status === 'Running' && !p.restarts) continue;
      const r = p.reason ?? (p.status === 'Running' || p.status === 'Completed' ? null : p.status);
      if (r) counts.set(r, (counts.get(r) ?? 0) + 1);
    }
  };
  const visit = (roles: WorkloadTree['roles']) => {
    for (const r of roles) {
      walk(r.pods);
      visit(r.roles);
    }
  };
  visit(w.roles);
  walk(w.unattributedPods);
  const parts = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${n} ${sanitise(r)}`);
  const head = w.status.includes('Failed')
    ? 'Failed'
    : w.status.includes('Degraded')
      ? 'Degraded'
      : 'Initializing for a while';
  return [
    {
      text: `why ${head}: ${parts.length ? parts.join(', ') : sanitise(w.statusMessage ?? 'see w')} — press w for the why-panel`,
      tone: w.status.includes('Failed') ? 'error' : 'warn',
    },
  ];
}

/** The incident target of a pod in its workload, by uid; null when no workload holds it. */
function podTarget(snapshot: ModelSnapshot, uid: string): IncidentTarget | null {
  const found = findPodSummary(snapshot, uid);
  return found
    ? {
        kind: 'pod',
        namespace: found.pod.namespace,
        name: found.pod.name,
        uid: found.pod.uid,
        workloadUid: found.workload.uid,
      }
    : null;
}
