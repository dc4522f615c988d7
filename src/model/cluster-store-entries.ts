// What the store keeps per object (see src/model/README.md, Incremental store).
import type { KubeObject } from './types.js';
import type { PodRecord } from './pod-record.js';
import type { DefinitionPlan } from './plan.js';
import type { WorkloadFacts } from './workload-facts.js';
import type { UidSet } from './uid-set.js';

/** `dra`: resource.k8s.io claims, templates, slices, classes; `topology`: Kueue Topologies. */
export type StoreKind = 'pod' | 'node' | 'owner' | 'workload' | 'dra' | 'topology';
export type StoreEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** An object of an owner chain: its controller's uid links it to the object above. */
export interface LinkEntry {
  uid: string;
  obj: KubeObject;
  controller: string | null;
}

export interface OwnerEntry extends LinkEntry {
  gvk: string;
}

export interface WorkloadEntry extends OwnerEntry {
  /** Null: its kind has no definition (a nested kind kept for chains). */
  plan: DefinitionPlan | null;
  facts: WorkloadFacts | null;
  pods: UidSet;
}

/**
 * A pod: a link too (LeaderWorkerSet's worker StatefulSets are controlled by the leader pod). Its summary and
 * the store's state of it are one record (pod-record.ts); the node is its summary's.
 */
export type PodEntry = PodRecord;
