// Container logs for the simulated kubelets. Lines are not produced by timers:
// each container's log is a deterministic function of (seed, pod, container,
// attempt, line number) with line i due at a known simulated time, so a read
// materialises just the lines that are due. 100,000 idle pods cost nothing;
// a pod that ran for days is fast-forwarded to its last lines. Each container
// keeps at most MAX_LINES, plus the previous attempt's log for --previous.
import type { ObjectStore } from '../object-store.js';
import { hash32, Random, type SimClock } from './clock.js';
import { podRequests } from './pods.js';
import { R, type Pod } from './types.js';
import type { LogLine, LogProvider } from '../server/logs.js';

export const MAX_LINES = 2000;
const HEADER_SPACING_MS = 40;
const FOLLOW_POLL_REAL_MS = 250;

export type LogStyle = 'training' | 'ray-head' | 'ray-worker' | 'inference' | 'generic' | 'hostile';

export interface LogContext {
  pod: string;
  namespace: string;
  node: string;
  podIP: string;
  container: string;
  image: string;
  gpus: number;
  rank: number;
  worldSize: number;
  attempt: number;
}

/** One attempt of one container. */
class ContainerLog {
  private readonly lines: LogLine[] = [];
  private firstIndex = 0; // absolute index of lines[0]
  private nextIndex = 0; // absolute index of the next line to materialise
  private endAt: number | undefined;
  private tail: string[] = [];
  private readonly header: string[];
  private readonly intervalMs: number;

  constructor(
    private readonly seedKey: number,
    private readonly style: LogStyle,
    private readonly ctx: LogContext,
    private readonly startSim: number,
    private readonly clock: SimClock,
  ) {
    this.header = headerLines(style, ctx);
    this.intervalMs = style === 'training' ? 2500 : style === 'inference' ? 5000 : style === 'hostile' ? 7000 : 4000;
  }

  /** Absolute index one past the last line that exists now. */
  get end(): number {
    return this.nextIndex;
  }

  private timeOf(i: number): number {
    const h = this.header.length;
    if (i < h) return this.startSim + i * HEADER_SPACING_MS;
    const base = this.startSim + h * HEADER_SPACING_MS + (i - h + 1) * this.intervalMs;
    return base + (hash32(`${this.seedKey}:${i}:t`) / 0xffffffff) * this.intervalMs * 0.5;
  }

  /** Produce every line due by `nowSim` (bounded; far-behind logs skip ahead). */
  materialise(nowSim: number): void {
    const until = this.endAt !== undefined ? Math.min(nowSim, this.endAt) : nowSim;
    const h = this.header.length;
    const approxLast = h + Math.floor((until - this.startSim - h * HEADER_SPACING_MS) / this.intervalMs);
    if (approxLast - this.nextIndex > MAX_LINES) {
      // Only the last MAX_LINES would be kept anyway: skip ahead.
      this.nextIndex = approxLast - MAX_LINES;
      this.lines.length = 0;
      this.firstIndex = this.nextIndex;
    }
    while (this.timeOf(this.nextIndex) <= until) {
      const i = this.nextIndex++;
      this.push({
        time: this.clock.isoNano(this.timeOf(i)),
        text: i < h ? this.header[i] : bodyLine(this.style, this.ctx, i - h, this.seedKey),
      });
    }
    if (this.endAt !== undefined && nowSim >= this.endAt && this.tail.length) {
      for (const text of this.tail) {
        this.nextIndex++;
        this.push({ time: this.clock.isoNano(this.endAt), text });
      }
      this.tail = [];
    }
  }

  /** The container stops at `atSim`; `lastWords` are its final lines. */
  terminate(atSim: number, lastWords: string[]): void {
    this.materialise(atSim);
    this.endAt = atSim;
    this.tail = lastWords;
    this.materialise(atSim);
  }

  since(absIndex: number): LogLine[] {
    return this.lines.slice(Math.max(0, absIndex - this.firstIndex));
  }

  all(): LogLine[] {
    return this.lines.slice(-MAX_LINES);
  }

  private push(line: LogLine): void {
    this.lines.push(line);
    if (this.lines.length > MAX_LINES + 200) {
      const drop = this.lines.length - MAX_LINES;
      this.lines.splice(0, drop);
      this.firstIndex += drop;
    }
  }
}

interface ContainerLogs {
  current?: ContainerLog;
  previous?: ContainerLog;
}

interface Follower {
  podUid: string;
  container: string;
  log: ContainerLog | undefined;
  delivered: number;
  onLine: (line: LogLine) => void;
}

