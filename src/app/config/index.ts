// wlx's own configuration, read once at start (and its settings again per
// context on `:ctx`): paths, config.yaml's settings, aliases, hotkeys,
// plugins, and the skin. Every problem is one `file:line: message`; what is
// wrong is left out and the rest applies.
import type { UserBindings } from '../../ui/user-config.js';
import type { Skin } from '../../ui/skin.js';
import { loadAliases } from './aliases.js';
import { loadHotkeys } from './hotkeys.js';
import { configPaths, type ConfigPaths, type PathEnv } from './paths.js';
import { loadPlugins } from './plugins.js';
import { loadSettings, type ConfigSettings } from './settings.js';
import { loadSkin, skinFile } from './skins.js';
import type { ConfigProblem } from './yaml-file.js';

export type { ConfigPaths } from './paths.js';
export type { Settings, SettingKey, SettingOrigin } from './settings.js';
export { settingsFor, SETTING_KEYS } from './settings.js';
export { contextStateFile, defaultScreenDumpDir } from './paths.js';
export { readNamespaceHistory, writeNamespaceHistory } from './namespace-history.js';
export { formatProblem, type ConfigProblem } from './yaml-file.js';

export interface WlxConfig {
  paths: ConfigPaths;
  settings: ConfigSettings;
  bindings: UserBindings;
  /** Which files exist (`wlx info`). */
  exists: { aliases: boolean; hotkeys: boolean; plugins: boolean };
  problems: ConfigProblem[];
}

export function loadWlxConfig(o: PathEnv = {}): WlxConfig {
  const paths = configPaths(o);
  const settings = loadSettings(paths.config, paths.dir, o);
  const aliases = loadAliases(paths.aliases);
  // Hotkeys and plugins share the user's keys: the second to take one is told.
  const taken = new Map<string, string>();
  const hotkeys = loadHotkeys(paths.hotkeys, taken);
  const plugins = loadPlugins(paths.plugins, taken);
  return {
    paths,
    settings,
    bindings: { aliases: aliases.aliases, hotkeys: hotkeys.hotkeys, plugins: plugins.plugins },
    exists: { aliases: aliases.exists, hotkeys: hotkeys.exists, plugins: plugins.exists },
    problems: [...settings.problems, ...aliases.problems, ...hotkeys.problems, ...plugins.problems],
  };
}

/**
 * The skin named by a setting: its colours, or null and the problem (a
 * missing file is one, at the `skin:` line that named it; `from` says which).
 */
export function skinOf(
  config: WlxConfig,
  name: string | undefined,
  from: { context: string } | 'global' | 'flag',
): { skin: Skin | null; problems: ConfigProblem[] } {
  if (!name) return { skin: null, problems: [] };
  const loaded = loadSkin(config.paths.skins, name);
  if (loaded.exists) return { skin: loaded.skin, problems: loaded.problems };
  const missing = `skin "${name}": ${skinFile(config.paths.skins, name)} does not exist`;
  if (from === 'flag') return { skin: null, problems: [{ file: '--skin', line: null, message: missing }] };
  const path = from === 'global' ? ['wlx', 'skin'] : ['contexts', from.context, 'skin'];
  return {
    skin: null,
    problems: [{ file: config.paths.config, line: config.settings.lineOf(path), message: missing }],
  };
}
