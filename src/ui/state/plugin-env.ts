// A plugin on the row under the cursor: whether its scopes cover the view,
// the environment k9s gives a plugin ($NAME $NAMESPACE $CONTEXT $CLUSTER
// $USER $FILTER, $KUBECONFIG from the caller; in a fleet those of the row's
// cluster, on `:clusters` the cluster itself) plus wlx's own ($KIND
// $WORKLOAD $ROLE $POD $NODE $CONTAINER), and its arguments with them
// substituted as k9s does ($NAME, ${NAME}). Pure.
import type { ConnectionInfo, ModelSnapshot, NodePodEntry, WorkloadTree } from '../../model/types.js';
import { roleName, UNATTRIBUTED } from '../../model/role-name.js';
import type { Row } from '../render/table.js';
import { findPodRolePath, findRole } from '../render/roles.js';
import type { PluginBinding, PluginRun } from '../user-config.js';
import { findPodSummary, targetWorkload } from './incident.js';
import { targetOf } from './incident-nav.js';
import type { ViewFrame, ViewKind } from './ui-state.js';
import { workloadTypeKey, workloadTypes } from './workload-types.js';

/** The view scopes each view answers to (`all` answers everywhere one does). */
const VIEW_SCOPES: Partial<Record<ViewKind, readonly string[]>> = {
  workloads: ['workloads'],
  workload: ['roles'],
  pods: ['pods'],
  node: ['pods', 'nodes'],
  nodes: ['nodes'],
  map: ['nodes'],
  queues: ['queues'],
  queue: ['queues'],
  clusters: ['clusters'],
};

export interface Selection {
  env: Record<string, string>;
  /** The selected workload, for kind scopes. */
  workload: WorkloadTree | null;
  /** A selected pod, whose container $CONTAINER names (resolved by the caller: it reads the pod). */
  pod?: { namespace: string; name: string };
}

/** What the cursor is on, as a plugin's environment; null when nothing is. */
export function pluginSelection(
  frame: ViewFrame,
  row: Row | undefined,
  snapshot: ModelSnapshot,
  connection: ConnectionInfo,
  getNodePods?: (node: string) => NodePodEntry[],
): Selection | null {
  const env: Record<string, string> = {
    CONTEXT: connection.context,
    CLUSTER: connection.cluster,
    USER: connection.user,
    FILTER: frame.filter,
    // A fleet's row (or a view of one cluster) is its cluster's: its context, kubeconfig cluster and user.
    ...memberEnv(snapshot, row?.target?.kind === 'cluster' ? row.target.context : (row?.cluster ?? frame.cluster)),
  };
  if (frame.kind === 'clusters') {
    if (row?.target?.kind !== 'cluster') return null;
    return { env: { ...env, NAME: row.target.context, NAMESPACE: '' }, workload: null };
  }
  if (frame.kind === 'map' || (frame.kind === 'queues' && row)) {
    if (!row) return null;
    const name = row.target?.kind === 'queue' ? row.target.name : row.key;
    if (frame.kind === 'map') env.NODE = name;
    return { env: { ...env, NAME: name, NAMESPACE: '' }, workload: null };
  }
  const target = targetOf(frame, row, snapshot, getNodePods);
  if (!target || target.kind === 'namespace') return null;
  if (target.kind === 'node')
    return { env: { ...env, NAME: target.name, NAMESPACE: '', NODE: target.name }, workload: null };
  const w = targetWorkload(snapshot, target);
  if (w) Object.assign(env, { KIND: w.kind, WORKLOAD: w.name, NAMESPACE: w.namespace, NAME: w.name });
  if (target.kind === 'role' && w) {
    const role = findRole(w, target.rolePath);
    if (role) env.ROLE = env.NAME = roleName(role);
  }
  if (target.kind === 'pod') {
    const found = findPodSummary(snapshot, target.uid);
    Object.assign(env, { POD: target.name, NAME: target.name, NAMESPACE: target.namespace });
    // `:pods` rows come without their pods (served by the engine): the row's own link to its node says.
    const node =
      found?.pod.node ??
      (frame.kind === 'node' ? frame.nodeName : row?.target?.kind === 'node' ? row.target.name : undefined);
    if (node) env.NODE = node;
    const rolePath = w ? findPodRolePath(w, target.uid) : null;
    const role = w && rolePath && rolePath[0] !== UNATTRIBUTED ? findRole(w, rolePath) : null;
    if (role) env.ROLE = roleName(role);
    return { env, workload: w, pod: { namespace: target.namespace, name: target.name } };
  }
  return { env, workload: w };
}

/** $CONTEXT $CLUSTER $USER of a fleet's cluster (empty: not a fleet's, or no cluster). */
function memberEnv(snapshot: ModelSnapshot, context: string | undefined): Record<string, string> {
  const m = context === undefined ? undefined : snapshot.fleet?.members.find((x) => x.context === context);
  if (!m) return {};
  return { CONTEXT: m.context, CLUSTER: m.clusterName ?? m.context, ...(m.user ? { USER: m.user } : {}) };
}

/** Whether a plugin may apply in this view (its kind scopes depend on the selection): for help. */
export function pluginMayApply(plugin: PluginBinding, kind: ViewKind): boolean {
  const views = VIEW_SCOPES[kind];
  if (!views) return false;
  const viewNames = new Set(Object.values(VIEW_SCOPES).flat());
  return plugin.scopes.some((s) => s === 'all' || views.includes(s) || !viewNames.has(s));
}

/** Whether a plugin applies in this view (to this selection's workload type). */
export function pluginInScope(
  plugin: PluginBinding,
  kind: ViewKind,
  workload: WorkloadTree | null,
  snapshot: Pick<ModelSnapshot, 'definitions' | 'kinds'>,
): boolean {
  const views = VIEW_SCOPES[kind];
  if (!views) return false;
  if (plugin.scopes.includes('all') || plugin.scopes.some((s) => views.includes(s))) return true;
  if (!workload) return false;
  const types = workloadTypes(snapshot);
  const key = workloadTypeKey(workload);
  return plugin.scopes.some((s) => types.get(s)?.keys.includes(key) ?? false);
}

const ENV_REF = /\$\{(\w+)\}|\$(\w+)/g;

/** `$NAME` and `${NAME}` replaced by their values (names upper-cased, as k9s); unknown ones left as written. */
export function substituteEnv(arg: string, env: Readonly<Record<string, string>>): string {
  return arg.replace(ENV_REF, (whole, braced: string | undefined, bare: string | undefined) => {
    const v = env[(braced ?? bare ?? '').toUpperCase()];
    return v === undefined ? whole : v;
  });
}

/** The run of a plugin in this environment. */
export function pluginRun(plugin: PluginBinding, env: Readonly<Record<string, string>>): PluginRun {
  return {
    plugin,
    command: substituteEnv(plugin.command, env),
    args: plugin.args.map((a) => substituteEnv(a, env)),
    env: { ...env },
  };
}

/** The run as one line, for the confirm prompt. */
export function runText(run: PluginRun): string {
  return [run.command, ...run.args]
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}
