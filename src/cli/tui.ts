// `wlx [options]`: the live explorer. Reads wlx's config (flags over the
// context's settings over the global ones, src/cli/settings.ts), opens the
// model source (the cluster engine, or the simulated cluster with --demo),
// runs the Ink app on the terminal until the user quits, and always stops the
// source and restores the terminal. `:ctx NAME` reopens the source on
// another context, with that context's settings.
import { constants as osConstants } from 'node:os';
import { CLUSTER_OPTIONS, CLUSTER_OPTIONS_HELP, clusterOptionsFrom, isFleet } from './common.js';
import { openModelSource } from '../app/open.js';
import type { FleetSource } from '../app/fleet.js';
import type { ClusterOptions } from '../app/connect.js';
import { parseCommandArgs } from './usage.js';
import { packageVersion } from './version.js';
import { applySettings, problemText, withConfig, type Applied } from './settings.js';
import {
  contextStateFile,
  defaultScreenDumpDir,
  formatProblem,
  readNamespaceHistory,
  skinOf,
  writeNamespaceHistory,
} from '../app/config/index.js';
import { sanitise } from '../text/sanitise.js';

const HINT = 'wlx --help';

/** The explorer's own options (besides the cluster options `wlx get` shares). */
export const EXPLORER_OPTIONS = {
  command: { type: 'string', short: 'c' },
  headless: { type: 'boolean' },
  readonly: { type: 'boolean' },
  skin: { type: 'string' },
  'screen-dump-dir': { type: 'string' },
} as const;

export const EXPLORER_OPTIONS_HELP = `Explorer options (also config.yaml keys: docs/configuration.md):
  -c, --command VIEW      open with this : command (e.g. map, pods, jobsets)
  --headless              no header
  --readonly              accepted for k9s habits: wlx is always read-only
  --skin NAME             colours from skins/NAME.yaml in the config directory
  --screen-dump-dir DIR   where ctrl-s saves tables as CSV
`;

const USAGE = `Usage: wlx [--demo [--fleet]] [-n NS | -A] [--context C[,C2...] | --all-contexts]
           [--kubeconfig F] [--definitions PATH]... [-c VIEW]

The live explorer: workloads → roles → pods → nodes, with GPU rollups.
Keys: ↑↓/jk move, Enter drill down, Esc back, / filter, : command, ? help, q quit.
Settings come from flags, then config.yaml (\`wlx info\` shows which).

${CLUSTER_OPTIONS_HELP}
${EXPLORER_OPTIONS_HELP}`;

function contextNames(options: ClusterOptions, loadContexts: (o: ClusterOptions) => string[]): string[] {
  try {
    return loadContexts(options);
  } catch {
    return [];
  }
}

function signalNumber(signal: NodeJS.Signals): number {
  return (osConstants.signals as Record<string, number>)[signal] ?? 1;
}

