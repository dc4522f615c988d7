// The names a workload type answers to, as kubectl and k9s users type them:
// its kind, its plural, the short names its CRD publishes, each also with
// `.group` and `.version.group`, and `group/version/Kind`; lower case.
// `wlx get TYPE` and the explorer's `:TYPE` commands both read them here.
import type { Gvk } from './types.js';

/** English plural of a kind, as the API server's default plural (for kinds not yet discovered). */
export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

/** Every name of the type; `served` adds the plural and short names discovery found. */
export function typeNames(gvk: Gvk, served?: { resource?: string; shortNames?: readonly string[] }): string[] {
  const { group, version, kind } = gvk;
  const k = kind.toLowerCase();
  const base = [k, served?.resource?.toLowerCase() ?? pluralOf(kind)];
  const all = new Set<string>([...base, ...(served?.shortNames ?? []).map((s) => s.toLowerCase())]);
  if (group)
    for (const n of base) {
      all.add(`${n}.${group.toLowerCase()}`);
      all.add(`${n}.${version.toLowerCase()}.${group.toLowerCase()}`);
    }
  all.add(`${group.toLowerCase()}/${version.toLowerCase()}/${k}`);
  return [...all];
}
