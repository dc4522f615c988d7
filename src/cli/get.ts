// `wlx get`: print workload trees (or the `-o json|yaml` contract) from the
// live cluster (listed once through the engine's own list path), from the
// simulated cluster (`--demo`), or offline from a dump (`--from`).
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import type { Definition } from '../definitions/types.js';
import { apiVersionOf, gvkOf } from '../definitions/types.js';
import { typeNames } from '../definitions/type-names.js';
import type {
  AccessScope,
  ClusterTotals,
  GpuCounts,
  GpuMetrics,
  NodeSummary,
  OrphanPod,
  PodSummary,
  RoleTree,
  WorkloadTree,
} from '../model/types.js';
import type { PodNode } from '../model/pod-nodes.js';
import { nodeGpuUtilisation, podGpuRollup, roleGpu, workloadGpu, type GroupGpu } from '../model/gpu-overlay.js';
import {
  EMPTY_SCHEDULING,
  gangsWithVerdicts,
  statusWithQueue,
  type SchedulingView,
  type WorkloadQueue,
} from '../model/scheduling.js';
import { formatProblem } from '../definitions/problem.js';
import { roleName, UNATTRIBUTED } from '../model/role-name.js';
import {
  nodeTopologyJson,
  roleTopologyJson,
  topologyIndex,
  topologyKeysInEffect,
  workloadTopologyJson,
} from '../model/topology.js';
import { sanitise } from '../text/sanitise.js';
import { slicesPhrase, withSlices } from '../model/gpu.js';
import { CLUSTER_OPTIONS, CLUSTER_OPTIONS_HELP, clusterOptionsFrom } from './common.js';
import { problemText, withConfig } from './settings.js';
import { parseCommandArgs, UsageError } from './usage.js';

const HINT = 'wlx get --help';

const HELP = `Usage:
  wlx get [TYPE[/NAME] | TYPE NAME] [-n NS | -A] [-l SELECTOR]
          [-o tree|json|yaml] [--from FILE|-]... [--demo]
          [--definitions PATH]... [--kubeconfig F] [--context C]
          [--gpu-resource R]... [--timeline]

Print workloads as trees (workload -> roles -> pods) with status, GPUs, nodes.

TYPE is a workload kind a definition covers, any case, singular or plural,
optionally with its group (jobset, JobSets, jobsets.jobset.x-k8s.io), a short
name the server publishes (lws), or a definition name. No TYPE: every defined
type. Workloads run by another workload (a JobSet's Jobs) are shown inside
their parent's tree, and listed on their own only when TYPE asks for them.

Options:
  -l, --selector SEL      label selector for the workloads
                          (a=b, a!=b, a in (x,y), a notin (x), a, !a)
  -o, --output FORMAT     tree (default), json or yaml ({ workloads, nodes })
  --from FILE             read objects from a dump instead of a cluster:
                          multi-document YAML, JSON or a kubectl List
                          (repeatable; - = stdin), e.g. the output of
                          kubectl get jobsets,jobs,pods,nodes -A -o yaml
  --timeline              TYPE/NAME's startup as a waterfall: each pod's
                          wait / pull / start / ready on one time axis
                          (live clusters: it reads the pods' events)
  -h, --help              show this help

${CLUSTER_OPTIONS_HELP}
Exit status: 0 ok, 1 error, 2 usage error, 3 workload not found,
4 no definition covers TYPE.
`;

