// Key bindings, table-driven per view: each view lists the keys it handles
// and the action each triggers, and the help view (`?`) is generated from the
// same tables. Incident tools: w why, s startup timeline, d describe, y YAML,
// e events, l logs, o owner workload, n node.
import type { Key } from 'ink';
import type { ViewKind } from './state/ui-state.js';

export type KeyAction =
  | 'up'
  | 'down'
  | 'top'
  | 'bottom'
  | 'pageUp'
  | 'pageDown'
  | 'enter'
  | 'back'
  | 'filter'
  | 'command'
  | 'allNamespaces'
  | 'recentNamespace'
  | 'saveTable'
  | 'aliases'
  | 'readOnly'
  | 'help'
  | 'quit'
  | 'sortName'
  | 'sortAge'
  | 'sortStatus'
  | 'sortGpus'
  | 'sortUtil'
  | 'expand'
  | 'collapse'
  | 'toggle'
  | 'allPods'
  | 'why'
  | 'timeline'
  | 'describe'
  | 'yaml'
  | 'events'
  | 'logs'
  | 'owner'
  | 'node'
  | 'map'
  | 'cellUp'
  | 'cellDown'
  | 'cellLeft'
  | 'cellRight'
  | 'mapIdle';

export interface Binding {
  /** Normalised key names (see keyName). */
  keys: string[];
  /** How the help view shows the keys. */
  label: string;
  help: string;
  action: KeyAction;
}

/** k9s's keys that change the cluster: wlx answers them with a notice (readOnly). */
export const READ_ONLY_KEYS: Record<string, string> = {
  'ctrl-d': 'delete',
  'ctrl-k': 'kill',
  a: 'attach',
  t: 'transfer',
  z: 'sanitize',
  c: 'cordon',
  u: 'uncordon',
  r: 'restart / drain',
};

const readOnly = (...keys: string[]): Binding[] =>
  keys.map((k) => ({ keys: [k], label: k, help: `k9s: ${READ_ONLY_KEYS[k]} (wlx is read-only)`, action: 'readOnly' }));

/** A normalised name for a key press: `up`, `enter`, `esc`, `ctrl-f`, `space`, or the character typed (`j`, `N`). */
export function keyName(input: string, key: Key): string {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pgup';
  if (key.pageDown) return 'pgdn';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.return) return 'enter';
  if (key.escape) return 'esc';
  if (key.tab) return 'tab';
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl && input) return `ctrl-${input.toLowerCase()}`;
  // Alt-x arrives as ESC x, which Ink reads as meta with the key typed.
  if (key.meta && input && input !== '\u001b' && !key.escape) return `alt-${input}`;
  if (input === ' ') return 'space';
  return input;
}

const MOVE: Binding[] = [
  { keys: ['up', 'k'], label: '↑ k', help: 'up', action: 'up' },
  { keys: ['down', 'j'], label: '↓ j', help: 'down', action: 'down' },
  { keys: ['g', 'home'], label: 'g', help: 'first row', action: 'top' },
  { keys: ['G', 'end'], label: 'G', help: 'last row', action: 'bottom' },
  { keys: ['pgup', 'ctrl-b'], label: 'PgUp ctrl-b', help: 'page up', action: 'pageUp' },
  { keys: ['pgdn', 'ctrl-f'], label: 'PgDn ctrl-f', help: 'page down', action: 'pageDown' },
];

const GENERAL: Binding[] = [
  { keys: ['esc'], label: 'Esc', help: 'clear the filter, then back', action: 'back' },
  { keys: ['/'], label: '/', help: 'filter by regex (/!re inverts; Esc clears)', action: 'filter' },
  {
    keys: [':'],
    label: ':',
    help: 'command (:wl :nodes :map :pods :queues :defs :problems :ns :ctx :q; Tab completes)',
    action: 'command',
  },
  { keys: ['0'], label: '0', help: 'all namespaces', action: 'allNamespaces' },
  {
    keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9'],
    label: '1–9',
    help: 'the namespaces used lately, newest first (k9s favourites; :ns lists them)',
    action: 'recentNamespace',
  },
  { keys: ['ctrl-s'], label: 'ctrl-s', help: 'save the table as CSV (screenDumpDir)', action: 'saveTable' },
  { keys: ['ctrl-a'], label: 'ctrl-a', help: 'every command, workload type and alias', action: 'aliases' },
  { keys: ['?'], label: '?', help: 'help', action: 'help' },
  { keys: ['q', 'ctrl-c'], label: 'q ctrl-c', help: 'quit', action: 'quit' },
];