export class LogStore implements LogProvider {
  /** `${podUid}/${container}` → logs */
  private readonly logs = new Map<string, ContainerLogs>();
  private readonly followers = new Set<Follower>();
  private pollTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: SimClock,
    private readonly seed: number,
  ) {}

  /** A container (re)starts now: its current log becomes the previous one. */
  start(pod: Pod, container: string, startSim = this.clock.now()): ContainerLog {
    const key = `${pod.metadata.uid}/${container}`;
    const entry = this.logs.get(key) ?? {};
    const ctx = logContext(pod, container);
    const seedKey = hash32(`${this.seed}/${ctx.namespace}/${ctx.pod}/${ctx.container}/${ctx.attempt}`);
    const log = new ContainerLog(seedKey, logStyleFor(pod), ctx, startSim, this.clock);
    this.logs.set(key, { previous: entry.current ?? entry.previous, current: log });
    return log;
  }

  /** The running container ends now with these last lines. */
  terminate(podUid: string, container: string, lastWords: string[]): void {
    this.logs.get(`${podUid}/${container}`)?.current?.terminate(this.clock.now(), lastWords);
  }

  /** Forget a deleted pod's logs. */
  forget(podUid: string, containers: string[]): void {
    for (const c of containers) this.logs.delete(`${podUid}/${c}`);
  }

  read(
    namespace: string,
    podName: string,
    container: string | undefined,
    previous: boolean,
  ): { lines: LogLine[] } | { error: string; code: number } {
    const resolved = this.resolve(namespace, podName, container);
    if ('error' in resolved) return resolved;
    const { pod, name } = resolved;
    const entry = this.logs.get(`${pod.metadata.uid}/${name}`);
    if (previous) {
      const prev = entry?.previous;
      if (!prev) return { error: `previous terminated container "${name}" in pod "${podName}" not found`, code: 400 };
      prev.materialise(this.clock.now());
      return { lines: prev.all() };
    }
    let current = entry?.current;
    const startedAt = pod.status.containerStatuses?.find((c) => c.name === name)?.state.running?.startedAt;
    // A pod built already running (scale scenario) gets its log on first read.
    if (!current && startedAt) current = this.start(pod, name, this.clock.simFromWall(Date.parse(startedAt)));
    if (!current && !pod.spec.nodeName) return { error: `pod ${podName} does not have a host assigned`, code: 400 };
    if (!current) {
      const waiting =
        pod.status.containerStatuses?.find((c) => c.name === name)?.state.waiting?.reason ?? 'ContainerCreating';
      return { error: `container "${name}" in pod "${podName}" is waiting to start: ${waiting}`, code: 400 };
    }
    current.materialise(this.clock.now());
    return { lines: current.all() };
  }

  follow(
    namespace: string,
    podName: string,
    container: string | undefined,
    onLine: (line: LogLine) => void,
  ): () => void {
    const resolved = this.resolve(namespace, podName, container);
    if ('error' in resolved) return () => {};
    const podUid = resolved.pod.metadata.uid;
    this.read(namespace, podName, resolved.name, false); // adopts a log not started yet
    const log = this.logs.get(`${podUid}/${resolved.name}`)?.current;
    log?.materialise(this.clock.now());
    const f: Follower = { podUid, container: resolved.name, log, delivered: log?.end ?? 0, onLine };
    this.followers.add(f);
    if (!this.pollTimer) this.pollTimer = setInterval(() => this.poll(), FOLLOW_POLL_REAL_MS);
    return () => {
      this.followers.delete(f);
      if (!this.followers.size && this.pollTimer) {
        clearInterval(this.pollTimer);
        this.pollTimer = undefined;
      }
    };
  }

  stop(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    this.followers.clear();
  }

  private poll(): void {
    const now = this.clock.now();
    for (const f of [...this.followers]) {
      const log = this.logs.get(`${f.podUid}/${f.container}`)?.current;
      if (!log) continue;
      if (log !== f.log) {
        // The container restarted: follow the new attempt from its start.
        f.log = log;
        f.delivered = 0;
      }
      log.materialise(now);
      for (const line of log.since(f.delivered)) f.onLine(line);
      f.delivered = log.end;
    }
  }

  private resolve(
    namespace: string,
    podName: string,
    container: string | undefined,
  ): { pod: Pod; name: string } | { error: string; code: number } {
    const pod = this.store.get(R.pods, namespace, podName) as Pod | undefined;
    if (!pod) return { error: `pods "${podName}" not found`, code: 404 };
    const names = pod.spec.containers.map((c) => c.name);
    if (container === undefined) {
      if (names.length !== 1)
        return {
          error: `a container name must be specified for pod ${podName}, choose one of: [${names.join(' ')}]`,
          code: 400,
        };
      return { pod, name: names[0] };
    }
    if (!names.includes(container))
      return { error: `container ${container} is not valid for pod ${podName}`, code: 400 };
    return { pod, name: container };
  }
}

