// The kubeconfig a demo cluster hands out: one cluster (plain http on
// loopback, insecure-skip-tls-verify so client-node accepts http), one user
// (with the bearer token when the server wants one), one current context.
import { writeFile } from 'node:fs/promises';
import { dump } from 'js-yaml';

export const DEMO_CONTEXT = 'wlx-demo';

export function demoKubeconfig(server: string, token?: string, namespace?: string): string {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: DEMO_CONTEXT, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: DEMO_CONTEXT, user: token !== undefined ? { token } : {} }],
    contexts: [
      {
        name: DEMO_CONTEXT,
        context: { cluster: DEMO_CONTEXT, user: DEMO_CONTEXT, ...(namespace ? { namespace } : {}) },
      },
    ],
    'current-context': DEMO_CONTEXT,
    preferences: {},
  };
  return dump(config);
}

export async function writeDemoKubeconfig(path: string, server: string, token?: string): Promise<void> {
  // 0600: the file may hold a token.
  await writeFile(path, demoKubeconfig(server, token), { mode: 0o600 });
}
