// The kubeconfig a demo cluster hands out: plain http on loopback
// (insecure-skip-tls-verify so client-node accepts http) with two contexts:
// `wlx-demo` (the admin, current) and `wlx-demo-restricted` (a user who may
// only read workloads in namespace `training`). kubectl sends no credentials
// over http, so the restricted user's cluster entry points at the server's
// restricted path prefix; in token mode each user also has its own token.
import { writeFile } from 'node:fs/promises';
import { dump } from 'js-yaml';
import { RESTRICTED_NAMESPACE, RESTRICTED_PATH_PREFIX } from './rbac.js';

export const DEMO_CONTEXT = 'wlx-demo';
export const RESTRICTED_CONTEXT = 'wlx-demo-restricted';

export interface DemoKubeconfigOptions {
  /** `http://127.0.0.1:PORT` */
  server: string;
  /** The admin's token (token mode). */
  token?: string;
  /** The restricted user's token (token mode). */
  restrictedToken?: string;
  /** The admin context's namespace. */
  namespace?: string;
}

export function demoKubeconfig(o: DemoKubeconfigOptions): string {
  const entry = (name: string, server: string, token: string | undefined, namespace: string | undefined) => ({
    cluster: { name, cluster: { server, 'insecure-skip-tls-verify': true } },
    user: { name, user: token !== undefined ? { token } : {} },
    context: { name, context: { cluster: name, user: name, ...(namespace ? { namespace } : {}) } },
  });
  const entries = [
    entry(DEMO_CONTEXT, o.server, o.token, o.namespace),
    entry(RESTRICTED_CONTEXT, `${o.server}${RESTRICTED_PATH_PREFIX}`, o.restrictedToken, RESTRICTED_NAMESPACE),
  ];
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: entries.map((e) => e.cluster),
    users: entries.map((e) => e.user),
    contexts: entries.map((e) => e.context),
    'current-context': DEMO_CONTEXT,
    preferences: {},
  };
  return dump(config);
}

/** One kubeconfig for several demo clusters: a context (admin) per cluster, the first current. */
export function fleetKubeconfig(clusters: readonly { context: string; server: string; token?: string }[]): string {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: clusters.map((c) => ({
      name: c.context,
      cluster: { server: c.server, 'insecure-skip-tls-verify': true },
    })),
    users: clusters.map((c) => ({ name: c.context, user: c.token !== undefined ? { token: c.token } : {} })),
    contexts: clusters.map((c) => ({ name: c.context, context: { cluster: c.context, user: c.context } })),
    'current-context': clusters[0]?.context ?? '',
    preferences: {},
  };
  return dump(config);
}

export async function writeDemoKubeconfig(path: string, options: DemoKubeconfigOptions): Promise<void> {
  // 0600: the file may hold tokens.
  await writeFile(path, demoKubeconfig(options), { mode: 0o600 });
}
