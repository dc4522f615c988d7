// The set of definitions in effect: built-in files, user files and the
// cluster's Kartas, one definition per root GVK with precedence
// cluster > user files > built-in (and, within one source kind, the later one
// wins: `--definitions` after $WLX_DEFINITIONS, later files after earlier).
// Pure: the cluster source arrives as plain objects from the engine.
import { fileURLToPath } from 'node:url';
import { loadDefinitionPaths, normaliseDefinitionObject, type DefinitionLoadResult } from './load.js';
import { isRecord } from './normalise.js';
import {
  gvkKey,
  gvkOf,
  type Definition,
  type DefinitionEntry,
  type DefinitionProblem,
  type DefinitionSource,
  type DefinitionSourceKind,
  type Gvk,
} from './types.js';

const SOURCE_RANK: Record<DefinitionSourceKind, number> = { builtin: 0, file: 1, cluster: 2 };

/** The built-in catalog shipped with the package (`definitions/` at its root). */
export function builtinDefinitionsDir(): string {
  // From dist/src/definitions/registry.js, three levels up is the package root.
  return fileURLToPath(new URL('../../../definitions/', import.meta.url));
}

/** `$WLX_DEFINITIONS` is a ':'-separated path list (empty entries ignored). */
export function definitionPathsFromEnv(value: string | undefined): string[] {
  return (value ?? '').split(':').filter((p) => p.trim() !== '');
}

export interface LoadDefinitionsOptions {
  /** `--definitions` paths, in command-line order (files or directories). */
  userPaths?: readonly string[];
  /** Load the built-in catalog (default true). */
  includeBuiltin?: boolean;
  /** Where the built-in catalog is (default: the package's `definitions/`). */
  builtinDir?: string;
  /** The `$WLX_DEFINITIONS` value; default `process.env.WLX_DEFINITIONS`. Pass '' to ignore the environment. */
  envPaths?: string;
  /** Karta (or ResourceInterface) objects read from the cluster. */
  clusterObjects?: readonly unknown[];
}

export function loadDefinitions(options: LoadDefinitionsOptions = {}): DefinitionSet {
  const builtin =
    options.includeBuiltin === false
      ? emptyLoad()
      : loadDefinitionPaths([options.builtinDir ?? builtinDefinitionsDir()], 'builtin');
  const envPaths = definitionPathsFromEnv(options.envPaths ?? process.env.WLX_DEFINITIONS);
  const user = loadDefinitionPaths([...envPaths, ...(options.userPaths ?? [])], 'file');
  return new DefinitionSet([builtin, user], loadClusterObjects(options.clusterObjects ?? []));
}

function emptyLoad(): DefinitionLoadResult {
  return { definitions: [], entries: [], problems: [], unreadablePaths: [], files: [] };
}

/** Where a cluster object is reported from: `kartas.run.ai/<name>`. */
function clusterLocation(obj: unknown): string {
  const kind = isRecord(obj) && typeof obj.kind === 'string' ? obj.kind : '';
  const metadata = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '(unnamed)';
  return kind === 'ResourceInterface' ? `resourceinterfaces.optimization.nvidia.com/${name}` : `kartas.run.ai/${name}`;
}

function loadClusterObjects(objects: readonly unknown[]): DefinitionLoadResult {
  const result = emptyLoad();
  for (const obj of objects) {
    const source: DefinitionSource = { kind: 'cluster', location: clusterLocation(obj) };
    const { definition, entry, problems } = normaliseDefinitionObject(obj, source);
    result.problems.push(...problems);
    if (entry) result.entries.push(entry);
    if (definition) result.definitions.push(definition);
  }
  return result;
}

function describeSource(source: DefinitionSource): string {
  const where = source.line !== undefined ? `${source.location}:${source.line}` : source.location;
  return source.kind === 'cluster' ? `cluster ${where}` : `${source.kind} ${where}`;
}

