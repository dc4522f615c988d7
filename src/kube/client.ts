// The one way wlx talks to an API server: plain GETs over node's http/https,
// with client-node's KubeConfig applying auth and TLS (tokens, client certs,
// exec plugins, OIDC) to every request. Hot paths (lists, watches) stay plain
// JSON: client-node's typed APIs deserialise into model classes, which costs
// twice the time and memory on large lists.
//
// wlx only reads: this module has no way to send anything but GET.
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

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

/** A failure to reach the server at all (refused, reset, TLS, timeout). */
export class KubeConnectionError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'KubeConnectionError';
  }
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

  constructor(
    private readonly kubeConfig: KubeConfig,
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
    await this.kubeConfig.applyToHTTPSOptions(opts);
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
            reject(new KubeApiError(`${this.label}: GET ${path}: ${message}`, status, reason));
          },
          (err: Error) => reject(new KubeConnectionError(`${this.label}: GET ${path}: ${err.message}`, null)),
        );
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.name === 'AbortError') reject(err);
        else reject(new KubeConnectionError(`${this.label}: GET ${path}: ${err.message}`, err.code ?? null));
      });
      req.end();
    });
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.agent?.destroy();
  }
}
