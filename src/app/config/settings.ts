// config.yaml: the explorer's options by their long names in camelCase under
// `wlx:`, and per kubeconfig context under `contexts: {NAME: {...}}`. Each
// value is checked as its flag's is (option-values.ts); a bad value or an
// unknown key is one file:line problem and the rest still applies.
// Precedence (applied by src/cli/settings.ts): flag > context > global > default.
import type { FieldPath } from '../../definitions/yaml-source.js';
import { configRelativePath, type PathEnv } from './paths.js';
import {
  checkDcgmSelector,
  checkGpuResource,
  checkNamespace,
  checkTopologyKey,
  parseDuration,
  parsePrometheus,
} from './option-values.js';
import { isMapping, openConfigMapping, problemAt, type ConfigProblem, type YamlMapping } from './yaml-file.js';

export interface Settings {
  prometheus?: string;
  idleAfter?: string;
  topologyKeys?: string[];
  gpuResources?: string[];
  dcgmSelector?: string;
  definitions?: string[];
  namespaces?: string[];
  protobuf?: boolean;
  skin?: string;
  screenDumpDir?: string;
  command?: string;
  headless?: boolean;
  readonly?: boolean;
}

export type SettingKey = keyof Settings;

interface KeySpec {
  /** The flag it stands for (without dashes). */
  flag: string;
  type: 'string' | 'list' | 'boolean';
  /** Throws when a value (each item of a list) is wrong. */
  check?: (value: string) => void;
  /** A path: `~/` and relative to the config directory. */
  path?: boolean;
}

export const SETTING_KEYS: Record<SettingKey, KeySpec> = {
  prometheus: { flag: 'prometheus', type: 'string', check: (v) => void parsePrometheus(v) },
  idleAfter: { flag: 'idle-after', type: 'string', check: (v) => void parseDuration(v) },
  topologyKeys: { flag: 'topology-key', type: 'list', check: checkTopologyKey },
  gpuResources: { flag: 'gpu-resource', type: 'list', check: checkGpuResource },
  dcgmSelector: { flag: 'dcgm-selector', type: 'string', check: checkDcgmSelector },
  definitions: { flag: 'definitions', type: 'list', path: true },
  namespaces: { flag: 'namespace', type: 'list', check: checkNamespace },
  protobuf: { flag: 'protobuf', type: 'boolean' },
  skin: {
    flag: 'skin',
    type: 'string',
    check: (v) => {
      if (!/^[A-Za-z0-9][-A-Za-z0-9_.]*$/.test(v)) throw new Error(`"${v}" is not a skin name (skins/NAME.yaml)`);
    },
  },
  screenDumpDir: { flag: 'screen-dump-dir', type: 'string', path: true },
  command: { flag: 'command', type: 'string' },
  headless: { flag: 'headless', type: 'boolean' },
  readonly: {
    flag: 'readonly',
    type: 'boolean',
    check: (v) => {
      if (v !== 'true') throw new Error('wlx is always read-only: readonly can only be true');
    },
  },
};

/** Keys that choose the cluster or the context: they cannot come from the file whose sections they would pick. */
const NOT_IN_CONFIG: Record<string, string> = {
  kubeconfig: 'the kubeconfig is chosen by --kubeconfig or $KUBECONFIG, not config.yaml',
  context: 'the context is chosen by --context or the kubeconfig, not config.yaml (per-context settings: contexts:)',
  demo: '--demo is a flag only',
  allNamespaces: 'all namespaces is the default; leave namespaces out (or -A on the command line)',
};

export interface ConfigSettings {
  file: string;
  exists: boolean;
  global: Settings;
  contexts: ReadonlyMap<string, Settings>;
  problems: ConfigProblem[];
  /** Line of a field (`['contexts', NAME, 'skin']`), null when the file has none. */
  lineOf(path: FieldPath): number | null;
}

function camelKeys(): string {
  return Object.keys(SETTING_KEYS).join(', ');
}