/** What a container's log lines mention: its rank, peers, GPUs, addresses. */
export function logContext(pod: Pod, container: string): LogContext {
  const l = pod.metadata.labels ?? {};
  const c = pod.spec.containers.find((x) => x.name === container) ?? pod.spec.containers[0];
  const env = c.env ?? [];
  const rankEnv = env.find((e) => e.name === 'RANK')?.value;
  const rank =
    rankEnv !== undefined
      ? Number(rankEnv)
      : Number(l['jobset.sigs.k8s.io/job-global-index'] ?? 0) +
          Number(
            l['batch.kubernetes.io/job-completion-index'] ??
              l['leaderworkerset.sigs.k8s.io/worker-index'] ??
              l['training.kubeflow.org/replica-index'] ??
              0,
          ) || 0;
  const worldSize =
    Number(env.find((e) => e.name === 'WORLD_SIZE')?.value ?? l['jobset.sigs.k8s.io/global-replicas'] ?? 1) || 1;
  return {
    pod: pod.metadata.name,
    namespace: pod.metadata.namespace ?? '',
    node: pod.spec.nodeName ?? '',
    podIP: pod.status.podIP ?? '',
    container: c.name,
    image: c.image,
    gpus: podRequests(pod.spec).gpu,
    rank,
    worldSize,
    attempt: pod.status.containerStatuses?.find((s) => s.name === c.name)?.restartCount ?? 0,
  };
}

/** Which kind of program a pod runs, from the labels its controller set. */
export function logStyleFor(pod: Pod): LogStyle {
  const l = pod.metadata.labels ?? {};
  if (pod.metadata.annotations?.['wlx.demo/log-style'] === 'hostile') return 'hostile';
  if (l['ray.io/node-type'] === 'head') return 'ray-head';
  if (l['ray.io/node-type'] === 'worker') return 'ray-worker';
  if (l['leaderworkerset.sigs.k8s.io/name']) return 'inference';
  if (l['jobset.sigs.k8s.io/jobset-name'] || l['training.kubeflow.org/job-name']) return 'training';
  return 'generic';
}

function headerLines(style: LogStyle, c: LogContext): string[] {
  const ip = c.podIP;
  switch (style) {
    case 'training':
      return [
        `[rank${c.rank}] Initializing torch.distributed: backend=nccl world_size=${c.worldSize} rank=${c.rank} local_world_size=${Math.max(1, c.gpus)}`,
        `${c.pod}:1:1 [0] NCCL INFO Bootstrap : Using eth0:${ip}<0>`,
        `${c.pod}:1:1 [0] NCCL INFO NET/Plugin: Loaded net plugin NCCL RDMA SHARP (v8)`,
        `${c.pod}:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB ; OOB eth0:${ip}<0>`,
        `${c.pod}:1:1 [0] NCCL INFO cudaDriverVersion 12040`,
        `NCCL version 2.21.5+cuda12.4`,
        `${c.pod}:1:1 [0] NCCL INFO comm 0x55d1c0a8e0 rank ${c.rank} nranks ${c.worldSize * Math.max(1, c.gpus)} cudaDev 0 nvmlDev 0 busId 18000 commId 0x7f1e2b - Init COMPLETE`,
        `[rank${c.rank}] Loading checkpoint shards: 100%|██████████| 30/30 [00:41<00:00,  1.38s/it]`,
        `[rank${c.rank}] Model parameters: 8.03B, trainable: 8.03B, dtype=bfloat16, fsdp=FULL_SHARD`,
        `[rank${c.rank}] Starting training: global_batch_size=1024 micro_batch_size=4 seq_len=4096 lr=3.0e-04 warmup_steps=2000`,
      ];
    case 'ray-head':
      return [
        `Usage stats collection is enabled by default without user confirmation because this terminal is detected to be non-interactive.`,
        `Local node IP: ${ip}`,
        `--------------------`,
        `Ray runtime started.`,
        `--------------------`,
        `Next steps`,
        `  To add another node to this Ray cluster, run`,
        `    ray start --address='${ip}:6379'`,
        `View the Ray dashboard at http://${ip}:8265`,
        `2026-12-02 00:00:00,000\tINFO tune.py:616 -- [output] This uses the legacy output and progress reporter, as Jupyter notebooks are not supported by the new engine, yet.`,
      ];
    case 'ray-worker':
      return [
        `Local node IP: ${ip}`,
        `[2026-12-02 00:00:00,000 I 1 1] (raylet) main.cc:179: Setting cluster ID to: 9a1f2c4b8d0e6f3a`,
        `[2026-12-02 00:00:00,000 I 1 1] (raylet) node_manager.cc:525: [state-dump] NodeManager: Num GPUs: ${c.gpus}`,
        `--------------------`,
        `Ray runtime started.`,
        `--------------------`,
      ];
    case 'inference':
      return [
        `INFO 12-02 00:00:00 api_server.py:585] vLLM API server version 0.6.3.post1`,
        `INFO 12-02 00:00:00 api_server.py:586] args: Namespace(model='meta-llama/Llama-3.1-70B-Instruct', tensor_parallel_size=8, pipeline_parallel_size=2, max_model_len=8192, distributed_executor_backend='ray')`,
        `INFO 12-02 00:00:01 config.py:887] Defaulting to use ray for distributed inference`,
        `INFO 12-02 00:00:09 model_runner.py:1060] Starting to load model meta-llama/Llama-3.1-70B-Instruct...`,
        `INFO 12-02 00:00:52 model_runner.py:1071] Loading model weights took 16.4620 GB`,
        `INFO 12-02 00:00:58 distributed_gpu_executor.py:57] # GPU blocks: 23810, # CPU blocks: 6553`,
        `INFO 12-02 00:01:03 launcher.py:19] Available routes are: /v1/completions, /v1/chat/completions, /v1/models, /health, /metrics`,
        `INFO:     Uvicorn running on http://0.0.0.0:8080 (Press CTRL+C to quit)`,
      ];
    case 'hostile':
      return [
        `starting innocent service`,
        `\u001b]0;pwned\u0007\u001b[2J\u001b[31mALL YOUR GPUS ARE BELONG TO US\u001b[0m \u202eevil\u202c`,
      ];
    default:
      return [`starting ${c.container} (${c.image})`];
  }
}

