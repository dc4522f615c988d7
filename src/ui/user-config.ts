// What the user's own files give the explorer (read by src/app/config/):
// `:NAME` aliases, hotkeys that run a command, and plugins that run the
// user's program on the selection. The UI only shows and asks; a plugin's
// process is started by the caller (src/app/plugin-process.ts).

export interface HotkeyBinding {
  /** Its id in hotkeys.yaml. */
  id: string;
  /** The key as the explorer names it (keymap.ts keyName): `ctrl-x`, `X`, `alt-x`, `)`. */
  key: string;
  /** The shortCut as written (k9s's spelling), for help. */
  shortCut: string;
  description: string;
  /** A `:` command line. */
  command: string;
}

export interface PluginBinding {
  id: string;
  key: string;
  shortCut: string;
  description: string;
  /** Lower-case: views (workloads, roles, pods, nodes, queues, clusters), workload kinds, or `all`. */
  scopes: readonly string[];
  command: string;
  args: readonly string[];
  background: boolean;
  confirm: boolean;
}

export interface UserBindings {
  /** `:NAME` → a command line. */
  aliases: ReadonlyMap<string, string>;
  hotkeys: readonly HotkeyBinding[];
  plugins: readonly PluginBinding[];
}

export const NO_USER_BINDINGS: UserBindings = { aliases: new Map(), hotkeys: [], plugins: [] };

/** A plugin to run: its program, arguments with the selection substituted, and the environment to add. */
export interface PluginRun {
  plugin: PluginBinding;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface PluginResult {
  /** Exit code; null when ended by a signal or never started. */
  code: number | null;
  signal?: string | null;
  /** Could not be started (e.g. not found). */
  error?: string;
}
