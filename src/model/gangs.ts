// Gang (pod group) summaries from the definition's gangScheduling
// instructions: the members of a group are the pods of its member components
// that pass the filters, grouped by the tuple of groupByKeyPaths values.
import type { GangSummary } from './types.js';
import type { DefinitionPlan } from './plan.js';
import type { TreePod } from './attributions.js';
import { naturalCompare } from './order.js';

export function summariseGangs(plan: DefinitionPlan, workloadName: string, pods: TreePod[]): GangSummary[] {
  const out: GangSummary[] = [];
  plan.gangs.forEach((g, gi) => {
    const byKey = new Map<string, GangSummary>();
    for (const p of pods) {
      const key = p.facts.gangKeys[gi];
      // A pod being deleted no longer takes part in its gang.
      if (key === null || key === undefined || p.terminating) continue;
      // No key paths: the whole workload is one gang.
      const k = key === '' ? workloadName : key;
      let s = byKey.get(k);
      if (!s) {
        s = { name: g.name, key: k, members: 0, scheduled: 0, ready: 0 };
        byKey.set(k, s);
      }
      s.members++;
      if (p.summary.node !== null) s.scheduled++;
      if (p.summary.ready) s.ready++;
    }
    out.push(...[...byKey.values()].sort((a, b) => naturalCompare(a.key, b.key)));
  });
  return out;
}
