// The `:` command line: parsing and Tab completion. Pure functions.

export type Command =
  | { kind: 'view'; view: 'workloads' | 'nodes' | 'map' | 'pods' | 'queues' | 'defs' | 'clusters' }
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
  { names: ['defs', 'definitions'], help: 'Workload Map definitions and their problems' },
  { names: ['clusters', 'cl'], help: 'every cluster of the fleet: state, nodes, GPUs by model (Enter: only it)' },
  { names: ['ns', 'namespace'], arg: 'namespace', help: 'scope to a namespace (`all` for every namespace)' },
  { names: ['ctx', 'context'], arg: 'context', help: 'switch kubeconfig context' },
  { names: ['help'], help: 'key help' },
  { names: ['q', 'quit', 'q!'], help: 'quit' },
];

export function parseCommand(text: string): Command {
  const [name = '', ...args] = text.trim().split(/\s+/);
  const arg = args.join(' ');
  switch (name.toLowerCase()) {
    case 'workloads':
    case 'workload':
    case 'wl':
      return { kind: 'view', view: 'workloads' };
    case 'nodes':
    case 'node':
    case 'no':
      return { kind: 'view', view: 'nodes' };
    case 'map':
    case 'gpumap':
      return { kind: 'view', view: 'map' };
    case 'pods':
    case 'pod':
    case 'po':
      return { kind: 'view', view: 'pods' };
    case 'queues':
    case 'queue':
    case 'cq':
    case 'clusterqueues':
      return { kind: 'view', view: 'queues' };
    case 'defs':
    case 'def':
    case 'definitions':
      return { kind: 'view', view: 'defs' };
    case 'clusters':
    case 'cluster':
    case 'cl':
      return { kind: 'view', view: 'clusters' };
    case 'ns':
    case 'namespace':
      if (!arg) return { kind: 'error', message: 'usage: :ns NAME|all' };
      return { kind: 'namespace', namespace: arg === 'all' || arg === '*' ? null : arg };
    case 'ctx':
    case 'context':
      if (!arg) return { kind: 'error', message: 'usage: :ctx NAME' };
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
    default:
      return {
        kind: 'error',
        message: `unknown command "${name}" (Tab completes; try :workloads :nodes :map :pods :queues :clusters :defs :ns :ctx :q)`,
      };
  }
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
 * are completed to their common prefix.
 */
export function completeCommand(
  text: string,
  namespaces: readonly string[],
  contexts: readonly string[],
): { text: string; candidates: string[] } {
  const m = /^(\S*)(\s+)?(.*)$/.exec(text) ?? ['', '', undefined, ''];
  const name = m[1] ?? '';
  if (m[2] === undefined) {
    const all = COMMANDS.flatMap((c) => c.names.map((n) => ({ n, spec: c })));
    const hits = all.filter((x) => x.n.startsWith(name.toLowerCase()));
    if (hits.length === 1) return { text: hits[0].n + (hits[0].spec.arg ? ' ' : ''), candidates: [hits[0].n] };
    const names = hits.map((h) => h.n);
    return { text: commonPrefix(names) || name, candidates: names };
  }
  const spec = COMMANDS.find((c) => c.names.includes(name.toLowerCase()));
  if (!spec?.arg) return { text, candidates: [] };
  const pool = spec.arg === 'namespace' ? ['all', ...namespaces] : [...contexts];
  const arg = m[3] ?? '';
  const hits = pool.filter((x) => x.startsWith(arg));
  if (hits.length === 1) return { text: `${name} ${hits[0]}`, candidates: hits };
  return { text: `${name} ${commonPrefix(hits) || arg}`, candidates: hits };
}
