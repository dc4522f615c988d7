// Waiting, transport and engine set-up shared by the tests that run the engine
// or a reflector against a real HTTP server (the demo's, or a test's own).
import { KubeConfig } from '@kubernetes/client-node';
import type { DemoCluster } from '../../demo/index.js';
import { HttpKubeTransport } from '../../src/kube/client.js';
import { startEngine, type ClusterEngine, type EngineOptions } from '../../src/kube/engine.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import type { FlushHold } from '../../src/kube/flush-scheduler.js';

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

/** The engine on the demo cluster: its kubeconfig's transport, the built-in definitions, every namespace; `extra` overrides. */
export function startDemoEngine(cluster: DemoCluster, extra: Partial<EngineOptions> = {}): Promise<ClusterEngine> {
  return startEngine({
    transport: extra.transport ?? transportFor(cluster),
    connection: { context: 'demo', cluster: 'demo', user: 'demo', server: cluster.server, namespace: null },
    namespace: null,
    definitions: loadDefinitions({ envPaths: '' }),
    ...extra,
  });
}

/** A FlushHold the test opens by hand; `listeners` counts who waits on it (a flush scheduler, each waiting watch). */
export function manualHold(held = true): FlushHold & { open(): void; listeners: Set<() => void> } {
  const listeners = new Set<() => void>();
  const hold = {
    listeners,
    held,
    onChange(changed: () => void) {
      listeners.add(changed);
      return () => listeners.delete(changed);
    },
    open() {
      hold.held = false;
      for (const l of [...listeners]) l();
    },
  };
  return hold;
}
