// The final check of the soak: what the explorer's model shows against a
// fresh list from the server, once the simulation has stopped and the model
// has settled. Missing: on the server, not in the model; extra: in the model,
// gone from the server; stale: in both, but the model shows an older state
// (a pod's status, readiness, restarts or node differ from what summarisePod
// makes of the server's object; a kind's count differs from the list's).
import { summarisePod } from '../../src/model/pod-status.js';
import type { KubeObject } from '../../src/model/types.js';
import type { SessionView } from '../bench/tui-session.js';
import { apiFetch } from './cluster.js';

export interface ModelServerDiff {
  missing: string[];
  extra: string[];
  stale: string[];
  /** How many objects were compared, per what. */
  compared: { pods: number; nodes: number; workloads: number; kinds: number };
}

export const isEmptyDiff = (d: ModelServerDiff): boolean => !d.missing.length && !d.extra.length && !d.stale.length;

type ServerObject = KubeObject & { metadata: { ownerReferences?: { controller?: boolean }[] } };

async function list(server: string, group: string, version: string, plural: string): Promise<ServerObject[]> {
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  const res = await apiFetch(`${server}${base}/${plural}`);
  if (!res.ok) throw new Error(`GET ${base}/${plural}: HTTP ${res.status}`);
  return ((await res.json()) as { items: ServerObject[] }).items;
}

/** `group/Kind` ('' for the core group) from an apiVersion and kind. */
const kindKey = (apiVersion: string, kind: string) =>
  `${apiVersion.includes('/') ? apiVersion.split('/')[0] : ''}/${kind}`;

const POD_FIELDS = ['status', 'phase', 'ready', 'restarts', 'readyContainers', 'node'] as const;

export async function modelServerDiff(view: SessionView, server: string): Promise<ModelServerDiff> {
  const diff: ModelServerDiff = {
    missing: [],
    extra: [],
    stale: [],
    compared: { pods: 0, nodes: 0, workloads: 0, kinds: 0 },
  };
  const lists = new Map<string, ServerObject[]>();
  for (const k of view.kinds) {
    if (k.state === 'forbidden' || k.state === 'not-served') continue;
    const items = await list(server, k.group, k.version, k.resource.split('.')[0]);
    lists.set(`${k.group}/${k.kind}`, items);
    diff.compared.kinds++;
    if (items.length !== k.count)
      diff.stale.push(`${k.resource}: the model holds ${k.count}, the server ${items.length}`);
  }

  const serverPods = new Map((lists.get('/Pod') ?? []).map((p) => [p.metadata.uid, p]));
  const shownPods = new Map(view.pods.map((p) => [p.uid, p]));
  for (const [uid, obj] of serverPods) {
    const shown = shownPods.get(uid);
    const id = `pod ${obj.metadata.namespace}/${obj.metadata.name}`;
    if (!shown) {
      diff.missing.push(id);
      continue;
    }
    const want = summarisePod(obj);
    const differs = POD_FIELDS.filter((f) => want[f] !== shown[f]);
    if (differs.length)
      diff.stale.push(
        `${id}: ${differs.map((f) => `${f} ${String(shown[f])} (server ${String(want[f])})`).join(', ')}`,
      );
  }
  for (const p of view.pods) if (!serverPods.has(p.uid)) diff.extra.push(`pod ${p.namespace}/${p.name}`);
  diff.compared.pods = serverPods.size;

  const serverNodes = new Set((lists.get('/Node') ?? []).map((n) => n.metadata.name));
  for (const n of serverNodes) if (!view.nodes.includes(n)) diff.missing.push(`node ${n}`);
  for (const n of view.nodes) if (!serverNodes.has(n)) diff.extra.push(`node ${n}`);
  diff.compared.nodes = serverNodes.size;

  // Workloads: every root object (no controller) of a kind the model shows workloads of.
  const shownWorkloads = new Set(view.workloads.map((w) => w.uid));
  const workloadKinds = new Set(view.workloads.map((w) => kindKey(w.apiVersion, w.kind)));
  const serverUids = new Set<string>();
  for (const key of workloadKinds) {
    for (const o of lists.get(key) ?? []) {
      serverUids.add(o.metadata.uid);
      if (o.metadata.ownerReferences?.some((r) => r.controller)) continue;
      diff.compared.workloads++;
      if (!shownWorkloads.has(o.metadata.uid))
        diff.missing.push(`workload ${o.kind} ${o.metadata.namespace}/${o.metadata.name}`);
    }
  }
  for (const w of view.workloads)
    if (!serverUids.has(w.uid)) diff.extra.push(`workload ${w.kind} ${w.namespace}/${w.name}`);
  return diff;
}