/** Lower-case plural the way Kubernetes derives most resource names. */
export function guessPlural(kind: string): string {
  const lower = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

export class DefinitionSet {
  /** The definitions in effect: one per root GVK, sorted by name. */
  readonly definitions: Definition[];
  /** Every valid definition, including those shadowed by a higher-precedence source. */
  readonly all: Definition[];
  /** Every definition document, valid or not, with `shadowedBy` set on shadowed ones. */
  readonly entries: DefinitionEntry[];
  /** Load and validation problems of every source, plus collision warnings. */
  readonly problems: DefinitionProblem[];
  /** Paths given that could not be read. */
  readonly unreadablePaths: string[];
  private readonly byKey = new Map<string, Definition>();

  constructor(
    private readonly localSources: readonly DefinitionLoadResult[],
    private readonly clusterSource: DefinitionLoadResult = emptyLoad(),
  ) {
    const sources = [...localSources, clusterSource];
    this.entries = sources.flatMap((s) => s.entries.map((e) => ({ ...e })));
    this.all = sources.flatMap((s) => s.definitions);
    this.unreadablePaths = sources.flatMap((s) => s.unreadablePaths);
    this.problems = sources.flatMap((s) => s.problems);

    // Stable sort by rank keeps load order within a rank; the last one wins.
    const ranked = this.all.map((d, i) => ({ d, i })).sort((a, b) => SOURCE_RANK[a.d.source.kind] - SOURCE_RANK[b.d.source.kind] || a.i - b.i);
    const shadowed = new Map<Definition, Definition>();
    for (const { d } of ranked) {
      const key = gvkKey(d.rootGvk);
      const previous = this.byKey.get(key);
      if (previous) {
        shadowed.set(previous, d);
        this.problems.push({
          file: d.source.location,
          ...(d.source.line !== undefined ? { line: d.source.line } : {}),
          message: `definition "${d.name}" for ${key} overrides "${previous.name}" from ${describeSource(previous.source)}`,
          severity: 'warning',
        });
      }
      this.byKey.set(key, d);
    }
    for (const entry of this.entries) {
      let winner = entry.definition ? shadowed.get(entry.definition) : undefined;
      // Follow the chain to the definition finally in effect.
      while (winner && shadowed.has(winner)) winner = shadowed.get(winner);
      if (winner) entry.shadowedBy = winner.source;
    }
    this.definitions = [...this.byKey.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The definition in effect for a root GVK. */
  byGvk(gvk: Gvk): Definition | undefined {
    return this.byKey.get(gvkKey(gvk));
  }

  /** The definition in effect for an object's `apiVersion` and `kind`. */
  forObject(apiVersion: string, kind: string): Definition | undefined {
    return this.byGvk(gvkOf(apiVersion, kind));
  }

  /**
   * Every definition in effect that `query` names, case-insensitively: its
   * definition name, kind, plural or singular resource, each optionally
   * qualified by group (`jobsets.jobset.x-k8s.io`) or by version and group
   * (`jobsets.v1alpha2.jobset.x-k8s.io`), or `group/version/Kind`.
   */
  matchKind(query: string): Definition[] {
    const q = query.trim().toLowerCase();
    if (q === '') return [];
    const byName = this.definitions.filter((d) => d.name.toLowerCase() === q);
    if (byName.length) return byName;
    return this.definitions.filter((d) => namesOf(d.rootGvk).has(q));
  }

  /** The one definition `query` names (see matchKind); the first by name when several match. */
  byKind(query: string): Definition | undefined {
    return this.matchKind(query)[0];
  }

  /** The effective or shadowed definition with this metadata.name (effective first). */
  byName(name: string): Definition | undefined {
    const lower = name.toLowerCase();
    return this.definitions.find((d) => d.name.toLowerCase() === lower) ?? this.all.find((d) => d.name.toLowerCase() === lower);
  }

  /** The same local sources with a new set of cluster objects (hot reload of Kartas). */
  withCluster(objects: readonly unknown[]): DefinitionSet {
    return new DefinitionSet(this.localSources, loadClusterObjects(objects));
  }
}

function namesOf(gvk: Gvk): Set<string> {
  const kind = gvk.kind.toLowerCase();
  const group = gvk.group.toLowerCase();
  const version = gvk.version.toLowerCase();
  const names = [kind, guessPlural(gvk.kind)];
  const out = new Set<string>(names);
  for (const name of names) {
    if (group) {
      out.add(`${name}.${group}`);
      out.add(`${name}.${version}.${group}`);
    }
  }
  out.add(`${group}/${version}/${kind}`);
  out.add(group ? `${kind}.${version}.${group}` : `${kind}.${version}`);
  return out;
}
