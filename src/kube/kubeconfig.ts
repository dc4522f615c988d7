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
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { homedir } from 'node:os';
import { isIPv6 } from 'node:net';
import yaml from 'js-yaml';
// client-node's own parser of a kubeconfig's entries, without the package's index: importing that loads every
// generated API model (~30 MB of heap, ~75 MB of RSS per thread), which wlx does not use (credentials.ts).
import {
  newClusters,
  newContexts,
  newUsers,
  type Cluster,
  type Context,
  type User,
} from '@kubernetes/client-node/dist/config_types.js';
import type { RequestCredentials } from './credentials.js';

export interface KubeconfigOptions {
  /** `--kubeconfig`: one file, overrides $KUBECONFIG. */
  kubeconfig?: string;
  /** `--context`: overrides current-context. */
  context?: string;
  /** Defaults to process.env (tests pass their own). */
  env?: NodeJS.ProcessEnv;
}

export interface LoadedKubeconfig {
  /** What applies the context's credentials to a request (made on the first call). */
  credentials(): Promise<RequestCredentials>;
  /** Every context's name, in the files' order. */
  contexts: string[];
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

/** The entries of kubeconfig files (client-node's KubeConfig options). */
interface Entries {
  clusters: Cluster[];
  users: User[];
  contexts: Context[];
  currentContext: string;
}

/** One file read as client-node's KubeConfig.loadFromFile reads it (relative file paths from its directory). */
function readFile(file: string): Entries {
  const obj = yaml.load(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
  const clusters = newClusters(obj?.clusters);
  const users = newUsers(obj?.users);
  const contexts = newContexts(obj?.contexts);
  const root = dirname(file);
  const absolute = (path: string) => (isAbsolute(path) ? path : join(root, path));
  for (const c of clusters) if (c.caFile) Object.assign(c, { caFile: absolute(c.caFile) });
  for (const u of users) {
    if (u.certFile) Object.assign(u, { certFile: absolute(u.certFile) });
    if (u.keyFile) Object.assign(u, { keyFile: absolute(u.keyFile) });
  }
  const current = obj?.['current-context'];
  return { clusters, users, contexts, currentContext: typeof current === 'string' ? current : '' };
}

/** Merge with kubectl's first-wins rule. */
function mergeFirstWins(configs: Entries[]): Entries {
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  let currentContext = '';
  for (const kc of configs) {
    for (const c of kc.clusters) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of kc.users) if (!users.has(u.name)) users.set(u.name, u);
    for (const c of kc.contexts) if (!contexts.has(c.name)) contexts.set(c.name, c);
    if (!currentContext && kc.currentContext) currentContext = kc.currentContext;
  }
  return {
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext,
  };
}

/** In a pod, as client-node's loadFromCluster: the service account's namespace, CA and token file (read per request). */
const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

/** In a pod: the names and server client-node's loadFromCluster gives (contextCredentials adds its credentials). */
function inCluster(env: NodeJS.ProcessEnv): Entries {
  const host = env.KUBERNETES_SERVICE_HOST!;
  const port = env.KUBERNETES_SERVICE_PORT!;
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  const server = `${scheme}://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  const namespaceFile = `${SERVICE_ACCOUNT}/namespace`;
  const namespace = existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8') : undefined;
  return {
    clusters: [{ name: 'inCluster', server, skipTLSVerify: false }],
    users: [{ name: 'inClusterUser' }],
    contexts: [{ name: 'inClusterContext', cluster: 'inCluster', user: 'inClusterUser', namespace }],
    currentContext: 'inClusterContext',
  };
}

/** The credentials of the context (its entries checked by loadKubeconfig). */
async function contextCredentials(
  entries: Entries,
  contextName: string,
  fromCluster: boolean,
): Promise<RequestCredentials> {
  const ctx = entries.contexts.find((c) => c.name === contextName)!;
  let cluster = entries.clusters.find((c) => c.name === ctx.cluster)!;
  let user = entries.users.find((u) => u.name === ctx.user) ?? null;
  if (fromCluster) {
    cluster = { ...cluster, caFile: `${SERVICE_ACCOUNT}/ca.crt` };
    user = { name: ctx.user, authProvider: { name: 'tokenFile', config: { tokenFile: `${SERVICE_ACCOUNT}/token` } } };
  }
  // Loaded on a first request: a thread that only reads the kubeconfig (the UI's, until an incident view asks)
  // loads no authenticator.
  if (!cluster.proxyUrl) return new (await import('./credentials.js')).ContextCredentials(cluster, user);
  // Proxies are client-node's KubeConfig's (its agents), with the whole package: rare enough to pay for it.
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({ ...entries, clusters: [cluster], users: user ? [user] : [] });
  kubeConfig.setCurrentContext(contextName);
  return kubeConfig;
}

/** Why a file the kubeconfig names cannot be read, in a few words; null: it can. */
function unreadableFile(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return 'not a file';
    accessSync(path, constants.R_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable');
  }
}

/** Load the kubeconfig kubectl would use, select the context, and check it is usable. */
export function loadKubeconfig(options: KubeconfigOptions = {}): LoadedKubeconfig {
  const env = options.env ?? process.env;
  const files = kubeconfigFiles(options);
  let kc: Entries;
  const fromCluster = files.length === 0 && Boolean(env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT);
  if (files.length === 0) {
    if (fromCluster) kc = inCluster(env);
    else throw new KubeconfigError('no kubeconfig found: set $KUBECONFIG, pass --kubeconfig FILE, or try --demo');
  } else {
    const configs = files.map((file) => {
      try {
        return readFile(file);
      } catch (err) {
        throw new KubeconfigError(`cannot read kubeconfig ${file}: ${(err as Error).message.split('\n')[0]}`);
      }
    });
    kc = configs.length === 1 ? configs[0] : mergeFirstWins(configs);
  }
  const byName = <T extends { name: string }>(list: T[], name: string) => list.find((x) => x.name === name);
  if (options.context) {
    if (!byName(kc.contexts, options.context)) {
      const names = kc.contexts.map((c) => c.name);
      throw new KubeconfigError(
        `context "${options.context}" not found in kubeconfig (contexts: ${names.join(', ') || 'none'})`,
      );
    }
    kc = { ...kc, currentContext: options.context };
  }
  const contextName = kc.currentContext;
  if (!contextName) throw new KubeconfigError('kubeconfig has no current-context: pass --context NAME');
  // A broken entry names the context, the field and the files read (the distinctive part first: cells cut the end).
  const where = `context "${contextName}"`;
  const inFiles = ` (kubeconfig ${files.join(delimiter) || 'in-cluster'})`;
  const ctx = byName(kc.contexts, contextName);
  if (!ctx) throw new KubeconfigError(`current-context "${contextName}" is not defined${inFiles}`);
  const cluster = byName(kc.clusters, ctx.cluster);
  if (!cluster) throw new KubeconfigError(`${where}: cluster "${ctx.cluster}" is not defined${inFiles}`);
  if (!cluster.server) throw new KubeconfigError(`${where}: cluster "${ctx.cluster}" has no server${inFiles}`);
  if (cluster.server.startsWith('http:') && !cluster.skipTLSVerify) {
    throw new KubeconfigError(
      `${where} (server ${cluster.server}): plain http needs insecure-skip-tls-verify: true on the cluster${inFiles}`,
    );
  }
  const user = byName(kc.users, ctx.user);
  const unreadable = (field: string, path: string | undefined, data: string | undefined) => {
    const why = path && !data ? unreadableFile(path) : null;
    return why ? `${field} ${path} cannot be read (${why})` : null;
  };
  const ca = unreadable('certificate-authority', cluster.caFile, cluster.caData);
  if (ca) throw new KubeconfigError(`${where}: cluster "${ctx.cluster}": ${ca}${inFiles}`);
  const cert =
    unreadable('client-certificate', user?.certFile, user?.certData) ??
    unreadable('client-key', user?.keyFile, user?.keyData);
  if (cert) throw new KubeconfigError(`${where}: user "${ctx.user}": ${cert}${inFiles}`);
  const entries = kc;
  let credentials: Promise<RequestCredentials> | undefined;
  return {
    credentials: () => (credentials ??= contextCredentials(entries, contextName, fromCluster)),
    contexts: kc.contexts.map((c) => c.name),
    context: contextName,
    cluster: ctx.cluster,
    user: ctx.user,
    server: cluster.server.replace(/\/+$/, ''),
    contextNamespace: ctx.namespace ?? null,
    files,
  };
}
