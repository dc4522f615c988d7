// What hotkeys.yaml and plugins.yaml share: reading `{id: {shortCut, ...}}`
// entries, and a key taken by a built-in key or by an earlier entry is that
// entry's problem (k9s fails the whole file; wlx drops the one entry) unless
// `override: true` lets it replace the built-in.
import { builtinKeys } from '../../ui/keymap.js';
import { keyOfShortCut } from './shortcut.js';
import { isMapping, openConfigMapping, problemAt, type ConfigProblem, type YamlMapping } from './yaml-file.js';

export interface Entry {
  id: string;
  fields: Record<string, unknown>;
  key: string;
  shortCut: string;
  m: YamlMapping;
}

/** Reads `root: {id: {...}}` and resolves each entry's shortCut; `taken` holds keys already bound by the user. */
export function readEntries(
  file: string,
  root: string,
  known: readonly string[],
  taken: Map<string, string>,
  problems: ConfigProblem[],
): { exists: boolean; entries: Entry[] } {
  const loaded = { exists: false, problems };
  const m = openConfigMapping(file, loaded);
  if (!m) return { exists: loaded.exists, entries: [] };
  for (const k of Object.keys(m.value))
    if (k !== root) problems.push(problemAt(m, [k], `unknown key "${k}" (the file holds ${root}:)`));
  const all = m.value[root];
  if (all === undefined || all === null) return { exists: true, entries: [] };
  if (!isMapping(all)) {
    problems.push(problemAt(m, [root], `expected a mapping of id: {shortCut, ...}`));
    return { exists: true, entries: [] };
  }
  const builtin = builtinKeys();
  const entries: Entry[] = [];
  for (const [id, fields] of Object.entries(all)) {
    const at = [root, id];
    if (!isMapping(fields)) {
      problems.push(problemAt(m, at, `${id}: expected a mapping (shortCut, description, command, …)`));
      continue;
    }
    const unknown = Object.keys(fields).filter((k) => !known.includes(k));
    if (unknown.length) {
      problems.push(
        problemAt(m, [...at, unknown[0]], `${id}: unknown key "${unknown[0]}" (known: ${known.join(', ')})`),
      );
      continue;
    }
    if (typeof fields.shortCut !== 'string') {
      problems.push(problemAt(m, at, `${id}: shortCut is required (e.g. Shift-L, Ctrl-T)`));
      continue;
    }
    let key: string;
    try {
      key = keyOfShortCut(fields.shortCut);
    } catch (err) {
      problems.push(problemAt(m, [...at, 'shortCut'], `${id}: ${(err as Error).message}`));
      continue;
    }
    if (fields.override !== undefined && typeof fields.override !== 'boolean') {
      problems.push(problemAt(m, [...at, 'override'], `${id}: override is true or false`));
      continue;
    }
    const other = taken.get(key);
    if (other) {
      problems.push(problemAt(m, [...at, 'shortCut'], `${id}: ${fields.shortCut} is already bound by ${other}`));
      continue;
    }
    if (builtin.has(key) && fields.override !== true) {
      problems.push(
        problemAt(m, [...at, 'shortCut'], `${id}: ${fields.shortCut} is a built-in key (override: true to replace it)`),
      );
      continue;
    }
    taken.set(key, `${root} ${id}`);
    entries.push({ id, fields, key, shortCut: fields.shortCut, m });
  }
  return { exists: true, entries };
}

/** An optional string field; a problem (and false) when it is not a string. */
export function stringField(
  e: Entry,
  root: string,
  name: string,
  problems: ConfigProblem[],
): string | undefined | false {
  const v = e.fields[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  problems.push(problemAt(e.m, [root, e.id, name], `${e.id}: ${name} is a string`));
  return false;
}

export function booleanField(
  e: Entry,
  root: string,
  name: string,
  problems: ConfigProblem[],
): boolean | undefined | null {
  const v = e.fields[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  problems.push(problemAt(e.m, [root, e.id, name], `${e.id}: ${name} is true or false`));
  return null;
}
