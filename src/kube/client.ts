// The one way wlx talks to an API server: plain GETs over node's http/https,
// with client-node's authenticators applying auth and TLS (tokens, client certs,
// exec plugins, OIDC) to every request (credentials.ts). Hot paths (lists, watches) stay plain
// JSON: client-node's typed APIs deserialise into model classes, which costs
// twice the time and memory on large lists.
//
// wlx only reads: this module has no way to send anything but GET.
import http from 'node:http';
import https from 'node:https';
import type { RequestCredentials } from './credentials.js';
import type { ConnectionCause } from '../model/types.js';

/** An API answer that was not 2xx, with the Kubernetes Status when there was one. */
export class KubeApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly reason: string | null,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}

/** A failure to reach the server at all (refused, reset, TLS, timeout, credentials plugin). */
export class KubeConnectionError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    /** The underlying error's own text (no context label, no path). */
    readonly detail: string = message,
  ) {
    super(message);
    this.name = 'KubeConnectionError';
  }
}

/** Code of a KubeConnectionError raised when the credentials could not be obtained (exec plugin, OIDC refresh). */
export const CREDENTIALS_FAILED = 'ECREDENTIALS';

const TLS_CODE = /^(EPROTO|ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_)/;

/** Why a request failed, in a few words for the header and flash line. */
export function describeFailure(err: unknown): ConnectionCause {
  if (err instanceof KubeApiError) {
    if (err.status === 401) return { kind: 'unauthorized', text: 'unauthorized (401): the credentials were rejected' };
    if (err.status === 403) return { kind: 'forbidden', text: 'forbidden (403)' };
    return { kind: 'server', text: err.status ? `server answered ${err.status}` : 'server answered invalid data' };
  }
  if (err instanceof KubeConnectionError) {
    const code = err.code ?? '';
    if (code === CREDENTIALS_FAILED) return { kind: 'credentials', text: `credentials failed: ${err.detail}` };
    if (code === 'ECONNREFUSED') return { kind: 'unreachable', text: 'connection refused' };
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'unreachable', text: 'server name not found' };
    if (code === 'ECONNRESET' || code === 'EPIPE') return { kind: 'unreachable', text: 'connection reset' };
    if (TLS_CODE.test(code)) {
      const plain = /wrong version number|packet length too long/i.test(err.detail);
      return { kind: 'tls', text: plain ? 'TLS failed: the server does not speak TLS' : `TLS failed: ${err.detail}` };
    }
    return { kind: 'unreachable', text: code ? `server unreachable (${code})` : 'server unreachable' };
  }
  if (err instanceof Error && err.name === 'StalledError') return { kind: 'stalled', text: 'server stopped answering' };
  return { kind: 'server', text: err instanceof Error ? err.message : String(err) };
}

const BEARER = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;

/** Text with every secret (and any bearer or basic credential) replaced by <redacted>. */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text.replace(BEARER, '$1 <redacted>');
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('<redacted>');
  return out;
}

/** The credentials a request options object carries: header values, client key, passphrase. */
function secretsOf(opts: https.RequestOptions): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Buffer.isBuffer(v)) out.push(v.toString('utf8'));
    else if (Array.isArray(v)) v.forEach(add);
  };
  const headers = (opts.headers ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'authorization') continue;
    add(value);
    if (typeof value === 'string') add(value.replace(/^\S+\s+/, ''));
  }
  add(opts.key);
  add(opts.passphrase);
  add(opts.auth);
  return out;
}

export interface GetOptions {
  signal?: AbortSignal;
  accept?: string;
}

/** What the reflector and discovery need; tests may implement it over anything. */
export interface KubeTransport {
  /** Opens a GET; resolves once the response headers arrived with a 2xx status, else rejects. */
  open(path: string, options?: GetOptions): Promise<http.IncomingMessage>;
  /** `context "x" (server https://...)`, for error messages; never credentials. */
  readonly label: string;
}

function statusMessage(status: number, body: string): { message: string; reason: string | null } {
  try {
    const parsed = JSON.parse(body) as { kind?: string; message?: string; reason?: string };
    if (parsed && parsed.kind === 'Status')
      return { message: parsed.message ?? `HTTP ${status}`, reason: parsed.reason ?? null };
  } catch {
    // not JSON: fall through
  }
  const text = body.trim().slice(0, 200);
  return { message: text ? `HTTP ${status}: ${text}` : `HTTP ${status}`, reason: null };
}

