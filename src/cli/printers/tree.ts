// The tree printer: `wlx get`'s default output, each workload as a tree
// (workload -> roles -> pods -> nodes) cut to the terminal's width.
import { fleetKey } from '../../model/fleet/link.js';
import type { ClusterSummary, FleetLinks } from '../../model/fleet/types.js';
import { originText, remoteRunText, waitingText, workerTryLines } from '../../model/fleet/words.js';
import type {
  ClusterTotals,
  OrphanPod,
  PodSummary,
  RoleTree,
  WorkloadTree,
  PodNode,
  SchedulingView,
  WorkloadQueue,
} from '../../model/types.js';
import { EMPTY_SCHEDULING } from '../../model/scheduling/index.js';
import { ordinal } from '../../model/scheduling/words.js';
import { troubleMarker, workloadWords } from '../../model/workload-word.js';
import { TroubleMemo, workloadTrouble } from '../../model/trouble.js';
import { roleName, UNATTRIBUTED } from '../../model/role-name.js';
import { sanitise } from '../../text/sanitise.js';
import { humanDuration } from '../../text/duration.js';
import { slicesPhrase, withSlices } from '../../model/gpu.js';

export const WIDTH = 80;

/** The tree's width: a terminal's own; unlimited when piped (as kubectl: scripts and grep see whole names). */
export function outputWidth(out: { isTTY?: boolean; columns?: number }): number {
  return out.isTTY ? out.columns || WIDTH : Infinity;
}

/** kubectl's AGE of an ISO time, `<unknown>` when there is none. */
export function shortAge(fromIso: string | null, now: number): string {
  const t = fromIso ? Date.parse(fromIso) : NaN;
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

/** Cuts text to width, keeping its start and end ("llama-pre…-x7k2p"). */
function fit(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return text.slice(0, width);
  const head = Math.ceil((width - 1) * 0.6);
  const tail = width - 1 - head;
  return `${text.slice(0, head)}…${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

/**
 * Joins parts with three spaces, wrapping onto indented lines so no line
 * exceeds the width (an unlimited width wraps at WIDTH and cuts nothing).
 */
function wrapParts(parts: string[], indent: string, width = WIDTH): string[] {
  const wrapAt = Number.isFinite(width) ? width : WIDTH;
  const lines: string[] = [];
  let cur = '';
  for (const p of parts) {
    const piece = fit(p, width - indent.length);
    if (!cur) cur = piece;
    else if (cur.length + 3 + piece.length <= wrapAt) cur += `   ${piece}`;
    else {
      lines.push(cur);
      cur = indent + piece;
    }
  }
  if (cur) lines.push(cur);
  return lines;
}

function nodeList(nodes: string[], width: number): string {
  if (!nodes.length) return '<none>';
  const all = nodes.join(',');
  if (all.length <= width) return all;
  const out: string[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const rest = nodes.length - i - 1;
    const candidate = [...out, nodes[i]].join(',') + (rest ? `,+${rest}` : '');
    if (candidate.length > width)
      return out.length ? `${out.join(',')},+${nodes.length - out.length}` : fit(`${nodes.length} nodes`, width);
    out.push(nodes[i]);
  }
  return out.join(',');
}

interface Row {
  prefix: string;
  name: string;
  status: string;
  gpu: string;
  nodes: string[];
}

function podStatusText(p: PodSummary): string {
  const word = sanitise(p.status);
  return p.reason && p.reason !== p.status ? `${word} (${sanitise(p.reason)})` : word;
}

function roleRows(roles: RoleTree[], unattributed: PodSummary[], prefix: string): Row[] {
  const rows: Row[] = [];
  type Item =
    { kind: 'role'; role: RoleTree } | { kind: 'pod'; pod: PodSummary } | { kind: 'unattributed'; pods: PodSummary[] };
  const items: Item[] = roles.map((role) => ({ kind: 'role', role }));
  if (unattributed.length) items.push({ kind: 'unattributed', pods: unattributed });
  items.forEach((item, i) => {
    const last = i === items.length - 1;
    const branch = prefix + (last ? '`-- ' : '|-- ');
    const childPrefix = prefix + (last ? '    ' : '|   ');
    if (item.kind === 'role') {
      const r = item.role;
      rows.push({
        prefix: branch,
        name: sanitise(roleName(r)),
        status: `${r.replicas.ready}/${r.replicas.desired} ready`,
        gpu: roleGpuText(r),
        nodes: r.nodes.map(sanitise),
      });
      rows.push(...podAndRoleRows(r.roles, r.pods, childPrefix));
    } else if (item.kind === 'unattributed') {
      rows.push({
        prefix: branch,
        name: UNATTRIBUTED,
        status: `${item.pods.length} pod${item.pods.length === 1 ? '' : 's'}`,
        gpu: '',
        nodes: [],
      });
      rows.push(...podAndRoleRows([], item.pods, childPrefix));
    }
  });
  return rows;
}

