// Which of the kinds wlx wants does the server serve, under which plural, and
// namespaced or not. Uses the legacy per-group-version documents
// (`/api/v1`, `/apis/<group>/<version>`), fetched only for the group versions
// needed, in parallel. A group version that answers 403/404 marks its kinds
// forbidden / not served: they are reported and skipped, the rest works.
import type { Gvk } from '../definitions/types.js';
import { gvkKey } from '../definitions/types.js';
import type { ConnectionCause } from '../model/types.js';
import { KubeApiError, describeFailure, getJson, type KubeTransport } from './client.js';

export interface ResourceInfo {
  gvk: Gvk;
  /** Plural resource name, e.g. `jobsets`. */
  resource: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
}

export interface Unserved {
  gvk: Gvk;
  state: 'forbidden' | 'not-served' | 'error';
  message: string;
  /** Why, when the server could not be asked ('error'). */
  cause?: ConnectionCause;
}

export interface DiscoveryResult {
  found: Map<string, ResourceInfo>;
  missing: Map<string, Unserved>;
}

export function groupVersionPath(group: string, version: string): string {
  return group ? `/apis/${group}/${version}` : `/api/${version}`;
}

/** The collection path of a resource, in one namespace or all. */
export function collectionPath(info: ResourceInfo, namespace: string | null): string {
  const base = groupVersionPath(info.gvk.group, info.gvk.version);
  return info.namespaced && namespace
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${info.resource}`
    : `${base}/${info.resource}`;
}

interface ApiResourceList {
  resources?: Array<{ name?: string; kind?: string; namespaced?: boolean; verbs?: string[]; shortNames?: string[] }>;
}

type GroupVersionAnswer =
  | { ok: true; list: ApiResourceList }
  | { ok: false; state: Unserved['state']; message: string; cause?: ConnectionCause };

/** Caches group-version documents for the life of an engine (hot-reloaded definitions add kinds). */
export class Discovery {
  private readonly cache = new Map<string, Promise<GroupVersionAnswer>>();

  constructor(private readonly transport: KubeTransport) {}

  private groupVersion(group: string, version: string): Promise<GroupVersionAnswer> {
    const key = `${group}/${version}`;
    let answer = this.cache.get(key);
    if (!answer) {
      answer = getJson(this.transport, groupVersionPath(group, version)).then(
        (list): GroupVersionAnswer => ({ ok: true, list: list as ApiResourceList }),
        (err: Error): GroupVersionAnswer => {
          if (err instanceof KubeApiError && err.status === 403)
            return { ok: false, state: 'forbidden', message: err.message };
          if (err instanceof KubeApiError && err.status === 404) {
            return { ok: false, state: 'not-served', message: `${group ? `${group}/` : ''}${version} is not served` };
          }
          // Unreachable, or 401 (credentials can be refreshed): asked again later.
          return { ok: false, state: 'error', message: err.message, cause: describeFailure(err) };
        },
      );
      this.cache.set(key, answer);
      // Connection errors are not final: let the next call ask again.
      void answer.then((a) => {
        if (!a.ok && a.state === 'error') this.cache.delete(key);
      });
    }
    return answer;
  }

  async resolve(gvks: Gvk[]): Promise<DiscoveryResult> {
    const found = new Map<string, ResourceInfo>();
    const missing = new Map<string, Unserved>();
    const unique = new Map<string, Gvk>();
    for (const g of gvks) unique.set(gvkKey(g), g);
    await Promise.all(
      [...unique.values()].map(async (gvk) => {
        const answer = await this.groupVersion(gvk.group, gvk.version);
        if (!answer.ok) {
          missing.set(gvkKey(gvk), { gvk, state: answer.state, message: answer.message, cause: answer.cause });
          return;
        }
        const r = (answer.list.resources ?? []).find((x) => x.kind === gvk.kind && x.name && !x.name.includes('/'));
        if (!r || !r.name) {
          missing.set(gvkKey(gvk), {
            gvk,
            state: 'not-served',
            message: `${gvk.kind}.${gvk.group || 'core'}/${gvk.version} is not served`,
          });
          return;
        }
        const verbs = r.verbs ?? [];
        if (verbs.length && (!verbs.includes('list') || !verbs.includes('watch'))) {
          missing.set(gvkKey(gvk), { gvk, state: 'not-served', message: `${r.name} cannot be listed and watched` });
          return;
        }
        found.set(gvkKey(gvk), {
          gvk,
          resource: r.name,
          namespaced: r.namespaced !== false,
          verbs,
          shortNames: r.shortNames ?? [],
        });
      }),
    );
    return { found, missing };
  }
}

/** `GET /version` → gitVersion, or null. */
export async function serverVersion(transport: KubeTransport): Promise<string | null> {
  const v = (await getJson(transport, '/version')) as { gitVersion?: unknown };
  return typeof v.gitVersion === 'string' ? v.gitVersion : null;
}
