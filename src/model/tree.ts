// Assembling a WorkloadTree from a workload's facts and its pods' attributions.
//
// Role shape: one RoleTree per (component, instance), named by the instance id
// (JobSet's `leader`, `worker` are instances of `replicatedjob`); for a
// replicaSelector component one RoleTree per replica key found in the pods
// (each LeaderWorkerSet group), with the child components' roles nested in it.
// Pods sit on the deepest role that claims them.
//
// Counts, decided here and documented in the README contract:
// - desired: scaleDefinition (replicasPath, else minReplicasPath, else 1), per
//   instance. Child components nested in a split parent (replica groups or
//   instances) share their total evenly across the parent's roles; the number
//   of replica groups expected is max(groups seen, Σ children desired ÷ the
//   group component's own desired) — for LWS: (replicas + replicas×(size−1)) ÷ size.
//   The workload's desired is the sum over pod-bearing leaf components.
//   Roles with desired 0 and no pods in or below them are left out.
// - current: pods that exist, are not terminating and did not fail (upstream
//   counts every attributed pod; a pod being deleted is on its way out, and a
//   Failed one — OOM-killed, evicted, errored — has been replaced or given up
//   on, so neither is counted). Succeeded pods are counted: a completed Job
//   reads 2/2, as users expect next to kubectl's Completed pods.
// - ready: pods whose Ready condition is True.
// - GPUs: desired = template request × desired; requested = pods not in a
//   terminal phase (terminating pods still hold their devices); allocated =
//   those bound to a node. The workload's requested/allocated include its
//   unattributed pods (they use the workload's GPUs all the same).
import { repeatedClaimGpus, resourceTotal } from './dra.js';
import type { KubeObject, PodSummary, RoleTree, WorkloadTree, GpuCounts, ReplicaCounts } from './types.js';
import type { DefinitionPlan } from './plan.js';
import { workloadSubject, type WorkloadFacts } from './workload-facts.js';
import type { TreePod } from './attributions.js';
import { summariseGangs } from './gangs.js';
import { describeFailure } from './expr.js';
import { deepEqual } from './equal.js';
import { addGpuResources } from './gpu.js';
import { naturalCompare, naturalSortKey } from './order.js';
import { placedNodes, type PlacedPod } from './topology.js';

/**
 * Pods in natural name order. Keys (digit runs zero-padded: plain string order
 * is then natural order) are made for the sort only, not kept per pod.
 */
