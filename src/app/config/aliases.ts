// aliases.yaml as k9s's: `aliases: {NAME: command}`; `:NAME` runs the command
// (extra words after `:NAME` are appended to it).
import { isMapping, openConfigMapping, problemAt, type ConfigProblem } from './yaml-file.js';

export interface LoadedAliases {
  exists: boolean;
  aliases: Map<string, string>;
  problems: ConfigProblem[];
}

export function loadAliases(file: string): LoadedAliases {
  const out: LoadedAliases = { exists: false, aliases: new Map(), problems: [] };
  const m = openConfigMapping(file, out);
  if (!m) return out;
  for (const k of Object.keys(m.value))
    if (k !== 'aliases') out.problems.push(problemAt(m, [k], `unknown key "${k}" (the file holds aliases:)`));
  const list = m.value.aliases;
  if (list === undefined || list === null) return out;
  if (!isMapping(list)) {
    out.problems.push(problemAt(m, ['aliases'], 'expected a mapping of NAME: command'));
    return out;
  }
  for (const [name, command] of Object.entries(list)) {
    if (!/^[^\s:]+$/.test(name)) {
      out.problems.push(problemAt(m, ['aliases', name], `alias "${name}": a name is one word`));
      continue;
    }
    if (typeof command !== 'string' || !command.trim()) {
      out.problems.push(problemAt(m, ['aliases', name], `alias ${name}: expected a command (e.g. pods, ns training)`));
      continue;
    }
    out.aliases.set(name.toLowerCase(), command.trim().replace(/^:/, ''));
  }
  return out;
}
