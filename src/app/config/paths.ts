// Where wlx looks for its own files, as k9s does for its own: one directory,
// `$WLX_CONFIG_DIR`, else `$XDG_CONFIG_HOME/wlx`, else `~/.config/wlx`, with
// config.yaml, aliases.yaml, hotkeys.yaml, plugins.yaml and skins/NAME.yaml.
// Screen dumps (ctrl-s) go under the XDG state directory, as k9s's do.
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

/** The default of `screenDumpDir`: `$XDG_STATE_HOME/wlx/screen-dumps`, else `~/.local/state/wlx/screen-dumps`. */
export function defaultScreenDumpDir(o: PathEnv = {}): string {
  const env = o.env ?? process.env;
  const state =
    env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homeOf(o), '.local', 'state');
  return join(state, 'wlx', 'screen-dumps');
}

/** A path written in a config file: `~/` is the home directory, a relative path is relative to the config directory. */
export function configRelativePath(text: string, dir: string, o: PathEnv = {}): string {
  if (text === '~') return homeOf(o);
  if (text.startsWith('~/')) return join(homeOf(o), text.slice(2));
  return resolve(dir, text);
}
