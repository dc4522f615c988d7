// A Prometheus that has scraped every simulated dcgm-exporter, reachable as
// the Service monitoring/prometheus:9090 through the API server's service
// proxy. It answers only the instant queries wlx sends (`GET /api/v1/query`):
// a `{__name__=~"A|B|…"}` selector of DCGM series, and
// `max_over_time(DCGM_FI_DEV_GPU_UTIL[Ns]) and DCGM_FI_DEV_GPU_UTIL offset Ns`;
// anything else gets Prometheus' own bad_data error. Values come from the same
// SimulatedDcgm as the exporters, on the same clock. Its history is today's
// placement evaluated at past instants, with each pod's creation and start
// times (a GPU was free before its pod existed, at 0 before it started). Scraped as kube-prometheus-stack does
// (honor_labels false): the exporter's `pod`/`namespace`/`container` are its
// own, the GPU's pod mapping moves to `exported_*`; `Hostname` is the node
// (the GPU Operator sets NODE_NAME).
import type { StoredObject } from '../object-store.js';
import type { ProxiedAnswer } from '../server/pod-proxy.js';
import type { ServiceProxyBackend } from '../server/service-proxy.js';
import type { Runtime } from './runtime.js';
import { resourceKey } from '../object-store.js';
import { hash32, Random, type SimClock } from './clock.js';
import { STEP_MS, isDcgmExporterPod, type SimulatedDcgm } from './dcgm.js';
import { R, type NodeObject } from './types.js';

export const PROMETHEUS_NAMESPACE = 'monitoring';
export const PROMETHEUS_SERVICE = 'prometheus';
export const PROMETHEUS_PORT = 9090;
const SERVICES_KEY = resourceKey('', 'v1', 'services');

/**
 * The `monitoring` namespace and the Prometheus Service (no pod: the service
 * proxy answers for it). Uids from its own PRNG, so the runtime's draws (and
 * every name and uid of the default scenario) stay as they were.
 */
export function addPrometheusService(rt: Runtime, seed: number): void {
  const rng = new Random(hash32(`prometheus/${seed}`));
  const created = rt.clock.iso(rt.clock.now() - 3_600_000 * rt.clock.speed);
  rt.create(R.namespaces, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: PROMETHEUS_NAMESPACE,
      uid: rng.uid(),
      creationTimestamp: created,
      labels: { 'kubernetes.io/metadata.name': PROMETHEUS_NAMESPACE },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  } as unknown as StoredObject);
  rt.create(SERVICES_KEY, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: PROMETHEUS_SERVICE,
      namespace: PROMETHEUS_NAMESPACE,
      uid: rng.uid(),
      creationTimestamp: created,
      labels: { 'app.kubernetes.io/name': 'prometheus' },
    },
    spec: {
      type: 'ClusterIP',
      clusterIP: '10.96.90.90',
      clusterIPs: ['10.96.90.90'],
      selector: { 'app.kubernetes.io/name': 'prometheus' },
      ports: [{ name: 'http-web', port: PROMETHEUS_PORT, protocol: 'TCP', targetPort: 9090 }],
      sessionAffinity: 'None',
    },
    status: { loadBalancer: {} },
  } as unknown as StoredObject);
}

type Series = { metric: Record<string, string>; value: [number, string] };

const JSON_TYPE = 'application/json';

function answer(status: number, doc: unknown): ProxiedAnswer {
  return { status, contentType: JSON_TYPE, body: JSON.stringify(doc) };
}

function badData(message: string): ProxiedAnswer {
  return answer(400, { status: 'error', errorType: 'bad_data', error: message });
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SELECTOR = /^\{__name__=~"([^"]+)"\}$/;
const IDLE = /^max_over_time\(DCGM_FI_DEV_GPU_UTIL\[(\d+)s\]\) and DCGM_FI_DEV_GPU_UTIL offset (\d+)s$/;

