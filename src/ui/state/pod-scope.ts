// Whose pods the explorer's views draw (ModelSource.setPodScope): the engine
// worker sends only those, so the UI thread never holds 100,000 pods to draw
// the workloads list. Views over every pod (`:pods`, a node, the map, a pod
// or node without a workload) need all; a workload's own views need its pods;
// the lists of workloads, nodes and queues need none.
import { scopeCovers } from '../../model/elided-pods.js';
import type { ModelSnapshot, PodScope } from '../../model/types.js';
import { isIncidentKind } from './incident.js';
import type { UiState, ViewFrame } from './ui-state.js';

const NONE: PodScope = { workloads: [] };

/** The pods one view draws; `servedRows`: the source's worker derives `:pods`' rows (served-rows.ts), not the UI. */
export function frameScope(frame: ViewFrame, servedRows = false): PodScope {
  switch (frame.kind) {
    case 'workload':
      return frame.workloadUid === undefined ? NONE : { workloads: [frame.workloadUid] };
    case 'pods':
      if (frame.workloadUid !== undefined) return { workloads: [frame.workloadUid] };
      return servedRows ? NONE : 'all';
    case 'node':
    case 'map':
      return 'all';
    default: {
      if (!isIncidentKind(frame.kind)) return NONE;
      const t = frame.incident;
      if (!t || t.kind === 'node') return 'all';
      if (t.kind === 'namespace') return NONE;
      return t.workloadUid === undefined ? 'all' : { workloads: [t.workloadUid] };
    }
  }
}

/** The pods of every view on the stack (going back is then drawn at once), uids in order. */
export function podScopeOf(state: UiState, servedRows = false): PodScope {
  const uids = new Set<string>();
  for (const f of state.stack) {
    const s = frameScope(f, servedRows);
    if (s === 'all') return 'all';
    for (const uid of s.workloads) uids.add(uid);
  }
  return { workloads: [...uids].sort() };
}

/** Whether the snapshot holds the pods the view draws (else it is drawn as loading until they arrive). */
export function framePodsHeld(snapshot: ModelSnapshot, frame: ViewFrame, servedRows = false): boolean {
  return scopeCovers(snapshot.podScope, frameScope(frame, servedRows));
}