const OPTIONS = {
  ...CLUSTER_OPTIONS,
  selector: { type: 'string', short: 'l' },
  output: { type: 'string', short: 'o' },
  from: { type: 'string', multiple: true },
  timeline: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const WIDTH = 80;

/** The tree's width: a terminal's own; unlimited when piped (as kubectl: scripts and grep see whole names). */
export function outputWidth(out: { isTTY?: boolean; columns?: number }): number {
  return out.isTTY ? out.columns || WIDTH : Infinity;
}

interface Target {
  type: string | null;
  name: string | null;
}

function parseTarget(positionals: string[]): Target {
  if (positionals.length === 0) return { type: null, name: null };
  if (positionals.length > 2) throw new UsageError(`too many arguments: ${positionals.slice(2).join(' ')}`, HINT);
  const [first, second] = positionals as [string, string | undefined];
  if (first.includes('/')) {
    if (second !== undefined) throw new UsageError('give either TYPE/NAME or TYPE NAME, not both', HINT);
    const slash = first.indexOf('/');
    const type = first.slice(0, slash);
    const name = first.slice(slash + 1);
    // group/version/Kind is a type too.
    if (first.split('/').length === 3) return { type: first, name: null };
    if (!type || !name) throw new UsageError(`"${first}" is not TYPE/NAME`, HINT);
    return { type, name };
  }
  return { type: first, name: second ?? null };
}

/** Definitions a TYPE names: definition name, kind, plural, with group, or group/version/Kind (case-insensitive). */
export function definitionsForType(definitions: Definition[], type: string): Definition[] {
  const q = type.trim().toLowerCase();
  const byName = definitions.filter((d) => d.name.toLowerCase() === q);
  if (byName.length) return byName;
  return definitions.filter((d) => typeNames(d.rootGvk).includes(q));
}

interface Loaded {
  /** Short names the server published for kinds (`lws` → LeaderWorkerSet); live only. */
  shortNames?: Map<string, string>;
  workloads: WorkloadTree[];
  /** Pods whose owner is not visible (absent from the dump, its kind forbidden or not served). */
  orphanPods: OrphanPod[];
  nodes: NodeSummary[];
  totals: ClusterTotals;
  definitions: Definition[];
  problems: string[];
  /** Queues and gang verdicts per workload. */
  scheduling: SchedulingView;
  access: AccessScope;
  /** Node objects not readable: the nodes as the pods see them. */
  podNodes?: PodNode[];
  /** Told once on stderr whatever the output: cluster-wide lists were forbidden, namespaces read instead. */
  notice: string | null;
  /** One DCGM scrape (live only); absent: utilisation null throughout. */
  gpuMetrics?: GpuMetrics;
  /** The topology label keys in effect (src/model/topology.ts). */
  topologyKeys: readonly string[];
  /** `--timeline`: a workload's startup waterfall as text, read while the source is still open (live only). */
  timelineOf?: (w: WorkloadTree) => Promise<string>;
  /** Closes what `timelineOf` keeps open. */
  close?: () => Promise<void>;
}

const FULL_ACCESS: AccessScope = { clusterWide: true, namespaces: [], forbidden: [] };

/** The `-o json|yaml` contract: workloads with `queue` and gangs' verdicts, nodes, orphan pods, access. */
export function jsonDocument(
  workloads: readonly WorkloadTree[],
  loaded: Pick<Loaded, 'nodes' | 'podNodes' | 'scheduling' | 'access' | 'gpuMetrics' | 'topologyKeys'>,
  orphanPods: readonly OrphanPod[],
): Record<string, unknown> {
  const metrics = loaded.gpuMetrics;
  // Without node objects there is no topology: spread and splitAcross are null, never 0.
  const topology = loaded.podNodes ? null : topologyIndex(loaded.nodes, loaded.topologyKeys);
  const pod = <P extends PodSummary>(p: P) => {
    const r = podGpuRollup(metrics, p);
    return {
      ...p,
      gpuUtilization: r?.utilisation ?? null,
      gpuMemoryUsedBytes: r?.memoryUsedBytes ?? null,
      gpuResources: p.gpuResources ?? {},
    };
  };
  const gpus = (counts: GpuCounts, g: GroupGpu) => ({ ...counts, utilization: g.utilisation, idle: g.idle });
  const role = (r: RoleTree): Record<string, unknown> => ({
    ...r,
    gpus: gpus(r.gpus, roleGpu(metrics, r)),
    ...roleTopologyJson(r, topology),
    pods: r.pods.map(pod),
    roles: r.roles.map(role),
  });
  return {
    workloads: workloads.map((w) => ({
      ...w,
      gpus: gpus(w.gpus, workloadGpu(metrics, w)),
      ...workloadTopologyJson(w, topology),
      roles: w.roles.map(role),
      unattributedPods: w.unattributedPods.map(pod),
      gangs: gangsWithVerdicts(w, loaded.scheduling.gangs.get(w.uid)),
      queue: loaded.scheduling.queues.get(w.uid) ?? null,
    })),
    // Without node access: the nodes the pods are on, capacity unknown (null, never 0).
    nodes: loaded.podNodes
      ? loaded.podNodes.map((n) => ({
          ...n,
          ready: null,
          gpuCapacity: null,
          gpuAllocatable: null,
          gpuUtilization: nodeGpuUtilisation(metrics, n),
          gpuModel: null,
          gpuResources: {},
          topology: null,
        }))
      : loaded.nodes.map((n) => ({
          ...n,
          gpuUtilization: nodeGpuUtilisation(metrics, n),
          gpuModel: n.gpuModel ?? null,
          gpuResources: n.gpuResources ?? {},
          topology: nodeTopologyJson(n, loaded.topologyKeys),
        })),
    orphanPods: orphanPods.map(pod),
    access: loaded.access,
  };
}

function readSource(path: string): string {
  if (path === '-') return readFileSync(0, 'utf8');
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new GetError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 1);
  }
}

