// List pages of scale-scenario pods for the ingestion benchmarks
// (test/kube/protobuf-decode.bench.ts, test/bench/ingest-*.ts): 20,000
// distinct pods of the simulated cluster, renamed per copy up to `total`, so
// every benchmark measures the same objects.
import { ObjectStore, type StoredObject } from '../../demo/object-store.js';
import { startSimulation } from '../../demo/sim/index.js';
import { withTypeMeta, type Trimmer } from '../../src/kube/trim.js';
import type { KubeObject } from '../../src/model/types.js';

/** Objects per list page, as the reflector asks for (`limit=500`). */
export const PAGE = 500;

/** Page `at`'s list metadata: a continue token on every page but the last. */
export type ListMeta = { resourceVersion: string; continue?: string };

/** `podAt(i)` for i in [0, total): the scale scenario's pods, renamed beyond the first 20,000. */
export function scalePods(): (i: number) => StoredObject {
  const store = new ObjectStore();
  const sim = startSimulation(store, {
    scenario: 'scale',
    seed: 7,
    speed: 1,
    nodes: 1000,
    workloads: 400,
    podsPerWorkload: 50,
  });
  const base = store.list('/v1/pods');
  sim.stop();
  return (i) => {
    const p = base[i % base.length];
    const copy = Math.floor(i / base.length);
    if (!copy) return p;
    return {
      ...p,
      metadata: {
        ...p.metadata,
        name: `${p.metadata.name}-c${copy}`,
        uid: `${p.metadata.uid.slice(0, -4)}c${String(copy).padStart(3, '0')}`,
      },
    };
  };
}

/** The pages of `total` pods, each as `encode` makes it of its metadata and items. */
export function scalePages(total: number, encode: (metadata: ListMeta, items: StoredObject[]) => Buffer): Buffer[] {
  const podAt = scalePods();
  const pages: Buffer[] = [];
  for (let at = 0; at < total; at += PAGE) {
    const items = Array.from({ length: Math.min(PAGE, total - at) }, (_, k) => podAt(at + k));
    pages.push(encode({ resourceVersion: '12345', ...(at + PAGE < total ? { continue: `token-${at}` } : {}) }, items));
  }
  return pages;
}

/** A JSON PodList page, as the API server sends it. */
export function jsonPodList(metadata: ListMeta, items: StoredObject[]): Buffer {
  return Buffer.from(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata, items }));
}

/**
 * The reflector's JSON path over pages: each page's text (`decode`, UTF-8 by
 * default) parsed, each item trimmed at once and let go of, the trimmed pods
 * kept in `keep` as the store keeps them. The baseline every ingestion bench
 * compares against.
 */
export function trimJsonPages(
  trimmer: Trimmer,
  pages: readonly Buffer[],
  keep: KubeObject[],
  decode: (body: Buffer) => string = (body) => body.toString('utf8'),
): void {
  const trim = trimmer.for('pod');
  for (const body of pages) {
    const page = JSON.parse(decode(body)) as { items: unknown[] };
    const items = page.items;
    for (let i = 0; i < items.length; i++) {
      const raw = items[i];
      items[i] = undefined;
      keep.push(trim(withTypeMeta(raw, 'v1', 'Pod')));
    }
  }
}
