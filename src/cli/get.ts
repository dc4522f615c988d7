// `wlx get`: print workload trees (or the `-o json|yaml` contract) from the
// live cluster (listed once through the engine's own list path), from the
// simulated cluster (`--demo`), or offline from a dump (`--from`).
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { type Definition, apiVersionOf, gvkOf } from '../definitions/types.js';
import { pluralOf, typeNames } from '../definitions/type-names.js';
import type { AccessScope, ClusterTotals, ModelSnapshot, OrphanPod, WorkloadTree } from '../model/types.js';
import type { ModelSource } from '../model/source.js';
import { EMPTY_SCHEDULING } from '../model/scheduling/index.js';
import { formatProblem } from '../definitions/problem.js';
import { topologyKeysInEffect } from '../model/topology.js';
import { sanitise } from '../text/sanitise.js';
import { nearest } from '../text/nearest.js';
import { unreadableNamespaceText } from '../model/namespace-access.js';
import { CLUSTER_OPTIONS, CLUSTER_OPTIONS_HELP, clusterOptionsFrom, isFleet } from './common.js';
import { problemText, withConfig } from './settings.js';
import { parseCommandArgs, UsageError } from './usage.js';
import { fleetJsonDocument, jsonDocument, type JsonSources } from './printers/json.js';
import { outputWidth, renderFleetTrees, renderTrees, type FleetTreeMember } from './printers/tree.js';
import type { ClusterSummary, FleetLinks } from '../model/fleet/types.js';

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
  -v, --verbose           also tell facts that are not problems on stderr
                          (a kind watched at an older served version)
  -h, --help              show this help