class GetError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

async function loadOffline(
  paths: string[],
  cluster: ReturnType<typeof clusterOptionsFrom>,
  selector: string | undefined,
  includeNested: boolean,
): Promise<Loaded> {
  const { parseDump, buildOfflineModel } = await import('../kube/offline.js');
  const { parseLabelSelector } = await import('../kube/selector.js');
  const { loadDefinitions } = await import('../definitions/index.js');
  const objects: Record<string, unknown>[] = [];
  const problems: string[] = [];
  for (const p of paths) {
    let dump;
    try {
      dump = parseDump(readSource(p), p === '-' ? 'stdin' : p);
    } catch (err) {
      if (err instanceof GetError) throw err;
      throw new GetError((err as Error).message, 1);
    }
    objects.push(...dump.objects);
    problems.push(...dump.problems);
  }
  const base = loadDefinitions({ userPaths: cluster.definitionPaths, envPaths: cluster.definitionsEnv });
  const model = buildOfflineModel(objects, base, {
    gpuResources: cluster.gpuResources.length ? cluster.gpuResources : undefined,
    labelSelector: selector ? parseLabelSelector(selector) : undefined,
    includeNested,
  });
  return {
    // Nested workloads (a JobSet's Jobs) only when a TYPE asks for them.
    workloads: model.store.workloads(),
    orphanPods: model.store.orphanPods(),
    nodes: model.store.nodes(),
    totals: model.store.totals(),
    definitions: model.definitions.definitions,
    scheduling: model.scheduling.view(model.store.workloads()),
    topologyKeys: topologyKeysInEffect(cluster.topologyKeys, model.store.nodes(), model.store.kueueTopologyLevels?.()),
    access: FULL_ACCESS,
    notice: null,
    problems: [
      ...problems,
      ...model.definitions.problems.filter((p) => p.severity === 'error').map(formatProblem),
      ...model.problems,
      ...model.store.problems(),
    ],
  };
}

