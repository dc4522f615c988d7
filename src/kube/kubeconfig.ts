// Kubeconfig loading with kubectl's rules, on top of client-node's KubeConfig
// (which keeps every auth method: tokens, client certificates, exec plugins,
// OIDC, auth providers).
//
// kubectl's rules that client-node's loadFromDefault does not follow:
// - `--kubeconfig F` is the only file when given; otherwise every file in
//   $KUBECONFIG (':'-separated, missing files ignored); otherwise ~/.kube/config.
// - When merging several files the FIRST file that sets a value wins (the
//   first current-context, the first cluster/user/context of a name), where
//   client-node lets the last current-context win and throws on duplicates.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { homedir } from 'node:os';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';

export interface KubeconfigOptions {
  /** `--kubeconfig`: one file, overrides $KUBECONFIG. */
  kubeconfig?: string;
  /** `--context`: overrides current-context. */
  context?: string;
  /** Defaults to process.env (tests pass their own). */
  env?: NodeJS.ProcessEnv;
}

export interface LoadedKubeconfig {
  kubeConfig: KubeConfig;
  context: string;
  cluster: string;
  user: string;
  server: string;
  /** The context's namespace, or null when it sets none. */
  contextNamespace: string | null;
  /** The files read, in order. */
  files: string[];
}

export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/** The files kubectl would read, in precedence order. */
export function kubeconfigFiles(options: KubeconfigOptions): string[] {
  const env = options.env ?? process.env;
  if (options.kubeconfig) {
    if (!existsSync(options.kubeconfig)) throw new KubeconfigError(`kubeconfig ${options.kubeconfig} does not exist`);
    return [options.kubeconfig];
  }
  const list = env.KUBECONFIG;
  if (list && list.length > 0) {
    const files = list.split(delimiter).filter((f) => f.length > 0);
    const existing = files.filter((f) => existsSync(f));
    if (existing.length === 0)
      throw new KubeconfigError(`none of the files in $KUBECONFIG exist (${files.join(delimiter)})`);
    return existing;
  }
  const home = env.HOME ?? homedir();
  const fallback = join(home, '.kube', 'config');
  if (existsSync(fallback)) return [fallback];
  return [];
}

/** Merge with kubectl's first-wins rule. */
function mergeFirstWins(configs: KubeConfig[]): KubeConfig {
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  let currentContext = '';
  for (const kc of configs) {
    for (const c of kc.getClusters()) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of kc.getUsers()) if (!users.has(u.name)) users.set(u.name, u);
    for (const c of kc.getContexts()) if (!contexts.has(c.name)) contexts.set(c.name, c);
    if (!currentContext && kc.getCurrentContext()) currentContext = kc.getCurrentContext();
  }
  const merged = new KubeConfig();
  merged.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext,
  });
  return merged;
}

/** Load the kubeconfig kubectl would use, select the context, and check it is usable. */
export function loadKubeconfig(options: KubeconfigOptions = {}): LoadedKubeconfig {
  const env = options.env ?? process.env;
  const files = kubeconfigFiles(options);
  let kc: KubeConfig;
  if (files.length === 0) {
    if (env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT) {
      kc = new KubeConfig();
      kc.loadFromCluster();
    } else {
      throw new KubeconfigError('no kubeconfig found: set $KUBECONFIG, pass --kubeconfig FILE, or try --demo');
    }
  } else {
    const configs = files.map((file) => {
      const one = new KubeConfig();
      try {
        one.loadFromFile(file);
      } catch (err) {
        throw new KubeconfigError(`cannot read kubeconfig ${file}: ${(err as Error).message.split('\n')[0]}`);
      }
      return one;
    });
    kc = configs.length === 1 ? configs[0] : mergeFirstWins(configs);
  }
  if (options.context) {
    if (!kc.getContextObject(options.context)) {
      const names = kc.getContexts().map((c) => c.name);
      throw new KubeconfigError(
        `context "${options.context}" not found in kubeconfig (contexts: ${names.join(', ') || 'none'})`,
      );
    }
    kc.setCurrentContext(options.context);
  }
  const contextName = kc.getCurrentContext();
  if (!contextName) throw new KubeconfigError('kubeconfig has no current-context: pass --context NAME');
  const ctx = kc.getContextObject(contextName);
  if (!ctx) throw new KubeconfigError(`current-context "${contextName}" is not defined in the kubeconfig`);
  const cluster = kc.getCluster(ctx.cluster);
  if (!cluster)
    throw new KubeconfigError(`context "${contextName}": cluster "${ctx.cluster}" is not defined in the kubeconfig`);
  if (!cluster.server) throw new KubeconfigError(`context "${contextName}": cluster "${ctx.cluster}" has no server`);
  if (cluster.server.startsWith('http:') && !cluster.skipTLSVerify) {
    throw new KubeconfigError(
      `context "${contextName}" (server ${cluster.server}): plain http needs insecure-skip-tls-verify: true on the cluster`,
    );
  }
  return {
    kubeConfig: kc,
    context: contextName,
    cluster: ctx.cluster,
    user: ctx.user,
    server: cluster.server.replace(/\/+$/, ''),
    contextNamespace: ctx.namespace ?? null,
    files,
  };
}
