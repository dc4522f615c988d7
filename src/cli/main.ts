// Entry point of the `wlx` command. Subcommands are imported lazily so that
// commands that need no UI (`--version`, `definitions`, `eval`) never load ink
// or react and start fast.
import { UsageError } from './usage.js';
import { packageVersion } from './version.js';

const SUBCOMMANDS = ['get', 'definitions', 'eval', 'demo', 'info'] as const;

const TOP_HELP = `wlx — a terminal explorer for AI workloads on Kubernetes

Usage:
  wlx [--demo] [-n NS | -A] [--context C] [--kubeconfig F] [--definitions PATH]... [--protobuf]
                                  open the live explorer (TUI); --protobuf (also for get) reads
                                  pods and nodes in Kubernetes protobuf where served
  wlx get [TYPE[/NAME] | TYPE NAME] [-n NS | -A] [-o tree|json|yaml] ...
                                  print workload trees
  wlx definitions [list | validate PATH... | show NAME]
                                  list, validate and show Workload Map definitions
  wlx eval EXPR [FILE...]         evaluate a jq expression like \`jq -c\`
  wlx info [--context C]          where wlx reads its configuration, and the settings in effect
  wlx demo serve [--port N] ...   run the simulated GPU cluster (a Kubernetes API on loopback)
  wlx --version                   print the version

Cluster options go before or after the command (\`wlx --context C get -A\`).

Run \`wlx <command> --help\` for a command's options.
`;

/**
 * kubectl takes its global flags anywhere, so wlx does: `wlx --kubeconfig F get -A`
 * is `wlx get --kubeconfig F -A`. The flags before the first positional argument
 * move after it when it is a subcommand (a flag's value is not a positional).
 */
export function subcommandFirst(argv: string[], takesValue: (flag: string) => boolean): string[] {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') return argv;
    if (arg.startsWith('-') && arg !== '-') {
      if (!arg.includes('=') && takesValue(arg)) i++;
      continue;
    }
    const known = (SUBCOMMANDS as readonly string[]).includes(arg) || arg === 'defs';
    return known && i > 0 ? [arg, ...argv.slice(0, i), ...argv.slice(i + 1)] : argv;
  }
  return argv;
}

/** Whether a cluster option (`--kubeconfig`, `-n`) takes a value. */
async function clusterFlagTakesValue(): Promise<(flag: string) => boolean> {
  const { CLUSTER_OPTIONS } = await import('./common.js');
  const valued = new Set<string>();
  for (const [name, spec] of Object.entries(CLUSTER_OPTIONS) as [string, { type: string; short?: string }][]) {
    if (spec.type !== 'string') continue;
    valued.add(`--${name}`);
    if (spec.short) valued.add(`-${spec.short}`);
  }
  return (flag) => valued.has(flag);
}

export async function main(argv: string[]): Promise<number> {
  try {
    // Loading the option table only when a flag comes first keeps `wlx --version` and `wlx eval` fast.
    if (argv[0]?.startsWith('-') && argv.some((a) => !a.startsWith('-')))
      argv = subcommandFirst(argv, await clusterFlagTakesValue());
    const [first, ...rest] = argv;
    if (first === '--version' || first === '-v' || first === 'version') {
      process.stdout.write(`wlx ${packageVersion()}\n`);
      return 0;
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      process.stdout.write(TOP_HELP);
      return 0;
    }
    switch (first) {
      case 'get':
        return await (await import('./get.js')).runGet(rest);
      case 'definitions':
      case 'defs':
        return await (await import('./definitions.js')).runDefinitions(rest);
      case 'eval':
        return await (await import('./eval.js')).runEval(rest);
      case 'demo':
        return await (await import('./demo.js')).runDemo(rest);
      case 'info':
        return await (await import('./info.js')).runInfo(rest);
      default:
        if (first !== undefined && !first.startsWith('-')) {
          throw new UsageError(`unknown command "${first}"`, 'wlx --help');
        }
        return await (await import('./tui.js')).runTui(argv);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`wlx: ${err.message} (see \`${err.hint}\`)\n`);
      return 2;
    }
    throw err;
  }
}
