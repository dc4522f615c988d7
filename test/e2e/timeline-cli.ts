// Stands in for `wlx get TYPE/NAME --timeline` until src/cli/get.ts wires the
// flag: the same calls (open the model source, list once, then
// workloadTimelineText) for NAMESPACE/NAME. Usage: node timeline-cli.js KUBECONFIG NAMESPACE NAME
import { clusterOptionsFrom, openModelSource } from '../../src/cli/common.js';
import { workloadTimelineText } from '../../src/cli/timeline-text.js';

const [kubeconfig, namespace, name] = process.argv.slice(2);
const source = await openModelSource({
  ...clusterOptionsFrom({ kubeconfig, namespace: [namespace] }, 'timeline-cli'),
  watch: false,
});
try {
  await source.whenSynced();
  const snapshot = source.getSnapshot();
  const w = snapshot.workloads.find((x) => x.namespace === namespace && x.name === name);
  if (!w || !source.access) {
    process.stderr.write(`timeline-cli: ${namespace}/${name} not found\n`);
    process.exitCode = 3;
  } else process.stdout.write(await workloadTimelineText(source.access, snapshot, w, process.stdout));
} finally {
  await source.stop();
}
