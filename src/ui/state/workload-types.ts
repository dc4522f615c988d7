// The workload types the explorer lists, by every name a `:` command may
// use for one (src/definitions/type-names.ts: kind, plural, CRD short
// names): `:jobset`, `:jobsets`, `:pytorchjob` list only that type.
import { gvkOf, type Gvk } from '../../definitions/types.js';
import { pluralOf, typeNames } from '../../definitions/type-names.js';
import type { ModelSnapshot, WorkloadTree } from '../../model/types.js';

export interface WorkloadType {
  /** The view's name: the plural, lower case (`jobsets`). */
  label: string;
  /** `group/Kind` of every version the type is defined at. */
  keys: string[];
  /** The names users type: kind, plural, short names (lower case; the dotted forms and definition names also work). */
  names: string[];
}

/** A workload's `group/Kind` (what a per-type view matches, at any version). */
export function workloadTypeKey(w: Pick<WorkloadTree, 'apiVersion' | 'kind'>): string {
  return `${gvkOf(w.apiVersion, w.kind).group}/${w.kind}`;
}

function parseGvk(text: string): Gvk | null {
  const parts = text.split('/');
  if (parts.length !== 3) return null;
  return { group: parts[0], version: parts[1], kind: parts[2] };
}

/** Name → type, from the snapshot's definitions and the served kinds' short names (computed per command: a few dozen). */
export function workloadTypes(snapshot: Pick<ModelSnapshot, 'definitions' | 'kinds'>): Map<string, WorkloadType> {
  const out = new Map<string, WorkloadType>();
  for (const d of snapshot.definitions) {
    const gvk = parseGvk(d.kind);
    if (!gvk) continue;
    const key = `${gvk.group}/${gvk.kind}`;
    const served = snapshot.kinds.find((k) => k.gvk.group === gvk.group && k.gvk.kind === gvk.kind);
    const type = out.get(gvk.kind.toLowerCase()) ?? { label: pluralOf(gvk.kind), keys: [], names: [] };
    if (!type.keys.includes(key)) type.keys.push(key);
    for (const n of [
      gvk.kind.toLowerCase(),
      pluralOf(gvk.kind),
      ...(served?.shortNames ?? []).map((x) => x.toLowerCase()),
    ])
      if (!type.names.includes(n)) type.names.push(n);
    for (const name of [...typeNames(gvk, { shortNames: served?.shortNames }), d.name.toLowerCase()])
      if (!out.has(name) || out.get(name) === type) out.set(name, type);
  }
  return out;
}

/** Names Tab completes for types: kinds, plurals and short names (not every dotted form). */
export function typeCommandNames(types: ReadonlyMap<string, WorkloadType>): string[] {
  return [...new Set([...types.values()].flatMap((t) => t.names))];
}
