// A context's credentials applied to a request as client-node's KubeConfig.applyToHTTPSOptions applies them,
// with client-node's own authenticators (exec plugins, token files, OIDC, Azure, GCP), then the user's token,
// basic auth, client certificates, the CA, insecure-skip-tls-verify, tls-server-name and impersonation — but
// without client-node's package index: its KubeConfig module imports every generated API model (~28 MB of heap,
// ~60 MB of RSS in each thread that connects) for API clients wlx does not use. A cluster with a proxy-url still
// gets client-node's KubeConfig (its proxy agents). test/kube/credentials.test.ts holds the two to the same options.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Authenticator } from '@kubernetes/client-node/dist/auth.js';
import { AzureAuth } from '@kubernetes/client-node/dist/azure_auth.js';
import type { Cluster, User } from '@kubernetes/client-node/dist/config_types.js';
import { ExecAuth } from '@kubernetes/client-node/dist/exec_auth.js';
import { FileAuth } from '@kubernetes/client-node/dist/file_auth.js';
import { GoogleCloudPlatformAuth } from '@kubernetes/client-node/dist/gcp_auth.js';

/** What applies a context's credentials to a request (client-node's KubeConfig has this shape too). */
export interface RequestCredentials {
  /** Sets the request's headers, TLS options and agent; exec plugins and OIDC refresh their tokens here. */
  applyToHTTPSOptions(opts: https.RequestOptions): Promise<void>;
  /** The context's user, whose secrets error texts redact; null when the context names no defined user. */
  getCurrentUser(): User | null;
}

/**
 * client-node's OIDC authenticator, loaded when a user has an oidc auth-provider: its openid-client and jose are
 * ~60 modules (~5 MB of RSS) that most kubeconfigs never use. The test is OpenIDConnectAuth.isAuthProvider's.
 */
class LazyOidcAuth implements Authenticator {
  private auth: Promise<Authenticator> | undefined;

  isAuthProvider(user: User): boolean {
    return user.authProvider?.name === 'oidc';
  }

  async applyAuthentication(user: User, opts: https.RequestOptions): Promise<void> {
    this.auth ??= import('@kubernetes/client-node/dist/oidc_auth.js').then((m) => new m.OpenIDConnectAuth());
    await (await this.auth).applyAuthentication(user, opts);
  }
}

/** A file's bytes, else base64 data decoded (client-node's bufferFromFileOrString). */
function fileOrData(file: string | undefined, data: string | undefined): Buffer | null {
  if (file) return readFileSync(file);
  return data ? Buffer.from(data, 'base64') : null;
}

/** One context's credentials: its cluster and user entries as client-node parsed them (config_types.js). */
export class ContextCredentials implements RequestCredentials {
  // KubeConfig's authenticators, in its order (the first that claims the user applies); each keeps its own cache.
  private readonly authenticators: Authenticator[] = [
    new AzureAuth(),
    new GoogleCloudPlatformAuth(),
    new ExecAuth(),
    new FileAuth(),
    new LazyOidcAuth(),
  ];

  constructor(
    private readonly cluster: Cluster,
    private readonly user: User | null,
  ) {
    if (cluster.proxyUrl) throw new Error(`cluster "${cluster.name}" has a proxy-url: use client-node's KubeConfig`);
  }

  getCurrentUser(): User | null {
    return this.user;
  }

  async applyToHTTPSOptions(opts: https.RequestOptions): Promise<void> {
    const { cluster, user } = this;
    // As KubeConfig: without a user entry, no TLS options either.
    if (user) {
      if (cluster.skipTLSVerify) opts.rejectUnauthorized = false;
      if (cluster.tlsServerName) opts.servername = cluster.tlsServerName;
      const ca = fileOrData(cluster.caFile, cluster.caData);
      if (ca) opts.ca = ca;
      const cert = fileOrData(user.certFile, user.certData);
      if (cert) opts.cert = cert;
      const key = fileOrData(user.keyFile, user.keyData);
      if (key) opts.key = key;
      const headers = (opts.headers ??= {}) as http.OutgoingHttpHeaders;
      if (user.impersonateUser != null) headers['Impersonate-User'] = user.impersonateUser;
      await this.authenticators.find((a) => a.isAuthProvider(user))?.applyAuthentication(user, opts);
      if (user.token) headers.Authorization = `Bearer ${user.token}`;
      if (user.username) opts.auth = `${user.username}:${user.password}`;
    }
    const agentOptions: https.AgentOptions = {
      // Node's Agent closes a connection after each request unless told otherwise: a list of 100,000 pods was 200
      // connections (and TLS handshakes). Kept open between requests, as client-go's transport does.
      keepAlive: true,
      ca: opts.ca,
      cert: opts.cert,
      key: opts.key,
      pfx: opts.pfx,
      passphrase: opts.passphrase,
      timeout: opts.timeout,
      servername: opts.servername,
      ciphers: opts.ciphers,
      honorCipherOrder: opts.honorCipherOrder,
      ecdhCurve: opts.ecdhCurve,
      clientCertEngine: opts.clientCertEngine,
      crl: opts.crl,
      dhparam: opts.dhparam,
      secureOptions: opts.secureOptions,
      secureProtocol: opts.secureProtocol,
      sessionIdContext: opts.sessionIdContext,
    };
    // Only when set: unset, node's NODE_TLS_REJECT_UNAUTHORIZED applies.
    if (opts.rejectUnauthorized !== undefined) agentOptions.rejectUnauthorized = opts.rejectUnauthorized;
    if (cluster.server.startsWith('http:')) {
      if (!cluster.skipTLSVerify)
        throw new Error('HTTP protocol is not allowed when skipTLSVerify is not set or false');
      opts.agent = new http.Agent(agentOptions);
    } else {
      opts.agent = new https.Agent(agentOptions);
    }
  }
}
