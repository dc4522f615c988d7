// The ownership graph: every pod, owner and workload the store holds, linked
// by controller uid, and the one nested / top-level rule (src/model/README.md,
// Nested workloads). The live engine, `wlx get` and the offline path all reach
// it through ClusterStore.
import type { Gvk } from '../definitions/types.js';
import { gvkOf } from '../definitions/types.js';
import type { KubeObject, OwnerReference } from './types.js';
import { MAX_OWNER_HOPS, walkControllerChain } from './ownership.js';
import { UidIndex, addTo, removeFrom } from './uid-set.js';
import type { LinkEntry, OwnerEntry, PodEntry, WorkloadEntry } from './cluster-store-entries.js';

export const POD_GVK: Gvk = { group: '', version: 'v1', kind: 'Pod' };
/** Controllers between workloads and pods that most workload types use (the engine watches them as metadata). */
export const OWNER_GVKS: Gvk[] = [
  { group: 'batch', version: 'v1', kind: 'Job' },
  { group: 'apps', version: 'v1', kind: 'ReplicaSet' },
  { group: 'apps', version: 'v1', kind: 'StatefulSet' },
];

/** Where a workload stands: its own tree, part of another's, or not known yet (an owner's kind is still listing). */
export type ChainPlace = 'top-level' | 'nested' | 'owner-listing';

/** `group/Kind`: an owner kind whatever version it is watched at. */
function ownerKindKey(group: string, kind: string): string {
  return `${group}/${kind}`;
}

function controllerRef(obj: KubeObject): OwnerReference | null {
  const refs = obj.metadata.ownerReferences;
  if (!Array.isArray(refs)) return null;
  for (const r of refs) if (r && r.controller === true && typeof r.apiVersion === 'string') return r;
  return null;
}

/** `group/Kind` of a reference's kind. */
export function refKindKey(r: Pick<OwnerReference, 'apiVersion' | 'kind'>): string {
  return ownerKindKey(gvkOf(r.apiVersion, r.kind).group, r.kind);
}

function controllerKindKey(obj: KubeObject): string | null {
  const r = controllerRef(obj);
  return r ? refKindKey(r) : null;
}

export class OwnershipGraph {
  readonly pods = new Map<string, PodEntry>();
  readonly owners = new Map<string, OwnerEntry>();
  readonly workloads = new Map<string, WorkloadEntry>();
  private readonly podsByController = new UidIndex();
  /** Owners and workloads by the uid of their controller. */
  private readonly linksByController = new Map<string, Set<string>>();
  /** Start uid (a pod's controller) → workload uids on its chain. */
  private readonly chainCache = new Map<string, string[]>();
  /** Owner kinds (`group/Kind`) still in their first list. */
  private listingKinds: ReadonlySet<string> = new Set();

  private linkOf(uid: string): LinkEntry | undefined {
    return this.workloads.get(uid) ?? this.owners.get(uid) ?? this.pods.get(uid);
  }

  /** The pod `uid` moved from controller `before` to `after`. */
  movePod(uid: string, before: string | null, after: string | null): void {
    if (before === after) return;
    if (before) this.podsByController.remove(before, uid);
    if (after) this.podsByController.add(after, uid);
  }

  /** The owner or workload `uid` moved from controller `before` to `after`; true when that changed. */
  moveLink(uid: string, before: string | null, after: string | null): boolean {
    if (before === after) return false;
    if (before) removeFrom(this.linksByController, before, uid);
    if (after) addTo(this.linksByController, after, uid);
    return true;
  }

  /** Some owner or workload has `uid` as its controller. */
  controlsLinks(uid: string): boolean {
    return this.linksByController.has(uid);
  }

  /** Workload uids `start`'s controller chain reaches, nearest first (cached until invalidated). */
  chainWorkloads(start: string): string[] {
    const cached = this.chainCache.get(start);
    if (cached) return cached;
    const chain = walkControllerChain(start, (uid) => this.linkOf(uid)?.controller);
    // Kept (and held by each pod below): exactly as long as it is, not with the room filter's growth leaves.
    const result = chain.filter((uid) => this.workloads.has(uid)).slice();
    this.chainCache.set(start, result);
    return result;
  }

