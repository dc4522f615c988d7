// Which of the kinds wlx wants does the server serve, under which plural, and
// namespaced or not. Uses the legacy per-group-version documents
// (`/api/v1`, `/apis/<group>/<version>`), fetched only for the group versions
// needed, in parallel. A group version that answers 403/404 marks its kinds
// forbidden / not served: they are reported and skipped, the rest works.
import { type Gvk, gvkKey } from '../definitions/types.js';
import type { ConnectionCause, ResourceInfo } from '../model/types.js';
import { KubeApiError, describeFailure, getJson, type KubeTransport } from './client.js';

export interface Unserved {
  gvk: Gvk;
  state: 'forbidden' | 'not-served' | 'error';
  message: string;
  /** Why, when the server could not be asked ('error'). */
  cause?: ConnectionCause;
}

export interface DiscoveryResult {
  /**
   * By wanted `group/version/Kind`: where it is served. Its `gvk` may be
   * another version of the kind (see resolve): then it names the one watch.
   */
  found: Map<string, ResourceInfo>;
  missing: Map<string, Unserved>;
  /** Wanted keys whose version is not served, watched at another version of their kind: the warning to give. */
  versionFallbacks: Map<string, string>;
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

interface ApiGroup {
  versions?: Array<{ version?: string }>;
  preferredVersion?: { version?: string };
}

/** A group's served versions, the server's preferred one first. */
type GroupVersions = string[];

type GroupVersionAnswer =
  | { ok: true; list: ApiResourceList }
  | { ok: false; state: Unserved['state']; message: string; cause?: ConnectionCause };

/** Caches group-version documents for the life of an engine (hot-reloaded definitions add kinds). */
export class Discovery {
  private readonly cache = new Map<string, Promise<GroupVersionAnswer>>();
  private readonly groups = new Map<string, Promise<GroupVersions>>();

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

  /** `/apis/<group>`: its versions, preferred first (none when the group is not served or not readable). */
  private groupVersions(group: string): Promise<GroupVersions> {
    let answer = this.groups.get(group);
    if (!answer) {
      answer = getJson(this.transport, `/apis/${group}`).then(
        (doc) => {
          const g = doc as ApiGroup;
          const versions = (g.versions ?? []).flatMap((v) => (typeof v.version === 'string' ? [v.version] : []));
          const preferred = g.preferredVersion?.version;
          return preferred && versions.includes(preferred)
            ? [preferred, ...versions.filter((v) => v !== preferred)]
            : versions;
        },
        () => [],
      );
      this.groups.set(group, answer);
    }
    return answer;
  }

  /** One kind at one version: where it is served, or why not. */
  private async resolveOne(gvk: Gvk): Promise<ResourceInfo | Unserved> {
    const answer = await this.groupVersion(gvk.group, gvk.version);
    if (!answer.ok) return { gvk, state: answer.state, message: answer.message, cause: answer.cause };
    const r = (answer.list.resources ?? []).find((x) => x.kind === gvk.kind && x.name && !x.name.includes('/'));
    if (!r || !r.name) {
      return { gvk, state: 'not-served', message: `${gvk.kind}.${gvk.group || 'core'}/${gvk.version} is not served` };
    }
    const verbs = r.verbs ?? [];
    if (verbs.length && (!verbs.includes('list') || !verbs.includes('watch'))) {
      return { gvk, state: 'not-served', message: `${r.name} cannot be listed and watched` };
    }
    return { gvk, resource: r.name, namespaced: r.namespaced !== false, verbs, shortNames: r.shortNames ?? [] };
  }

  /**
   * Where each kind is served. A kind not served at its version but at
   * another one is watched there (versionFallbacks says so); a kind wanted at
   * several served versions (two definitions) is watched at one: the group's
   * preferred version among them, else the first wanted.
   */
  async resolve(gvks: Gvk[]): Promise<DiscoveryResult> {
    const found = new Map<string, ResourceInfo>();
    const missing = new Map<string, Unserved>();
    const versionFallbacks = new Map<string, string>();
    const unique = new Map<string, Gvk>();
    for (const g of gvks) unique.set(gvkKey(g), g);
    await Promise.all(
      [...unique.values()].map(async (gvk) => {
        const key = gvkKey(gvk);
        let got = await this.resolveOne(gvk);
        if ('state' in got && got.state === 'not-served' && gvk.group !== '') {
          for (const version of await this.groupVersions(gvk.group)) {
            if (version === gvk.version) continue;
            const other = await this.resolveOne({ ...gvk, version });
            if ('state' in other) continue;
            versionFallbacks.set(
              key,
              `${gvk.kind} ${gvk.group}/${gvk.version} is not served; watching ${gvk.group}/${version} instead`,
            );
            got = other;
            break;
          }
        }
        if ('state' in got) missing.set(key, got);
        else found.set(key, got);
      }),
    );
    // One watch per kind.
    const byKind = new Map<string, ResourceInfo[]>();
    for (const info of found.values()) {
      const k = `${info.gvk.group}/${info.gvk.kind}`;
      const list = byKind.get(k) ?? [];
      if (!list.some((i) => i.gvk.version === info.gvk.version)) list.push(info);
      byKind.set(k, list);
    }
    for (const infos of byKind.values()) {
      if (infos.length < 2) continue;
      const preferred = (await this.groupVersions(infos[0].gvk.group))[0];
      const kept = infos.find((i) => i.gvk.version === preferred) ?? infos[0];
      for (const [key, info] of found) if (infos.includes(info)) found.set(key, kept);
    }
    return { found, missing, versionFallbacks };
  }
}

/** `GET /version` → gitVersion, or null. */
export async function serverVersion(transport: KubeTransport): Promise<string | null> {
  const v = (await getJson(transport, '/version')) as { gitVersion?: unknown };
  return typeof v.gitVersion === 'string' ? v.gitVersion : null;
}
