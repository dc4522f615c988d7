// Headless: the engine only, as `wlx` opens it (openModelSource: kubeconfig,
// definitions, discovery, paged reflectors, trim, ClusterStore), until every
// workload's tree is complete. Run as its own process, with --expose-gc:
//   node --expose-gc first-tree.js KUBECONFIG
// Prints one JSON line: pods, workloads, heap retained by the model per pod,
// rss now and at its peak. The harness times spawn → that line.
import { benchOpenOptions } from './marker.js';

const gc = (globalThis as { gc?: () => void }).gc;

async function main(): Promise<void> {
  const kubeconfig = process.argv[2];
  if (!kubeconfig) throw new Error('usage: first-tree.js KUBECONFIG');
  const { openModelSource } = await import('../../src/app/open.js');
  // Load what openModelSource imports lazily (client-node alone holds ~20 MB
  // of module source and code) so that the baseline includes it: the per-pod
  // figure is what the model retains per pod, not fixed start-up cost.
  await Promise.all([
    import('../../src/kube/kubeconfig.js'),
    import('../../src/kube/client.js'),
    import('../../src/kube/engine.js'),
    import('../../src/kube/access.js'),
    import('../../src/definitions/index.js'),
  ]);
  // Baseline after the modules loaded: what the model retains is above it.
  gc?.();
  const base = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const source = await openModelSource(benchOpenOptions(kubeconfig));
  await source.whenSynced();
  const syncMs = performance.now() - t0;
  const snap = source.getSnapshot();
  let complete = 0;
  for (const w of snap.workloads) if (w.roles.length) complete++;
  const cpu = process.cpuUsage();
  const line = {
    cpuS: (cpu.user + cpu.system) / 1e6,
    syncMs,
    pods: snap.totals.pods,
    nodes: snap.totals.nodes,
    workloads: snap.workloads.length,
    workloadsWithRoles: complete,
  };
  // Report the time first; the memory figures (gc) come after.
  process.stdout.write(`${JSON.stringify({ type: 'synced', ...line })}\n`);
  gc?.();
  gc?.();
  const heap = process.memoryUsage().heapUsed;
  const mem = {
    type: 'memory',
    retainedBytes: heap - base,
    retainedBytesPerPod: (heap - base) / Math.max(1, snap.totals.pods),
    rssMb: process.memoryUsage().rss / 1048576,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(`${JSON.stringify(mem)}\n`);
  await source.stop();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`first-tree: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