  /**
   * Something at `uid` changed how chains through it resolve: drops the cached
   * chains of everything up to MAX_OWNER_HOPS below it. Calls `onWorkload` for
   * each workload below (whether it is nested may have changed) and returns
   * the pods below, whose chains must be resolved again.
   */
  invalidateBelow(uid: string, onWorkload: (uid: string) => void): string[] {
    if (!this.linksByController.has(uid) && !this.podsByController.has(uid)) {
      // Nothing below it (an owner arriving before its pods).
      this.chainCache.delete(uid);
      return [];
    }
    const affected: string[] = [];
    this.walkBelow(uid, onWorkload, (u) => {
      this.chainCache.delete(u);
      for (const p of this.podsByController.get(u)) affected.push(p);
    });
    return affected;
  }

  /** Calls `onWorkload` for every workload up to MAX_OWNER_HOPS links below `uid`. */
  workloadsBelow(uid: string, onWorkload: (uid: string) => void): void {
    this.walkBelow(uid, onWorkload);
  }

  /** Breadth-first below `uid` through owners, workloads and pods that control links. */
  private walkBelow(uid: string, onWorkload: (uid: string) => void, onVisit?: (uid: string) => void): void {
    const seen = new Set<string>([uid]);
    let frontier = [uid];
    for (let depth = 0; depth < MAX_OWNER_HOPS && frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const u of frontier) {
        onVisit?.(u);
        for (const p of this.podsByController.get(u)) {
          if (this.linksByController.has(p) && !seen.has(p)) {
            seen.add(p);
            next.push(p);
          }
        }
        for (const child of this.linksByController.get(u) ?? []) {
          if (seen.has(child)) continue;
          seen.add(child);
          next.push(child);
          if (this.workloads.has(child)) onWorkload(child);
        }
      }
      frontier = next;
    }
  }

  /** Owner kinds still in their first list (the engine says which); their objects may not have arrived yet. */
  setListingKinds(kinds: Iterable<Pick<Gvk, 'group' | 'kind'>>): void {
    const next = new Set<string>();
    for (const k of kinds) next.add(ownerKindKey(k.group, k.kind));
    this.listingKinds = next;
  }

  /**
   * The nested / top-level rule. Nested: the controller chain reaches another
   * workload of a defined kind. Owner-listing: some link of the chain has a
   * controller of a kind still in its first list, so the chain cannot be
   * followed yet (Jobs list before their JobSets).
   */
  place(e: WorkloadEntry): ChainPlace {
    if (this.isNested(e)) return 'nested';
    if (this.listingKinds.size === 0) return 'top-level';
    let cur: LinkEntry | undefined = e;
    for (let hop = 0; cur?.controller && hop < MAX_OWNER_HOPS; hop++) {
      const key = controllerKindKey(cur.obj);
      if (key !== null && this.listingKinds.has(key)) return 'owner-listing';
      cur = this.linkOf(cur.controller);
    }
    return 'top-level';
  }

  /** Whether some kind of `kindKeys` (`group/Kind`, see refKindKey) is still in its first list. */
  anyListing(kindKeys: ReadonlySet<string>): boolean {
    for (const k of this.listingKinds) if (kindKeys.has(k)) return true;
    return false;
  }

  /**
   * The reference to the first object missing on `pod`'s controller chain
   * (not in the store: absent, or its kind not visible), or null when the
   * chain ends at an object nobody controls (or loops).
   */
  missingOwner(pod: PodEntry): OwnerReference | null {
    let cur: LinkEntry = pod;
    for (let hop = 0; cur.controller && hop < MAX_OWNER_HOPS; hop++) {
      const next = this.linkOf(cur.controller);
      if (!next) return controllerRef(cur.obj);
      cur = next;
    }
    return null;
  }

  /** Part of another workload's tree (see place). */
  isNested(e: WorkloadEntry): boolean {
    if (!e.controller) return false;
    for (const w of this.chainWorkloads(e.controller)) {
      if (w !== e.uid && this.workloads.get(w)?.plan) return true;
    }
    return false;
  }
}
