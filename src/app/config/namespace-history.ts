// The namespaces keys 1–9 reach, kept per context from one session to the next as k9s keeps its favourites
// (`k9s.namespace.favorites` in its per-context config.yaml): `wlx: {namespace: {favorites: [...]}}` in the
// context's state file (paths.ts contextStateFile). wlx writes it; whatever else the file holds is kept.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import yaml from 'js-yaml';
import { MAX_RECENT_NAMESPACES } from '../../ui/state/ui-state.js';
import { isMapping, openConfigMapping, problemAt, type ConfigProblem } from './yaml-file.js';

export interface NamespaceHistory {
  /** Most recent first, at most MAX_RECENT_NAMESPACES. */
  namespaces: string[];
  /** Each bad entry or field, with its file and line; the good entries are still used. */
  problems: ConfigProblem[];
}

/** A Kubernetes namespace name (RFC 1123 label). */
const NAMESPACE_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

const FAVORITES = ['wlx', 'namespace', 'favorites'] as const;

export function readNamespaceHistory(file: string): NamespaceHistory {
  const loaded = { exists: false, problems: [] as ConfigProblem[] };
  const m = openConfigMapping(file, loaded);
  const out: NamespaceHistory = { namespaces: [], problems: loaded.problems };
  if (!m) return out;
  let at: unknown = m.value;
  for (let i = 0; i < FAVORITES.length; i++) {
    if (!isMapping(at)) {
      out.problems.push(problemAt(m, FAVORITES.slice(0, i), `${FAVORITES[i - 1]}: expected a mapping`));
      return out;
    }
    at = at[FAVORITES[i]];
    if (at === undefined || at === null) return out;
  }
  if (!Array.isArray(at)) {
    out.problems.push(problemAt(m, FAVORITES, 'favorites: expected a list of namespace names'));
    return out;
  }
  at.forEach((v, i) => {
    if (typeof v !== 'string' || !NAMESPACE_NAME.test(v))
      out.problems.push(problemAt(m, [...FAVORITES, i], `favorites: not a namespace name: ${JSON.stringify(v)}`));
    else if (!out.namespaces.includes(v)) out.namespaces.push(v);
  });
  if (out.namespaces.length > MAX_RECENT_NAMESPACES) {
    out.problems.push(
      problemAt(
        m,
        [...FAVORITES, MAX_RECENT_NAMESPACES],
        `favorites: ${out.namespaces.length} namespaces, keys 1–9 reach the first ${MAX_RECENT_NAMESPACES}`,
      ),
    );
    out.namespaces = out.namespaces.slice(0, MAX_RECENT_NAMESPACES);
  }
  return out;
}

/**
 * Saves `namespaces` (at most MAX_RECENT_NAMESPACES) as the context's favourites, keeping the file's other
 * keys; readable by the user only. A file that is not YAML wlx can read is left as it is (its problem was
 * told at start). Throws when the file cannot be written.
 */
export function writeNamespaceHistory(file: string, namespaces: readonly string[]): void {
  let doc: Record<string, unknown> = {};
  if (existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = yaml.load(readFileSync(file, 'utf8'));
    } catch {
      return;
    }
    if (isMapping(parsed)) doc = parsed;
    else if (parsed !== undefined && parsed !== null) return;
  }
  const wlx = isMapping(doc.wlx) ? doc.wlx : {};
  const namespace = isMapping(wlx.namespace) ? wlx.namespace : {};
  const next = {
    ...doc,
    wlx: { ...wlx, namespace: { ...namespace, favorites: namespaces.slice(0, MAX_RECENT_NAMESPACES) } },
  };
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Written whole, then renamed over the old one: a wlx stopped halfway never leaves half a file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, yaml.dump(next, { lineWidth: -1 }), { mode: 0o600 });
  renameSync(partial, file);
}