function bodyLine(style: LogStyle, c: LogContext, n: number, seedKey: number): string {
  const r = new Random(hash32(`${seedKey}:${n}`));
  switch (style) {
    case 'training': {
      const step = n + 1;
      if (step % 100 === 0)
        return `[rank${c.rank}] Saving checkpoint to /checkpoints/step-${step} (async, sharded) ... done in ${r.between(4, 12).toFixed(1)}s`;
      const loss = 1.55 + 8.5 * Math.exp(-step / 350) + r.between(-0.04, 0.04);
      const lr = 3e-4 * Math.min(1, step / 2000);
      const tps = Math.round((Math.max(1, c.gpus) * 11_800 + r.between(-600, 600)) * c.worldSize);
      return `[rank${c.rank}] step ${step}/100000 | loss ${loss.toFixed(4)} | lr ${lr.toExponential(2)} | grad_norm ${r.between(0.6, 1.4).toFixed(3)} | tokens/s ${tps} | tflops/gpu ${r.between(380, 430).toFixed(1)} | mem ${r.between(68, 74).toFixed(1)}GiB`;
    }
    case 'ray-head': {
      const trial = String(n % 8).padStart(5, '0');
      return n % 5 === 4
        ? `== Status ==\tCurrent time: ${n} iterations | Using AsyncHyperBand: num_stopped=${Math.floor(n / 20)} | Logical resource usage: 4.0/4 GPUs, 9.0/64 CPUs`
        : `Trial train_resnet_${trial} reported mean_accuracy=${r.between(0.6, 0.95).toFixed(4)} loss=${r.between(0.1, 0.9).toFixed(4)} training_iteration=${Math.floor(n / 8) + 1}`;
    }
    case 'ray-worker':
      return `(RayTrainWorker pid=${200 + (n % 7)}) epoch ${Math.floor(n / 30)} batch ${n % 30} loss=${r.between(0.1, 1.1).toFixed(4)} throughput=${Math.round(r.between(900, 1300))} img/s`;
    case 'inference':
      return n % 3 === 2
        ? `INFO metrics.py:351] Avg prompt throughput: ${r.between(900, 2100).toFixed(1)} tokens/s, Avg generation throughput: ${r.between(600, 1100).toFixed(1)} tokens/s, Running: ${r.int(24)} reqs, Swapped: 0 reqs, Pending: ${r.int(3)} reqs, GPU KV cache usage: ${r.between(20, 70).toFixed(1)}%, CPU KV cache usage: 0.0%.`
        : `INFO:     ${ipFrom(r)}:${40000 + r.int(20000)} - "POST /v1/chat/completions HTTP/1.1" 200 OK`;
    case 'hostile':
      return `health ok \u001b[2J\u001b[H\u001b]0;pwned\u0007 \u202etxt.exe\u202c ${n}`;
    default:
      return `${c.container}: heartbeat ${n}`;
  }
}

function ipFrom(r: Random): string {
  return `10.244.${r.int(20)}.${1 + r.int(250)}`;
}
