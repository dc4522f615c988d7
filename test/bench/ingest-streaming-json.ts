// Benchmark (not part of the suite) of issue 15 option (b): a streaming scan
// of each list page that builds only what Trimmer.pod reads (pod-scanner.ts)
// against JSON.parse, both followed by the same Trimmer.pod, on the pages of
// scale-pages.ts. Checks first that both paths keep deep-equal pods, every one.
//
//   node --expose-gc dist/test/bench/ingest-streaming-json.js [pods] [runs] [managed-fields]
//
// `managed-fields` adds to every pod the managedFields a real API server
// writes (kubelet's and the controller's entries, ~1.9 KB): the simulated
// pods have none, and they are what a scan skips cheaply.
import { deepStrictEqual } from 'node:assert/strict';
import { PerformanceObserver } from 'node:perf_hooks';
import { Trimmer, withTypeMeta } from '../../src/kube/trim.js';
import type { KubeObject } from '../../src/model/types.js';
import type { StoredObject } from '../../demo/store.js';
import { benchArgs, forcedGc, load, perPod } from './ingest-common.js';
import { scanPodList } from './pod-scanner.js';
import { PAGE, jsonPodList, scalePages } from './scale-pages.js';

const { total, runs, rest } = benchArgs();
const withManagedFields = rest.includes('managed-fields');
const gc = forcedGc();

/** managedFields as kube-apiserver records them for a controller-made, kubelet-updated pod. */
function managedFields(pod: StoredObject): unknown[] {
  const t = pod.metadata.creationTimestamp;
  const f = (o: Record<string, unknown>) => ({ 'f:': o });
  return [
    {
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'v1',
      time: t,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': {
          'f:labels': Object.fromEntries(Object.keys(pod.metadata.labels ?? {}).map((k) => [`f:${k}`, {}])),
          'f:ownerReferences': { [`k:{"uid":"${pod.metadata.uid}"}`]: {} },
        },
        'f:spec': {
          'f:containers': {
            'k:{"name":"main"}': {
              '.': {},
              'f:image': {},
              'f:imagePullPolicy': {},
              'f:name': {},
              'f:resources': { '.': {}, 'f:limits': f({}), 'f:requests': f({}) },
              'f:terminationMessagePath': {},
              'f:terminationMessagePolicy': {},
              'f:volumeMounts': {},
            },
          },
          'f:dnsPolicy': {},
          'f:enableServiceLinks': {},
          'f:hostname': {},
          'f:nodeSelector': {},
          'f:restartPolicy': {},
          'f:schedulerName': {},
          'f:securityContext': {},
          'f:subdomain': {},
          'f:terminationGracePeriodSeconds': {},
          'f:tolerations': {},
          'f:volumes': {},
        },
      },
    },
    {
      manager: 'kubelet',
      operation: 'Update',
      apiVersion: 'v1',
      time: t,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:status': {
          'f:conditions': Object.fromEntries(
            ['ContainersReady', 'Initialized', 'PodReadyToStartContainers', 'PodScheduled', 'Ready'].map((c) => [
              `k:{"type":"${c}"}`,
              { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
            ]),
          ),
          'f:containerStatuses': {},
          'f:hostIP': {},
          'f:hostIPs': {},
          'f:phase': {},
          'f:podIP': {},
          'f:podIPs': { '.': {}, 'k:{"ip":"10.64.15.5"}': { '.': {}, 'f:ip': {} } },
          'f:startTime': {},
        },
      },
      subresource: 'status',
    },
  ];
}

const pages = scalePages(total, (metadata, items) =>
  jsonPodList(
    metadata,
    withManagedFields
      ? items.map((p) => ({ ...p, metadata: { ...p.metadata, managedFields: managedFields(p) } }))
      : items,
  ),
);
const bytes = pages.reduce((n, p) => n + p.length, 0);
process.stdout.write(
  `${total} pods in ${pages.length} pages of ${PAGE}, ${(bytes / total).toFixed(0)} B/pod of JSON` +
    `${withManagedFields ? ' (with managedFields)' : ''}; ${load()}\n`,
);

