// Detail lines above the table: the workload's status, definition and gangs;
// the node's GPU figures, conditions and taints.
import type {
  NodeSummary,
  WorkloadTree,
  WorkloadQueue,
  GroupGpu,
  GangVerdict,
  QueueFacts,
  PodNode,
} from '../../model/types.js';
import { positionText, queueStatusWord } from '../../model/scheduling/words.js';
import { sanitise } from '../../text/sanitise.js';
import type { Tone } from './table.js';
import { gpuRatio, worstTone } from './format.js';
import { gangLines } from './roles.js';
import { workloadStatusText, workloadStatusWords, workloadNodeCount } from './workloads.js';
import { nodeFree, nodeStatus } from './nodes.js';
import { nodeGpuModel } from '../../model/gpu.js';
import { shortGpuKind } from './header.js';
import type { TroubleMemo } from '../../model/trouble.js';
import { splitAcross, splitSentence, spreadOf, spreadSentence, type TopologyIndex } from '../../model/topology.js';
import { rolePods, treePods } from '../../model/tree-pods.js';
import { roleName } from '../../model/role-name.js';
import { utilText } from './gpu-columns.js';

export interface PanelLine {
  text: string;
  tone: Tone;
}

export function workloadPanel(w: WorkloadTree, queue?: WorkloadQueue, trouble?: TroubleMemo): PanelLine[] {
  const lines: PanelLine[] = [
    {
      text: `${sanitise(w.kind)} ${sanitise(w.namespace)}/${sanitise(w.name)}  ${workloadStatusText(w, queue, trouble)}  ready ${w.replicas.ready}/${w.replicas.desired}  GPUs ${gpuRatio(w.gpus, 'names')}  nodes ${workloadNodeCount(w)}  def ${sanitise(w.definition)} (${w.definitionSource})`,
      tone: worstTone(workloadStatusWords(w, queue, trouble)),
    },
  ];
  if (w.statusMessage) lines.push({ text: `message: ${sanitise(w.statusMessage)}`, tone: 'normal' });
  const gangs = gangLines(w);
  if (gangs.length)
    lines.push({ text: gangs.join('; '), tone: w.gangs.some((g) => g.scheduled < g.members) ? 'warn' : 'normal' });
  for (const e of w.errors.slice(0, 2)) lines.push({ text: `error: ${sanitise(e)}`, tone: 'error' });
  if (w.errors.length > 2) lines.push({ text: `… ${w.errors.length - 2} more errors`, tone: 'error' });
  return lines;
}

/** `850 W`, `2.4 kW`. */
function powerText(watts: number): string {
  return watts >= 1000 ? `${(watts / 1000).toFixed(1)} kW` : `${Math.round(watts)} W`;
}

/**
 * The workload's GPUs as DCGM reports them: the mean, its least busy pod (the rank to look at first), the
 * power drawn, and GPUs with XID errors (faults the driver reported). Nothing without a reading.
 */
export function gpuPanelLines(g: GroupGpu): PanelLine[] {
  if (g.utilisation === null) return [];
  const parts = [`GPU util ${utilText(g.utilisation)}`];
  if (g.lowest && g.lowest.utilisation !== null) {
    const name = g.lowest.pod.slice(g.lowest.pod.indexOf('/') + 1);
    parts.push(`least busy ${sanitise(name)} ${utilText(g.lowest.utilisation)}`);
  }
  if (g.powerWatts !== null) parts.push(powerText(g.powerWatts));
  const lines: PanelLine[] = [{ text: parts.join(' · '), tone: 'normal' }];
  if (g.xidErrors)
    lines.push({
      text: `XID errors on ${g.xidErrors} GPU${g.xidErrors === 1 ? '' : 's'}: driver-reported GPU faults, check the node`,
      tone: 'error',
    });
  return lines;
}

/**
 * Where the workload's bound pods are, by topology level ("3 nodes · 2 NVLink domains · 1 rack"), and each
 * role split across NVLink domains / racks although one domain had room (slow collectives).
 */
export function placementPanelLines(w: WorkloadTree, index: TopologyIndex | null): PanelLine[] {
  if (!index?.keys.length) return [];
  const pods = treePods(w).filter((p) => p.node);
  if (!pods.length) return [];
  const lines: PanelLine[] = [
    { text: `placement: ${sanitise(spreadSentence(spreadOf(pods, index), index.keys))}`, tone: 'normal' },
  ];
  for (const r of w.roles)
    for (const split of splitAcross(rolePods(r), index))
      lines.push({ text: `${sanitise(splitSentence(roleName(r), split))} — slow collectives likely`, tone: 'warn' });
  return lines;
}

/** Conditions that are not in their healthy state (Ready=True, the pressure ones False). */
function abnormal(c: NodeSummary['conditions'][number]): boolean {
  return c.type === 'Ready' ? c.status !== 'True' : c.status !== 'False';
}