const SORT_NAME: Binding = { keys: ['N'], label: 'shift-N', help: 'sort by name (again: reverse)', action: 'sortName' };
const SORT_AGE: Binding = { keys: ['A'], label: 'shift-A', help: 'sort by age', action: 'sortAge' };
const SORT_STATUS: Binding = { keys: ['S'], label: 'shift-S', help: 'sort by status', action: 'sortStatus' };
// `G` is already "last row" (vi/k9s); GPU sorting takes shift-U (gpU).
const SORT_GPUS: Binding = { keys: ['U'], label: 'shift-U', help: 'sort by GPUs', action: 'sortGpus' };
// shift-T (uTil): U is taken by GPUs.
const SORT_UTIL: Binding = {
  keys: ['T'],
  label: 'shift-T',
  help: 'sort by GPU utilisation, busiest first (again: reverse; unknown last)',
  action: 'sortUtil',
};
const SORTS = [SORT_NAME, SORT_AGE, SORT_STATUS, SORT_GPUS, SORT_UTIL];

const WHY: Binding = { keys: ['w'], label: 'w', help: 'why: root causes of what is not running', action: 'why' };
const TIMELINE: Binding = { keys: ['s'], label: 's', help: 'startup timeline (pods, gangs)', action: 'timeline' };
const DESCRIBE: Binding = { keys: ['d'], label: 'd', help: 'describe', action: 'describe' };
const YAML: Binding = { keys: ['y'], label: 'y', help: 'YAML, fetched fresh', action: 'yaml' };
const EVENTS: Binding = { keys: ['e'], label: 'e', help: 'events (newest first)', action: 'events' };
const LOGS: Binding = {
  keys: ['l'],
  label: 'l',
  help: 'logs (all pods of a role/workload interleaved)',
  action: 'logs',
};
const OWNER: Binding = { keys: ['o'], label: 'o', help: "the pod's owner workload", action: 'owner' };
const NODE: Binding = { keys: ['n'], label: 'n', help: "the pod's node", action: 'node' };
const INCIDENT = [WHY, TIMELINE, DESCRIBE, YAML, EVENTS, LOGS];
const enter = (help: string): Binding => ({ keys: ['enter'], label: 'Enter', help, action: 'enter' });
const MAP: Binding = {
  keys: ['m'],
  label: 'm',
  help: "the GPU map with the workload's nodes highlighted, a colour per role",
  action: 'map',
};
const DOMAIN_TOGGLE: Binding = {
  keys: ['space'],
  label: 'space',
  help: 'collapse/expand the topology domain under the cursor',
  action: 'toggle',
};
/** The GPU map: the cursor moves over cells. */
const MAP_VIEW: Binding[] = [
  enter('the node under the cursor: GPUs, conditions, pods'),
  { keys: ['up', 'k'], label: '↑ k', help: 'cell above', action: 'cellUp' },
  { keys: ['down', 'j'], label: '↓ j', help: 'cell below', action: 'cellDown' },
  { keys: ['left', 'h'], label: '← h', help: 'cell to the left', action: 'cellLeft' },
  { keys: ['right', 'l'], label: '→ l', help: 'cell to the right', action: 'cellRight' },
  { keys: ['g', 'home'], label: 'g', help: 'first node', action: 'top' },
  { keys: ['G', 'end'], label: 'G', help: 'last node', action: 'bottom' },
  {
    keys: ['/'],
    label: '/',
    help: 'highlight the nodes of workloads matching a regex (namespace/name)',
    action: 'filter',
  },
  {
    keys: ['i'],
    label: 'i',
    help: 'colour nodes by their allocated GPUs that sit idle (again: back to allocation / utilisation)',
    action: 'mapIdle',
  },
  { keys: ['esc'], label: 'Esc', help: 'clear the highlight, then back', action: 'back' },
  ...GENERAL.filter((b) => b.action !== 'back' && b.action !== 'filter'),
];
/** Incident views scroll themselves (IncidentView); these keys reach the App. */
const INCIDENT_VIEW: Binding[] = [
  ...MOVE,
  { keys: ['/'], label: '/', help: 'search (n: next match)', action: 'filter' },
  { keys: ['esc'], label: 'Esc', help: 'clear the search, then back', action: 'back' },
  { keys: [':'], label: ':', help: 'command', action: 'command' },
  { keys: ['?'], label: '?', help: 'help', action: 'help' },
  { keys: ['q', 'ctrl-c'], label: 'q ctrl-c', help: 'quit', action: 'quit' },
];

