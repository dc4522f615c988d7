// What a reflector remembers of each object it has told about: its trimmed
// metadata (the same object the store holds, so nothing is allocated per
// object), keyed by namespace ('' for cluster-scoped kinds) and name without
// building a `namespace/name` string per object. A relist compares against it
// (unchanged objects are not told again; vanished ones are told DELETED).
import type { KubeObject, ObjectMeta } from '../model/types.js';

export class KnownObjects {
  /** namespace ('' when cluster-scoped) → name → metadata of every object held. */
  private readonly byNamespace = new Map<string, Map<string, ObjectMeta>>();
  private count = 0;

  constructor(
    private readonly apiVersion: string,
    private readonly kind: string,
  ) {}

  get size(): number {
    return this.count;
  }

  get(namespace: string | undefined, name: string): ObjectMeta | undefined {
    return this.byNamespace.get(namespace ?? '')?.get(name);
  }

  remember(meta: ObjectMeta): void {
    const ns = meta.namespace ?? '';
    let byName = this.byNamespace.get(ns);
    if (!byName) this.byNamespace.set(ns, (byName = new Map()));
    const size = byName.size;
    byName.set(meta.name, meta);
    this.count += byName.size - size;
  }

  /** Drops an object; false when it was not held. */
  forget(meta: { namespace?: string; name: string }): boolean {
    const ns = meta.namespace ?? '';
    const byName = this.byNamespace.get(ns);
    if (!byName || !byName.delete(meta.name)) return false;
    this.count -= 1;
    if (!byName.size) this.byNamespace.delete(ns);
    return true;
  }

  /** Drops every object whose uid is not in `seen` (a relist did not name it), telling each. */
  forgetUnseen(seen: ReadonlySet<string>, onForgotten: (prev: ObjectMeta) => void): void {
    for (const byName of this.byNamespace.values()) {
      for (const prev of byName.values()) {
        if (seen.has(prev.uid)) continue;
        this.forget(prev);
        onForgotten(prev);
      }
    }
  }

  /** A DELETED-style stub of an object held. */
  tombstone(prev: ObjectMeta): KubeObject {
    const metadata: KubeObject['metadata'] = {
      name: prev.name,
      uid: prev.uid,
      resourceVersion: prev.resourceVersion ?? '',
    };
    if (prev.namespace) metadata.namespace = prev.namespace;
    return { apiVersion: this.apiVersion, kind: this.kind, metadata };
  }

  /** A DELETED-style stub of every object held (to take them out of a store). */
  tombstones(): KubeObject[] {
    const out: KubeObject[] = [];
    for (const byName of this.byNamespace.values()) for (const k of byName.values()) out.push(this.tombstone(k));
    return out;
  }

  /** uid → resourceVersion of every object held (for consistency checks). */
  versions(): Map<string, string> {
    const out = new Map<string, string>();
    for (const byName of this.byNamespace.values())
      for (const k of byName.values()) out.set(k.uid, k.resourceVersion ?? '');
    return out;
  }
}
