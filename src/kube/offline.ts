// `wlx get --from FILE`: the same model built from a dump instead of a live
// cluster — multi-document YAML, JSON, or a kubectl `List` (e.g. `kubectl get
// jobsets,jobs,pods,nodes -A -o yaml` taken during an incident). Objects go
// through the same trimming and the same ClusterStore as live ones; Karta
// objects in the dump act as the cluster's definitions.
import yaml from 'js-yaml';
import type { Definition } from '../definitions/types.js';
import { apiVersionOf, gvkOf } from '../definitions/types.js';
import { DEFINITION_GVKS, KUEUE_TOPOLOGY_GVK } from './kinds.js';
import { isDraKind } from '../model/dra-objects.js';
import type { KubeObject } from '../model/types.js';
import { ClusterStore, type StoreKind } from '../model/cluster-store.js';
import { SchedulingIndex } from '../model/scheduling/index.js';
import type { DefinitionSetLike, ModelStoreLike } from './engine-types.js';
import { Trimmer } from './trim.js';
import { matchesSelector, type Requirement } from './selector.js';

export interface DumpObjects {
  objects: Record<string, unknown>[];
  problems: string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A plain scalar YAML's default schema reads as a timestamp, as that Date (else null). */
function yamlTimestamp(data: string): Date | null {
  if (!/^\d{4}-\d\d?-\d\d?/.test(data)) return null;
  const v: unknown = yaml.load(data);
  return v instanceof Date ? v : null;
}

/**
 * Unquoted timestamps (valid YAML, common in hand-edited dumps) read as the
 * strings the quoted form gives, not Date objects: RFC 3339 text as written,
 * YAML's other spellings as the same instant in ISO form.
 */
const DUMP_SCHEMA = yaml.DEFAULT_SCHEMA.extend({
  implicit: [
    new yaml.Type('tag:yaml.org,2002:timestamp', {
      kind: 'scalar',
      resolve: (data: string) => yamlTimestamp(data) !== null,
      construct: (data: string) =>
        /^\d{4}-\d\d-\d\d([Tt][^ ]*)?$/.test(data) ? data : yamlTimestamp(data)!.toISOString(),
    }),
  ],
});

function loadAllYaml(text: string): unknown[] {
  return yaml.loadAll(text, undefined, { schema: DUMP_SCHEMA });
}

/** Every object in a dump: documents, with `List`s (kind ending in List, with items) expanded. */
export function parseDump(text: string, sourceName: string): DumpObjects {
  const objects: Record<string, unknown>[] = [];
  const problems: string[] = [];
  let docs: unknown[];
  const trimmed = text.trimStart();
  try {
    // JSON first: it is YAML too, but JSON.parse is much faster on big dumps.
    docs = trimmed.startsWith('{') || trimmed.startsWith('[') ? [JSON.parse(text)] : loadAllYaml(text);
  } catch (err) {
    try {
      docs = loadAllYaml(text);
    } catch {
      throw new Error(`${sourceName}: not YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const visit = (doc: unknown, where: string) => {
    if (doc === null || doc === undefined) return;
    if (Array.isArray(doc)) {
      doc.forEach((d, i) => visit(d, `${where}[${i}]`));
      return;
    }
    if (!isRecord(doc)) {
      problems.push(`${where}: not an object, skipped`);
      return;
    }
    if (Array.isArray(doc.items) && (typeof doc.kind !== 'string' || doc.kind.endsWith('List'))) {
      doc.items.forEach((d, i) => visit(d, `${where}.items[${i}]`));
      return;
    }
    if (typeof doc.kind !== 'string' || typeof doc.apiVersion !== 'string' || !isRecord(doc.metadata)) {
      problems.push(`${where}: no apiVersion/kind/metadata, skipped`);
      return;
    }
    objects.push(doc);
  };
  docs.forEach((d, i) => visit(d, `${sourceName}#${i + 1}`));
  return { objects, problems };
}

/** A Karta or an older ResourceInterface: a cluster definition. */
export function isKartaObject(obj: Record<string, unknown>): boolean {
  return DEFINITION_GVKS.some((g) => obj.apiVersion === apiVersionOf(g) && obj.kind === g.kind);
}

export interface OfflineModel {
  store: ModelStoreLike;
  /** Kueue / KAI / Volcano / Workload API objects of the dump (positions unknown: the visibility API is live only). */
  scheduling: SchedulingIndex;
  definitions: DefinitionSetLike;
  problems: string[];
}

/** Builds the model from dump objects, with the dump's Kartas as cluster definitions. */
export function buildOfflineModel(
  objects: Record<string, unknown>[],
  base: DefinitionSetLike,
  options: {
    gpuResources?: string[];
    labelSelector?: Requirement[];
    /** Default true: nested workloads (a JobSet's Jobs) get trees of their own too. */
    includeNested?: boolean;
  } = {},
): OfflineModel {
  const { gpuResources, labelSelector } = options;
  const kartas = objects.filter(isKartaObject);
  const problems: string[] = [];
  const trimmer = new Trimmer();
  const report = (message: string) => problems.push(message);
  const definitions = kartas.length ? base.withCluster(kartas.map((k) => trimmer.for('definition', report)(k))) : base;
  // By kind, any version: an object at another version of a defined kind falls back to its definition (the store warns).
  const rootKinds = new Set(definitions.definitions.map((d: Definition) => `${d.rootGvk.group}/${d.rootGvk.kind}`));
  const store = new ClusterStore({
    definitions: definitions.definitions,
    gpuResources,
    buildNested: options.includeNested !== false,
  });
  const scheduling = new SchedulingIndex(gpuResources);
  for (const obj of objects) {
    if (isKartaObject(obj)) continue;
    const gvk = gvkOf(String(obj.apiVersion), String(obj.kind));
    // Queue and gang objects (unless a definition makes the kind a workload).
    if (!rootKinds.has(`${gvk.group}/${gvk.kind}`) && scheduling.holds(obj as unknown as KubeObject)) {
      scheduling.apply('ADDED', trimmer.for('scheduling', report)(obj));
      continue;
    }
    let kind: StoreKind;
    if (gvk.group === '' && gvk.kind === 'Pod') kind = 'pod';
    else if (gvk.group === '' && gvk.kind === 'Node') kind = 'node';
    else if (rootKinds.has(`${gvk.group}/${gvk.kind}`)) kind = 'workload';
    // DRA objects (their GPUs) and Kueue Topologies, any version.
    else if (gvk.group === 'resource.k8s.io' && isDraKind(gvk.kind)) kind = 'dra';
    else if (gvk.group === KUEUE_TOPOLOGY_GVK.group && gvk.kind === KUEUE_TOPOLOGY_GVK.kind) kind = 'topology';
    // Anything else (known owner kinds or not) may sit in an owner chain: metadata only.
    else kind = 'owner';
    const trimmed: KubeObject = trimmer.for(kind, report)(obj);
    if (kind === 'workload' && labelSelector && !matchesSelector(labelSelector, trimmed.metadata.labels)) continue;
    store.apply(kind, 'ADDED', trimmed);
  }
  store.flush();
  return { store, scheduling, definitions, problems };
}
