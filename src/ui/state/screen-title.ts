// The explorer's title line: which view, of which namespace (and cluster), and how many rows of how many.
import type { ModelSnapshot } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import type { Row } from '../render/table.js';
import { findWorkload } from './derive.js';
import type { ViewFrame } from './ui-state.js';

/** `:clusters` counts clusters, not the GPU model rows under them. */
export function countClusterRows(rows: readonly (Row | undefined)[]): number {
  let n = 0;
  for (const r of rows) if (r?.target?.kind === 'cluster' && !r.key.includes('\u0000')) n++;
  return n;
}

export function countNodeRows(rows: readonly Row[]): number {
  let n = 0;
  for (const r of rows) if (r.target?.kind === 'node') n++;
  return n;
}

export function viewTitle(
  frame: ViewFrame,
  snapshot: ModelSnapshot,
  namespace: string | null,
  count: number,
  total: number,
  loading = false,
  /** A fleet's view of one cluster: `@context` (k9s' notation). */
  cluster: string | null = null,
) {
  const ns = (namespace === null ? 'all' : sanitise(namespace)) + (cluster !== null ? `@${sanitise(cluster)}` : '');
  // Loading: the count is not known yet, not 0.
  const n = loading ? '[…]' : count === total ? `[${count}]` : `[${count}/${total}]`;
  let t: string;
  switch (frame.kind) {
    case 'workloads':
      t = `${frame.workloadType ? sanitise(frame.workloadType.label) : 'workloads'}(${ns})${n}`;
      break;
    case 'contexts':
    case 'namespaces':
    case 'aliases':
      t = `${frame.kind}${n}`;
      break;
    case 'workload': {
      const w = findWorkload(snapshot, frame.workloadUid);
      t = w ? `${sanitise(w.kind).toLowerCase()}(${sanitise(w.namespace)}/${sanitise(w.name)})${n}` : `workload${n}`;
      break;
    }
    case 'pods':
      t = frame.workloadUid === undefined ? `pods(${ns})${n}` : `pods(${frame.label})${n}`;
      break;
    case 'node':
      t = `node(${frame.label})${n}`;
      break;
    case 'nodes':
      t = `nodes${n}`;
      break;
    case 'map': {
      const w = findWorkload(snapshot, frame.workloadUid);
      const of = w ? `${sanitise(w.namespace)}/${sanitise(w.name)}` : 'all';
      t = `map(${of})[${total} node${total === 1 ? '' : 's'}]`;
      break;
    }
    case 'queues':
      t = `clusterqueues${n}`;
      break;
    case 'queue':
      t = `pending(${frame.label})${n}`;
      break;
    case 'defs':
      t = `definitions${n}`;
      break;
    case 'clusters':
      t = `clusters${n}`;
      break;
    case 'problems':
      t = `problems${n}`;
      break;
    case 'help':
      t = 'help';
      break;
    default:
      t = frame.label;
  }
  if (frame.filter)
    t += frame.kind === 'map' ? ` <highlight /${sanitise(frame.filter)}>` : ` </${sanitise(frame.filter)}>`;
  return ` ${t} `;
}