export async function runTui(args: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    args,
    { ...CLUSTER_OPTIONS, ...EXPLORER_OPTIONS, help: { type: 'boolean', short: 'h' } },
    HINT,
  );
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const flags = values as Record<string, unknown>;
  const first = await withConfig(flags);
  const { config } = first;
  let applied: Applied = first;
  let options = clusterOptionsFrom(applied.values, HINT);
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    process.stderr.write('wlx: the explorer needs a terminal (stdin and stdout); for scripts use `wlx get`\n');
    return 1;
  }
  // Told once on the terminal (left above the explorer's screen) and in the flash line.
  if (config.problems.length) process.stderr.write(problemText(config.problems));
  (await import('../ui/interactive.js')).preferProductionReact();
  const { runExplorer } = await import('../ui/run.js');
  const { loadKubeconfig } = await import('../kube/kubeconfig.js');
  const { runPluginProcess } = await import('../app/plugin-process.js');
  const { writeTableDump } = await import('../app/table-dump.js');
  const loadContexts = (o: ClusterOptions) =>
    o.demo ? [] : loadKubeconfig({ kubeconfig: o.kubeconfig, context: o.context }).contexts;
  const contextNamespace = (o: ClusterOptions): string[] => {
    if (o.demo) return [];
    try {
      const ns = loadKubeconfig({ kubeconfig: o.kubeconfig, context: o.context }).contextNamespace;
      return ns ? [ns] : [];
    } catch {
      return [];
    }
  };

  let context = first.context;
  // Each context keeps its own keys 1–9 (as k9s's favourites), within the session and in its state file.
  const recentByContext = new Map<string | null, readonly string[]>();
  for (;;) {
    const settings = applied.settings;
    const skinFrom =
      applied.origin.skin === 'flag' ? 'flag' : applied.origin.skin === 'context' && context ? { context } : 'global';
    const skin = skinOf(config, settings.skin, skinFrom);
    const problems = [...config.problems, ...skin.problems];
    if (skin.problems.length) process.stderr.write(problemText(skin.problems));
    const fleet = isFleet(options);
    if (options.demo) process.stderr.write(`wlx: starting the simulated ${fleet ? 'fleet' : 'cluster'}…\n`);
    let source: Awaited<ReturnType<typeof openModelSource>> | FleetSource;
    try {
      // The engine in a worker thread (one per cluster of a fleet): keys and frames never wait behind ingestion.
      source = fleet
        ? await (await import('../app/fleet.js')).openFleet({ ...options, engineThread: 'worker' })
        : await openModelSource({ ...options, engineThread: 'worker' });
    } catch (err) {
      process.stderr.write(`wlx: ${(err as Error).message}\n`);
      return 1;
    }
    const opened = source;
    // Not the demo's (a new simulated cluster each run) nor a fleet's (several contexts at once).
    const historyFile = options.demo || fleet ? null : contextStateFile(opened.getConnectionInfo());
    const history = historyFile && !recentByContext.has(context) ? readNamespaceHistory(historyFile) : null;
    if (history?.problems.length) {
      process.stderr.write(problemText(history.problems));
      problems.push(...history.problems);
    }
    // The namespaces given go first; else the saved ones, else (as k9s's favourites start) the context's.
    const start = options.namespaces?.length
      ? options.namespaces
      : history?.namespaces.length
        ? []
        : contextNamespace(options);
    const recent = recentByContext.get(context) ?? [...new Set([...start, ...(history?.namespaces ?? [])])];
    // As k9s: the kubeconfig wlx reads (the demo's with --demo), else $KUBECONFIG as given.
    const kubeconfig = source.kubeconfigPath() ?? process.env.KUBECONFIG ?? '';
    const dumpDir = settings.screenDumpDir ?? defaultScreenDumpDir();
    let exit: Awaited<ReturnType<typeof runExplorer>>;
    try {
      exit = await runExplorer({
        source,
        wlxVersion: packageVersion(),
        // Several `-n`: each is listed; the view starts on all of them.
        initialNamespace: (options.namespaces?.length ?? 0) > 1 ? null : options.namespace,
        contexts: contextNames(options, loadContexts),
        // A fleet shows its clusters together (`:clusters` narrows to one).
        canSwitchContext: !options.demo && !fleet,
        bindings: config.bindings,
        skin: skin.skin,
        headless: settings.headless === true,
        initialCommand: settings.command,
        recentNamespaces: recent,
        onRecentNamespaces: historyFile
          ? (namespaces) => {
              try {
                writeNamespaceHistory(historyFile, namespaces);
              } catch (err) {
                return sanitise(`recent namespaces not saved: ${(err as Error).message}`);
              }
            }
          : undefined,
        initialFlash: problems.length
          ? {
              text: `${problems.length} config problem${problems.length === 1 ? '' : 's'}: ${sanitise(formatProblem(problems[0]))}${problems.length > 1 ? ' (wlx info lists them)' : ''}`,
              level: 'warn',
              sticky: true,
            }
          : undefined,
        runPlugin: (run) => runPluginProcess(run),
        pluginEnv: { KUBECONFIG: kubeconfig },
        saveTable: async (dump) => {
          const c = opened.getConnectionInfo();
          return writeTableDump(dumpDir, { cluster: c.cluster || 'cluster', context: c.context || 'context' }, dump);
        },
      });
    } finally {
      await source.stop().catch(() => undefined);
    }
    switch (exit.kind) {
      case 'quit':
        // A fleet's cluster still opening (a server that never answers) must not keep wlx running.
        if (fleet) setTimeout(() => process.exit(0), 1000).unref();
        return 0;
      case 'switchContext':
        // The new context's settings, under the same flags.
        recentByContext.set(context, exit.recentNamespaces);
        context = exit.context;
        applied = applySettings({ ...flags, context: exit.context }, config, exit.context);
        options = clusterOptionsFrom(applied.values, HINT);
        continue;
      case 'signal': {
        const code = 128 + signalNumber(exit.signal);
        // Whatever still holds the event loop, the user asked us to go.
        setTimeout(() => process.exit(code), 1000).unref();
        return code;
      }
      case 'crash': {
        const e = exit.error;
        process.stderr.write(`wlx: crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
        setTimeout(() => process.exit(1), 1000).unref();
        return 1;
      }
    }
  }
}