/** A role's `gpu:` cell: its GPUs (desired, else requested) and the slices its pods request. */
function roleGpuText(r: RoleTree): string {
  const whole = r.gpus.desired || r.gpus.requested;
  return `gpu: ${sanitise(withSlices(String(whole), whole === 0, r.gpus.slices))}`;
}

function podAndRoleRows(roles: RoleTree[], pods: PodSummary[], prefix: string): Row[] {
  const rows: Row[] = [];
  const total = roles.length + pods.length;
  let i = 0;
  for (const r of roles) {
    const last = ++i === total;
    rows.push({
      prefix: prefix + (last ? '`-- ' : '|-- '),
      name: sanitise(roleName(r)),
      status: `${r.replicas.ready}/${r.replicas.desired} ready`,
      gpu: roleGpuText(r),
      nodes: r.nodes.map(sanitise),
    });
    rows.push(...podAndRoleRows(r.roles, r.pods, prefix + (last ? '    ' : '|   ')));
  }
  for (const p of pods) {
    const last = ++i === total;
    rows.push({
      prefix: prefix + (last ? '`-- ' : '|-- '),
      name: sanitise(p.name),
      status: podStatusText(p),
      gpu: `gpu: ${sanitise(withSlices(String(p.gpus), p.gpus === 0, p.gpuSlices))}`,
      nodes: p.node ? [sanitise(p.node)] : [],
    });
  }
  return rows;
}

function renderRows(rows: Row[], width = WIDTH): string[] {
  if (!rows.length) return [];
  const statusLongest = Math.max(...rows.map((r) => r.status.length));
  const statusW = Number.isFinite(width) ? Math.min(26, statusLongest) : statusLongest;
  const gpuW = Math.max(...rows.map((r) => r.gpu.length));
  // Names get the room first; the node list shrinks to one name and "+N".
  const nodeMin = Math.max(7, ...rows.map((r) => (r.nodes.length ? r.nodes[0].length : 6)));
  const nodeW = Math.min(nodeMin, 24);
  const leftWant = Math.max(...rows.map((r) => r.prefix.length + r.name.length));
  const leftW = Math.max(12, Math.min(leftWant, width - (2 + statusW + 2 + gpuW + 2 + nodeW)));
  return rows.map((r) => {
    const left = r.prefix + fit(r.name, Math.max(1, leftW - r.prefix.length));
    const line = `${left.padEnd(leftW)}  ${fit(r.status, statusW).padEnd(statusW)}  ${r.gpu.padEnd(gpuW)}  ${nodeList(r.nodes, width - leftW - statusW - gpuW - 6)}`;
    return line.trimEnd();
  });
}

