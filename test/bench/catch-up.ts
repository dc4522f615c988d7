// Headless catch-up: the engine only (openModelSource, as `wlx` opens it)
// against a churning bench server, from process start until the lists are
// complete (whenSynced) and then until the model is current: a restart-count
// marker PATCHed at the server the moment the lists are complete is present in
// the engine's snapshot (marker.ts). Run as its own process:
//   node catch-up.js KUBECONFIG
// Prints one JSON line: syncMs, catchUpMs, cpuS (until caught up), pods.
import { benchOpenOptions, prepareRestartMarker, serverUrlOf, somePod, watchForMarker } from './marker.js';

async function main(): Promise<void> {
  const kubeconfig = process.argv[2];
  if (!kubeconfig) throw new Error('usage: catch-up.js KUBECONFIG');
  const { openModelSource } = await import('../../src/app/open.js');
  const t0 = performance.now();
  const serverUrl = serverUrlOf(kubeconfig);
  const pod = await somePod(serverUrl);
  const marker = await prepareRestartMarker(serverUrl, pod);
  if (!marker) throw new Error(`${pod.namespace}/${pod.name} has no container status`);
  let podsLive = NaN;
  const source = await openModelSource(benchOpenOptions(kubeconfig));
  source.subscribe((s) => {
    if (Number.isNaN(podsLive) && s.kinds.some((k) => k.resource === 'pods' && k.state === 'live'))
      podsLive = performance.now() - t0;
  });
  await source.whenSynced();
  const synced = performance.now();
  const { sent, seen } = watchForMarker(source, pod, marker, 600_000);
  await sent;
  const marked = performance.now();
  const done = await seen;
  if (done === undefined) throw new Error('the marker was not seen within 600 s');
  const cpu = process.cpuUsage();
  const line = {
    syncMs: synced - t0,
    catchUpMs: done - synced,
    podsListedMs: podsLive,
    markerWriteMs: marked - synced,
    cpuS: (cpu.user + cpu.system) / 1e6,
    pods: source.getSnapshot().totals.pods,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  await source.stop();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`catch-up: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
