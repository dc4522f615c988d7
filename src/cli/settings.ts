// Flags over config.yaml: for each explorer option not given on the command
// line, the current context's setting, else the global one (src/app/config/
// settings.ts reads and checks them), else wlx's default. The context is the
// one --context names, else the kubeconfig's current context (`wlx-demo`
// with --demo).
import {
  formatProblem,
  loadWlxConfig,
  settingsFor,
  SETTING_KEYS,
  type ConfigProblem,
  type SettingKey,
  type Settings,
  type WlxConfig,
} from '../app/config/index.js';
import { sanitise } from '../text/sanitise.js';

export type Origin = 'flag' | 'context' | 'global' | 'default';

/** The context the settings are for; null when the kubeconfig cannot say (then only the global ones apply). */
export async function contextOf(values: Record<string, unknown>): Promise<string | null> {
  if (values.demo) return values.fleet ? null : 'wlx-demo';
  // --context is repeatable (a fleet): one context names it; several, or --all-contexts, only the global settings apply.
  const given = (Array.isArray(values.context) ? (values.context as string[]) : []).flatMap((c) => c.split(','));
  if (given.length === 1) return given[0];
  if (given.length > 1 || values['all-contexts']) return null;
  try {
    const { loadKubeconfig } = await import('../kube/kubeconfig.js');
    return loadKubeconfig({ kubeconfig: values.kubeconfig as string | undefined }).context || null;
  } catch {
    return null;
  }
}

export interface Applied {
  /** parseArgs values with the config's filled in. */
  values: Record<string, unknown>;
  settings: Settings;
  origin: Record<SettingKey, Origin>;
}

/** `values` (parseArgs', flags only) with the settings of `context` where no flag was given. */
export function applySettings(values: Record<string, unknown>, config: WlxConfig, context: string | null): Applied {
  const { settings: fromFile, origin: fileOrigin } = settingsFor(config.settings, context);
  const out: Record<string, unknown> = { ...values };
  const settings: Settings = {};
  const origin = {} as Record<SettingKey, Origin>;
  for (const key of Object.keys(SETTING_KEYS) as SettingKey[]) {
    const flag = SETTING_KEYS[key].flag;
    const given = values[flag] !== undefined || (key === 'namespaces' && values['all-namespaces'] !== undefined);
    if (given) {
      origin[key] = 'flag';
      (settings as Record<string, unknown>)[key] = values[flag];
      continue;
    }
    const v = fromFile[key];
    if (v === undefined) {
      origin[key] = 'default';
      continue;
    }
    out[flag] = v;
    (settings as Record<string, unknown>)[key] = v;
    origin[key] = fileOrigin[key] ?? 'global';
  }
  return { values: out, settings, origin };
}

/** Loads the config and applies it to `values`; the problems are the caller's to tell. */
export async function withConfig(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Applied & { config: WlxConfig; context: string | null; problems: ConfigProblem[] }> {
  const config = loadWlxConfig({ env });
  const context = await contextOf(values);
  return { ...applySettings(values, config, context), config, context, problems: config.problems };
}

/** Problems as stderr lines (`wlx: file:line: message`); a file's text is the user's, sanitised all the same. */
export function problemText(problems: readonly ConfigProblem[]): string {
  return problems.map((p) => `wlx: ${sanitise(formatProblem(p))}\n`).join('');
}
