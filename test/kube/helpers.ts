// Waiting and transport set-up shared by the tests that run the engine or a
// reflector against a real HTTP server (the demo's, or a test's own).
import { KubeConfig } from '@kubernetes/client-node';
import type { DemoCluster } from '../../demo/index.js';
import { HttpKubeTransport } from '../../src/kube/client.js';

/** Resolves once `cond()` holds; rejects naming `what` after `ms`. */
export async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A transport through the demo cluster's kubeconfig, as the CLI builds one. */
export function transportFor(cluster: DemoCluster): HttpKubeTransport {
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig());
  return new HttpKubeTransport(kc, cluster.server, kc.getCurrentContext());
}
