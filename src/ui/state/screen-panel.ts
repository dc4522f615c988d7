// The detail panel under a workload's or a node's view: what is wrong, where it runs, what holds it.
import type { ModelSnapshot, NodeSummary, WorkloadTree } from '../../model/types.js';
import { topologyIndex, type TopologyIndex } from '../../model/topology.js';
import { workloadGpu } from '../../model/gpu-overlay.js';
import { nodeRequestsUnknown } from '../../model/pods-readable.js';
import { troubleText, workloadTrouble, type TroubleMemo } from '../../model/trouble.js';
import { sanitise } from '../../text/sanitise.js';
import {
  gpuPanelLines,
  nodePanel,
  placementPanelLines,
  podNodePanel,
  workloadPanel,
  type PanelLine,
  queuePanelLines,
} from '../render/panels.js';
import { findNode, findWorkload } from './derive.js';
import { whyPanelLines } from './incident-nav.js';
import type { UiState, ViewFrame } from './ui-state.js';

/** The pods' trouble under a status word that does not show it (the why line covers Failed and Degraded). */
function troublePanelLines(w: WorkloadTree, trouble: TroubleMemo): PanelLine[] {
  const t = workloadTrouble(w, trouble);
  if (!t.severity) return [];
  return [{ text: `${sanitise(troubleText(t))} — w for why`, tone: t.severity }];
}

/** The snapshot's topology index, built once per node list and keys (ScreenModel keeps the last); none without node objects. */
export class TopologyMemo {
  private last: { nodes: readonly NodeSummary[]; keys: readonly string[]; index: TopologyIndex } | null = null;

  of(snapshot: ModelSnapshot): TopologyIndex | null {
    const keys = snapshot.topologyKeys;
    if (snapshot.podNodes || !keys?.length) return null;
    const l = this.last;
    if (l && l.nodes === snapshot.nodes && l.keys === keys) return l.index;
    const index = topologyIndex(snapshot.nodes, keys);
    this.last = { nodes: snapshot.nodes, keys, index };
    return index;
  }
}

export function panelFor(
  snapshot: ModelSnapshot,
  frame: ViewFrame,
  nowMs: number,
  state: UiState,
  topology: TopologyMemo,
  trouble: TroubleMemo,
): PanelLine[] {
  if (frame.kind === 'namespaces') {
    const list = state.namespaceList;
    if (!list) return [{ text: 'reading the namespaces…', tone: 'dim' }];
    return list.note ? [{ text: sanitise(list.note), tone: 'warn' }] : [];
  }
  if (frame.kind === 'workload') {
    const w = findWorkload(snapshot, frame.workloadUid);
    if (!w) return [{ text: 'workload no longer exists', tone: 'error' }];
    const s = snapshot.scheduling;
    const queue = s?.queues.get(w.uid);
    const queueLines = queuePanelLines(queue, s?.facts.get(w.uid), s?.gangs.get(w.uid));
    // A queue or PodGroup holding the job back (a warning line) is the answer; "Initializing for a while" is not.
    const held = queueLines.some((l) => l.tone === 'warn') && !w.status.includes('Failed');
    const why = held ? [] : whyPanelLines(w, nowMs);
    return [
      ...workloadPanel(w, queue, trouble),
      ...gpuPanelLines(workloadGpu(snapshot.gpuMetrics, w)),
      ...placementPanelLines(w, topology.of(snapshot)),
      ...queueLines,
      ...(why.length ? why : held ? [] : troublePanelLines(w, trouble)),
    ];
  }
  if (frame.kind === 'node') {
    const n = findNode(snapshot, frame.nodeName);
    if (n) return nodePanel(n, nodeRequestsUnknown(snapshot)(n));
    if (snapshot.podNodes)
      return podNodePanel(
        snapshot.podNodes.find((p) => p.name === frame.nodeName),
        frame.nodeName,
      );
    return [{ text: 'node no longer exists', tone: 'error' }];
  }
  return [];
}