export function renderWorkload(
  w: WorkloadTree,
  now: number,
  width = WIDTH,
  queue?: WorkloadQueue,
  /** A fleet's MultiKueue lines (src/model/fleet/words.ts), raw. */
  fleetLines: readonly string[] = [],
): string[] {
  const lines: string[] = [];
  // The explorer's words: the queue's, Degraded while a pod crash-loops, the pods' worst trouble beside them.
  const trouble = new TroubleMemo();
  const words = workloadWords(w, queue, trouble);
  const status = words.join(',') + troubleMarker(workloadTrouble(w, trouble), words);
  lines.push(
    ...wrapParts(
      [
        `${sanitise(w.kind)}/${sanitise(w.name)}`,
        `namespace: ${sanitise(w.namespace)}`,
        `status: ${sanitise(status)}`,
        `age: ${shortAge(w.createdAt, now)}`,
      ],
      '  ',
      width,
    ),
  );
  const slices = sanitise(slicesPhrase(w.gpus.slices));
  const gpuText =
    `gpu: ${w.gpus.allocated}/${w.gpus.requested} allocated` +
    (w.gpus.desired !== w.gpus.requested ? ` (${w.gpus.desired} desired)` : '') +
    (slices ? `, slices: ${slices} requested` : '');
  lines.push(
    ...wrapParts(
      [
        `  definition: ${sanitise(w.definition)} (${w.definitionSource})`,
        `ready: ${w.replicas.ready}/${w.replicas.desired}`,
        gpuText,
      ],
      '  ',
      width,
    ),
  );
  if (queue) {
    const where = [queue.name, queue.clusterQueue].filter((x): x is string => !!x).join(' -> ');
    // As people count places in line; `-o json` keeps Kueue's 0-based number.
    const pos = queue.position !== null ? `, ${ordinal(queue.position)} in line` : '';
    lines.push(`  queue: ${fit(sanitise(`${queue.system} ${where || '-'}: ${queue.state}${pos}`), width - 9)}`);
    if (queue.message && queue.state !== 'Admitted') lines.push(`    ${fit(sanitise(queue.message), width - 4)}`);
  }
  for (const l of fleetLines) lines.push(`  ${fit(sanitise(l), width - 2)}`);
  if (w.statusMessage && !w.status.includes('Running'))
    lines.push(`  message: ${fit(sanitise(w.statusMessage), width - 11)}`);
  for (const e of w.errors) lines.push(`  ! ${fit(sanitise(e), width - 4)}`);
  lines.push(...renderRows(roleRows(w.roles, w.unattributedPods, ''), width));
  return lines;
}

function countPods(roles: RoleTree[]): PodSummary[] {
  return roles.flatMap((r) => [...r.pods, ...countPods(r.roles)]);
}

/** Orphan pods grouped under their owner that is not visible, as the workloads' trees are. */
export function renderOrphans(orphans: OrphanPod[], width = WIDTH): string[] {
  const byOwner = new Map<string, OrphanPod[]>();
  for (const p of orphans) {
    const key = `${p.namespace}\u0000${p.owner.kind}\u0000${p.owner.name}`;
    const list = byOwner.get(key);
    if (list) list.push(p);
    else byOwner.set(key, [p]);
  }
  const blocks: string[] = [];
  for (const pods of byOwner.values()) {
    const { owner, namespace } = pods[0];
    const head = wrapParts(
      [`${sanitise(owner.kind)}/${sanitise(owner.name)}`, `namespace: ${sanitise(namespace)}`, 'owner not visible'],
      '  ',
      width,
    );
    blocks.push([...head, ...renderRows(podAndRoleRows([], pods, ''), width)].join('\n'));
  }
  return blocks;
}

export function renderTrees(
  workloads: WorkloadTree[],
  totals: ClusterTotals,
  now: number,
  width = WIDTH,
  orphans: OrphanPod[] = [],
  scheduling: SchedulingView = EMPTY_SCHEDULING,
  podNodes?: PodNode[],
): string {
  if (!workloads.length && !orphans.length) return 'No workloads found.\n';
  const blocks = workloads.map((w) => renderWorkload(w, now, width, scheduling.queues.get(w.uid)).join('\n'));
  if (orphans.length) blocks.push(`Pods whose owner is not visible:\n\n${renderOrphans(orphans, width).join('\n\n')}`);
  const pods = [...workloads.flatMap((w) => [...countPods(w.roles), ...w.unattributedPods]), ...orphans];
  const running = pods.filter((p) => p.status === 'Running').length;
  const requested = workloads.reduce((n, w) => n + w.gpus.requested, 0);
  const allocated = workloads.reduce((n, w) => n + w.gpus.allocated, 0);
  const summary = wrapParts(
    [
      `${workloads.length} workload${workloads.length === 1 ? '' : 's'}, ${pods.length} pods (${running} running)`,
      `gpu: ${allocated} allocated, ${requested} requested`,
      podNodes
        ? `cluster: nodes not readable; pods are on ${podNodes.length} nodes, gpu capacity unknown, ${totals.gpuPending} pending`
        : `cluster: ${totals.nodes} nodes, ${totals.gpuAllocatable} gpu allocatable, ${totals.gpuFree} free, ${totals.gpuPending} pending`,
    ],
    '',
    width,
  );
  return `${blocks.join('\n\n')}\n\n${summary.join('\n')}\n`;
}

