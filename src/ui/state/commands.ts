// The `:` command line: parsing and Tab completion. Pure functions.
// Besides wlx's own commands: every workload type by its kind, plural and
// short names (`:jobset`), and the user's aliases (aliases.yaml), which are
// looked up first, as k9s's user aliases override its own.
import { nearest } from '../../text/nearest.js';
import type { WorkloadType } from './workload-types.js';

export type ViewCommand =
  | 'workloads'
  | 'nodes'
  | 'map'
  | 'pods'
  | 'queues'
  | 'defs'
  | 'problems'
  | 'events'
  | 'aliases'
  | 'contexts'
  | 'namespaces';

export type Command =
  /** namespace: a name given after the view's (`:pods training`), null for `all`; absent: unchanged. */
  | { kind: 'view'; view: ViewCommand; namespace?: string | null }
  | { kind: 'type'; type: WorkloadType; namespace?: string | null }
  | { kind: 'namespace'; namespace: string | null }
  | { kind: 'context'; context: string }
  | { kind: 'quit' }
  | { kind: 'help' }
  | { kind: 'error'; message: string };

interface CommandSpec {
  names: string[];
  /** What the argument completes from. */
  arg?: 'namespace' | 'context';
  help: string;
}

export const COMMANDS: CommandSpec[] = [
  { names: ['workloads', 'wl'], help: 'all workloads (home)' },
  { names: ['nodes', 'no'], help: 'nodes with GPU capacity and use' },
  { names: ['map', 'gpumap'], help: 'the GPU map: every node a cell, by topology domain (Enter: the node)' },
  { names: ['pods', 'po'], help: 'every pod of every workload' },
  { names: ['queues', 'cq'], help: 'Kueue ClusterQueues: GPU quota, usage, pending (Enter: the line)' },
  { names: ['events', 'ev'], help: "the namespace's events, newest first (/ filters)" },
  { names: ['defs', 'definitions'], help: 'Workload Map definitions and their problems' },
  {
    names: ['problems', 'pr'],
    help: 'every problem (connection, access, GPU metrics, kinds, definitions) and since when',
  },
  { names: ['aliases', 'alias'], help: 'every command, workload type and alias (ctrl-a)' },
  {
    names: ['ns', 'namespace'],
    arg: 'namespace',
    help: 'scope to a namespace (`all` for every namespace); alone: pick one',
  },
  { names: ['ctx', 'context'], arg: 'context', help: 'switch kubeconfig context; alone: pick one' },
  { names: ['help'], help: 'key help' },
  { names: ['q', 'quit', 'q!'], help: 'quit' },
];

const VIEWS: Record<string, ViewCommand> = {
  workloads: 'workloads',
  workload: 'workloads',
  wl: 'workloads',
  nodes: 'nodes',
  node: 'nodes',
  no: 'nodes',
  map: 'map',
  gpumap: 'map',
  pods: 'pods',
  pod: 'pods',
  po: 'pods',
  queues: 'queues',
  queue: 'queues',
  cq: 'queues',
  clusterqueues: 'queues',
  events: 'events',
  event: 'events',
  ev: 'events',
  defs: 'defs',
  def: 'defs',
  definitions: 'defs',
  problems: 'problems',
  problem: 'problems',
  pr: 'problems',
  aliases: 'aliases',
  alias: 'aliases',
};

export interface CommandContext {
  /** The user's aliases (aliases.yaml), name → command line. */
  aliases?: ReadonlyMap<string, string>;
  /** Workload types by name (workload-types.ts). */
  types?: ReadonlyMap<string, WorkloadType>;
}

const namespaceArg = (arg: string): string | null => (arg === 'all' || arg === '*' ? null : arg);

export function parseCommand(text: string, ctx: CommandContext = {}): Command {
  const [word = '', ...args] = text.trim().split(/\s+/);
  const arg = args.join(' ');
  const name = word.toLowerCase();
  const alias = ctx.aliases?.get(name);
  if (alias !== undefined) {
    // An alias may name another, never itself (directly or around a loop).
    const rest = new Map(ctx.aliases);
    rest.delete(name);
    return parseCommand(arg ? `${alias} ${arg}` : alias, { ...ctx, aliases: rest });
  }
  const view = VIEWS[name];
  if (view) return arg ? { kind: 'view', view, namespace: namespaceArg(arg) } : { kind: 'view', view };
  switch (name) {
    case 'ns':
    case 'namespace':
      if (!arg) return { kind: 'view', view: 'namespaces' };
      return { kind: 'namespace', namespace: namespaceArg(arg) };
    case 'ctx':
    case 'context':
    case 'contexts':
      if (!arg) return { kind: 'view', view: 'contexts' };
      return { kind: 'context', context: arg };
    case 'q':
    case 'q!':
    case 'quit':
      return { kind: 'quit' };
    case 'help':
    case '?':
      return { kind: 'help' };
    case '':
      return { kind: 'error', message: 'empty command' };
  }
  const type = ctx.types?.get(name);
  if (type) return arg ? { kind: 'type', type, namespace: namespaceArg(arg) } : { kind: 'type', type };
  // A typing slip: the nearest command, workload type or alias (`:jobsett` → did you mean jobset?).
  const guess = nearest(name, [...Object.keys(VIEWS), ...(ctx.types?.keys() ?? []), ...(ctx.aliases?.keys() ?? [])]);
  return {
    kind: 'error',
    message: `unknown command "${word}" (${guess ? `did you mean ${guess}? ` : ''}Tab completes; ctrl-a lists every command, type and alias)`,
  };
}

function commonPrefix(words: string[]): string {
  if (!words.length) return '';
  let p = words[0];
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/**
 * Tab completion: the completed line and the candidates. A unique match is
 * completed (with a trailing space for commands taking an argument); several
 * are completed to their common prefix. `names`: more command names (workload
 * types, aliases).
 */
export function completeCommand(
  text: string,
  namespaces: readonly string[],
  contexts: readonly string[],
  names: readonly string[] = [],
): { text: string; candidates: string[] } {
  const m = /^(\S*)(\s+)?(.*)$/.exec(text) ?? ['', '', undefined, ''];
  const name = m[1] ?? '';
  if (m[2] === undefined) {
    const all = [
      ...COMMANDS.flatMap((c) => c.names.map((n) => ({ n, arg: c.arg !== undefined }))),
      ...names.filter((n) => !COMMANDS.some((c) => c.names.includes(n))).map((n) => ({ n, arg: false })),
    ];
    const hits = all.filter((x) => x.n.startsWith(name.toLowerCase()));
    if (hits.length === 1) return { text: hits[0].n + (hits[0].arg ? ' ' : ''), candidates: [hits[0].n] };
    const found = [...new Set(hits.map((h) => h.n))];
    return { text: commonPrefix(found) || name, candidates: found };
  }
  const spec = COMMANDS.find((c) => c.names.includes(name.toLowerCase()));
  if (!spec?.arg) return { text, candidates: [] };
  const pool = spec.arg === 'namespace' ? ['all', ...namespaces] : [...contexts];
  const arg = m[3] ?? '';
  const hits = pool.filter((x) => x.startsWith(arg));
  if (hits.length === 1) return { text: `${name} ${hits[0]}`, candidates: hits };
  return { text: `${name} ${commonPrefix(hits) || arg}`, candidates: hits };
}
