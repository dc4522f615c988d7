// Counts of the work a ClusterStore does, for tests and benchmarks that check
// it stays proportional to what changed. Production passes none.
import type { PatchWork } from './tree.js';

export interface WorkCounters extends PatchWork {
  treeBuilds: number;
  treeRefreshes: number;
  treePatches: number;
  podAttributions: number;
  workloadEvaluations: number;
  nodeSummaries: number;
}

export function newWorkCounters(): WorkCounters {
  return {
    treeBuilds: 0,
    treeRefreshes: 0,
    treePatches: 0,
    rolePatches: 0,
    podAttributions: 0,
    workloadEvaluations: 0,
    nodeSummaries: 0,
  };
}
