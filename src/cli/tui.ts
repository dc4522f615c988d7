// `wlx [cluster options]`: the live explorer. Opens the model source (the
// cluster engine, or the simulated cluster with --demo), runs the Ink app on
// the terminal until the user quits, and always stops the source and restores
// the terminal. `:ctx NAME` reopens the source on another context.
import { constants as osConstants } from 'node:os';
import { CLUSTER_OPTIONS, CLUSTER_OPTIONS_HELP, clusterOptionsFrom, isFleet } from './common.js';
import type { ModelSource } from '../model/types.js';
import { openModelSource } from '../app/open.js';
import type { ClusterOptions } from '../app/connect.js';
import { parseCommandArgs } from './usage.js';
import { packageVersion } from './version.js';

const HINT = 'wlx --help';

const USAGE = `Usage: wlx [--demo [--fleet]] [-n NS | -A] [--context C[,C2...] | --all-contexts]
           [--kubeconfig F] [--definitions PATH]...

The live explorer: workloads → roles → pods → nodes, with GPU rollups.
Keys: ↑↓/jk move, Enter drill down, Esc back, / filter, : command, ? help, q quit.

${CLUSTER_OPTIONS_HELP}`;

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
  const { values } = parseCommandArgs(args, { ...CLUSTER_OPTIONS, help: { type: 'boolean', short: 'h' } }, HINT);
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const options = clusterOptionsFrom(values, HINT);
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    process.stderr.write('wlx: the explorer needs a terminal (stdin and stdout); for scripts use `wlx get`\n');
    return 1;
  }
  (await import('../ui/interactive.js')).preferProductionReact();
  const { runExplorer } = await import('../ui/run.js');
  const { loadKubeconfig } = await import('../kube/kubeconfig.js');
  const loadContexts = (o: ClusterOptions) =>
    o.demo
      ? []
      : loadKubeconfig({ kubeconfig: o.kubeconfig, context: o.context })
          .kubeConfig.getContexts()
          .map((c) => c.name);

  let current = options;
  for (;;) {
    if (current.demo && !isFleet(current)) process.stderr.write('wlx: starting the simulated cluster…\n');
    const fleet = isFleet(current);
    if (fleet && current.demo) process.stderr.write('wlx: starting the simulated fleet…\n');
    let source: { stop(): Promise<void> } & ModelSource;
    try {
      // The engine in a worker thread (one per cluster of a fleet): keys and frames never wait behind ingestion.
      source = fleet
        ? await (await import('../app/fleet.js')).openFleet({ ...current, engineThread: 'worker' })
        : await openModelSource({ ...current, engineThread: 'worker' });
    } catch (err) {
      process.stderr.write(`wlx: ${(err as Error).message}\n`);
      return 1;
    }
    let exit: Awaited<ReturnType<typeof runExplorer>>;
    try {
      exit = await runExplorer({
        source,
        wlxVersion: packageVersion(),
        // Several `-n`: each is listed; the view starts on all of them.
        initialNamespace: (current.namespaces?.length ?? 0) > 1 ? null : current.namespace,
        contexts: contextNames(current, loadContexts),
        // A fleet shows its clusters together (`:clusters` narrows to one).
        canSwitchContext: !current.demo && !fleet,
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
        current = { ...current, context: exit.context };
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
