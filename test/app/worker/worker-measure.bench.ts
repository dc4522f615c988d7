// A small measurement (not the benchmark): the explorer's model source with
// the engine in a worker thread or inline, against a running cluster (e.g.
// `wlx demo serve --scenario scale --nodes 1000 --workloads 400
// --pods-per-workload 50 --churn 2000 --kubeconfig-out /tmp/k`), with
// nothing drawn: what the UI thread itself spends on the model.
//
//   node dist/test/app/worker-measure.bench.js /tmp/k worker|inline [seconds]
//
// Prints one JSON line: delta bytes (v8 serialisation, what postMessage
// copies) and UI-side decode ms per message, the main thread's event-loop
// utilisation and delay under churn, and the process's CPU.
import { serialize } from 'node:v8';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { openModelSource } from '../../../src/app/open.js';
import { openWorkerModelSource } from '../../../src/app/worker/worker-source.js';
import { applyDelta, encodeDelta, type Delta } from '../../../src/app/worker/delta.js';

const [kubeconfig, mode = 'worker', secondsText = '20'] = process.argv.slice(2);
if (!kubeconfig) throw new Error('usage: worker-measure.bench.js KUBECONFIG worker|inline [seconds]');
const seconds = Number(secondsText);
const options = { kubeconfig, namespace: null, definitionPaths: [], definitionsEnv: '', gpuResources: [], demo: false };

const messages: { bytes: number; decodeMs: number }[] = [];
const onDelta = (delta: Delta, decodeMs: number) => messages.push({ bytes: serialize(delta).length, decodeMs });
const start = performance.now();
const source = mode === 'worker' ? await openWorkerModelSource(options, { onDelta }) : await openModelSource(options);
await source.whenSynced();
// Sync done: wait for the trees to stop growing (the first flushes after the lists).
let pods = -1;
for (;;) {
  await new Promise((r) => setTimeout(r, 1000));
  const now = source.getSnapshot().totals.pods;
  if (now === pods) break;
  pods = now;
}
const syncedS = (performance.now() - start) / 1000;
const syncMessages = messages.splice(0);
// What a new worker's first message costs now (the whole snapshot): bytes, and clone + decode ms on this thread.
const whole = encodeDelta(source.getSnapshot(), undefined);
const wholeBytes = serialize(whole).length;
const d0 = performance.now();
applyDelta(structuredClone(whole), undefined);
const wholeDecodeMs = performance.now() - d0;

let snapshots = 0;
source.subscribe(() => snapshots++);
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const elu0 = performance.eventLoopUtilization();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await new Promise((r) => setTimeout(r, seconds * 1000));
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const elu = performance.eventLoopUtilization(elu0);
delay.disable();
await source.stop();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : null;
};
const round = (x: number | null, d = 2) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);
const largest = syncMessages.reduce((a, b) => (b.bytes > a.bytes ? b : a), { bytes: 0, decodeMs: 0 });
process.stdout.write(
  JSON.stringify({
    mode,
    pods,
    workloads: source.getSnapshot().workloads.length,
    nodes: source.getSnapshot().nodes.length,
    synced_s: round(syncedS, 1),
    churn_snapshots: snapshots,
    whole_message_bytes: wholeBytes,
    whole_message_clone_and_decode_ms: round(wholeDecodeMs),
    ...(mode === 'worker'
      ? {
          sync_largest_message_bytes: largest.bytes,
          sync_largest_message_decode_ms: round(largest.decodeMs),
          churn_messages: messages.length,
          churn_bytes_median: pct(
            messages.map((m) => m.bytes),
            0.5,
          ),
          churn_bytes_p95: pct(
            messages.map((m) => m.bytes),
            0.95,
          ),
          churn_decode_ms_median: round(
            pct(
              messages.map((m) => m.decodeMs),
              0.5,
            ),
          ),
          churn_decode_ms_p95: round(
            pct(
              messages.map((m) => m.decodeMs),
              0.95,
            ),
          ),
        }
      : {}),
    main_thread_elu_percent: round(elu.utilization * 100, 1),
    main_loop_delay_p99_ms: round(delay.percentile(99) / 1e6, 1),
    main_loop_delay_max_ms: round(delay.max / 1e6, 1),
    process_cpu_percent: round(((cpu.user + cpu.system) / 1000 / wallMs) * 100, 1),
  }) + '\n',
);
process.exit(0);
