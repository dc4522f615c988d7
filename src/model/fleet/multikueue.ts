// Kueue's MultiKueue as one cluster sees it: on a manager, which worker a
// Workload was dispatched to (status.clusterName on newer Kueue; on older ones
// the MultiKueue admission check's message `The workload got reservation on
// "worker1"`), which workers it was nominated to or may go to, and the
// workers (MultiKueueCluster: how the manager reaches each, whether it is
// connected); on a worker, the copies a manager made (labelled
// kueue.x-k8s.io/multikueue-origin). Pure readers over plain objects, and
// `MultiKueueIndex`, which keeps those objects (fed by the engine's watches)
// and answers per cluster. src/model/fleet/link.ts joins clusters.
import type { Gvk } from '../../definitions/types.js';
import type { KubeObject } from '../types.js';
import { list, obj, str } from '../scheduling/read.js';
import { kueueState } from '../scheduling/kueue.js';
import type { MultiKueueCopy, MultiKueueDispatch, MultiKueueView, MultiKueueWorker } from './types.js';

export const MULTIKUEUE_CONTROLLER = 'kueue.x-k8s.io/multikueue';
export const MULTIKUEUE_ORIGIN_LABEL = 'kueue.x-k8s.io/multikueue-origin';

/** Watched where served, beside the Kueue kinds (discovery falls back to v1beta1). */
export const MULTIKUEUE_GVKS: readonly Gvk[] = [
  { group: 'kueue.x-k8s.io', version: 'v1beta2', kind: 'AdmissionCheck' },
  { group: 'kueue.x-k8s.io', version: 'v1beta2', kind: 'MultiKueueCluster' },
  { group: 'kueue.x-k8s.io', version: 'v1beta2', kind: 'MultiKueueConfig' },
];

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : [];

export const EMPTY_MULTIKUEUE: MultiKueueView = { workers: [], dispatches: new Map(), copies: new Map() };

const RESERVATION = /got reservation on "([^"]+)"/;

/** The worker a check's message names (`The workload got reservation on "worker1"`), or null. */
export function reservationCluster(message: string | null | undefined): string | null {
  return (message && RESERVATION.exec(message)?.[1]) || null;
}

export function readWorker(o: KubeObject): MultiKueueWorker {
  const spec = obj(o.spec);
  const kc = obj(obj(spec.clusterSource).kubeConfig ?? spec.kubeConfig);
  const location = str(kc.location);
  const active = list(obj(o.status).conditions).find((c) => c.type === 'Active');
  return {
    name: o.metadata.name,
    kubeconfig: location ? { location, locationType: str(kc.locationType) ?? 'Secret' } : null,
    clusterProfile: str(obj(obj(spec.clusterSource).clusterProfileRef).name),
    active: active ? active.status === 'True' : null,
    message: active ? str(active.message) : null,
  };
}

function ownerUid(o: KubeObject): string | null {
  const refs = o.metadata.ownerReferences ?? [];
  return (refs.find((r) => r.controller) ?? refs[0])?.uid ?? null;
}

/**
 * A manager Workload's dispatch, when one of its admission checks is
 * MultiKueue's: a check named in `multiKueueChecks` (AdmissionChecks whose
 * controller is MultiKueue's), else — those objects unreadable — a check whose
 * message names a reservation or whose name says multikueue.
 */
export function readDispatch(
  w: KubeObject,
  multiKueueChecks: ReadonlySet<string> | null,
  configClusters: (check: string) => string[] = () => [],
): MultiKueueDispatch | null {
  const status = obj(w.status);
  const checks = list(status.admissionChecks).map((c) => ({
    name: str(c.name) ?? '',
    state: str(c.state) ?? '',
    message: str(c.message),
  }));
  const check = multiKueueChecks
    ? checks.find((c) => multiKueueChecks.has(c.name))
    : checks.find((c) => reservationCluster(c.message) !== null || /multikueue/i.test(c.name));
  if (!check) return null;
  const fromStatus = str(status.clusterName);
  const fromMessage = check.state === 'Ready' ? reservationCluster(check.message) : null;
  const nominated = strings(status.nominatedClusterNames);
  return {
    namespace: w.metadata.namespace ?? '',
    name: w.metadata.name,
    ownerUid: ownerUid(w),
    check,
    cluster: fromStatus ?? fromMessage,
    via: fromStatus ? 'clusterName' : fromMessage ? 'message' : null,
    candidates: nominated.length ? nominated : configClusters(check.name),
  };
}

