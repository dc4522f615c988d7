// `wlx info`: as `k9s info`, every file wlx reads and whether it is there,
// then the settings in effect for the context (and where each comes from:
// flag, context, global, default), then every config problem.
import { existsSync, readdirSync } from 'node:fs';
import { CLUSTER_OPTIONS } from './common.js';
import { EXPLORER_OPTIONS } from './tui.js';
import { parseCommandArgs } from './usage.js';
import { withConfig, type Origin } from './settings.js';
import {
  contextStateFile,
  defaultScreenDumpDir,
  formatProblem,
  readNamespaceHistory,
  skinOf,
  SETTING_KEYS,
  type SettingKey,
} from '../app/config/index.js';
import { loadKubeconfig } from '../kube/kubeconfig.js';
import { sanitise } from '../text/sanitise.js';

const HINT = 'wlx info --help';

const HELP = `Usage: wlx info [--context C] [--kubeconfig F] [explorer options]

Prints where wlx reads its configuration (as \`k9s info\`), whether each file
exists, the settings in effect for the context (flags given here count, as
they would for \`wlx\`), and any problem in the files, with file:line.
Exit status 0 (problems are printed, not fatal; wlx starts without what is wrong).
`;

/** What each setting is when nothing sets it. */
const DEFAULTS: Record<SettingKey, string> = {
  prometheus: '- (the dcgm-exporter pods through the API server)',
  idleAfter: '60s',
  topologyKeys: '- (region, zone, Kueue Topology or known rack/block labels, NVLink domain)',
  gpuResources: '- (nvidia.com/gpu, amd.com/gpu)',
  dcgmSelector: "- (the GPU Operator's and the Helm chart's labels)",
  definitions: '- (built-in, then $WLX_DEFINITIONS, then the cluster)',
  namespaces: '- (all)',
  protobuf: 'false',
  skin: '- (wlx colours)',
  screenDumpDir: defaultScreenDumpDir(),
  command: '- (workloads)',
  headless: 'false',
  readonly: 'true',
};

function show(v: unknown): string {
  if (Array.isArray(v)) return v.map(String).join(', ');
  return String(v);
}

function state(path: string): string {
  return existsSync(path) ? 'exists' : 'absent';
}

function recentNamespacesFile(kubeconfig: string | undefined, context: string | null) {
  if (context === null) return null;
  let cluster: string;
  try {
    cluster = loadKubeconfig({ kubeconfig, context }).cluster;
  } catch {
    return null;
  }
  const file = contextStateFile({ cluster, context });
  return { file, ...readNamespaceHistory(file) };
}

export async function runInfo(args: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    args,
    { ...CLUSTER_OPTIONS, ...EXPLORER_OPTIONS, help: { type: 'boolean', short: 'h' } },
    HINT,
  );
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const applied = await withConfig(values);
  const { config, context, settings, origin } = applied;
  const p = config.paths;
  const skinFrom = origin.skin === 'flag' ? 'flag' : origin.skin === 'context' && context ? { context } : 'global';
  const skin = skinOf(config, settings.skin, skinFrom);
  const skins = existsSync(p.skins)
    ? readdirSync(p.skins)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => f.slice(0, -5))
    : [];
  const rows: Array<[string, string]> = [
    ['Config directory', `${p.dir} (from ${p.from})`],
    ['Config', `${p.config} (${state(p.config)})`],
    ['Aliases', `${p.aliases} (${state(p.aliases)})`],
    ['Hotkeys', `${p.hotkeys} (${state(p.hotkeys)})`],
    ['Plugins', `${p.plugins} (${state(p.plugins)})`],
    ['Skins', `${p.skins} (${skins.length ? skins.join(', ') : 'none'})`],
    ['ScreenDumps', show(settings.screenDumpDir ?? defaultScreenDumpDir())],
    ['Context', context === null ? '- (the kubeconfig names none: global settings only)' : context],
  ];
  // The context's recent namespaces (keys 1–9), kept from the last session.
  const history = recentNamespacesFile(values.kubeconfig, context);
  if (history) rows.push(['Namespaces', `${history.file} (${history.namespaces.join(', ') || state(history.file)})`]);
  const out: string[] = rows.map(([k, v]) => `${k.padEnd(18)} ${sanitise(v)}`);
  out.push('', `Settings for ${context === null ? 'no context' : `context ${sanitise(context)}`}:`);
  for (const key of Object.keys(SETTING_KEYS) as SettingKey[]) {
    const o: Origin = origin[key];
    const v = o === 'default' ? DEFAULTS[key] : show(settings[key]);
    out.push(`  ${key.padEnd(15)} ${sanitise(v)}${o === 'default' ? '' : ` (${o})`}`);
  }
  const b = config.bindings;
  out.push(
    '',
    `Aliases: ${b.aliases.size}   Hotkeys: ${b.hotkeys.length}   Plugins: ${b.plugins.length}` +
      (b.plugins.length ? ` (${b.plugins.map((x) => `${x.shortCut} ${x.id}`).join(', ')})` : ''),
  );
  const problems = [...config.problems, ...skin.problems, ...(history?.problems ?? [])];
  if (problems.length) {
    out.push('', `Problems (${problems.length}):`);
    for (const pr of problems) out.push(`  ${sanitise(formatProblem(pr))}`);
  }
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}