/** A node whose object is not readable (no access to nodes): what its pods tell, and that the rest is unknown. */
export function podNodePanel(n: PodNode | undefined, name: string | undefined): PanelLine[] {
  const pods = n ? `: ${n.pods} pod${n.pods === 1 ? '' : 's'} seen on it requesting ${n.gpuRequested} GPUs` : '';
  return [
    {
      text: `node ${sanitise(name ?? '')} is not readable (no access to nodes)${pods}; capacity and conditions unknown`,
      tone: 'warn',
    },
  ];
}

/** `requestsUnknown`: its cluster's pods are not readable (nodeRequestsUnknown): requested, free and pods are `?`. */
export function nodePanel(n: NodeSummary, requestsUnknown = false): PanelLine[] {
  const status = nodeStatus(n);
  const seen = requestsUnknown
    ? 'requested ?  free ?  pods ?  (pods not readable)'
    : `requested ${n.gpuRequested}  free ${nodeFree(n)}  pods ${n.pods}`;
  const lines: PanelLine[] = [
    {
      text: `node ${sanitise(n.name)}  ${status}  GPUs capacity ${n.gpuCapacity}  allocatable ${n.gpuAllocatable}  ${seen}`,
      tone: !n.ready ? 'error' : n.unschedulable ? 'warn' : 'ok',
    },
  ];
  lines.push(...nodeGpuLines(n, requestsUnknown));
  const conds = n.conditions.map(
    (c) => `${sanitise(c.type)}=${sanitise(c.status)}${abnormal(c) && c.reason ? `(${sanitise(c.reason)})` : ''}`,
  );
  lines.push({ text: `conditions: ${conds.join(' ') || '-'}`, tone: n.conditions.some(abnormal) ? 'warn' : 'normal' });
  const taints = n.taints.map(
    (t) => `${sanitise(t.key)}${t.value ? '=' + sanitise(t.value) : ''}:${sanitise(t.effect)}`,
  );
  lines.push({ text: `taints: ${taints.join(' ') || '-'}`, tone: 'normal' });
  return lines;
}

/**
 * `GPU NVIDIA-A100-SXM4-80GB  mig.strategy mixed  gpu.count 8`, then each GPU
 * resource kind (whole, MIG profile, shared, DRA) as capacity / allocatable /
 * requested; nothing on a node without GPUs.
 */
export function nodeGpuLines(n: NodeSummary, requestsUnknown = false): PanelLine[] {
  const model = nodeGpuModel(n.labels);
  const facts = [
    `GPU ${sanitise(n.gpuModel ?? model.product ?? '-')}`,
    ...(model.migStrategy ? [`mig.strategy ${sanitise(model.migStrategy)}`] : []),
    ...(model.count !== null ? [`gpu.count ${model.count}`] : []),
  ];
  const kinds = Object.entries(n.gpuResources ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (!kinds.length && model.product === null && model.count === null) return [];
  const lines: PanelLine[] = [{ text: facts.join('  '), tone: 'normal' }];
  for (const [name, r] of kinds)
    lines.push({
      text: `  ${sanitise(shortGpuKind(name))}  capacity ${r.capacity}  allocatable ${r.allocatable}  requested ${requestsUnknown ? '?' : r.requested}`,
      tone: r.requested > r.allocatable ? 'warn' : 'normal',
    });
  return lines;
}

/** The workload view's lines about its queue and PodGroups (above the roles). */
export function queuePanelLines(
  queue: WorkloadQueue | undefined,
  facts: QueueFacts | undefined,
  verdicts: readonly GangVerdict[] | undefined,
): PanelLine[] {
  const out: PanelLine[] = [];
  if (queue) {
    const waiting = queueStatusWord(queue) !== null;
    const where = [queue.name, queue.clusterQueue]
      .filter((x): x is string => !!x)
      .map(sanitise)
      .join(' → ');
    const pos =
      waiting && queue.system === 'kueue'
        ? `, ${positionText(queue.position, facts?.positionsUnavailable ?? false)} in line`
        : '';
    const short = facts?.shortfalls.length
      ? ` — needs ${facts.shortfalls.map((s) => `${s.more ?? 'more'} ${sanitise(s.resource)}${s.flavor ? ` (${sanitise(s.flavor)})` : ''}`).join(', ')} of quota`
      : '';
    out.push({
      text: `${queue.system} queue ${where || '-'}: ${sanitise(queue.state)}${pos}${short}${waiting ? ' — w for why' : ''}`,
      tone: waiting ? 'warn' : 'normal',
    });
  }
  for (const v of verdicts ?? []) {
    if (!v.message && !v.reason) continue;
    out.push({
      text: `${v.scheduler} PodGroup ${sanitise(v.name)} (min ${v.minMember}): ${sanitise(v.reason ?? '')}${v.message ? ` ${sanitise(v.message)}` : ''}`,
      tone: 'warn',
    });
  }
  return out;
}
