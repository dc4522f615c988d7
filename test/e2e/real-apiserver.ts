// The real kube-apiserver v1.20.2 + etcd of ../shared/real-apiserver for the
// real-server suite (test/e2e/real-*.test.ts): started once per `npm test`
// by test/run.mjs (WLX_REAL_APISERVER_STATE names its directory), or by the
// first test file that needs it when a file runs on its own; the CRDs of
// JobSet, LeaderWorkerSet, Kueue and PyTorchJob installed; an HTTP client
// that writes as controllers and kubelets would (the seed, live changes).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { Agent as HttpAgent } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import yaml from 'js-yaml';
import { ROOT } from './tmux.js';

const run = promisify(execFile);

/** Where the real server's scripts live: $WLX_REAL_APISERVER, else ../shared/real-apiserver beside the clone. */
export const REAL_APISERVER_HOME = resolve(
  process.env.WLX_REAL_APISERVER ?? join(ROOT, '..', 'shared', 'real-apiserver'),
);

/** Why the real-server suite cannot run here (a user's own clone has no ../shared), or false. */
export function realServerSkipReason(): string | false {
  if (existsSync(join(REAL_APISERVER_HOME, 'start.sh'))) return false;
  return `no real kube-apiserver at ${REAL_APISERVER_HOME} (set WLX_REAL_APISERVER): the real-server suite is skipped`;
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  text: string;
}

/** A minimal Kubernetes API client over a token: JSON in, JSON out, TLS unverified (the server is self-signed). */
export class ApiClient {
  private readonly agent: HttpAgent | HttpsAgent;

  constructor(
    readonly server: string,
    private readonly token: string | undefined,
  ) {
    this.agent = server.startsWith('https:')
      ? new HttpsAgent({ keepAlive: true, rejectUnauthorized: false })
      : new HttpAgent({ keepAlive: true });
  }