async function loadLive(
  cluster: ReturnType<typeof clusterOptionsFrom>,
  selector: string | undefined,
  includeNested: boolean,
  timeline = false,
): Promise<Loaded> {
  const { openModelSource } = await import('../app/open.js');
  let source;
  try {
    source = await openModelSource({ ...cluster, watch: false, labelSelector: selector, includeNested });
  } catch (err) {
    throw new GetError((err as Error).message, 1);
  }
  try {
    await source.whenSynced();
    await source.refreshQueuePositions();
    await source.scrapeGpuMetrics();
    const snap = source.getSnapshot();
    const open = source;
    const objectAccess = source.access;
    const timelineOf =
      timeline && objectAccess
        ? async (w: WorkloadTree) => {
            const { workloadTimelineText } = await import('./timeline-text.js');
            return workloadTimelineText(objectAccess, snap, w, process.stdout);
          }
        : undefined;
    const access = snap.access ?? FULL_ACCESS;
    const notice = snap.accessNotice ?? null;
    const scoped = notice !== null;
    // A namespace-scoped user's forbidden kinds are told once, by the notice.
    const unavailable = snap.kinds.filter((k) => (k.state === 'forbidden' && !scoped) || k.state === 'error');
    const shortNames = new Map<string, string>();
    for (const r of source.resources())
      for (const n of r.shortNames) shortNames.set(n.toLowerCase(), `${r.gvk.group}/${r.gvk.version}/${r.gvk.kind}`);
    return {
      shortNames,
      workloads: snap.workloads,
      orphanPods: snap.orphanPods,
      nodes: snap.nodes,
      totals: snap.totals,
      definitions: source.definitions(),
      scheduling: snap.scheduling ?? EMPTY_SCHEDULING,
      access,
      podNodes: snap.podNodes,
      gpuMetrics: snap.gpuMetrics,
      topologyKeys: snap.topologyKeys ?? [],
      timelineOf,
      close: timelineOf ? () => open.stop() : undefined,
      notice: scoped ? notice : null,
      problems: [
        ...unavailable.map((k) => `${k.resource}: ${k.state}${k.message ? `: ${k.message}` : ''}`),
        // The access and GPU notices are told once, on their own.
        ...snap.problems.filter((p) => (!scoped || p !== notice) && p !== snap.gpuMetrics?.notice?.text),
      ],
    };
  } catch (err) {
    await source.stop();
    throw new GetError((err as Error).message, 1);
  } finally {
    if (!timeline) await source.stop();
  }
}

export async function runGet(args: string[]): Promise<number> {
  // main.ts returns subcommand promises without awaiting them inside its
  // try, so a rejected UsageError would escape it: handle it here (same format).
  try {
    return await get(args);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`wlx: ${err.message} (see \`${err.hint}\`)\n`);
      return 2;
    }
    throw err;
  }
}

async function get(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, OPTIONS, HINT);
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const output = values.output ?? 'tree';
  if (!['tree', 'json', 'yaml'].includes(output))
    throw new UsageError(`-o must be tree, json or yaml, not "${output}"`, HINT);
  // config.yaml's settings where no flag was given (src/cli/settings.ts); its problems are told, not fatal.
  const configured = await withConfig(values);
  if (configured.problems.length) process.stderr.write(problemText(configured.problems));
  const cluster = clusterOptionsFrom(configured.values, HINT);
  const target = parseTarget(positionals);
  const from = values.from ?? [];
  if (from.length && (cluster.demo || cluster.kubeconfig || cluster.context)) {
    throw new UsageError('--from reads a dump: it cannot be combined with --demo, --kubeconfig or --context', HINT);
  }
  const timeline = values.timeline === true;
  if (timeline && (!target.type || !target.name))
    throw new UsageError('--timeline needs one workload: TYPE/NAME (e.g. jobset/llama-pretrain)', HINT);
  if (timeline && from.length)
    throw new UsageError(
      "--timeline reads the pods' events from a live cluster: it cannot be combined with --from",
      HINT,
    );
  const selector = values.selector;
  if (selector !== undefined) {
    const { parseLabelSelector } = await import('../kube/selector.js');
    try {
      parseLabelSelector(selector);
    } catch (err) {
      throw new UsageError((err as Error).message, HINT);
    }
  }

  let loaded: Loaded;
  try {
    if (from.length) {
      loaded = await loadOffline(from, cluster, selector, target.type !== null);
    } else {
      loaded = await loadLive(cluster, selector, target.type !== null, timeline);
    }
  } catch (err) {
    if (err instanceof GetError) {
      process.stderr.write(`wlx: ${sanitise(err.message)}\n`);
      return err.exitCode;
    }
    throw err;
  }

  try {
    return await printLoaded(loaded, target, cluster, output, timeline);
  } finally {
    await loaded.close?.();
  }
}

