import type { Runtime } from '../runtime.js';
export interface ScaleOptions { nodes: number; workloads: number; podsPerWorkload: number }
export interface ScaleResult { nodes: number; workloads: number; pods: number; buildMs: number; runningPods: string[] }
export function createScaleScenario(_rt: Runtime, o: ScaleOptions): ScaleResult {
  return { nodes: o.nodes, workloads: o.workloads, pods: 0, buildMs: 0, runningPods: [] };
}
export function startChurn(_rt: Runtime, _r: ScaleResult, _perSecond: number): () => void {
  return () => {};
}
