// The snapshot the engine hands the UI: the store's outputs with the state of
// every watched kind, the definitions in effect and every problem.
import type { Definition, DefinitionProblem } from '../definitions/types.js';
import { formatProblem } from '../definitions/problem.js';
import type { DefinitionInfo, KindState, ModelSnapshot, WorkloadTree } from '../model/types.js';
import type { ModelStoreLike } from './engine-types.js';

const MAX_ENGINE_PROBLEMS = 50;

/** Recent problems, newest last, each with how often it happened (repeats are merged). */
export class ProblemLog {
  private readonly counts = new Map<string, number>();

  add(message: string): void {
    // A flaky stream repeats the same problem: count it instead of flooding out
    // the others (re-inserted so it counts as recent).
    const count = (this.counts.get(message) ?? 0) + 1;
    this.counts.delete(message);
    this.counts.set(message, count);
    if (this.counts.size > MAX_ENGINE_PROBLEMS) {
      const oldest = this.counts.keys().next().value;
      if (oldest !== undefined) this.counts.delete(oldest);
    }
  }

  messages(): string[] {
    return [...this.counts].map(([m, n]) => (n > 1 ? `${m} (×${n})` : m));
  }
}

export function definitionInfos(
  definitions: Definition[],
  problems: DefinitionProblem[],
  workloads: WorkloadTree[],
): DefinitionInfo[] {
  const counts = new Map<string, number>();
  for (const w of workloads) counts.set(w.definition, (counts.get(w.definition) ?? 0) + 1);
  return definitions.map((d) => {
    const own = problems.filter((p) => p.file === d.source.location);
    return {
      name: d.name,
      kind: `${d.rootGvk.group}/${d.rootGvk.version}/${d.rootGvk.kind}`,
      source: d.source.kind,
      location: d.source.location,
      valid: !own.some((p) => p.severity === 'error'),
      workloads: counts.get(d.name) ?? 0,
      problems: own,
    };
  });
}

export interface SnapshotInput {
  version: number;
  workloads: WorkloadTree[];
  store: ModelStoreLike;
  kinds: KindState[];
  definitions: Definition[];
  definitionProblems: DefinitionProblem[];
  engineProblems: ProblemLog;
  changedWorkloads: string[];
}

export function assembleSnapshot(input: SnapshotInput): ModelSnapshot {
  const problems = [
    ...input.definitionProblems.map(formatProblem),
    // Kinds that cannot be read are problems for as long as they last.
    ...input.kinds
      .filter((k) => k.state === 'forbidden' || k.state === 'error')
      .map((k) => `${k.resource}: ${k.state}${k.message ? `: ${k.message}` : ''}`),
    ...input.engineProblems.messages(),
    ...input.store.problems(),
  ];
  return Object.freeze({
    version: input.version,
    workloads: input.workloads,
    nodes: input.store.nodes(),
    orphanPods: input.store.orphanPods(),
    totals: input.store.totals(),
    kinds: input.kinds,
    definitions: definitionInfos(input.definitions, input.definitionProblems, input.workloads),
    problems,
    changedWorkloads: input.changedWorkloads,
  });
}
