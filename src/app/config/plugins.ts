// plugins.yaml as k9s's: `plugins: {id: {shortCut, description, scopes,
// command, args, background, confirm}}`. Scopes name wlx's views (k9s's
// spellings of them too: pod, po, node, no), a workload kind (jobset), or all.
// wlx is read-only as k9s is with --readonly: like k9s then, a plugin marked
// `dangerous: true` is not loaded (and said so).
import type { PluginBinding } from '../../ui/user-config.js';
import { booleanField, readEntries, stringField } from './bindings.js';
import { problemAt, type ConfigProblem } from './yaml-file.js';

const KNOWN = [
  'shortCut',
  'description',
  'scopes',
  'command',
  'args',
  'background',
  'confirm',
  'dangerous',
  'override',
  'inputs',
  'pipes',
  'overwriteOutput',
];

const VIEW_SCOPES: Record<string, string> = {
  all: 'all',
  workloads: 'workloads',
  workload: 'workloads',
  wl: 'workloads',
  roles: 'roles',
  role: 'roles',
  pods: 'pods',
  pod: 'pods',
  po: 'pods',
  nodes: 'nodes',
  node: 'nodes',
  no: 'nodes',
  queues: 'queues',
  queue: 'queues',
  cq: 'queues',
  clusterqueues: 'queues',
  clusters: 'clusters',
  cluster: 'clusters',
};

/** A scope as the explorer matches it: a view's name, `all`, or a workload type's name (lower case). */
export function normaliseScope(scope: string): string {
  const s = scope.trim().toLowerCase();
  return VIEW_SCOPES[s] ?? s;
}

export interface LoadedPlugins {
  exists: boolean;
  plugins: PluginBinding[];
  problems: ConfigProblem[];
}

export function loadPlugins(file: string, taken: Map<string, string>): LoadedPlugins {
  const problems: ConfigProblem[] = [];
  const { exists, entries } = readEntries(file, 'plugins', KNOWN, taken, problems);
  const plugins: PluginBinding[] = [];
  for (const e of entries) {
    const at = (f: string) => ['plugins', e.id, f];
    const drop = (field: string, message: string) => {
      problems.push(problemAt(e.m, at(field), `${e.id}: ${message}`));
      taken.delete(e.key);
    };
    const command = stringField(e, 'plugins', 'command', problems);
    const description = stringField(e, 'plugins', 'description', problems);
    const background = booleanField(e, 'plugins', 'background', problems);
    const confirm = booleanField(e, 'plugins', 'confirm', problems);
    const dangerous = booleanField(e, 'plugins', 'dangerous', problems);
    if ([command, description].includes(false) || [background, confirm, dangerous].includes(null)) {
      taken.delete(e.key);
      continue;
    }
    if (!command) {
      drop('command', 'command is required (the program to run)');
      continue;
    }
    if (dangerous) {
      drop(
        'dangerous',
        'dangerous: true: wlx is read-only, and like k9s --readonly it does not load dangerous plugins',
      );
      continue;
    }
    if (e.fields.inputs !== undefined) {
      drop('inputs', 'inputs are not supported by wlx (give the values in args)');
      continue;
    }
    if (e.fields.pipes !== undefined) {
      drop('pipes', 'pipes are not supported by wlx (use command: sh, args: [-c, "a | b"])');
      continue;
    }
    const rawScopes = e.fields.scopes;
    if (!Array.isArray(rawScopes) || !rawScopes.length || rawScopes.some((s) => typeof s !== 'string')) {
      drop('scopes', 'scopes is a list of views (workloads, roles, pods, nodes, queues, clusters), kinds or all');
      continue;
    }
    const rawArgs = e.fields.args ?? [];
    if (!Array.isArray(rawArgs) || rawArgs.some((a) => typeof a !== 'string' && typeof a !== 'number')) {
      drop('args', 'args is a list of strings');
      continue;
    }
    if (e.fields.overwriteOutput !== undefined)
      problems.push(
        problemAt(
          e.m,
          at('overwriteOutput'),
          `${e.id}: overwriteOutput is not supported (the flash line shows the exit status)`,
        ),
      );
    plugins.push({
      id: e.id,
      key: e.key,
      shortCut: e.shortCut,
      description: description || e.id,
      scopes: [...new Set((rawScopes as string[]).map(normaliseScope))],
      command,
      args: (rawArgs as Array<string | number>).map(String),
      background: background ?? false,
      confirm: confirm ?? false,
    });
  }
  return { exists, plugins, problems };
}
