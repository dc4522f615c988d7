// The one record the store keeps per pod (src/model/README.md, Incremental
// store): the pod's `PodSummary`, which trees and snapshots hold, and the
// store's own state of it (its trimmed object, controller, workloads,
// attributions) as hidden properties of the same object. At 100,000 pods a
// summary and an entry beside it cost ~80 bytes a pod more than one record.
import type { KubeObject, PodSummary } from './types.js';
import type { Attributions } from './attributions.js';
import { deepEqual } from './equal.js';

/**
 * A pod as the store holds it. Its own enumerable properties are exactly a
 * `PodSummary`'s, always all of them (optional ones `undefined`), so every
 * record has one shape with every property in-object; what JSON, the delta
 * codec, `deepEqual`, spreads and structured clone see is the summary. The
 * store's state is non-enumerable: none of them sees it.
 *
 * The summary's properties never change once made (a snapshot handed out,
 * and the delta codec's `===`, rely on it): a pod whose summary changes gets
 * a new record. The hidden ones change in place (`refreshRecord`).
 */
export interface PodRecord extends PodSummary {
  /** The trimmed pod. */
  obj: KubeObject;
  /** Its controller's uid. */
  controller: string | null;
  /** Workload uids on the controller chain, nearest first. */
  workloads: string[];
  /** Not Succeeded/Failed: still holds what it requested. */
  active: boolean;
  attributed: Attributions;
}

/** The store's state of a pod, hidden in its record. */
export type PodState = Pick<PodRecord, 'obj' | 'controller' | 'workloads' | 'active' | 'attributed'>;

/** What a tree was built with of a pod: its summary then, and the state then (TreeMaintenance.podModified). */
export interface PodBefore {
  summary: PodSummary;
  obj: KubeObject;
  active: boolean;
  attributed: Attributions;
}

/** The store's state: writable, not enumerable (one descriptor map for every record: nothing allocated per record). */
const HIDDEN: PropertyDescriptorMap = {
  obj: { value: null, writable: true },
  controller: { value: null, writable: true },
  workloads: { value: null, writable: true },
  active: { value: false, writable: true },
  attributed: { value: null, writable: true },
};

/**
 * Makes records: `new` on a function whose prototype is Object's, so a record
 * is a plain object to every reader, and V8's slack tracking sizes it for all
 * its properties in-object (a literal holds at most what it was written with).
 */
const MakeRecord = function (this: PodRecord, s: PodSummary, state: PodState): void {
  this.namespace = s.namespace;
  this.name = s.name;
  this.status = s.status;
  this.phase = s.phase;
  this.ready = s.ready;
  this.node = s.node;
  this.gpus = s.gpus;
  this.restarts = s.restarts;
  this.reason = s.reason;
  this.uid = s.uid;
  this.readyContainers = s.readyContainers;
  this.message = s.message;
  this.createdAt = s.createdAt;
  this.lastRestartAt = s.lastRestartAt;
  this.lastFailure = s.lastFailure;
  this.recentRestart = s.recentRestart;
  this.gpuResources = s.gpuResources;
  this.gpuSlices = s.gpuSlices;
  this.draClaims = s.draClaims;
  Object.defineProperties(this, HIDDEN);
  this.obj = state.obj;
  this.controller = state.controller;
  this.workloads = state.workloads;
  this.active = state.active;
  this.attributed = state.attributed;
} as unknown as new (s: PodSummary, state: PodState) => PodRecord;
MakeRecord.prototype = Object.prototype;

/** A record of `summary` (its properties copied, all of them) with the store's `state`. */
export function newPodRecord(summary: PodSummary, state: PodState): PodRecord {
  return new MakeRecord(summary, state);
}

/** The record's state replaced in place (its summary is unchanged). */
export function refreshRecord(record: PodRecord, state: PodState): void {
  record.obj = state.obj;
  record.controller = state.controller;
  record.workloads = state.workloads;
  record.active = state.active;
  record.attributed = state.attributed;
}

/** The record as it is now, for a tree patched later against it (its state may change in place meanwhile). */
export function podBefore(record: PodRecord): PodBefore {
  return { summary: record, obj: record.obj, active: record.active, attributed: record.attributed };
}

/**
 * The record of a pod after an event: `prev` itself, its state replaced, when
 * its summary did not change; else a new record. Either way GPU facts equal to
 * the previous ones are the previous objects (trees and nodes compare them by
 * identity).
 */
export function nextRecord(prev: PodRecord, summary: PodSummary, state: PodState): PodRecord {
  if (summary.gpuResources !== undefined && deepEqual(prev.gpuResources, summary.gpuResources))
    summary.gpuResources = prev.gpuResources;
  if (summary.gpuSlices !== undefined && deepEqual(prev.gpuSlices, summary.gpuSlices))
    summary.gpuSlices = prev.gpuSlices;
  if (summary.draClaims !== undefined && deepEqual(prev.draClaims, summary.draClaims))
    summary.draClaims = prev.draClaims;
  if (!deepEqual(prev, summary)) return newPodRecord(summary, state);
  refreshRecord(prev, state);
  return prev;
}
