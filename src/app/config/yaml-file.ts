// Reading one of wlx's YAML config files: its mapping and the line of any
// field in it (src/definitions/yaml-source.ts keeps the positions), and each
// problem as one `file:line: message`.
import { existsSync, readFileSync } from 'node:fs';
import { parseYamlDocuments, type FieldPath } from '../../definitions/yaml-source.js';

export interface ConfigProblem {
  file: string;
  /** 1-based; null when the problem is the file as a whole. */
  line: number | null;
  message: string;
}

export function formatProblem(p: ConfigProblem): string {
  return `${p.file}${p.line === null ? '' : `:${p.line}`}: ${p.message}`;
}

export interface YamlMapping {
  file: string;
  value: Record<string, unknown>;
  lineOf(path: FieldPath): number;
}

type YamlFileResult =
  { kind: 'absent' } | { kind: 'error'; problem: ConfigProblem } | { kind: 'ok'; mapping: YamlMapping };

export function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The mapping a config loader reads, or null when there is none: the file is
 * absent (`loaded.exists` stays false), or unreadable or not one mapping
 * (`loaded.exists` set, its problem added).
 */
export function openConfigMapping(
  file: string,
  loaded: { exists: boolean; problems: ConfigProblem[] },
): YamlMapping | null {
  const read = readYamlMapping(file);
  if (read.kind === 'absent') return null;
  loaded.exists = true;
  if (read.kind === 'ok') return read.mapping;
  loaded.problems.push(read.problem);
  return null;
}

/** The file's one document as a mapping; an empty file is an empty mapping. */
function readYamlMapping(file: string): YamlFileResult {
  if (!existsSync(file)) return { kind: 'absent' };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { kind: 'error', problem: { file, line: null, message: `cannot read: ${(err as Error).message}` } };
  }
  const docs = parseYamlDocuments(text, file).filter((d) => !d.ok || d.document.value !== undefined);
  if (!docs.length) return { kind: 'ok', mapping: { file, value: {}, lineOf: () => 1 } };
  const first = docs[0];
  if (!first.ok) return { kind: 'error', problem: { file, line: first.error.line, message: first.error.message } };
  if (docs.length > 1)
    return {
      kind: 'error',
      problem: {
        file,
        line: docs[1].ok ? docs[1].document.startLine : docs[1].error.startLine,
        message: 'one YAML document expected, found more',
      },
    };
  const doc = first.document;
  if (doc.value === null) return { kind: 'ok', mapping: { file, value: {}, lineOf: () => 1 } };
  if (!isMapping(doc.value))
    return { kind: 'error', problem: { file, line: doc.firstContentLine, message: 'expected a mapping (key: value)' } };
  return { kind: 'ok', mapping: { file, value: doc.value, lineOf: (p) => doc.lineOf(p) } };
}

/** A problem at a field of a mapping. */
export function problemAt(m: YamlMapping, path: FieldPath, message: string): ConfigProblem {
  return { file: m.file, line: m.lineOf(path), message };
}