  request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<ApiResponse<T>> {
    const url = new URL(path, this.server);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolveResponse, reject) => {
      const req = send(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            accept: 'application/json',
            ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
            ...(payload !== undefined
              ? { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = {};
            try {
              parsed = text ? JSON.parse(text) : {};
            } catch {
              parsed = {};
            }
            resolveResponse({ status: res.statusCode ?? 0, body: parsed as T, text });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path}: no answer within 20 s`)));
      req.end(payload);
    });
  }

  /** Like request, but a status outside 2xx (and not in `allowed`) throws with the server's message. */
  async must<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    contentType?: string,
    allowed: number[] = [],
  ): Promise<ApiResponse<T>> {
    const r = await this.request<T>(method, path, body, contentType);
    if ((r.status < 200 || r.status >= 300) && !allowed.includes(r.status))
      throw new Error(`${method} ${path}: HTTP ${r.status}: ${r.text.slice(0, 500)}`);
    return r;
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface RealServer {
  /** The state directory given to start.sh (kubeconfig, tokens, logs, etcd data). */
  dir: string;
  /** `https://127.0.0.1:PORT` */
  server: string;
  kubeconfig: string;
  /** As `real-admin` (system:masters). */
  admin: ApiClient;
  /** As `real-restricted` (group researchers: reads only namespace `training`). */
  restricted: ApiClient;
  /** stop.sh then start.sh on the same directory: same ports, etcd keeps its data. */
  restart(): Promise<void>;
  /**
   * Stops kube-apiserver alone (etcd keeps running), runs `whileDown` — e.g.
   * etcd writes no watcher can see —, then start.sh brings both back on the same
   * ports and data.
   */
  restartAround(whileDown: () => Promise<void>): Promise<void>;
  /** Deletes an etcd key (`/registry/pods/NS/NAME`) behind kube-apiserver's back, through etcd's JSON gateway. */
  etcdDelete(key: string): Promise<void>;
}

function tokens(dir: string): { admin: string; researcher: string } {
  const lines = readFileSync(join(dir, 'tokens.csv'), 'utf8').split('\n');
  const of = (user: string) => lines.find((l) => l.split(',')[1] === user)?.split(',')[0] ?? '';
  return { admin: of('admin'), researcher: of('researcher') };
}

async function startScript(dir: string): Promise<string> {
  try {
    const { stdout } = await run(join(REAL_APISERVER_HOME, 'start.sh'), [dir], { timeout: 180_000 });
    const m = /real-apiserver: (https:\/\/\S+) kubeconfig/.exec(stdout);
    if (!m) throw new Error(`start.sh printed no address: ${stdout}`);
    return m[1];
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(
      `the real kube-apiserver did not start (${REAL_APISERVER_HOME}/start.sh ${dir}):\n${e.stderr ?? e.message}`,
    );
  }
}

/** Every CRD of ../shared/real-apiserver/crds created (409: already there) and Established. */
async function installCrds(admin: ApiClient): Promise<void> {
  const dir = join(REAL_APISERVER_HOME, 'crds');
  const names: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const crd = yaml.load(readFileSync(join(dir, file), 'utf8')) as { metadata: { name: string } };
    names.push(crd.metadata.name);
    await admin.must('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd, undefined, [409]);
  }
  await waitUntil('the CRDs to be Established', async () => {
    for (const name of names) {
      const r = await admin.request<{ status?: { conditions?: Array<{ type: string; status: string }> } }>(
        'GET',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`,
      );
      if (!r.body.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return false;
    }
    return true;
  });
}

/** Polls `check` every 100 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts (or finds running) the server of `dir`, with the CRDs installed. */
export async function startRealServer(dir: string): Promise<RealServer> {
  let server = await startScript(dir);
  const t = tokens(dir);
  let admin = new ApiClient(server, t.admin);
  let restricted = new ApiClient(server, t.researcher);
  await installCrds(admin);
  const handle: RealServer = {
    dir,
    server,
    kubeconfig: join(dir, 'kubeconfig'),
    admin,
    restricted,
    async restart() {
      await handle.restartAround(() => stopRealServer(dir));
    },
    async restartAround(whileDown) {
      // The first PID in DIR/pids is the kube-apiserver start.sh started (the second its etcd).
      const pid = Number(readFileSync(join(dir, 'pids'), 'utf8').split('\n')[0]);
      if (!pid) throw new Error(`no kube-apiserver PID in ${dir}/pids`);
      // As a crash or an OOM kill would (and without graceful shutdown's wait for open requests).
      process.kill(pid, 'SIGKILL');
      try {
        await waitUntil('kube-apiserver to exit', () => !isAlive(pid), 60_000);
        await whileDown();
      } finally {
        // Back up whatever happened, for the tests after this one.
        server = await startScript(dir);
      }
      admin.close();
      restricted.close();
      handle.admin = admin = new ApiClient(server, t.admin);
      handle.restricted = restricted = new ApiClient(server, t.researcher);
    },
    async etcdDelete(key) {
      const port = /^ETCD_CLIENT_PORT=(\d+)$/m.exec(readFileSync(join(dir, 'ports'), 'utf8'))?.[1];
      const etcd = new ApiClient(`http://127.0.0.1:${port}`, undefined);
      try {
        const r = await etcd.must<{ deleted?: string }>('POST', '/v3/kv/deleterange', {
          key: Buffer.from(key).toString('base64'),
        });
        if (r.body.deleted !== '1') throw new Error(`etcd had no key ${key}: ${r.text}`);
      } finally {
        etcd.close();
      }
    },
  };
  return handle;
}

/** Alive and not a zombie (start.sh's servers are reparented; whoever adopts them may not reap them at once). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export async function stopRealServer(dir: string): Promise<void> {
  await run(join(REAL_APISERVER_HOME, 'stop.sh'), [dir], { timeout: 60_000 });
}

/** The env var test/run.mjs sets to the directory of the server it started for the whole run. */
export const SHARED_STATE_ENV = 'WLX_REAL_APISERVER_STATE';

/**
 * Cleanups run by one `after` hook registered now, at a describe's top level: registered from inside `before`
 * an `after` would run when that hook ends, and a `before` that throws would leave its server running. Each
 * cleanup runs even when an earlier one fails (the first failure is thrown at the end); the last added first.
 */
export function cleanupsAfter(after: (fn: () => Promise<void>) => void): (fn: () => Promise<void>) => void {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    const failures: unknown[] = [];
    for (const fn of cleanups.reverse()) await fn().catch((e: unknown) => failures.push(e));
    if (failures.length) throw failures[0];
  });
  return (fn) => cleanups.push(fn);
}

/**
 * The run's real server: the one test/run.mjs started, else one started here
 * and stopped by `after` (a test file run on its own): pass `cleanupsAfter(after)`, registered at the top level.
 */
export async function useRealServer(after: (fn: () => Promise<void>) => void): Promise<RealServer> {
  const shared = process.env[SHARED_STATE_ENV];
  if (shared) {
    const s = await startRealServer(shared); // start.sh only reprints the line of a running server
    after(async () => {
      s.admin.close();
      s.restricted.close();
    });
    return s;
  }
  const dir = mkdtempSync(join(tmpdir(), 'wlx-real-apiserver-'));
  let s: RealServer | undefined = undefined;
  after(async () => {
    s?.admin.close();
    s?.restricted.close();
    await stopRealServer(dir).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  s = await startRealServer(dir);
  return s;
}
