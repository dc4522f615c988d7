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
import { isAscii } from 'node:buffer';
import { PerformanceObserver } from 'node:perf_hooks';
import { Trimmer, withTypeMeta } from '../../src/kube/trim.js';
import type { KubeObject } from '../../src/model/types.js';
import type { StoredObject } from '../../demo/object-store.js';
import { benchArgs, forcedGc, load, perPod } from './ingest-common.js';
import { scanPodList } from './pod-scanner.js';
import { PAGE, jsonPodList, scalePages, trimJsonPages } from './scale-pages.js';

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
  trimJsonPages(trimmer, pages, keep);
}
// Today's path with a cheaper decode: an ASCII page (every scale page) read as
// latin1, a copy, instead of through the UTF-8 decoder; the same string.
const decode = (body: Buffer): string => (isAscii(body) ? body.toString('latin1') : body.toString('utf8'));
function viaJsonAscii(trimmer: Trimmer, keep: KubeObject[]): void {
  trimJsonPages(trimmer, pages, keep, decode);
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
  for (const body of pages) deepStrictEqual(decode(body), body.toString('utf8'));
  process.stdout.write(`check: ${a.length} pods trimmed from the scan deep-equal those trimmed from JSON.parse\n`);
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

/** What the last run kept (held so the heap after it counts it). */
let held: { keep: KubeObject[]; trimmer: Trimmer } | undefined;

async function once(
  name: string,
  round: number,
  run: (t: Trimmer, keep: KubeObject[]) => void,
): Promise<{ ms: number; retained: number }> {
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
  const retained = process.memoryUsage().heapUsed - before;
  held = undefined;
  process.stdout.write(
    `  ${name} run ${round}: ${ms.toFixed(0)} ms (${perPod(ms, total)} µs/pod), GC pauses ${pausedMs.toFixed(0)} ms, ` +
      `retained ${(retained / total).toFixed(0)} B/pod; ${load()}\n`,
  );
  return { ms, retained };
}

// Rounds of every path in turn, so a change of the shared machine's load touches them alike.
const paths = {
  json: { name: 'JSON.parse + trim', run: viaJson },
  ascii: { name: 'latin1 decode + JSON.parse + trim', run: viaJsonAscii },
  scan: { name: 'scan + trim', run: viaScan },
};
const bestOf = {
  json: { best: Infinity, retained: 0 },
  ascii: { best: Infinity, retained: 0 },
  scan: { best: Infinity, retained: 0 },
};
for (let r = 1; r <= runs; r++) {
  for (const k of ['json', 'ascii', 'scan'] as const) {
    const { ms, retained } = await once(paths[k].name, r, paths[k].run);
    bestOf[k] = { best: Math.min(bestOf[k].best, ms), retained };
  }
}
const { json, ascii, scan } = bestOf;
process.stdout.write(
  `best of ${runs}: JSON.parse + trim ${perPod(json.best, total)} µs/pod, scan + trim ${perPod(scan.best, total)} µs/pod: ` +
    `speed-up ${(json.best / scan.best).toFixed(2)}×; retained ${(json.retained / total).toFixed(0)} vs ${(scan.retained / total).toFixed(0)} B/pod; ` +
    `with a latin1 decode, JSON.parse + trim ${perPod(ascii.best, total)} µs/pod (scan + trim ${(ascii.best / scan.best).toFixed(2)}× faster); ${load()}\n`,
);

// The parse alone, over every page: toString + JSON.parse (what the reflector
// does), with the latin1 decode, JSON.parse of decoded text, and the scan of
// the bytes (building what it keeps).
const texts = pages.map((p) => p.toString('utf8'));
const alone = {
  'toString + JSON.parse': () => {
    for (const body of pages) JSON.parse(body.toString('utf8'));
  },
  'latin1 decode + JSON.parse': () => {
    for (const body of pages) JSON.parse(decode(body));
  },
  'JSON.parse of text': () => {
    for (const text of texts) JSON.parse(text);
  },
  scan: () => {
    for (const body of pages) scanPodList(body, () => undefined);
  },
};
const bestAlone = new Map<string, number>();
for (let r = 0; r < runs; r++) {
  for (const [name, run] of Object.entries(alone)) {
    gc();
    const t0 = process.hrtime.bigint();
    run();
    const us = (Number(process.hrtime.bigint() - t0) * 1e-3) / total;
    bestAlone.set(name, Math.min(bestAlone.get(name) ?? Infinity, us));
  }
}
const scanOnly = bestAlone.get('scan')!;
process.stdout.write(
  `alone, best of ${runs}: ${[...bestAlone].map(([name, us]) => `${name} ${us.toFixed(2)} µs/pod`).join(', ')}; ` +
    `scan vs toString + JSON.parse ${(bestAlone.get('toString + JSON.parse')! / scanOnly).toFixed(2)}×, ` +
    `vs the latin1 path ${(bestAlone.get('latin1 decode + JSON.parse')! / scanOnly).toFixed(2)}×, ` +
    `vs JSON.parse without a decode ${(bestAlone.get('JSON.parse of text')! / scanOnly).toFixed(2)}×; ${load()}\n`,
);