/** One key's value, checked; undefined (and a problem) when wrong. */
function settingValue(
  m: YamlMapping,
  path: FieldPath,
  key: SettingKey,
  raw: unknown,
  dir: string,
  problems: ConfigProblem[],
  pathEnv: PathEnv,
): Settings[SettingKey] | undefined {
  const spec = SETTING_KEYS[key];
  const bad = (message: string) => {
    problems.push(problemAt(m, path, `${key}: ${message}`));
    return undefined;
  };
  if (raw === null || raw === undefined) return bad('no value');
  if (spec.type === 'boolean') {
    if (typeof raw !== 'boolean') return bad(`expected true or false, not ${JSON.stringify(raw)}`);
    try {
      spec.check?.(String(raw));
    } catch (err) {
      return bad((err as Error).message);
    }
    return raw;
  }
  const items: unknown[] = spec.type === 'list' && Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const [i, item] of items.entries()) {
    const where = spec.type === 'list' && Array.isArray(raw) ? [...path, i] : path;
    if (typeof item !== 'string' && typeof item !== 'number') {
      problems.push(
        problemAt(m, where, `${key}: expected ${spec.type === 'list' ? 'a string or a list of strings' : 'a string'}`),
      );
      return undefined;
    }
    const text = String(item);
    try {
      spec.check?.(text);
    } catch (err) {
      problems.push(problemAt(m, where, `${key}: ${(err as Error).message}`));
      return undefined;
    }
    out.push(spec.path ? configRelativePath(text, dir, pathEnv) : text);
  }
  if (spec.type === 'string') {
    if (Array.isArray(raw)) return bad('expected one value, not a list');
    return out[0];
  }
  return out;
}

/** The settings of one section (`wlx:` or a context's). */
function sectionSettings(
  m: YamlMapping,
  path: FieldPath,
  section: unknown,
  dir: string,
  problems: ConfigProblem[],
  pathEnv: PathEnv,
  inWlx: boolean,
): Settings {
  const out: Settings = {};
  if (section === null || section === undefined) return out;
  if (!isMapping(section)) {
    problems.push(problemAt(m, path, 'expected a mapping of settings'));
    return out;
  }
  for (const [k, raw] of Object.entries(section)) {
    const at = [...path, k];
    if (k in SETTING_KEYS) {
      const v = settingValue(m, at, k as SettingKey, raw, dir, problems, pathEnv);
      if (v !== undefined) (out as Record<string, unknown>)[k] = v;
    } else if (k in NOT_IN_CONFIG) {
      problems.push(problemAt(m, at, `${k}: ${NOT_IN_CONFIG[k]}`));
    } else if (k === 'contexts' && inWlx) {
      problems.push(problemAt(m, at, 'contexts goes at the top level, beside wlx: (contexts: {NAME: {...}})'));
    } else {
      problems.push(problemAt(m, at, `unknown key "${k}" (known: ${camelKeys()})`));
    }
  }
  return out;
}

/** Reads config.yaml; absent is no settings. */
export function loadSettings(file: string, dir: string, pathEnv: PathEnv = {}): ConfigSettings {
  const result: ConfigSettings = {
    file,
    exists: false,
    global: {},
    contexts: new Map(),
    problems: [],
    lineOf: () => null,
  };
  const m = openConfigMapping(file, result);
  if (!m) return result;
  result.lineOf = (path) => m.lineOf(path);
  const problems = result.problems;
  const contexts = new Map<string, Settings>();
  for (const [k, v] of Object.entries(m.value)) {
    if (k === 'wlx') result.global = sectionSettings(m, ['wlx'], v, dir, problems, pathEnv, true);
    else if (k === 'contexts') {
      if (v === null) continue;
      if (!isMapping(v)) {
        problems.push(problemAt(m, ['contexts'], 'expected a mapping of context names to settings'));
        continue;
      }
      for (const [name, section] of Object.entries(v))
        contexts.set(name, sectionSettings(m, ['contexts', name], section, dir, problems, pathEnv, false));
    } else if (k === 'k9s') problems.push(problemAt(m, [k], 'the root key is wlx:, not k9s:'));
    else problems.push(problemAt(m, [k], `unknown key "${k}" (the top level has wlx: and contexts:)`));
  }
  result.contexts = contexts;
  return result;
}

export type SettingOrigin = 'context' | 'global';

/** The settings for a context: its own over the global ones, and where each came from. */
export function settingsFor(
  config: Pick<ConfigSettings, 'global' | 'contexts'>,
  context: string | null,
): { settings: Settings; origin: Partial<Record<SettingKey, SettingOrigin>> } {
  const own = context === null ? undefined : config.contexts.get(context);
  const settings: Settings = { ...config.global, ...own };
  const origin: Partial<Record<SettingKey, SettingOrigin>> = {};
  for (const k of Object.keys(settings) as SettingKey[]) origin[k] = own && k in own ? 'context' : 'global';
  return { settings, origin };
}
