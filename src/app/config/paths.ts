// Where wlx looks for its own files, as k9s does for its own: one directory,
// `$WLX_CONFIG_DIR`, else `$XDG_CONFIG_HOME/wlx`, else `~/.config/wlx`, with
// config.yaml, aliases.yaml, hotkeys.yaml, plugins.yaml and skins/NAME.yaml.
// What wlx writes for itself goes under the XDG state directory: screen dumps (ctrl-s) and each context's
// recent namespaces (namespace-history.ts), as k9s keeps its own.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export interface ConfigPaths {
  dir: string;
  /** Which rule chose the directory (`wlx info` says so). */
  from: '$WLX_CONFIG_DIR' | '$XDG_CONFIG_HOME' | '~/.config';
  config: string;
  aliases: string;
  hotkeys: string;
  plugins: string;
  skins: string;
}

export interface PathEnv {
  env?: NodeJS.ProcessEnv;
  /** The home directory (default: $HOME, then the OS's). */
  home?: string;
}

function homeOf(o: PathEnv): string {
  return o.home ?? (o.env ?? process.env).HOME ?? homedir();
}

export function configPaths(o: PathEnv = {}): ConfigPaths {
  const env = o.env ?? process.env;
  const [dir, from]: [string, ConfigPaths['from']] = env.WLX_CONFIG_DIR
    ? [resolve(env.WLX_CONFIG_DIR), '$WLX_CONFIG_DIR']
    : env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME)
      ? [join(env.XDG_CONFIG_HOME, 'wlx'), '$XDG_CONFIG_HOME']
      : [join(homeOf(o), '.config', 'wlx'), '~/.config'];
  return {
    dir,
    from,
    config: join(dir, 'config.yaml'),
    aliases: join(dir, 'aliases.yaml'),
    hotkeys: join(dir, 'hotkeys.yaml'),
    plugins: join(dir, 'plugins.yaml'),
    skins: join(dir, 'skins'),
  };
}

/** What wlx writes for itself: `$XDG_STATE_HOME/wlx`, else `~/.local/state/wlx`. */
export function stateDir(o: PathEnv = {}): string {
  const env = o.env ?? process.env;
  const state =
    env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homeOf(o), '.local', 'state');
  return join(state, 'wlx');
}

/** The default of `screenDumpDir`: `$XDG_STATE_HOME/wlx/screen-dumps`, else `~/.local/state/wlx/screen-dumps`. */
export function defaultScreenDumpDir(o: PathEnv = {}): string {
  return join(stateDir(o), 'screen-dumps');
}

/** A cluster's or context's name as one path segment (`<dir>/<cluster>/<context>/…`, as k9s lays them out). */
export function pathSegment(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_') || '_';
}

/** A context's own state, as k9s's per-context config: `<state dir>/clusters/<cluster>/<context>/config.yaml`. */
export function contextStateFile(where: { cluster: string; context: string }, o: PathEnv = {}): string {
  return join(stateDir(o), 'clusters', pathSegment(where.cluster), pathSegment(where.context), 'config.yaml');
}

/** A path written in a config file: `~/` is the home directory, a relative path is relative to the config directory. */
export function configRelativePath(text: string, dir: string, o: PathEnv = {}): string {
  if (text === '~') return homeOf(o);
  if (text.startsWith('~/')) return join(homeOf(o), text.slice(2));
  return resolve(dir, text);
}