/** A Workload copied here by a manager (origin label), or null. */
export function readCopy(w: KubeObject): MultiKueueCopy | null {
  const origin = w.metadata.labels?.[MULTIKUEUE_ORIGIN_LABEL];
  if (origin === undefined) return null;
  const reserved = list(obj(w.status).conditions).find((c) => c.type === 'QuotaReserved');
  const state = kueueState(w);
  return {
    namespace: w.metadata.namespace ?? '',
    name: w.metadata.name,
    origin,
    ownerUid: ownerUid(w),
    state,
    message: state === 'Pending' ? str(reserved?.message) : null,
  };
}

/**
 * Kueue Workloads, AdmissionChecks, MultiKueueClusters and MultiKueueConfigs
 * of one cluster, by uid; `view()` is recomputed after a change only (they are
 * few: one per job, not per pod).
 */
export class MultiKueueIndex {
  private readonly tables = {
    Workload: new Map<string, KubeObject>(),
    AdmissionCheck: new Map<string, KubeObject>(),
    MultiKueueCluster: new Map<string, KubeObject>(),
    MultiKueueConfig: new Map<string, KubeObject>(),
  };
  private cached: MultiKueueView | null = EMPTY_MULTIKUEUE;
  version = 0;

  private tableOf(o: KubeObject): Map<string, KubeObject> | null {
    const group = typeof o.apiVersion === 'string' ? o.apiVersion.split('/')[0] : '';
    if (group !== 'kueue.x-k8s.io' || !o.kind || !(o.kind in this.tables)) return null;
    return this.tables[o.kind as keyof typeof this.tables];
  }

  /** Whether the index keeps objects of this kind. */
  holds(o: KubeObject): boolean {
    return this.tableOf(o) !== null;
  }

  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', o: KubeObject): void {
    const table = this.tableOf(o);
    if (!table || !o.metadata?.uid) return;
    if (type === 'DELETED') table.delete(o.metadata.uid);
    else table.set(o.metadata.uid, o);
    this.cached = null;
    this.version++;
  }

  view(): MultiKueueView {
    if (this.cached) return this.cached;
    const { Workload, AdmissionCheck, MultiKueueCluster, MultiKueueConfig } = this.tables;
    const checks = [...AdmissionCheck.values()];
    const mkChecks = checks.length
      ? new Set(checks.filter((c) => obj(c.spec).controllerName === MULTIKUEUE_CONTROLLER).map((c) => c.metadata.name))
      : null;
    const configs = new Map(
      [...MultiKueueConfig.values()].map((c) => [c.metadata.name, strings(obj(c.spec).clusters)]),
    );
    const configClusters = (check: string): string[] => {
      const ac = checks.find((c) => c.metadata.name === check);
      const params = obj(obj(ac?.spec).parameters);
      return configs.get(str(params.name) ?? '') ?? [];
    };
    const dispatches = new Map<string, MultiKueueDispatch>();
    const copies = new Map<string, MultiKueueCopy>();
    for (const w of Workload.values()) {
      const d = readDispatch(w, mkChecks, configClusters);
      // A job re-queued gets a new Workload: the newest speaks for it.
      if (d?.ownerUid) {
        const prev = dispatches.get(d.ownerUid);
        if (!prev || !this.olderThan(prev, w)) dispatches.set(d.ownerUid, d);
      }
      const c = readCopy(w);
      if (c) copies.set(`${c.namespace}/${c.name}`, c);
    }
    const workers = [...MultiKueueCluster.values()].map(readWorker).sort((a, b) => (a.name < b.name ? -1 : 1));
    this.cached = workers.length || dispatches.size || copies.size ? { workers, dispatches, copies } : EMPTY_MULTIKUEUE;
    return this.cached;
  }

  /** Whether the dispatch's Workload was created after `w`. */
  private olderThan(d: MultiKueueDispatch, w: KubeObject): boolean {
    for (const o of this.tables.Workload.values())
      if (o.metadata.namespace === d.namespace && o.metadata.name === d.name)
        return (o.metadata.creationTimestamp ?? '') > (w.metadata.creationTimestamp ?? '');
    return false;
  }
}