function sortByName(items: TreePod[]): TreePod[] {
  if (items.length < 2) return items;
  const keyed = items.map((it) => ({ key: naturalSortKey(it.summary.name), it }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.it);
}

interface Ctx {
  plan: DefinitionPlan;
  facts: WorkloadFacts;
  /** Per component: can pods end up in it or below it. */
  holdsPods: boolean[];
  /** Per component: Σ desired of pod-bearing leaf components below it. */
  leafDesiredBelow: number[];
}

interface RoleKey {
  instance: string | null;
  replica: string | null;
  /** Index into the component's declared instances; -1 when not declared. */
  declared: number;
}

function counts(items: TreePod[]): {
  replicas: Omit<ReplicaCounts, 'desired'>;
  requested: number;
  allocated: number;
  slices: Record<string, number> | null;
  nodes: string[];
} {
  let slices: Record<string, number> | null = null;
  let current = 0;
  let ready = 0;
  let requested = 0;
  let allocated = 0;
  const placed: PlacedPod[] = [];
  // A DRA claim several pods share counts once (PodSummary.draClaims).
  const claimsRequested = new Set<string>();
  const claimsAllocated = new Set<string>();
  for (const it of items) {
    const s = it.summary;
    // A Failed pod is not doing the work any more (its retry is); a Succeeded
    // one did it, so a completed Job reads 2/2 rather than 0/2.
    if (!it.terminating && s.phase !== 'Failed') current++;
    if (s.ready) ready++;
    if (it.active) {
      requested += s.gpus - resourceTotal(repeatedClaimGpus(s.draClaims, claimsRequested));
      if (s.node !== null) allocated += s.gpus - resourceTotal(repeatedClaimGpus(s.draClaims, claimsAllocated));
      if (s.gpuSlices) addGpuResources((slices ??= {}), s.gpuSlices);
    }
    placed.push(s);
  }
  return { replicas: { current, ready }, requested, allocated, slices, nodes: placedNodes(placed) };
}

function gpuCounts(desired: number, n: ReturnType<typeof counts>): GpuCounts {
  const gpus: GpuCounts = { desired, requested: n.requested, allocated: n.allocated };
  if (n.slices) gpus.slices = n.slices;
  return gpus;
}

function roleKeys(ctx: Ctx, compIdx: number, here: TreePod[], depth: number): RoleKey[] {
  const c = ctx.plan.components[compIdx];
  const f = ctx.facts.components[compIdx];
  if (c.replicaKey) {
    const seen = new Set<string>();
    for (const it of here) {
      const r = it.facts.path![depth].replica;
      if (r !== null) seen.add(r);
    }
    return [...seen].sort(naturalCompare).map((replica) => ({ instance: null, replica, declared: -1 }));
  }
  const declared = f.instances;
  if (declared || c.instanceKey) {
    const keys: RoleKey[] = (declared ?? []).map((instance, i) => ({ instance, replica: null, declared: i }));
    const extra = new Set<string>();
    let unknown = false;
    for (const it of here) {
      const inst = effectiveInstance(ctx, compIdx, it.facts.path![depth].instance);
      if (inst === null) unknown = true;
      else if (!declared?.includes(inst)) extra.add(inst);
    }
    for (const e of [...extra].sort(naturalCompare)) keys.push({ instance: e, replica: null, declared: -1 });
    if (unknown) keys.push({ instance: null, replica: null, declared: -1 });
    return keys;
  }
  return [{ instance: null, replica: null, declared: 0 }];
}

/** A pod with no instance id in a component with exactly one instance belongs to it. */
function effectiveInstance(ctx: Ctx, compIdx: number, instance: string | null): string | null {
  if (instance !== null) return instance;
  const declared = ctx.facts.components[compIdx].instances;
  return declared && declared.length === 1 ? declared[0] : null;
}

function buildRoles(ctx: Ctx, comps: number[], items: TreePod[], depth: number, share: number): RoleTree[] {
  const roles: RoleTree[] = [];
  for (const compIdx of comps) {
    if (!ctx.holdsPods[compIdx]) continue;
    const c = ctx.plan.components[compIdx];
    const f = ctx.facts.components[compIdx];
    const here = items.filter((it) => it.facts.path![depth]?.comp === compIdx);
    const keys = roleKeys(ctx, compIdx, here, depth);
    const childComps = c.children.filter((ch) => ctx.holdsPods[ch]);
    const isLeaf = childComps.length === 0;
    let childShare = share;
    if (c.replicaKey) {
      const own = f.totalDesired;
      const expected = c.hasScale && own > 0 && !isLeaf ? Math.round(ctx.leafDesiredBelow[compIdx] / own) : 0;
      childShare = share * Math.max(keys.length, expected, 1);
    } else if (f.instances) {
      childShare = share * Math.max(f.instances.length, 1);
    }
    for (const key of keys) {
      const mine = here.filter((it) => {
        const step = it.facts.path![depth];
        return c.replicaKey
          ? step.replica === key.replica
          : key.declared === 0 && !f.instances && !c.instanceKey
            ? true
            : effectiveInstance(ctx, compIdx, step.instance) === key.instance;
      });
      const own = sortByName(mine.filter((it) => it.facts.path!.length === depth + 1));
      const children = buildRoles(ctx, childComps, mine, depth + 1, childShare);
      const perInstanceDesired = f.instances
        ? key.declared >= 0
          ? (f.desired[key.declared] ?? 0)
          : 0
        : f.totalDesired;
      const templateGpu = f.templateGpus[key.declared >= 0 ? key.declared : 0] ?? f.templateGpus[0] ?? 0;
      let desired: number;
      let desiredGpus: number;
      if (c.replicaKey) {
        // A replica group's own scale is the size of one group.
        desired = c.hasScale ? f.totalDesired : sumOf(children, (r) => r.replicas.desired);
        desiredGpus = isLeaf ? f.totalDesired * (f.templateGpus[0] ?? 0) : sumOf(children, (r) => r.gpus.desired);
      } else if (isLeaf) {
        desired = Math.round(perInstanceDesired / share);
        desiredGpus = f.instances
          ? Math.round((perInstanceDesired * templateGpu) / share)
          : Math.round(f.desiredGpus / share);
      } else {
        desired = c.hasScale ? Math.round(perInstanceDesired / share) : sumOf(children, (r) => r.replicas.desired);
        desiredGpus = sumOf(children, (r) => r.gpus.desired);
      }
      // A role that expects no pods and holds none (Milvus standalone's
      // coordinators, KServe's unconfigured transformer, a TrainJob without a
      // launcher) says nothing: leave it out rather than show a 0/0 row. A role
      // with any pod, even a finished or terminating one, always stays.
      if (desired === 0 && mine.length === 0 && children.length === 0) continue;
      const n = counts(mine);
      roles.push({
        component: c.name,
        instance: key.instance,
        replica: key.replica,
        replicas: { desired, current: n.replicas.current, ready: n.replicas.ready },
        gpus: gpuCounts(desiredGpus, n),
        nodes: n.nodes,
        pods: own.map((it) => it.summary),
        roles: children,
      });
    }
  }
  // Trees are kept: an array grown by push keeps room for 16 more roles, and most roles have none below them.
  return roles.length > 0 ? roles.slice() : NO_ROLES;
}

/** The sub-roles of every role that has none: one list, frozen (a tree is never changed in place). */
const NO_ROLES: RoleTree[] = Object.freeze([]) as unknown as RoleTree[];

function sumOf<T>(xs: T[], f: (x: T) => number): number {
  let s = 0;
  for (const x of xs) s += f(x);
  return s;
}

function analyse(plan: DefinitionPlan, facts: WorkloadFacts): Ctx {
  const n = plan.components.length;
  const holdsPods = new Array<boolean>(n).fill(false);
  const leafDesiredBelow = new Array<number>(n).fill(0);
  // Bottom-up over the component tree (children may precede parents in document order).
  const visit = (i: number): void => {
    const c = plan.components[i];
    let below = false;
    let leafSum = 0;
    for (const ch of c.children) {
      visit(ch);
      if (holdsPods[ch]) {
        below = true;
        leafSum += leafDesiredBelow[ch];
      }
    }
    holdsPods[i] = c.podBearing || below;
    leafDesiredBelow[i] = below ? leafSum : c.podBearing ? facts.components[i].totalDesired : 0;
  };
  visit(0);
  return { plan, facts, holdsPods, leafDesiredBelow };
}

/** Leaf pod-bearing components' desired GPUs, summed. */
function leafDesiredGpus(ctx: Ctx, i: number): number {
  const c = ctx.plan.components[i];
  const kids = c.children.filter((ch) => ctx.holdsPods[ch]);
  if (kids.length === 0) return c.podBearing ? ctx.facts.components[i].desiredGpus : 0;
  return sumOf(kids, (ch) => leafDesiredGpus(ctx, ch));
}

/** Per-pod evaluation errors, one line per expression (first pod named, the rest counted). */
export function podErrorLines(subject: string, pods: TreePod[]): string[] {
  const byExpr = new Map<string, { line: string; count: number }>();
  for (const it of pods) {
    for (const e of it.facts.errors) {
      const k = `${e.expr.component}\u0000${e.expr.field}\u0000${e.expr.source}`;
      const got = byExpr.get(k);
      if (got) got.count++;
      else byExpr.set(k, { line: describeFailure(subject, e.expr, `pod ${it.summary.name}: ${e.message}`), count: 1 });
    }
  }
  return [...byExpr.values()].map((v) => (v.count > 1 ? `${v.line} (and ${v.count - 1} more pods)` : v.line));
}

/** The tree of one workload from its facts and its (owned) pods. Pure. */
export function assembleTree(
  plan: DefinitionPlan,
  workload: KubeObject,
  facts: WorkloadFacts,
  pods: TreePod[],
): WorkloadTree {
  const ctx = analyse(plan, facts);
  const attributed = pods.filter((p) => p.facts.path !== null);
  const unattributed = sortByName(pods.filter((p) => p.facts.path === null));
  const root = plan.components[0];
  const top = root.podBearing ? [0] : root.children;
  // A pod the root does not claim but a child does starts its path below the
  // root: give such paths their own pass so depth 0 is always the top role.
  const fromRoot = attributed.filter((p) => !root.podBearing || p.facts.path![0].comp === 0);
  const belowRoot = root.podBearing ? attributed.filter((p) => p.facts.path![0].comp !== 0) : [];
  const fromTop = buildRoles(ctx, top, fromRoot, 0, 1);
  const roles = belowRoot.length > 0 ? [...fromTop, ...buildRoles(ctx, root.children, belowRoot, 0, 1)] : fromTop;

  const all = counts(pods);
  const attributedCounts = counts(attributed);
  const replicas: ReplicaCounts = {
    desired: ctx.leafDesiredBelow[0],
    current: attributedCounts.replicas.current,
    ready: attributedCounts.replicas.ready,
  };
  const gpus = gpuCounts(leafDesiredGpus(ctx, 0), all);
  const subject = workloadSubject(workload);
  const createdAt = workload.metadata.creationTimestamp;
  return {
    apiVersion: workload.apiVersion ?? '',
    kind: workload.kind ?? plan.definition.rootGvk.kind,
    namespace: workload.metadata.namespace ?? '',
    name: workload.metadata.name,
    uid: workload.metadata.uid,
    definition: plan.definition.name,
    definitionSource: plan.definition.source.kind,
    status: facts.status,
    replicas,
    gpus,
    roles,
    unattributedPods: unattributed.map((p) => p.summary),
    gangs: summariseGangs(plan, workload.metadata.name, pods),
    createdAt: typeof createdAt === 'string' ? createdAt : null,
    statusMessage: facts.statusMessage,
    errors: [...facts.errors, ...podErrorLines(subject, pods)],
    ...(workload.metadata.deletionTimestamp ? { terminating: true as const } : {}),
  };
}

/** Work done by patchTreePod (counted for tests: see WorkCounters). */
export interface PatchWork {
  rolePatches: number;
}

const FIND_BY_SCAN = 64;

/** Index of the pod with this name and uid in a list sorted byName, or -1. */
function findPod(pods: PodSummary[], name: string, uid: string): number {
  // A role's few dozen pods: comparing uids is cheaper than the sort keys of a binary search.
  if (pods.length <= FIND_BY_SCAN) return pods.findIndex((p) => p.uid === uid);
  const key = naturalSortKey(name);
  let lo = 0;
  let hi = pods.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = naturalSortKey(pods[mid].name);
    if (k < key) lo = mid + 1;
    else if (k > key) hi = mid - 1;
    else if (pods[mid].uid === uid) return mid;
    else break;
  }
  // Names whose keys tie (leading zeros): look through the list.
  return pods.findIndex((p) => p.uid === uid);
}

