// The everyday cluster (`npm run bench -- --small`): 1,000 pods on 100 nodes,
// 20 pod status events/s, and the real explorer alone in tmux at 160×45 on the
// workloads view, as a user runs it (and as k9s was measured beside it). Prints
// the explorer's RSS and CPU (% of one core, its whole process) over
// --cpu-seconds with no key pressed, then key → frame for `j`/`k`: tmux's
// send-keys → the end of the first frame with the selection moved (the pane's
// output read through pipe-pane as it arrives). Each figure
// is printed with the load average.
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Tmux, wlxCommand, shellQuote, sleep } from '../e2e/tmux.js';
import { startBenchServer } from './server.js';

export const SMALL_SIZE = { nodes: 100, workloads: 50, podsPerWorkload: 20, churn: 20 };
export const SMALL_TARGETS = { rss_mb: 150, cpu_percent: 10, key_to_frame_ms_p50: 25 };

const CLK_TCK = 100;
const threadTicks = (pid: number, tid: number) => {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
};
const processTicks = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
};
const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] : NaN;
};

/** The line of the selection on a screen: the first table line drawn in reverse video. */
function selectedLine(screen: string): number {
  const lines = screen.split('\n');
  for (let i = 5; i < lines.length - 2; i++) if (lines[i].includes('\x1b[7m')) return i;
  return -1;
}

/** The screens as they reach tmux: the explorer draws whole screens (clear, then every line) in a synchronised update. */
class FrameReader {
  private text = '';
  frames = 0;
  bytes = 0;
  onFrame: ((screen: string, at: number) => void) | undefined;
  push(chunk: string): void {
    const at = performance.now();
    this.bytes += chunk.length;
    this.text += chunk;
    let end: number;
    while ((end = this.text.indexOf('\x1b[?2026l')) >= 0) {
      const frame = this.text.slice(0, end);
      this.text = this.text.slice(end + 8);
      const start = frame.lastIndexOf('\x1b[2J');
      if (start < 0) continue;
      this.frames++;
      this.onFrame?.(frame.slice(frame.indexOf('\x1b[H', start) + 3), at);
    }
  }
}

export interface SmallFigures {
  rss_mb: number;
  cpu_percent: number;
  /** The UI thread (the process's main thread) alone, % of a core. */
  ui_thread_cpu_percent: number;
  key_to_frame_ms_p50: number;
  key_to_frame_ms_p99: number;
  frames_per_s: number;
  bytes_per_s: number;
  load: { cpu: string; keys: string };
}