/** One member of a fleet as the tree printer reads it. */
export interface FleetTreeMember {
  summary: ClusterSummary;
  scheduling: SchedulingView;
}

/** A fleet member's MultiKueue lines for one workload. */
function linkLines(links: FleetLinks, context: string, uid: string): string[] {
  const key = fleetKey(context, uid);
  const run = links.remote.get(key);
  const tried = links.tried.get(key);
  const origin = links.origin.get(key);
  return [
    ...(run ? [remoteRunText(run)] : []),
    ...(tried ? [waitingText(tried), ...workerTryLines(tried).map((l) => `  ${l}`)] : []),
    ...(origin ? [originText(origin)] : []),
  ];
}

/** `cluster wlx-fleet-east: live, v1.32.0, 5/5 nodes ready, gpu 40 allocatable, 16 free`. */
function clusterHeading(c: ClusterSummary): string {
  const facts =
    c.state === 'live' || c.state === 'connecting'
      ? [
          c.state,
          c.version,
          c.nodes ? `${c.nodes.ready}/${c.nodes.total} nodes ready` : 'nodes not readable',
          c.gpus?.allocatable !== null && c.gpus
            ? `gpu ${c.gpus.allocatable} allocatable, ${c.gpus.free} free, ${c.gpus.pending} pending`
            : null,
        ]
      : [c.state, c.error];
  return `cluster ${c.context}: ${facts.filter((x): x is string => !!x).join(', ')}`;
}

/** A fleet's trees: each cluster's heading and its trees (a dead one its state and error), in the order given. */
export function renderFleetTrees(
  workloads: WorkloadTree[],
  orphans: OrphanPod[],
  members: readonly FleetTreeMember[],
  links: FleetLinks,
  now: number,
  width = WIDTH,
): string {
  const sections = members.map((m) => {
    const ctx = m.summary.context;
    const mine = workloads.filter((w) => w.cluster === ctx);
    const myOrphans = orphans.filter((p) => p.cluster === ctx);
    const heading = `== ${fit(sanitise(clusterHeading(m.summary)), width - 3)}`;
    if (m.summary.state !== 'live' && m.summary.state !== 'connecting') return heading;
    if (!mine.length && !myOrphans.length) return `${heading}\n\nNo workloads found.`;
    const blocks = mine.map((w) =>
      renderWorkload(w, now, width, m.scheduling.queues.get(w.uid), linkLines(links, ctx, w.uid)).join('\n'),
    );
    if (myOrphans.length)
      blocks.push(`Pods whose owner is not visible:\n\n${renderOrphans(myOrphans, width).join('\n\n')}`);
    return `${heading}\n\n${blocks.join('\n\n')}`;
  });
  const live = members.filter((m) => m.summary.state === 'live').length;
  const pods = [...workloads.flatMap((w) => [...countPods(w.roles), ...w.unattributedPods]), ...orphans];
  const summary = wrapParts(
    [
      `${members.length} clusters (${live} live)`,
      `${workloads.length} workload${workloads.length === 1 ? '' : 's'}, ${pods.length} pods (${pods.filter((p) => p.status === 'Running').length} running)`,
      `gpu: ${workloads.reduce((n, w) => n + w.gpus.allocated, 0)} allocated, ${workloads.reduce((n, w) => n + w.gpus.requested, 0)} requested`,
    ],
    '',
    width,
  );
  return `${sections.join('\n\n')}\n\n${summary.join('\n')}\n`;
}
