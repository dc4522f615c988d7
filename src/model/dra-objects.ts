// The resource.k8s.io objects the store holds (ResourceClaims and their
// templates by namespace/name, ResourceSlices and DeviceClasses by name), and
// which pods name each claim or template: a claim event re-reads exactly
// those pods. Node capacity from the slices is worked out once per change.
import type { KubeObject } from './types.js';
import { draCapacity, podClaimRefs, podDraClaims, type DraCapacity, type DraLookup, type PodDraClaim } from './dra.js';
import { addTo, removeFrom } from './uid-set.js';

/** The four DRA kinds, any served version (src/kube/kinds.ts watches them). */
export const DRA_KINDS = ['ResourceClaim', 'ResourceClaimTemplate', 'ResourceSlice', 'DeviceClass'] as const;
export type DraKind = (typeof DRA_KINDS)[number];

export function isDraKind(kind: unknown): kind is DraKind {
  return (DRA_KINDS as readonly unknown[]).includes(kind);
}

/** What a DRA event changes: the pods naming the claim or template, or every node's capacity. */
export interface DraChange {
  pods: Iterable<string>;
  capacity: boolean;
}

const NO_PODS: string[] = [];

export class DraObjects {
  private readonly claims = new Map<string, KubeObject>();
  private readonly templates = new Map<string, KubeObject>();
  private readonly slices = new Map<string, KubeObject>();
  private readonly classes = new Map<string, KubeObject>();
  /** `ResourceClaim ns/name` or `ResourceClaimTemplate ns/name` → uids of the pods naming it. */
  private readonly podsByRef = new Map<string, Set<string>>();
  private readonly refsByPod = new Map<string, string[]>();
  private capacityMemo: DraCapacity | null = null;

  readonly lookup: DraLookup = (kind, namespace, name) =>
    (kind === 'ResourceClaim' ? this.claims : this.templates).get(`${namespace}/${name}`);

  private mapOf(kind: DraKind): Map<string, KubeObject> {
    switch (kind) {
      case 'ResourceClaim':
        return this.claims;
      case 'ResourceClaimTemplate':
        return this.templates;
      case 'ResourceSlice':
        return this.slices;
      case 'DeviceClass':
        return this.classes;
    }
  }

  private static keyOf(obj: KubeObject): string {
    return obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name;
  }

  /** The object held of `kind` with the same namespace and name. */
  held(kind: DraKind, obj: KubeObject): KubeObject | undefined {
    return this.mapOf(kind).get(DraObjects.keyOf(obj));
  }

  /** Every object held of `kind` (a relist deletes those it no longer names). */
  objects(kind: DraKind): Iterable<KubeObject> {
    return this.mapOf(kind).values();
  }

  apply(kind: DraKind, deleted: boolean, obj: KubeObject): DraChange {
    const key = DraObjects.keyOf(obj);
    const map = this.mapOf(kind);
    if (deleted) map.delete(key);
    else map.set(key, obj);
    if (kind === 'ResourceSlice' || kind === 'DeviceClass') {
      this.capacityMemo = null;
      return { pods: NO_PODS, capacity: true };
    }
    return { pods: [...(this.podsByRef.get(`${kind} ${key}`) ?? NO_PODS)], capacity: false };
  }

  /** A pod's DRA GPU claims as of now; indexes the claims and templates it names (null: the pod is gone). */
  podClaims(uid: string, pod: KubeObject | null): PodDraClaim[] {
    const before = this.refsByPod.get(uid);
    const refs: string[] = [];
    if (pod) {
      const ns = pod.metadata.namespace ?? '';
      for (const r of podClaimRefs(pod)) {
        if (r.claimName !== null) refs.push(`ResourceClaim ${ns}/${r.claimName}`);
        if (r.template !== null) refs.push(`ResourceClaimTemplate ${ns}/${r.template}`);
      }
    }
    if (before) for (const r of before) if (!refs.includes(r)) removeFrom(this.podsByRef, r, uid);
    for (const r of refs) addTo(this.podsByRef, r, uid);
    if (refs.length) this.refsByPod.set(uid, refs);
    else this.refsByPod.delete(uid);
    return pod && refs.length ? podDraClaims(pod, this.lookup) : [];
  }

  /** GPU capacity per node from the ResourceSlices matched to the DeviceClasses (memoised until the next change). */
  capacity(): DraCapacity {
    this.capacityMemo ??= draCapacity([...this.slices.values()], [...this.classes.values()]);
    return this.capacityMemo;
  }
}