${CLUSTER_OPTIONS_HELP}
Exit status: 0 ok, 1 error, 2 usage error, 3 workload not found,
4 no definition covers TYPE, 6 a namespace given with -n is not readable
(every kind answered 403 Forbidden; the readable ones are still printed).
`;

/** `-n NS` names a namespace the user may not read (every kind 403). */
const EXIT_UNREADABLE = 6;

/** The access notice without its first part, the unreadable namespaces' (told on its own line). */
function withoutUnreadable(notice: string | null): string | null {
  const rest = notice?.split('; ').slice(1).join('; ');
  return rest || null;
}

const OPTIONS = {
  ...CLUSTER_OPTIONS,
  selector: { type: 'string', short: 'l' },
  output: { type: 'string', short: 'o' },
  from: { type: 'string', multiple: true },
  timeline: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

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

/** The type name nearest a mistyped TYPE: kinds in lower case first, then plurals, short names, definition names. */
export function nearestType(
  type: string,
  definitions: readonly Definition[],
  shortNames?: ReadonlyMap<string, string>,
): string | null {
  const kinds = definitions.map((d) => d.rootGvk.kind.toLowerCase());
  const plurals = definitions.map((d) => pluralOf(d.rootGvk.kind));
  return nearest(type, [...kinds, ...plurals, ...(shortNames?.keys() ?? []), ...definitions.map((d) => d.name)]);
}

/** Definitions a TYPE names: definition name, kind, plural, with group, or group/version/Kind (case-insensitive). */
export function definitionsForType(definitions: Definition[], type: string): Definition[] {
  const q = type.trim().toLowerCase();
  const byName = definitions.filter((d) => d.name.toLowerCase() === q);
  if (byName.length) return byName;
  return definitions.filter((d) => typeNames(d.rootGvk).includes(q));
}

interface Loaded extends JsonSources {
  /** Short names the server published for kinds (`lws` → LeaderWorkerSet); live only. */
  shortNames?: Map<string, string>;
  workloads: WorkloadTree[];
  /** Pods whose owner is not visible (absent from the dump, its kind forbidden or not served). */
  orphanPods: OrphanPod[];
  totals: ClusterTotals;
  definitions: Definition[];
  problems: string[];
  /** True and worth knowing, not problems (`-v`): a kind watched at an older served version. */
  facts?: string[];
  /** Told once on stderr whatever the output: cluster-wide lists were forbidden, namespaces read instead. */
  notice: string | null;
  /** `--timeline`: a workload's startup waterfall as text, read while the source is still open (live only). */
  timelineOf?: (w: WorkloadTree) => Promise<string>;
  /** Closes what `timelineOf` keeps open. */
  close?: () => Promise<void>;
  /** Several clusters: each member's sources, every cluster's line, the MultiKueue links. */
  fleet?: {
    members: (JsonSources & FleetTreeMember)[];
    clusters: ClusterSummary[];
    links: FleetLinks;
  };
}

const FULL_ACCESS: AccessScope = { clusterWide: true, namespaces: [], forbidden: [] };
const NOTHING_READ: AccessScope = { clusterWide: false, namespaces: [], forbidden: [] };

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
    cluster: null,
    notice: null,
    problems: [
      ...problems,
      ...model.definitions.problems.filter((p) => p.severity === 'error').map(formatProblem),
      ...model.problems,
      ...model.store.problems(),
    ],
  };
}

/** The source `open` gives; failing to open is exit 1. */
async function opened<T extends ModelSource>(open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (err) {
    throw new GetError((err as Error).message, 1);
  }
}

/** Everything a listing reads is in: the lists, the queue positions, the GPU readings. */
async function settled(source: ModelSource): Promise<void> {
  await source.whenSynced();
  await source.refreshQueuePositions();
  await source.scrapeGpuMetrics();
}

/** What a cluster's and a fleet's load read alike: the server's short names (lower-cased → `group/version/Kind`) and the lists. */
function listed(
  source: ModelSource,
  snap: ModelSnapshot,
): Pick<Loaded, 'shortNames' | 'workloads' | 'orphanPods' | 'nodes' | 'totals' | 'definitions' | 'scheduling'> {
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
  };
}

async function loadLive(
  cluster: ReturnType<typeof clusterOptionsFrom>,
  selector: string | undefined,
  includeNested: boolean,
  timeline = false,
): Promise<Loaded> {
  const { openModelSource } = await import('../app/open.js');
  const source = await opened(() =>
    openModelSource({ ...cluster, watch: false, labelSelector: selector, includeNested }),
  );
  try {
    await settled(source);
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
    // A namespace-scoped user's forbidden kinds are told once, by the notice; the snapshot's problems name the others.
    const unavailable = snap.kinds.filter(
      (k) => k.state === 'error' && !snap.problems.some((p) => p.startsWith(`${k.resource}: `)),
    );
    return {
      ...listed(source, snap),
      access,
      podNodes: snap.podNodes,
      gpuMetrics: snap.gpuMetrics,
      topologyKeys: snap.topologyKeys ?? [],
      cluster: source.getConnectionInfo().context,
      timelineOf,
      close: timelineOf ? () => open.stop() : undefined,
      notice: scoped ? notice : null,
      facts: (snap.problemEntries ?? []).filter((e) => e.level === 'fact').map((e) => e.text),
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

/** Every cluster of a fleet, listed once; a cluster that does not answer within the connect timeout is listed dead. */
async function loadFleet(
  cluster: ReturnType<typeof clusterOptionsFrom>,
  selector: string | undefined,
  includeNested: boolean,
): Promise<Loaded> {
  const { openFleet } = await import('../app/fleet.js');
  const source = await opened(() => openFleet({ ...cluster, watch: false, labelSelector: selector, includeNested }));
  try {
    await settled(source);
    const snap = source.getSnapshot();
    const fleet = snap.fleet!;
    const members = fleet.members.map((m) => {
      const s = m.snapshot;
      return {
        summary: m.summary,
        cluster: m.context,
        nodes: s?.nodes ?? [],
        podNodes: s?.podNodes,
        scheduling: s?.scheduling ?? EMPTY_SCHEDULING,
        // A cluster that never answered was read nowhere: not listed in `access.clusterWideIn`.
        access: s?.access ?? NOTHING_READ,
        gpuMetrics: s?.gpuMetrics,
        topologyKeys: s?.topologyKeys ?? [],
        links: { context: m.context, links: fleet.links },
      };
    });
    const notices = fleet.members
      .filter((m) => m.snapshot?.accessNotice)
      .map((m) => `${m.context}: ${m.snapshot!.accessNotice}`);
    return {
      ...listed(source, snap),
      access: snap.access ?? FULL_ACCESS,
      topologyKeys: [],
      cluster: null,
      notice: notices.length ? notices.join('; ') : null,
      problems: snap.problems.filter((p) => !notices.some((n) => p.endsWith(n.slice(n.indexOf(': ') + 2)))),
      fleet: { members, clusters: fleet.members.map((m) => m.summary), links: fleet.links },
    };
  } finally {
    await source.stop();
  }
}

export async function runGet(args: string[]): Promise<number> {
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
  if (from.length && (cluster.demo || cluster.kubeconfig || cluster.context || isFleet(cluster))) {
    throw new UsageError(
      '--from reads a dump: it cannot be combined with --demo, --kubeconfig, --context or --all-contexts',
      HINT,
    );
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
    } else if (isFleet(cluster)) {
      if (timeline) throw new UsageError('--timeline reads one workload: give one --context', HINT);
      loaded = await loadFleet(cluster, selector, target.type !== null);
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

  if (values.verbose) for (const f of loaded.facts ?? []) process.stderr.write(`wlx: ${sanitise(f)}\n`);
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
      const guess = nearestType(target.type, loaded.definitions, loaded.shortNames);
      process.stderr.write(
        `wlx: no definition covers the type "${sanitise(target.type)}" (${guess ? `did you mean ${sanitise(guess)}? ` : ''}see \`wlx definitions\`)\n`,
      );
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
  // A namespace the user may not read: one line and its own exit status, not a 403 per kind and "not found".
  const unreadable = loaded.access.unreadable ?? [];
  if (unreadable.length) {
    const { user, readable } = loaded.access;
    process.stderr.write(`wlx: ${sanitise(unreadableNamespaceText(unreadable, user ?? null, readable ?? []))}\n`);
    if (unreadable.length >= namespaces.size) return EXIT_UNREADABLE;
  }
  if (namespaces.size) {
    workloads = workloads.filter((w) => namespaces.has(w.namespace));
    orphanPods = orphanPods.filter((p) => namespaces.has(p.namespace));
  }
  if (target.name) {
    workloads = workloads.filter((w) => w.name === target.name);
    orphanPods = orphanPods.filter((p) => p.owner.name === target.name);
    if (!workloads.length && !orphanPods.length) {
      if (unreadable.length) return EXIT_UNREADABLE;
      const where = namespaces.size ? ` in namespace ${[...namespaces].join(', ')}` : '';
      process.stderr.write(`wlx: ${sanitise(target.type)}/${sanitise(target.name)} not found${sanitise(where)}\n`);
      return 3;
    }
  }

  // Printed above, less the unreadable namespaces' part.
  const notice = unreadable.length ? withoutUnreadable(loaded.notice) : loaded.notice;
  if (notice) process.stderr.write(`wlx: ${sanitise(notice)}\n`);
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
  const fleet = loaded.fleet;
  const document = () =>
    fleet
      ? fleetJsonDocument(workloads, orphanPods, { ...fleet, access: loaded.access })
      : jsonDocument(workloads, loaded, orphanPods);
  if (output === 'json') {
    process.stdout.write(JSON.stringify(document(), null, 2) + '\n');
  } else if (output === 'yaml') {
    process.stdout.write(yaml.dump(document(), { noRefs: true, lineWidth: -1, sortKeys: false }));
  } else if (fleet) {
    process.stdout.write(
      renderFleetTrees(workloads, orphanPods, fleet.members, fleet.links, Date.now(), outputWidth(process.stdout)),
    );
    for (const p of loaded.problems.slice(0, 20)) process.stderr.write(`wlx: warning: ${sanitise(p)}\n`);
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
  // A fleet answers when one cluster does (the others are listed with their state); none: an error.
  if (fleet && !fleet.clusters.some((c) => c.state === 'live')) {
    process.stderr.write(
      `wlx: no cluster answered (${fleet.clusters.map((c) => sanitise(`${c.context}: ${c.state}`)).join(', ')})\n`,
    );
    return 1;
  }
  return unreadable.length ? EXIT_UNREADABLE : 0;
}
