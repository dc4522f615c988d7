// Hostile objects the soak adds to the cluster through its API (writes
// allowed): each must be reported or bounded by wlx (src/kube/trim.ts), never
// crash it or stop its keys. What the server itself refuses is reported too.
// The annotation is 3.5 MB, not 5: the demo refuses bodies over 4 MB (as
// kube-apiserver refuses those over 3 MB), and a refused object tests nothing.
import { apiFetch } from './cluster.js';

export const HOSTILE_NAMESPACE = 'soak-hostile';

export interface HostileObject {
  what: string;
  /** Collection path, e.g. /api/v1/namespaces/NS/pods. */
  path: string;
  name: string;
  /** The request body as sent (a raw body where it is not what JSON.stringify writes). */
  body: string;
}

const podPath = `/api/v1/namespaces/${HOSTILE_NAMESPACE}/pods`;

function pod(name: string, extra: { annotations?: Record<string, string>; containers?: number; status?: object }) {
  const containers = Array.from({ length: extra.containers ?? 1 }, (_, i) => ({ name: `c${i}`, image: 'busybox' }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: HOSTILE_NAMESPACE, annotations: extra.annotations ?? {} },
    // Left alone by the demo's scheduler and kubelets: what wlx gets is what was sent.
    spec: { containers, schedulerName: 'soak-unscheduled' },
    // Always a status, as kube-apiserver defaults one (the demo's POST does not, and its scheduler needs one).
    status: extra.status ?? { phase: 'Pending' },
  };
}

/** Nested `depth` levels deep: {"a":{"a":…}}. */
function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** The set added once per cycle; `n` makes each cycle's names new (no clash with a pod still terminating). */
export function hostileObjects(n: number): HostileObject[] {
  const many = 5000;
  const escapes = '\u001b]52;c;c29haw==\u0007\u001b[2J\u001b[31mred\u009b31m\r';
  const objects: { what: string; path: string; object: { metadata: { name: string } } }[] = [
    {
      what: 'a 3.5 MB annotation',
      path: podPath,
      object: pod(`soak-annotation-${n}`, { annotations: { 'soak/blob': 'x'.repeat(3.5 * 1024 * 1024) } }),
    },
    {
      what: `${many.toLocaleString('en')} containers`,
      path: podPath,
      object: pod(`soak-containers-${n}`, {
        containers: many,
        status: {
          phase: 'Running',
          containerStatuses: Array.from({ length: many }, (_, i) => ({
            name: `c${i}`,
            ready: true,
            restartCount: 0,
            image: 'busybox',
            imageID: '',
            state: { running: { startedAt: new Date().toISOString() } },
          })),
        },
      }),
    },
    {
      what: 'escape sequences in status and annotations',
      path: podPath,
      object: pod(`soak-escapes-${n}`, {
        annotations: { 'soak/escapes': escapes },
        status: { phase: 'Pending', reason: escapes, message: escapes },
      }),
    },
    {
      what: 'nesting 1,000 levels deep (a workload root, kept whole)',
      path: `/apis/kubeflow.org/v1/namespaces/${HOSTILE_NAMESPACE}/pytorchjobs`,
      object: {
        apiVersion: 'kubeflow.org/v1',
        kind: 'PyTorchJob',
        metadata: { name: `soak-deep-${n}` },
        spec: { pytorchReplicaSpecs: {}, deep: nested(1000) },
      } as { metadata: { name: string } },
    },
  ];
  const out: HostileObject[] = objects.map((o) => ({
    what: o.what,
    path: o.path,
    name: o.object.metadata.name,
    body: JSON.stringify(o.object),
  }));
  // Not JSON numbers as JavaScript reads them: beyond float64 (1e400) and beyond int64.
  const numbers = JSON.stringify(
    pod(`soak-numbers-${n}`, { status: { phase: 'Running', containerStatuses: [{ name: 'c0', restartCount: 1 }] } }),
  ).replace('"restartCount":1', '"restartCount":1e400,"soakInt":123456789012345678901234567890');
  out.push({ what: 'numbers beyond float64 and int64', path: podPath, name: `soak-numbers-${n}`, body: numbers });
  return out;
}

export interface HostileResult {
  what: string;
  name: string;
  /** The server's answer to the create. */
  status: number;
  /** Why the server refused it (its Status message). */
  refused?: string;
}

export async function createHostile(server: string, objects: HostileObject[]): Promise<HostileResult[]> {
  const out: HostileResult[] = [];
  for (const o of objects) {
    const res = await apiFetch(server + o.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: o.body,
    });
    const text = await res.text();
    let refused: string | undefined;
    if (!res.ok) refused = ((JSON.parse(text) as { message?: string }).message ?? text).slice(0, 200);
    out.push({ what: o.what, name: o.name, status: res.status, ...(refused ? { refused } : {}) });
  }
  return out;
}

/** Deletes them at once (grace period 0) and waits until the server no longer has them. */
export async function deleteHostile(server: string, objects: HostileObject[], timeoutMs = 30_000): Promise<void> {
  const urls = objects.map((o) => `${server}${o.path}/${o.name}`);
  for (const url of urls) await (await apiFetch(`${url}?gracePeriodSeconds=0`, { method: 'DELETE' })).arrayBuffer();
  const deadline = Date.now() + timeoutMs;
  for (const url of urls) {
    for (;;) {
      const res = await apiFetch(url);
      await res.arrayBuffer();
      if (res.status === 404) break;
      if (Date.now() > deadline) throw new Error(`${url} still exists ${timeoutMs / 1000} s after its DELETE`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