function viaJson(trimmer: Trimmer, keep: KubeObject[]): void {
  const trim = trimmer.for('pod');
  for (const body of pages) {
    const page = JSON.parse(body.toString('utf8')) as { items: unknown[] };
    const items = page.items;
    for (let i = 0; i < items.length; i++) {
      const raw = items[i];
      items[i] = undefined;
      keep.push(trim(withTypeMeta(raw, 'v1', 'Pod')));
    }
  }
}
function viaScan(trimmer: Trimmer, keep: KubeObject[]): void {
  const trim = trimmer.for('pod');
  for (const body of pages) scanPodList(body, (raw) => keep.push(trim(withTypeMeta(raw, 'v1', 'Pod'))));
}

// Correctness first: every pod trimmed from the scan deep-equals the one trimmed from JSON.parse.
{
  const a: KubeObject[] = [];
  const b: KubeObject[] = [];
  viaJson(new Trimmer(), a);
  viaScan(new Trimmer(), b);
  deepStrictEqual(b.length, a.length);
  for (let i = 0; i < a.length; i++) deepStrictEqual(b[i], a[i], `pod ${i}`);
  let rv: string | undefined;
  let cont: string | undefined;
  for (const body of pages.slice(0, 1)) ({ resourceVersion: rv, continue: cont } = scanPodList(body, () => undefined));
  const meta = (JSON.parse(pages[0].toString('utf8')) as { metadata: { resourceVersion: string; continue?: string } })
    .metadata;
  deepStrictEqual({ rv, cont }, { rv: meta.resourceVersion, cont: meta.continue });
  process.stdout.write(`check: ${a.length} pods trimmed from the scan deep-equal those trimmed from JSON.parse\n`);
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

/** What the last run kept (held so the heap after it counts it). */
let held: { keep: KubeObject[]; trimmer: Trimmer } | undefined;

async function measure(
  name: string,
  run: (t: Trimmer, keep: KubeObject[]) => void,
): Promise<{ best: number; retained: number }> {
  let best = Infinity;
  let retained = 0;
  for (let i = 0; i < runs; i++) {
    held = undefined;
    gc();
    const before = process.memoryUsage().heapUsed;
    held = { keep: [], trimmer: new Trimmer() };
    await new Promise((r) => setTimeout(r, 50));
    gcMs = 0;
    const t0 = process.hrtime.bigint();
    run(held.trimmer, held.keep);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    await new Promise((r) => setTimeout(r, 50));
    const pausedMs = gcMs;
    gc();
    retained = process.memoryUsage().heapUsed - before;
    best = Math.min(best, ms);
    process.stdout.write(
      `  ${name} run ${i + 1}: ${ms.toFixed(0)} ms (${perPod(ms, total)} µs/pod), GC pauses ${pausedMs.toFixed(0)} ms, ` +
        `retained ${(retained / total).toFixed(0)} B/pod; ${load()}\n`,
    );
  }
  held = undefined;
  return { best, retained };
}

const json = await measure('JSON.parse + trim', viaJson);
const scan = await measure('scan + trim', viaScan);
process.stdout.write(
  `best of ${runs}: JSON.parse + trim ${perPod(json.best, total)} µs/pod, scan + trim ${perPod(scan.best, total)} µs/pod: ` +
    `speed-up ${(json.best / scan.best).toFixed(2)}×; retained ${(json.retained / total).toFixed(0)} vs ${(scan.retained / total).toFixed(0)} B/pod; ${load()}\n`,
);

// The parse alone, over every page: toString + JSON.parse (what the reflector
// does), JSON.parse of a decoded text, the scan of the bytes (building what it keeps).
function bestPerPod(run: () => void): number {
  let out = Infinity;
  for (let i = 0; i < runs; i++) {
    gc();
    const t0 = process.hrtime.bigint();
    run();
    out = Math.min(out, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return (out * 1000) / total;
}
const parseWithDecode = bestPerPod(() => {
  for (const body of pages) JSON.parse(body.toString('utf8'));
});
const texts = pages.map((p) => p.toString('utf8'));
const parseOnly = bestPerPod(() => {
  for (const text of texts) JSON.parse(text);
});
texts.length = 0;
const scanOnly = bestPerPod(() => {
  for (const body of pages) scanPodList(body, () => undefined);
});
process.stdout.write(
  `alone, best of ${runs}: toString + JSON.parse ${parseWithDecode.toFixed(2)} µs/pod, JSON.parse of text ${parseOnly.toFixed(2)} µs/pod, ` +
    `scan ${scanOnly.toFixed(2)} µs/pod: ${(parseWithDecode / scanOnly).toFixed(2)}× (${(parseOnly / scanOnly).toFixed(2)}× without the decode); ${load()}\n`,
);