function replaceAt<T>(xs: T[], i: number, x: T): T[] {
  const out = xs.slice();
  out[i] = x;
  return out;
}

function subtreePods(role: RoleTree, into: PlacedPod[]): void {
  into.push(...role.pods);
  for (const r of role.roles) subtreePods(r, into);
}

/**
 * `tree` (assembled from pods including `before`) with one pod replaced by
 * `after`, the same pod placed on the same path (same facts): only the roles
 * on its path and the workload's rollups are recomputed, by difference; every
 * other role keeps its identity. Null when the change is not such a patch (the
 * caller rebuilds the tree).
 */
export function patchTreePod(
  plan: DefinitionPlan,
  facts: WorkloadFacts,
  workloadName: string,
  tree: WorkloadTree,
  before: TreePod,
  after: TreePod,
  work: PatchWork,
): WorkloadTree | null {
  const sb = before.summary;
  const sa = after.summary;
  if (sb.uid !== sa.uid || sb.name !== sa.name) return null;
  if (!deepEqual(before.facts, after.facts)) return null;
  const inGang = after.facts.gangKeys.some((k) => k !== null && k !== undefined);
  // Gang membership depends on terminating: rare, rebuild.
  if (inGang && before.terminating !== after.terminating) return null;
  if (sb === sa && before.terminating === after.terminating && before.active === after.active) return tree;
  // The pod's own counts before and after: the roles on its path change by the difference.
  const b = counts([before]);
  const a = counts([after]);
  const dCurrent = a.replicas.current - b.replicas.current;
  const dReady = a.replicas.ready - b.replicas.ready;
  const dRequested = a.requested - b.requested;
  const dAllocated = a.allocated - b.allocated;
  // Another pod of the group may share its claims: only a rebuild counts them once.
  if ((dRequested !== 0 || dAllocated !== 0) && (sb.draClaims || sa.draClaims)) return null;
  // Slices are summed by name, not by difference: a pod whose slices count changes is rare, rebuild.
  if ((sb.gpuSlices || sa.gpuSlices) && (before.active !== after.active || !deepEqual(sb.gpuSlices, sa.gpuSlices)))
    return null;
  // A pod that finishes may leave its node out of the role's (placedNodes).
  const nodeChanged = sb.node !== sa.node || before.active !== after.active;
  const path = after.facts.path;

  let roles = tree.roles;
  let unattributed = tree.unattributedPods;
  if (path === null) {
    const i = findPod(unattributed, sa.name, sa.uid);
    if (i < 0) return null;
    unattributed = replaceAt(unattributed, i, sa);
  } else {
    const patchLevel = (list: RoleTree[], depth: number): RoleTree[] | null => {
      const step = path[depth];
      const c = plan.components[step.comp];
      if (!c) return null;
      const f = facts.components[step.comp];
      const byInstance = !c.replicaKey && (f.instances || c.instanceKey);
      const inst = byInstance
        ? (step.instance ?? (f.instances && f.instances.length === 1 ? f.instances[0] : null))
        : null;
      const ri = list.findIndex(
        (r) =>
          r.component === c.name &&
          (c.replicaKey ? r.replica === step.replica : byInstance ? r.instance === inst : true),
      );
      if (ri < 0) return null;
      const role = list[ri];
      let pods = role.pods;
      let children = role.roles;
      if (depth === path.length - 1) {
        const pi = findPod(pods, sa.name, sa.uid);
        if (pi < 0) return null;
        pods = replaceAt(pods, pi, sa);
      } else {
        const next = patchLevel(children, depth + 1);
        if (!next) return null;
        children = next;
      }
      work.rolePatches++;
      const patched: RoleTree = {
        ...role,
        replicas: {
          desired: role.replicas.desired,
          current: role.replicas.current + dCurrent,
          ready: role.replicas.ready + dReady,
        },
        gpus: {
          ...role.gpus,
          requested: role.gpus.requested + dRequested,
          allocated: role.gpus.allocated + dAllocated,
        },
        pods,
        roles: children,
      };
      if (nodeChanged) {
        const pods: PlacedPod[] = [];
        subtreePods(patched, pods);
        const sorted = placedNodes(pods);
        patched.nodes =
          sorted.length === role.nodes.length && sorted.every((n, i) => n === role.nodes[i]) ? role.nodes : sorted;
      }
      return replaceAt(list, ri, patched);
    };
    const next = patchLevel(roles, 0);
    if (!next) return null;
    roles = next;
  }

  let gangs = tree.gangs;
  if (inGang && !after.terminating) {
    const dScheduled = (sa.node !== null ? 1 : 0) - (sb.node !== null ? 1 : 0);
    if (dScheduled !== 0 || dReady !== 0) {
      gangs = tree.gangs.slice();
      let ok = true;
      plan.gangs.forEach((g, groupIndex) => {
        const key = after.facts.gangKeys[groupIndex];
        if (key === null || key === undefined) return;
        const k = key === '' ? workloadName : key;
        let at = -1;
        for (let i = 0; i < gangs.length; i++) {
          if (gangs[i].name !== g.name || gangs[i].key !== k) continue;
          if (at >= 0) ok = false; // two groups of one name: cannot tell which
          at = i;
        }
        if (at < 0 || !ok) {
          ok = false;
          return;
        }
        const s = gangs[at];
        gangs[at] = { ...s, scheduled: s.scheduled + dScheduled, ready: s.ready + dReady };
      });
      if (!ok) return null;
    }
  }

  return {
    ...tree,
    replicas:
      path === null
        ? tree.replicas
        : {
            desired: tree.replicas.desired,
            current: tree.replicas.current + dCurrent,
            ready: tree.replicas.ready + dReady,
          },
    gpus: {
      ...tree.gpus,
      requested: tree.gpus.requested + dRequested,
      allocated: tree.gpus.allocated + dAllocated,
    },
    roles,
    unattributedPods: unattributed,
    gangs,
  };
}