const RO_TABLE = readOnly('ctrl-d', 'ctrl-k');

export const KEYMAP: Record<ViewKind, Binding[]> = {
  workloads: [
    enter('open the workload (its roles)'),
    ...INCIDENT,
    MAP,
    ...MOVE,
    ...SORTS,
    ...GENERAL,
    ...RO_TABLE,
    ...readOnly('r'),
  ],
  workload: [
    enter('pods of the role'),
    { keys: ['right'], label: '→', help: 'expand', action: 'expand' },
    { keys: ['left'], label: '←', help: 'collapse', action: 'collapse' },
    { keys: ['space'], label: 'space', help: 'expand/collapse', action: 'toggle' },
    { keys: ['p'], label: 'p', help: 'all pods of the workload', action: 'allPods' },
    ...INCIDENT,
    MAP,
    ...MOVE,
    ...GENERAL,
    ...RO_TABLE,
    ...readOnly('r'),
  ],
  pods: [
    enter("the pod's node"),
    { keys: ['p'], label: 'p', help: 'all pods of the workload', action: 'allPods' },
    ...INCIDENT,
    OWNER,
    NODE,
    ...MOVE,
    ...SORTS,
    ...GENERAL,
    ...RO_TABLE,
    ...readOnly('a', 't', 'z'),
  ],
  node: [
    enter('the pod in its workload'),
    ...INCIDENT,
    OWNER,
    ...MOVE,
    ...GENERAL,
    ...RO_TABLE,
    ...readOnly('a', 't', 'c', 'u', 'r'),
  ],
  nodes: [
    enter('the node: GPUs, conditions, pods'),
    DOMAIN_TOGGLE,
    { keys: ['right'], label: '→', help: 'expand the domain', action: 'expand' },
    { keys: ['left'], label: '←', help: 'collapse the domain', action: 'collapse' },
    DESCRIBE,
    YAML,
    EVENTS,
    ...MOVE,
    SORT_NAME,
    SORT_AGE,
    SORT_STATUS,
    SORT_GPUS,
    SORT_UTIL,
    ...GENERAL,
    ...RO_TABLE,
    ...readOnly('c', 'u', 'r'),
  ],
  map: MAP_VIEW,
  queues: [
    enter('its pending workloads, in line'),
    ...MOVE,
    SORT_NAME,
    SORT_STATUS,
    SORT_GPUS,
    ...GENERAL,
    ...RO_TABLE,
  ],
  queue: [enter('the workload'), WHY, TIMELINE, ...MOVE, ...GENERAL, ...RO_TABLE],
  defs: [...MOVE, ...GENERAL],
  problems: [...MOVE, ...GENERAL],
  help: [...MOVE, ...GENERAL],
  contexts: [enter('switch to the context'), ...MOVE, ...GENERAL],
  namespaces: [enter('scope every view to the namespace'), ...MOVE, ...GENERAL],
  aliases: [enter('run the command'), ...MOVE, ...GENERAL],
  why: [...INCIDENT_VIEW, TIMELINE, EVENTS, LOGS],
  timeline: [...INCIDENT_VIEW, WHY, EVENTS, LOGS],
  describe: [...INCIDENT_VIEW, YAML, EVENTS, LOGS, OWNER, NODE],
  yaml: [...INCIDENT_VIEW, DESCRIBE, EVENTS],
  events: [...INCIDENT_VIEW, DESCRIBE, YAML, LOGS],
  logs: [...INCIDENT_VIEW, DESCRIBE, EVENTS],
};

export function bindingFor(view: ViewKind, name: string): Binding | undefined {
  return KEYMAP[view].find((b) => b.keys.includes(name));
}

/** Every key some view binds to something it does (a user's hotkey or plugin on one needs `override: true`). */
export function builtinKeys(): Set<string> {
  return new Set(
    Object.values(KEYMAP).flatMap((bindings) => bindings.filter((b) => b.action !== 'readOnly').flatMap((b) => b.keys)),
  );
}
