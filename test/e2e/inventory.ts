// The convergence check shared by the reliability tests: what the engine holds
// (uid → resourceVersion per kind) against a fresh list of every kind it watches.
import { getJson, type KubeTransport } from '../../src/kube/client.js';
import type { ClusterEngine } from '../../src/kube/engine.js';

interface ListItem {
  metadata: { uid: string; resourceVersion: string };
}

/** Every kind the engine watches, listed fresh from the server: label → uid → resourceVersion. */
export async function serverInventory(
  transport: KubeTransport,
  engine: ClusterEngine,
): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  for (const k of engine.getSnapshot().kinds) {
    if (k.state === 'forbidden' || k.state === 'not-served') continue;
    const base = k.gvk.group ? `/apis/${k.gvk.group}/${k.gvk.version}` : `/api/${k.gvk.version}`;
    const plural = k.resource.split('.')[0];
    const list = (await getJson(transport, `${base}/${plural}`)) as { items: ListItem[] };
    out.set(k.resource, new Map(list.items.map((i) => [i.metadata.uid, i.metadata.resourceVersion])));
  }
  return out;
}

/** Missing, ghost and stale objects of the engine against the server. */
export function inventoryDiff(
  engine: Map<string, Map<string, string>>,
  server: Map<string, Map<string, string>>,
): string[] {
  const problems: string[] = [];
  for (const [kind, want] of server) {
    const have = engine.get(kind);
    if (!have) {
      problems.push(`${kind}: not held at all`);
      continue;
    }
    for (const [uid, rv] of want) {
      if (!have.has(uid)) problems.push(`${kind} ${uid}: missing`);
      else if (have.get(uid) !== rv) problems.push(`${kind} ${uid}: stale (${have.get(uid)} vs ${rv})`);
    }
    for (const uid of have.keys()) if (!want.has(uid)) problems.push(`${kind} ${uid}: ghost`);
  }
  return problems;
}

/** Polls until the engine holds exactly what the server holds (or the deadline); the last differences. */
export async function converge(transport: KubeTransport, engine: ClusterEngine, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let problems: string[];
  do {
    await new Promise((r) => setTimeout(r, 500));
    problems = inventoryDiff(engine.inventory(), await serverInventory(transport, engine));
  } while (problems.length && Date.now() < deadline);
  return problems;
}