/** The service proxy backend of monitoring/prometheus:9090. */
export function prometheusBackend(
  dcgm: SimulatedDcgm,
  clock: Pick<SimClock, 'now' | 'wallMs' | 'simFromWall' | 'speed'>,
  listNodes: () => NodeObject[],
  listPods: () => StoredObject[],
): ServiceProxyBackend {
  /**
   * Every device's series at a simulated instant, labelled as the scrape
   * would label them. The past is today's placement with what each pod's
   * times say: before a pod was created its GPU was free (no pod labels),
   * before it started its GPU read 0.
   */
  const devices = (simMs: number) => {
    const exporters = new Map<string, StoredObject>();
    const pods = new Map<string, StoredObject>();
    for (const p of listPods()) {
      pods.set(`${p.metadata.namespace ?? ''}/${p.metadata.name}`, p);
      const node = (p['spec'] as { nodeName?: string } | undefined)?.nodeName;
      if (isDcgmExporterPod(p) && node) exporters.set(node, p);
    }
    const simOf = (iso: unknown) => (typeof iso === 'string' ? clock.simFromWall(Date.parse(iso)) : Infinity);
    const out: { labels: Record<string, string>; values: Record<string, string> }[] = [];
    for (const n of listNodes()) {
      const exporter = exporters.get(n.metadata.name);
      if (!exporter || simOf(exporter.metadata.creationTimestamp) > simMs) continue;
      const ip = (exporter['status'] as { podIP?: string } | undefined)?.podIP ?? '';
      for (const d of dcgm.samples(n.metadata.name, simMs)) {
        const { pod, namespace, container, ...rest } = d.labels;
        const holder = pod !== undefined ? pods.get(`${namespace ?? ''}/${pod}`) : undefined;
        const created = simOf(holder?.metadata.creationTimestamp);
        const started = simOf((holder?.['status'] as { startTime?: string } | undefined)?.startTime);
        const values = { ...d.values };
        if (holder && started > simMs) {
          if (values['DCGM_FI_DEV_GPU_UTIL'] !== undefined) values['DCGM_FI_DEV_GPU_UTIL'] = '0';
          values['DCGM_FI_PROF_GR_ENGINE_ACTIVE'] = '0.000000';
        }
        const mapped = holder !== undefined && created <= simMs;
        const labels: Record<string, string> = {
          ...rest,
          ...(mapped
            ? { exported_pod: pod ?? '', exported_namespace: namespace ?? '', exported_container: container ?? '' }
            : {}),
          container: 'nvidia-dcgm-exporter',
          endpoint: 'gpu-metrics',
          instance: `${ip}:9400`,
          job: 'nvidia-dcgm-exporter',
          namespace: exporter.metadata.namespace ?? '',
          pod: exporter.metadata.name,
          service: 'nvidia-dcgm-exporter',
        };
        out.push({ labels, values });
      }
    }
    return out;
  };
  return (_service, port, path, query) => {
    if (port !== PROMETHEUS_PORT) return null;
    if (path !== '/api/v1/query')
      return { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };
    const q = (query.get('query') ?? '').trim();
    if (!q) return badData('invalid parameter "query": unknown position: parse error: no expression found in input');
    const now = clock.now();
    const t = clock.wallMs(now) / 1000;
    const selector = SELECTOR.exec(q);
    if (selector) {
      const names = selector[1].split('|');
      if (!names.every((n) => NAME.test(n)))
        return badData(`invalid parameter "query": only a plain alternation of metric names is simulated`);
      const result: Series[] = [];
      for (const d of devices(now))
        for (const name of names) {
          const v = d.values[name];
          if (v !== undefined) result.push({ metric: { __name__: name, ...d.labels }, value: [t, v] });
        }
      return answer(200, { status: 'success', data: { resultType: 'vector', result } });
    }
    const idle = IDLE.exec(q);
    if (idle && idle[1] === idle[2]) {
      // The window is wall-clock seconds; the simulation runs `speed` times faster. At most 240 instants.
      const windowMs = Number(idle[1]) * 1000 * clock.speed;
      const step = Math.max(STEP_MS, windowMs / 240);
      // `and … offset`: only series that existed at the window's start.
      const max = new Map<string, { labels: Record<string, string>; max: number }>();
      for (let at = now - windowMs; at <= now; at += step)
        for (const d of devices(at)) {
          const v = d.values['DCGM_FI_DEV_GPU_UTIL'];
          if (v === undefined) continue;
          const key = JSON.stringify(d.labels);
          const seen = max.get(key);
          if (seen) seen.max = Math.max(seen.max, Number(v));
          else if (at === now - windowMs) max.set(key, { labels: d.labels, max: Number(v) });
        }
      const result: Series[] = [...max.values()].map((m) => ({ metric: m.labels, value: [t, String(m.max)] }));
      return answer(200, { status: 'success', data: { resultType: 'vector', result } });
    }
    return badData(
      `invalid parameter "query": the simulated Prometheus answers only wlx's DCGM queries, not "${q.slice(0, 80)}"`,
    );
  };
}