async function printLoaded(
  loaded: Loaded,
  target: Target,
  cluster: ReturnType<typeof clusterOptionsFrom>,
  output: string,
  timeline: boolean,
): Promise<number> {
  let workloads = loaded.workloads;
  let orphanPods = loaded.orphanPods;
  if (target.type) {
    let defs = definitionsForType(loaded.definitions, target.type);
    const short = loaded.shortNames?.get(target.type.toLowerCase());
    if (!defs.length && short) defs = definitionsForType(loaded.definitions, short);
    if (!defs.length) {
      process.stderr.write(`wlx: no definition covers the type "${sanitise(target.type)}" (see \`wlx definitions\`)\n`);
      return 4;
    }
    const kinds = new Set(defs.map((d) => `${apiVersionOf(d.rootGvk)}/${d.rootGvk.kind}`));
    workloads = workloads.filter((w) => kinds.has(`${w.apiVersion}/${w.kind}`));
    // An orphan's owner is of the type at any version (it is not there to say which).
    const ownerKinds = new Set(defs.map((d) => `${d.rootGvk.group}/${d.rootGvk.kind}`));
    orphanPods = orphanPods.filter((p) =>
      ownerKinds.has(`${gvkOf(p.owner.apiVersion, p.owner.kind).group}/${p.owner.kind}`),
    );
  }
  const namespaces = new Set(
    cluster.namespaces?.length ? cluster.namespaces : cluster.namespace ? [cluster.namespace] : [],
  );
  if (namespaces.size) {
    workloads = workloads.filter((w) => namespaces.has(w.namespace));
    orphanPods = orphanPods.filter((p) => namespaces.has(p.namespace));
  }
  if (target.name) {
    workloads = workloads.filter((w) => w.name === target.name);
    orphanPods = orphanPods.filter((p) => p.owner.name === target.name);
    if (!workloads.length && !orphanPods.length) {
      const where = namespaces.size ? ` in namespace ${[...namespaces].join(', ')}` : '';
      process.stderr.write(`wlx: ${sanitise(target.type)}/${sanitise(target.name)} not found${sanitise(where)}\n`);
      return 3;
    }
  }

  if (loaded.notice) process.stderr.write(`wlx: ${sanitise(loaded.notice)}\n`);
  if (timeline) {
    if (workloads.length !== 1 || !loaded.timelineOf) {
      const where = [...new Set(workloads.map((w) => w.namespace))].join(', ');
      process.stderr.write(
        workloads.length > 1
          ? `wlx: ${sanitise(target.name)} names ${workloads.length} workloads (namespaces ${sanitise(where)}): add -n NAMESPACE\n`
          : `wlx: --timeline: ${sanitise(target.name)} is not a workload wlx can read events for\n`,
      );
      return 1;
    }
    process.stdout.write(await loaded.timelineOf(workloads[0]));
    return 0;
  }
  const gpuNotice = loaded.gpuMetrics?.notice;
  if (gpuNotice && !loaded.notice?.includes(gpuNotice.text)) process.stderr.write(`wlx: ${sanitise(gpuNotice.text)}\n`);
  if (output === 'json') {
    process.stdout.write(JSON.stringify(jsonDocument(workloads, loaded, orphanPods), null, 2) + '\n');
  } else if (output === 'yaml') {
    process.stdout.write(
      yaml.dump(jsonDocument(workloads, loaded, orphanPods), { noRefs: true, lineWidth: -1, sortKeys: false }),
    );
  } else {
    process.stdout.write(
      renderTrees(
        workloads,
        loaded.totals,
        Date.now(),
        outputWidth(process.stdout),
        orphanPods,
        loaded.scheduling,
        loaded.podNodes,
      ),
    );
    for (const p of loaded.problems.slice(0, 20)) process.stderr.write(`wlx: warning: ${sanitise(p)}\n`);
  }
  return 0;
}

