// Loading definitions from text, files and directories (and, as plain objects,
// from the cluster). Every problem names its file and line; a bad document is
// reported and skipped, the other documents of the file still load.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { classifyDocument, ProblemSink, readDefinitionDraft } from './normalise.js';
import type { Definition, DefinitionEntry, DefinitionProblem, DefinitionSource, DefinitionSourceKind } from './types.js';
import { validateDraft } from './validate.js';
import { parseYamlDocuments, type FieldPath } from './yaml-source.js';

export interface DefinitionLoadResult {
  /** Valid definitions, in document order. */
  definitions: Definition[];
  /** Every definition document found, valid or not (for listings that show invalid ones). */
  entries: DefinitionEntry[];
  problems: DefinitionProblem[];
  /** Paths that could not be read at all (missing, permission denied). */
  unreadablePaths: string[];
  /** Files read (directories expanded). */
  files: string[];
}

const DEFINITION_FILE = /\.(ya?ml|json)$/i;

function emptyResult(): DefinitionLoadResult {
  return { definitions: [], entries: [], problems: [], unreadablePaths: [], files: [] };
}

function merge(into: DefinitionLoadResult, from: DefinitionLoadResult): void {
  into.definitions.push(...from.definitions);
  into.entries.push(...from.entries);
  into.problems.push(...from.problems);
  into.unreadablePaths.push(...from.unreadablePaths);
  into.files.push(...from.files);
}

/**
 * Normalises and validates one already-parsed definition object (e.g. a Karta
 * read from the cluster). `lineOf` maps field paths to lines when the object
 * came from text. Returns the definition only when it has no errors.
 */
export function normaliseDefinitionObject(
  obj: unknown,
  source: DefinitionSource,
  lineOf?: (path: FieldPath) => number,
): { definition?: Definition; entry?: DefinitionEntry; problems: DefinitionProblem[] } {
  const sink = new ProblemSink(source.location, lineOf);
  const kind = classifyDocument(obj);
  if (kind.kind === 'other') {
    sink.add([], `not a Workload Map definition (${kind.description}); skipped`, 'warning');
    return { problems: sink.problems };
  }
  if (kind.kind === 'unsupported-version') {
    sink.add(['apiVersion'], `unsupported apiVersion "${kind.apiVersion}" for ${kind.format}`);
    return { problems: sink.problems };
  }
  const draft = readDefinitionDraft(obj, kind.format, source, sink);
  if (draft) validateDraft(draft, sink);
  const raw = obj as { metadata?: { name?: unknown } };
  const entry: DefinitionEntry = {
    name: draft?.definition.name ?? (typeof raw.metadata?.name === 'string' ? raw.metadata.name : ''),
    format: kind.format,
    source,
    valid: draft !== undefined && !sink.hasErrors,
    problems: sink.problems,
  };
  if (draft && (draft.definition.rootGvk.kind || draft.definition.rootGvk.version)) entry.rootGvk = draft.definition.rootGvk;
  if (draft && !sink.hasErrors) {
    entry.definition = draft.definition;
    return { definition: draft.definition, entry, problems: sink.problems };
  }
  return { entry, problems: sink.problems };
}

/** Loads every definition document in `text` (YAML, multi-document, or JSON). */
export function loadDefinitionText(text: string, sourceName: string, sourceKind: DefinitionSourceKind): DefinitionLoadResult {
  const result = emptyResult();
  if (/^\s*$/.test(text)) return result;
  const documents = parseYamlDocuments(text, sourceName);
  for (const parsed of documents) {
    if (!parsed.ok) {
      result.problems.push({
        file: sourceName,
        line: parsed.error.line,
        message: `invalid YAML: ${parsed.error.message}`,
        severity: 'error',
      });
      result.entries.push({
        name: '',
        format: 'Karta',
        source: { kind: sourceKind, location: sourceName, line: parsed.error.startLine },
        valid: false,
        problems: [result.problems[result.problems.length - 1]],
      });
      continue;
    }
    const { document } = parsed;
    if (document.value === undefined) continue;
    const source: DefinitionSource = { kind: sourceKind, location: sourceName, line: document.firstContentLine };
    const { definition, entry, problems } = normaliseDefinitionObject(document.value, source, document.lineOf);
    result.problems.push(...problems);
    if (entry) result.entries.push(entry);
    if (definition) result.definitions.push(definition);
  }
  return result;
}

/** Loads one file; an unreadable file is a problem, never an exception. */
export function loadDefinitionFile(path: string, sourceKind: DefinitionSourceKind = 'file'): DefinitionLoadResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const result = emptyResult();
    result.problems.push({ file: path, message: `cannot read: ${describeFsError(err)}`, severity: 'error' });
    result.unreadablePaths.push(path);
    return result;
  }
  const result = loadDefinitionText(text, path, sourceKind);
  result.files.push(path);
  return result;
}

/** Loads a file, or every *.yaml / *.yml / *.json under a directory (recursively, sorted). */
export function loadDefinitionPath(path: string, sourceKind: DefinitionSourceKind = 'file'): DefinitionLoadResult {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (err) {
    const result = emptyResult();
    result.problems.push({ file: path, message: `cannot read: ${describeFsError(err)}`, severity: 'error' });
    result.unreadablePaths.push(path);
    return result;
  }
  if (!isDirectory) return loadDefinitionFile(path, sourceKind);
  const result = emptyResult();
  for (const file of listDefinitionFiles(path, result)) merge(result, loadDefinitionFile(file, sourceKind));
  return result;
}

function listDefinitionFiles(dir: string, result: DefinitionLoadResult): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (err) {
    result.problems.push({ file: dir, message: `cannot read directory: ${describeFsError(err)}`, severity: 'error' });
    result.unreadablePaths.push(dir);
    return [];
  }
  const files: string[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const full = join(dir, name);
    let stat;
    try {
      stat = statSync(full);
    } catch {
      continue; // a dangling link is not a definition
    }
    if (stat.isDirectory()) files.push(...listDefinitionFiles(full, result));
    else if (DEFINITION_FILE.test(name)) files.push(full);
  }
  return files;
}

function describeFsError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return e.message ?? String(err);
  }
}

/** Loads many paths in order, merging their results. */
export function loadDefinitionPaths(paths: readonly string[], sourceKind: DefinitionSourceKind = 'file'): DefinitionLoadResult {
  const result = emptyResult();
  for (const path of paths) merge(result, loadDefinitionPath(path, sourceKind));
  return result;
}
