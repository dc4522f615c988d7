// One explorer's rows, memoised per model object. Rows are immutable and the
// model shares unchanged pod and workload objects across snapshots, so a row
// is built once per object: a 100,000-pod list re-derives in a fraction of the
// time when few pods changed. Each App owns one (no state shared between
// explorers or tests).
import { GpuOverlayMemo } from './gpu-columns.js';
import { TroubleMemo } from '../../model/trouble.js';
import type { ModelSnapshot, PodSummary, WorkloadTree, WorkloadQueue } from '../../model/types.js';
import type { Row, TableData } from './table.js';
import { ALL_POD_COLUMNS, podRow } from './pods.js';
import { workloadPods, workloadRow } from './workloads.js';

/** Work done by one explorer's caches, counted for tests (a test seam: the App takes it as a prop). */
export interface WorkCounters {
  /** Pod rows built. */
  podRowsBuilt: number;
  /** Cells measured for column layouts. */
  cellMeasures: number;
  /** `:pods` list derivations: full rebuilds and in-place patches. */
  allPodsRebuilds: number;
  allPodsPatches: number;
}

export function newWorkCounters(): WorkCounters {
  return { podRowsBuilt: 0, cellMeasures: 0, allPodsRebuilds: 0, allPodsPatches: 0 };
}

// The last `:pods` list. Under churn most snapshots change a few workloads out
// of thousands, and rebuilding a 100,000-row array per snapshot costs more than
// everything else the explorer does for it.
interface AllPods {
  workloads: readonly WorkloadTree[];
  namespace: string | null;
  rows: Row[];
  /** Start of each workload's segment in rows (-1 when filtered out by namespace). */
  starts: number[];
}

export class RowCache {
  private readonly podRows = [new WeakMap<PodSummary, Row>(), new WeakMap<PodSummary, Row>()];
  /** Per workload object, its row and the queue it was built with (a queue change rebuilds it). */
  private readonly workloadRows = new WeakMap<WorkloadTree, { row: Row; queue: WorkloadQueue | null | undefined }>();
  private readonly workloadPodRowLists = new WeakMap<WorkloadTree, Row[]>();
  private readonly searchTexts = new WeakMap<Row, string>();
  private lastAllPods: AllPods | null = null;
  /** The UTIL/MEM columns laid over this explorer's rows. */
  readonly gpuOverlays = new GpuOverlayMemo();
  /** Each tree's pods in trouble (the rows', the header's and the panel's). */
  readonly trouble = new TroubleMemo();
  /** This explorer's workloads list per snapshot (state/derive.ts explorerWorkloads): one array per snapshot. */
  readonly explorerLists = new WeakMap<ModelSnapshot, readonly WorkloadTree[]>();

  constructor(readonly counters: WorkCounters = newWorkCounters()) {}

  readonly podRow = (p: PodSummary, workloadUid: string | undefined, withNamespace: boolean): Row => {
    const cache = this.podRows[withNamespace ? 1 : 0];
    const hit = cache.get(p);
    if (hit && hit.workloadUid === workloadUid) return hit;
    const row = podRow(p, workloadUid, withNamespace);
    this.counters.podRowsBuilt++;
    cache.set(p, row);
    return row;
  };

  readonly workloadRow = (w: WorkloadTree, queue?: WorkloadQueue | null): Row => {
    const hit = this.workloadRows.get(w);
    if (hit && hit.queue === queue) return hit.row;
    const row = workloadRow(w, queue, this.trouble);
    this.workloadRows.set(w, { row, queue });
    return row;
  };

  /** A row's searchable text (the filter's), joined once per row rather than per keystroke. */
  readonly searchText = (r: Row): string => {
    let t = this.searchTexts.get(r);
    if (t === undefined) this.searchTexts.set(r, (t = r.cells.join(' ')));
    return t;
  };

  /** `:pods` rows of one workload object (with namespaces), built once per tree object. */
  workloadPodRows(w: WorkloadTree): Row[] {
    let rows = this.workloadPodRowLists.get(w);
    if (!rows) {
      rows = workloadPods(w).map((p) => this.podRow(p, w.uid, true));
      this.workloadPodRowLists.set(w, rows);
    }
    return rows;
  }

  /**
   * The `:pods` list. When no workload changed since the last call the same
   * array is returned (so sort and filter memos keep their results); when a
   * few changed and kept their pod counts, their segments of a copy are
   * overwritten; anything else rebuilds.
   */
  allPodsTable(workloads: readonly WorkloadTree[], namespace: string | null): TableData {
    if (this.lastAllPods) {
      const patched = this.patchAllPods(this.lastAllPods, workloads, namespace);
      if (patched) {
        if (patched !== this.lastAllPods.rows) this.counters.allPodsPatches++;
        this.lastAllPods = { ...this.lastAllPods, workloads, rows: patched };
        return { columns: ALL_POD_COLUMNS, rows: patched };
      }
    }
    this.counters.allPodsRebuilds++;
    const rows: Row[] = [];
    const starts: number[] = [];
    for (const w of workloads) {
      if (namespace !== null && w.namespace !== namespace) {
        starts.push(-1);
        continue;
      }
      starts.push(rows.length);
      for (const r of this.workloadPodRows(w)) rows.push(r);
    }
    this.lastAllPods = { workloads, namespace, rows, starts };
    return { columns: ALL_POD_COLUMNS, rows };
  }

  private patchAllPods(last: AllPods, workloads: readonly WorkloadTree[], namespace: string | null): Row[] | null {
    if (last.namespace !== namespace || last.workloads.length !== workloads.length) return null;
    let rows: Row[] | null = null;
    const prev = last.workloads;
    for (let i = 0; i < workloads.length; i++) {
      const w = workloads[i];
      const old = prev[i];
      if (w === old) continue;
      if (w.uid !== old.uid || w.namespace !== old.namespace) return null;
      const start = last.starts[i];
      if (start < 0) continue;
      const before = this.workloadPodRowLists.get(old);
      const next = this.workloadPodRows(w);
      if (!before || before.length !== next.length) return null;
      rows ??= last.rows.slice();
      for (let k = 0; k < next.length; k++) rows[start + k] = next[k]!;
    }
    return rows ?? last.rows;
  }
}