// ---------------------------------------------------------------- tree output

/** kubectl's short age: 45s, 5m, 3h, 2d, 1y. */
export function shortAge(fromIso: string | null, now: number): string {
  if (!fromIso) return '<unknown>';
  const t = Date.parse(fromIso);
  if (Number.isNaN(t)) return '<unknown>';
  const s = Math.max(0, Math.floor((now - t) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60 ? `${s % 60}s` : ''}`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return `${h}h${m % 60 ? `${m % 60}m` : ''}`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 8) return `${d}d${h % 24 ? `${h % 24}h` : ''}`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

/** Cuts text to width, keeping its start and end ("llama-pre…-x7k2p"). */
function fit(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return text.slice(0, width);
  const head = Math.ceil((width - 1) * 0.6);
  const tail = width - 1 - head;
  return `${text.slice(0, head)}…${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

/**
 * Joins parts with three spaces, wrapping onto indented lines so no line
 * exceeds the width (an unlimited width wraps at WIDTH and cuts nothing).
 */
function wrapParts(parts: string[], indent: string, width = WIDTH): string[] {
  const wrapAt = Number.isFinite(width) ? width : WIDTH;
  const lines: string[] = [];
  let cur = '';
  for (const p of parts) {
    const piece = fit(p, width - indent.length);
    if (!cur) cur = piece;
    else if (cur.length + 3 + piece.length <= wrapAt) cur += `   ${piece}`;
    else {
      lines.push(cur);
      cur = indent + piece;
    }
  }
  if (cur) lines.push(cur);
  return lines;
}

function nodeList(nodes: string[], width: number): string {
  if (!nodes.length) return '<none>';
  const all = nodes.join(',');
  if (all.length <= width) return all;
  const out: string[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const rest = nodes.length - i - 1;
    const candidate = [...out, nodes[i]].join(',') + (rest ? `,+${rest}` : '');
    if (candidate.length > width)
      return out.length ? `${out.join(',')},+${nodes.length - out.length}` : fit(`${nodes.length} nodes`, width);
    out.push(nodes[i]);
  }
  return out.join(',');
}

interface Row {
  prefix: string;
  name: string;
  status: string;
  gpu: string;
  nodes: string[];
}

function podStatusText(p: PodSummary): string {
  const word = sanitise(p.status);
  return p.reason && p.reason !== p.status ? `${word} (${sanitise(p.reason)})` : word;
}

function roleRows(roles: RoleTree[], unattributed: PodSummary[], prefix: string): Row[] {
  const rows: Row[] = [];
  type Item =
    { kind: 'role'; role: RoleTree } | { kind: 'pod'; pod: PodSummary } | { kind: 'unattributed'; pods: PodSummary[] };
  const items: Item[] = roles.map((role) => ({ kind: 'role', role }));
  if (unattributed.length) items.push({ kind: 'unattributed', pods: unattributed });
  items.forEach((item, i) => {
    const last = i === items.length - 1;
    const branch = prefix + (last ? '`-- ' : '|-- ');
    const childPrefix = prefix + (last ? '    ' : '|   ');
    if (item.kind === 'role') {
      const r = item.role;
      rows.push({
        prefix: branch,
        name: sanitise(roleName(r)),
        status: `${r.replicas.ready}/${r.replicas.desired} ready`,
        gpu: roleGpuText(r),
        nodes: r.nodes.map(sanitise),
      });
      rows.push(...podAndRoleRows(r.roles, r.pods, childPrefix));
    } else if (item.kind === 'unattributed') {
      rows.push({
        prefix: branch,
        name: UNATTRIBUTED,
        status: `${item.pods.length} pod${item.pods.length === 1 ? '' : 's'}`,
        gpu: '',
        nodes: [],
      });
      rows.push(...podAndRoleRows([], item.pods, childPrefix));
    }
  });
  return rows;
}

/** A role's `gpu:` cell: its GPUs (desired, else requested) and the slices its pods request. */
function roleGpuText(r: RoleTree): string {
  const whole = r.gpus.desired || r.gpus.requested;
  return `gpu: ${sanitise(withSlices(String(whole), whole === 0, r.gpus.slices))}`;
}

function podAndRoleRows(roles: RoleTree[], pods: PodSummary[], prefix: string): Row[] {
  const rows: Row[] = [];
  const total = roles.length + pods.length;
  let i = 0;
  for (const r of roles) {
    const last = ++i === total;
    rows.push({
      prefix: prefix + (last ? '`-- ' : '|-- '),
      name: sanitise(roleName(r)),
      status: `${r.replicas.ready}/${r.replicas.desired} ready`,
      gpu: roleGpuText(r),
      nodes: r.nodes.map(sanitise),
    });
    rows.push(...podAndRoleRows(r.roles, r.pods, prefix + (last ? '    ' : '|   ')));
  }
  for (const p of pods) {
    const last = ++i === total;
    rows.push({
      prefix: prefix + (last ? '`-- ' : '|-- '),
      name: sanitise(p.name),
      status: podStatusText(p),
      gpu: `gpu: ${sanitise(withSlices(String(p.gpus), p.gpus === 0, p.gpuSlices))}`,
      nodes: p.node ? [sanitise(p.node)] : [],
    });
  }
  return rows;
}

function renderRows(rows: Row[], width = WIDTH): string[] {
  if (!rows.length) return [];
  const statusLongest = Math.max(...rows.map((r) => r.status.length));
  const statusW = Number.isFinite(width) ? Math.min(26, statusLongest) : statusLongest;
  const gpuW = Math.max(...rows.map((r) => r.gpu.length));
  // Names get the room first; the node list shrinks to one name and "+N".
  const nodeMin = Math.max(7, ...rows.map((r) => (r.nodes.length ? r.nodes[0].length : 6)));
  const nodeW = Math.min(nodeMin, 24);
  const leftWant = Math.max(...rows.map((r) => r.prefix.length + r.name.length));
  const leftW = Math.max(12, Math.min(leftWant, width - (2 + statusW + 2 + gpuW + 2 + nodeW)));
  return rows.map((r) => {
    const left = r.prefix + fit(r.name, Math.max(1, leftW - r.prefix.length));
    const line = `${left.padEnd(leftW)}  ${fit(r.status, statusW).padEnd(statusW)}  ${r.gpu.padEnd(gpuW)}  ${nodeList(r.nodes, width - leftW - statusW - gpuW - 6)}`;
    return line.trimEnd();
  });
}

export function renderWorkload(w: WorkloadTree, now: number, width = WIDTH, queue?: WorkloadQueue): string[] {
  const lines: string[] = [];
  const status = statusWithQueue(w.status, queue).join(',');
  lines.push(
    ...wrapParts(
      [
        `${sanitise(w.kind)}/${sanitise(w.name)}`,
        `namespace: ${sanitise(w.namespace)}`,
        `status: ${sanitise(status)}`,
        `age: ${shortAge(w.createdAt, now)}`,
      ],
      '  ',
      width,
    ),
  );
  const slices = sanitise(slicesPhrase(w.gpus.slices));
  const gpuText =
    `gpu: ${w.gpus.allocated}/${w.gpus.requested} allocated` +
    (w.gpus.desired !== w.gpus.requested ? ` (${w.gpus.desired} desired)` : '') +
    (slices ? `, slices: ${slices} requested` : '');
  lines.push(
    ...wrapParts(
      [
        `  definition: ${sanitise(w.definition)} (${w.definitionSource})`,
        `ready: ${w.replicas.ready}/${w.replicas.desired}`,
        gpuText,
      ],
      '  ',
      width,
    ),
  );
  if (queue) {
    const where = [queue.name, queue.clusterQueue].filter((x): x is string => !!x).join(' -> ');
    const pos = queue.position !== null ? `, position ${queue.position}` : '';
    lines.push(`  queue: ${fit(sanitise(`${queue.system} ${where || '-'}: ${queue.state}${pos}`), width - 9)}`);
    if (queue.message && queue.state !== 'Admitted') lines.push(`    ${fit(sanitise(queue.message), width - 4)}`);
  }
  if (w.statusMessage && !w.status.includes('Running'))
    lines.push(`  message: ${fit(sanitise(w.statusMessage), width - 11)}`);
  for (const e of w.errors) lines.push(`  ! ${fit(sanitise(e), width - 4)}`);
  lines.push(...renderRows(roleRows(w.roles, w.unattributedPods, ''), width));
  return lines;
}

function countPods(roles: RoleTree[]): PodSummary[] {
  return roles.flatMap((r) => [...r.pods, ...countPods(r.roles)]);
}

/** Orphan pods grouped under their owner that is not visible, as the workloads' trees are. */
export function renderOrphans(orphans: OrphanPod[], width = WIDTH): string[] {
  const byOwner = new Map<string, OrphanPod[]>();
  for (const p of orphans) {
    const key = `${p.namespace}\u0000${p.owner.kind}\u0000${p.owner.name}`;
    const list = byOwner.get(key);
    if (list) list.push(p);
    else byOwner.set(key, [p]);
  }
  const blocks: string[] = [];
  for (const pods of byOwner.values()) {
    const { owner, namespace } = pods[0];
    const head = wrapParts(
      [`${sanitise(owner.kind)}/${sanitise(owner.name)}`, `namespace: ${sanitise(namespace)}`, 'owner not visible'],
      '  ',
      width,
    );
    blocks.push([...head, ...renderRows(podAndRoleRows([], pods, ''), width)].join('\n'));
  }
  return blocks;
}

export function renderTrees(
  workloads: WorkloadTree[],
  totals: ClusterTotals,
  now: number,
  width = WIDTH,
  orphans: OrphanPod[] = [],
  scheduling: SchedulingView = EMPTY_SCHEDULING,
  podNodes?: PodNode[],
): string {
  if (!workloads.length && !orphans.length) return 'No workloads found.\n';
  const blocks = workloads.map((w) => renderWorkload(w, now, width, scheduling.queues.get(w.uid)).join('\n'));
  if (orphans.length) blocks.push(`Pods whose owner is not visible:\n\n${renderOrphans(orphans, width).join('\n\n')}`);
  const pods = [...workloads.flatMap((w) => [...countPods(w.roles), ...w.unattributedPods]), ...orphans];
  const running = pods.filter((p) => p.status === 'Running').length;
  const requested = workloads.reduce((n, w) => n + w.gpus.requested, 0);
  const allocated = workloads.reduce((n, w) => n + w.gpus.allocated, 0);
  const summary = wrapParts(
    [
      `${workloads.length} workload${workloads.length === 1 ? '' : 's'}, ${pods.length} pods (${running} running)`,
      `gpu: ${allocated} allocated, ${requested} requested`,
      podNodes
        ? `cluster: nodes not readable; pods are on ${podNodes.length} nodes, gpu capacity unknown, ${totals.gpuPending} pending`
        : `cluster: ${totals.nodes} nodes, ${totals.gpuAllocatable} gpu allocatable, ${totals.gpuFree} free, ${totals.gpuPending} pending`,
    ],
    '',
    width,
  );
  return `${blocks.join('\n\n')}\n\n${summary.join('\n')}\n`;
}