export async function runSmall(opts: {
  keys: number;
  cpuSeconds: number;
  settleSeconds: number;
}): Promise<SmallFigures> {
  const server = await startBenchServer(SMALL_SIZE);
  const dir = mkdtempSync(join(tmpdir(), 'wlx-bench-small-'));
  const fifo = join(dir, 'pane');
  execFileSync('mkfifo', [fifo]);
  // WLX_BENCH_SESSION_NODE_ARGS: Node flags for the explorer (V8 heap settings, --cpu-prof), as for main.ts's sessions.
  const nodeArgs = (process.env.WLX_BENCH_SESSION_NODE_ARGS ?? '').split(' ').filter(Boolean).map(shellQuote).join(' ');
  const command = wlxCommand(`--kubeconfig ${shellQuote(server.kubeconfigPath)} -A`).replace(
    'node ',
    `node ${nodeArgs} `,
  );
  const tmux = new Tmux(command, 160, 45, 'wlx-small');
  try {
    await tmux.waitFor(/workloads\(all\)\[50\]/, 'the workloads view', 60_000);
    const shell = Number(tmux.display('#{pane_pid}'));
    const pid = Number(execFileSync('pgrep', ['-P', String(shell), 'node'], { encoding: 'utf8' }).trim());
    // The pane's output as it arrives: every chunk with its time.
    tmux.tmux('pipe-pane', '-t', 'main', `cat > ${shellQuote(fifo)}`);
    const stream = createReadStream(fifo, { encoding: 'latin1' });
    const reader = new FrameReader();
    let screen = '';
    reader.onFrame = (frame) => (screen = frame);
    stream.on('data', (d: Buffer | string) => reader.push(String(d)));
    await sleep(opts.settleSeconds * 1000);

    // CPU and RSS with nothing asked of the explorer.
    const cpuLoad = load();
    const c0 = processTicks(pid);
    const u0 = threadTicks(pid, pid);
    const b0 = reader.bytes;
    const f0 = reader.frames;
    const w0 = performance.now();
    await sleep(opts.cpuSeconds * 1000);
    const s = (performance.now() - w0) / 1000;
    const cpu = ((processTicks(pid) - c0) / CLK_TCK / s) * 100;
    const uiCpu = ((threadTicks(pid, pid) - u0) / CLK_TCK / s) * 100;
    const figures = { rss: rssMb(pid), frames: (reader.frames - f0) / s, bytes: (reader.bytes - b0) / s };

    // Key → frame: j and k in turn, each waiting for the selection to move.
    const keyLoad = load();
    const keyMs: number[] = [];
    let expected = selectedLine(screen);
    for (let i = 0; i < opts.keys; i++) {
      const key = i % 2 ? 'k' : 'j';
      expected += i % 2 ? -1 : 1;
      const ms = await new Promise<number>((resolve) => {
        const timer = setTimeout(() => resolve(NaN), 5000);
        const t0 = performance.now();
        reader.onFrame = (frame, at) => {
          screen = frame;
          if (selectedLine(frame) !== expected) return;
          clearTimeout(timer);
          resolve(at - t0);
        };
        tmux.keys(key);
      });
      keyMs.push(ms);
      reader.onFrame = (frame) => (screen = frame);
      await sleep(150 + Math.random() * 150);
    }
    stream.destroy();
    return {
      rss_mb: figures.rss,
      cpu_percent: cpu,
      ui_thread_cpu_percent: uiCpu,
      key_to_frame_ms_p50: pct(keyMs, 50),
      key_to_frame_ms_p99: pct(keyMs, 99),
      frames_per_s: figures.frames,
      bytes_per_s: figures.bytes,
      load: { cpu: cpuLoad, keys: keyLoad },
    };
  } finally {
    tmux.kill();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printSmall(f: SmallFigures): void {
  const row = (name: string, v: number, target?: number) =>
    `  ${name.padEnd(22)} ${(Math.round(v * 10) / 10).toString().padStart(8)}` +
    (target === undefined ? '' : `  ≤ ${target}  ${v <= target ? 'met' : 'missed'}`);
  const { nodes, workloads, podsPerWorkload, churn } = SMALL_SIZE;
  process.stdout.write(
    [
      '',
      `wlx small benchmark (${workloads * podsPerWorkload} pods, ${nodes} nodes, ${churn} events/s; tmux 160×45, workloads view)`,
      row('rss_mb', f.rss_mb, SMALL_TARGETS.rss_mb),
      row('cpu_percent', f.cpu_percent, SMALL_TARGETS.cpu_percent),
      row('ui_thread_cpu_percent', f.ui_thread_cpu_percent),
      row('frames_per_s', f.frames_per_s),
      row('kb_written_per_s', f.bytes_per_s / 1024),
      `  load average (1, 5, 15 min) ${f.load.cpu}`,
      row('key_to_frame_ms_p50', f.key_to_frame_ms_p50, SMALL_TARGETS.key_to_frame_ms_p50),
      row('key_to_frame_ms_p99', f.key_to_frame_ms_p99),
      `  load average (1, 5, 15 min) ${f.load.keys}`,
      '',
    ].join('\n'),
  );
}

/** `npm run bench -- --small [--keys 40] [--cpu-seconds 10]`. */
export async function smallMain(argv: string[]): Promise<SmallFigures> {
  const { values } = parseArgs({
    args: argv,
    options: {
      small: { type: 'boolean' },
      keys: { type: 'string', default: '40' },
      'cpu-seconds': { type: 'string', default: '10' },
      settle: { type: 'string', default: '5' },
      json: { type: 'string' },
    },
  });
  return runSmall({
    keys: Number(values.keys),
    cpuSeconds: Number(values['cpu-seconds']),
    settleSeconds: Number(values.settle),
  });
}