async function readBody(res: http.IncomingMessage, limit = 1 << 16): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    const b = chunk as Buffer;
    if (size < limit) chunks.push(b);
    size += b.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a whole response as JSON. */
export async function readJson(res: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** GET a path and parse JSON. */
export async function getJson(transport: KubeTransport, path: string, options?: GetOptions): Promise<unknown> {
  const res = await transport.open(path, options);
  try {
    return await readJson(res);
  } catch (err) {
    if (err instanceof SyntaxError)
      throw new KubeApiError(`${transport.label}: GET ${path}: invalid JSON: ${err.message}`, 0, null);
    throw err;
  }
}

/** A transport over a kubeconfig context. */
export class HttpKubeTransport implements KubeTransport {
  readonly label: string;
  private readonly base: URL;
  private agent: http.Agent | undefined;
  /** Sockets given an 'error' listener of their own (see open). */
  private readonly guarded = new WeakSet<object>();
  private applied: RequestCredentials | undefined;

  /** `credentials`: the context's (client-node's KubeConfig is one), or how to make them (on the first request). */
  constructor(
    private readonly credentials: RequestCredentials | (() => Promise<RequestCredentials>),
    readonly server: string,
    readonly context: string,
  ) {
    this.base = new URL(server);
    this.label = `context "${context}" (server ${server})`;
  }

  async open(path: string, options: GetOptions = {}): Promise<http.IncomingMessage> {
    const url = new URL(this.base.pathname.replace(/\/$/, '') + path, this.base);
    const opts: https.RequestOptions = {
      method: 'GET',
      headers: { Accept: options.accept ?? 'application/json', 'User-Agent': 'wlx' },
    };
    // Applied per request: exec plugins and OIDC refresh their tokens here.
    try {
      this.applied ??= typeof this.credentials === 'function' ? await this.credentials() : this.credentials;
      await this.applied.applyToHTTPSOptions(opts);
    } catch (err) {
      const detail = this.redact((err as Error).message, secretsOf(opts));
      throw new KubeConnectionError(`${this.label}: credentials: ${detail}`, CREDENTIALS_FAILED, detail);
    }
    // Every error text below passes through redact: servers and proxies may echo headers.
    const secrets = secretsOf(opts);
    // client-node makes a new agent per call; keep the first one so
    // connections (and TLS sessions) are reused.
    if (this.agent) opts.agent = this.agent;
    else this.agent = opts.agent as http.Agent | undefined;
    const isHttps = url.protocol === 'https:';
    const requestOptions: https.RequestOptions = {
      ...opts,
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (isHttps ? 443 : 80),
      path: url.pathname + url.search,
      method: 'GET',
      signal: options.signal,
    };
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = (isHttps ? https : http).request(requestOptions, (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          resolve(res);
          return;
        }
        readBody(res).then(
          (body) => {
            const { message, reason } = statusMessage(status, body);
            reject(new KubeApiError(this.redact(`${this.label}: GET ${path}: ${message}`, secrets), status, reason));
          },
          (err: Error) => reject(this.connectionError(path, err, secrets)),
        );
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.name === 'AbortError') reject(err);
        else reject(this.connectionError(path, err, secrets));
      });
      // A kept connection's socket lives from request to request, and between two (the response read, the socket
      // being handed back) it has no 'error' listener: an abort then threw an unhandled 'error' (the soak test).
      req.once('socket', (socket) => {
        if (!this.guarded.has(socket)) {
          this.guarded.add(socket);
          socket.on('error', () => undefined);
        }
      });
      req.end();
    });
  }

  private redact(text: string, secrets: string[]): string {
    const user = this.applied?.getCurrentUser();
    const known = [user?.token, user?.password, user?.keyData].filter((v): v is string => !!v);
    return redactSecrets(text, [...secrets, ...known]);
  }

  private connectionError(path: string, err: NodeJS.ErrnoException, secrets: string[]): KubeConnectionError {
    const detail = this.redact(err.message, secrets);
    return new KubeConnectionError(`${this.label}: GET ${path}: ${detail}`, err.code ?? null, detail);
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.agent?.destroy();
  }
}
