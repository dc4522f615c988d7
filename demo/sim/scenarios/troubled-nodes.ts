// Two H100 nodes in trouble beside the default scenario's (gpu-node-01 … 12
// keep their 96 GPUs and every workload its placement): gpu-node-13, whose
// kubelet stopped posting status an hour ago (Ready Unknown, tainted
// unreachable, as the node lifecycle controller leaves it), and gpu-node-14,
// cordoned for maintenance (spec.unschedulable and its taint). So every
// colour of the GPU map's legend is on the demo's map, and the scheduler's
// FitError names both. They have a rack and an NVLink domain of their own
// (rack-3), so no other domain's room changes, and their own random stream,
// so the scenario's names and uids stay the same.
import { Random } from '../clock.js';
import type { Runtime } from '../runtime.js';
import { R, type NodeObject } from '../types.js';
import { buildNode, nvlinkClique } from './cluster.js';

export const NOT_READY_NODE = 'gpu-node-13';
export const CORDONED_NODE = 'gpu-node-14';

export function addTroubledNodes(rt: Runtime, seed: number): string[] {
  const view = { rng: new Random(seed ^ 0x6e6f6465) } as Pick<Runtime, 'rng'> as Runtime; // "node": a stream of its own
  const now = rt.clock.now();
  const created = rt.clock.iso(now - 3 * 3_600_000 * rt.clock.speed);
  const lost = rt.clock.iso(now - 3_600_000 * rt.clock.speed);
  const shape = { gpus: 8, zone: 'us-east-1b', rack: 'rack-3', clique: nvlinkClique('rack-3', 1) };

  const down = buildNode(view, { name: NOT_READY_NODE, index: 16, ...shape }, created);
  down.spec.taints = [
    ...(down.spec.taints ?? []),
    { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
  ];
  // The node lifecycle controller's words once the kubelet is silent past the grace period.
  down.status.conditions = down.status.conditions.map((c) => ({
    ...c,
    status: 'Unknown',
    reason: 'NodeStatusUnknown',
    message: 'Kubelet stopped posting node status.',
    lastHeartbeatTime: lost,
    lastTransitionTime: lost,
  }));

  const cordoned = buildNode(view, { name: CORDONED_NODE, index: 17, ...shape }, created);
  cordoned.spec.unschedulable = true;
  cordoned.spec.taints = [
    ...(cordoned.spec.taints ?? []),
    { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
  ];

  for (const n of [down, cordoned] as NodeObject[]) rt.create(R.nodes, n);
  return [NOT_READY_NODE, CORDONED_NODE];
}
