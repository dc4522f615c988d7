// hotkeys.yaml as k9s's: `hotKeys: {id: {shortCut, description, command,
// override, keepHistory}}`: the key runs the `:` command.
import type { HotkeyBinding } from '../../ui/user-config.js';
import { booleanField, readEntries, stringField } from './bindings.js';
import { problemAt, type ConfigProblem } from './yaml-file.js';

const KNOWN = ['shortCut', 'description', 'command', 'override', 'keepHistory'];

export interface LoadedHotkeys {
  exists: boolean;
  hotkeys: HotkeyBinding[];
  problems: ConfigProblem[];
}

/** `taken`: keys the user bound already (shared with plugins.yaml). */
export function loadHotkeys(file: string, taken: Map<string, string>): LoadedHotkeys {
  const problems: ConfigProblem[] = [];
  const { exists, entries } = readEntries(file, 'hotKeys', KNOWN, taken, problems);
  const hotkeys: HotkeyBinding[] = [];
  for (const e of entries) {
    const command = stringField(e, 'hotKeys', 'command', problems);
    const description = stringField(e, 'hotKeys', 'description', problems);
    if (command === false || description === false || booleanField(e, 'hotKeys', 'keepHistory', problems) === null) {
      taken.delete(e.key);
      continue;
    }
    if (!command?.trim()) {
      problems.push(problemAt(e.m, ['hotKeys', e.id], `${e.id}: command is required (e.g. pods, ns training)`));
      taken.delete(e.key);
      continue;
    }
    hotkeys.push({
      id: e.id,
      key: e.key,
      shortCut: e.shortCut,
      description: description ?? command,
      command: command.trim().replace(/^:/, ''),
    });
  }
  return { exists, hotkeys, problems };
}
