// apiextensions.k8s.io/v1 CustomResourceDefinitions for every custom kind the
// simulated cluster serves, built from the CRD facts in demo/kinds.ts (names,
// scope, version, subresources, printer columns, schema), and the simple
// JSONPath subset printer columns use, evaluated as apiextensions does.
import { AGE_COLUMN, customKinds, findKind, storeKeyOf } from '../kinds.js';
import type { ServedKind } from '../kind-types.js';
import { crdOpenApiSchema } from '../schemas.js';
import type { ObjectStore, StoredObject } from '../object-store.js';

export const CRD_KIND = findKind('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;

export function crdName(k: ServedKind): string {
  return `${k.plural}.${k.group}`;
}

function names(k: ServedKind): Record<string, unknown> {
  const n: Record<string, unknown> = { plural: k.plural, singular: k.singular, kind: k.kind, listKind: k.listKind };
  if (k.shortNames.length) n.shortNames = k.shortNames;
  if (k.categories.length) n.categories = k.categories;
  return n;
}

/** The CustomResourceDefinition of a custom kind, as `kubectl get crd X -o yaml` shows it. */
export function crdFor(k: ServedKind, createdAt: string): StoredObject {
  // Every served version of the CRD, the storage version first.
  const versions = customKinds()
    .filter((v) => crdName(v) === crdName(k))
    .sort((a, b) => Number(!!a.servedFrom) - Number(!!b.servedFrom));
  const storage = versions[0];
  const condition = (type: string, reason: string, message: string) => ({
    type,
    status: 'True',
    reason,
    message,
    lastTransitionTime: createdAt,
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName(k), uid: '', resourceVersion: '', creationTimestamp: createdAt, generation: 1 },
    spec: {
      group: k.group,
      names: names(k),
      scope: k.namespaced ? 'Namespaced' : 'Cluster',
      versions: versions.map(crdVersion),
      conversion:
        versions.length > 1
          ? {
              strategy: 'Webhook',
              webhook: {
                conversionReviewVersions: ['v1'],
                clientConfig: {
                  service: { name: 'webhook-service', namespace: 'kueue-system', path: '/convert', port: 443 },
                },
              },
            }
          : { strategy: 'None' },
    },
    status: {
      conditions: [
        condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
        condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
      ],
      acceptedNames: names(k),
      storedVersions: [storage.version],
    },
  };
}

function crdVersion(k: ServedKind): Record<string, unknown> {
  const facts = k.crd!;
  const subresources: Record<string, unknown> = {};
  if (k.subresources.some((s) => s.name === 'status')) subresources.status = {};
  if (facts.scale) subresources.scale = facts.scale;
  return {
    name: k.version,
    served: true,
    storage: !k.servedFrom,
    ...(k.servedFrom
      ? { deprecated: true, deprecationWarning: `This version is deprecated. Use ${k.servedFrom.version} instead.` }
      : {}),
    schema: { openAPIV3Schema: crdOpenApiSchema(k.kind, facts.schema) },
    subresources,
    additionalPrinterColumns: printerColumnsOf(k),
  };
}

/** A CRD's printer columns; apiextensions prints Age alone when a CRD declares none. */
export function printerColumnsOf(k: ServedKind): NonNullable<ServedKind['crd']>['printerColumns'] {
  const cols = k.crd?.printerColumns ?? [];
  return cols.length ? cols : [AGE_COLUMN];
}

/** Puts the CRD of every custom kind into the store (once; kept across restarts). */
export function installCrds(store: ObjectStore): void {
  const key = storeKeyOf(CRD_KIND);
  const createdAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  for (const k of customKinds()) {
    if (!store.get(key, undefined, crdName(k))) store.put(key, crdFor(k, createdAt));
  }
}

type Step = { field: string } | { index: number } | { slice: number } | { filter: { field: string; equals: string } };

const pathCache = new Map<string, Step[]>();

/**
 * Parses the JSONPath forms CRD printer columns use: `.a.b`, `.a[0]`,
 * `.a[-1:]` (the last element) and `.a[?(@.k=="v")]`.
 */
export function parseJsonPath(path: string): Step[] {
  const cached = pathCache.get(path);
  if (cached) return cached;
  const steps: Step[] = [];
  const re = /\.([A-Za-z0-9_-]+)|\[(-?\d+)\]|\[(-?\d+):\]|\[\?\(@\.([A-Za-z0-9_-]+)\s*==\s*["']([^"']*)["']\)\]/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < path.length && (m = re.exec(path))) {
    if (m[1] !== undefined) steps.push({ field: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else if (m[3] !== undefined) steps.push({ slice: Number(m[3]) });
    else steps.push({ filter: { field: m[4], equals: m[5] } });
    at = re.lastIndex;
  }
  if (at !== path.length) throw new Error(`unsupported JSONPath "${path}" at offset ${at}`);
  pathCache.set(path, steps);
  return steps;
}

/** The first value a JSONPath finds, or undefined. */
export function evalJsonPath(obj: unknown, path: string): unknown {
  let current: unknown[] = [obj];
  for (const step of parseJsonPath(path)) {
    const next: unknown[] = [];
    for (const v of current) {
      if ('field' in step) {
        if (v && typeof v === 'object' && !Array.isArray(v) && step.field in v)
          next.push((v as Record<string, unknown>)[step.field]);
      } else if (!Array.isArray(v)) {
        continue;
      } else if ('index' in step) {
        const i = step.index < 0 ? v.length + step.index : step.index;
        if (i >= 0 && i < v.length) next.push(v[i]);
      } else if ('slice' in step) {
        next.push(...v.slice(step.slice));
      } else {
        for (const e of v)
          if (
            e &&
            typeof e === 'object' &&
            String((e as Record<string, unknown>)[step.filter.field]) === step.filter.equals
          )
            next.push(e);
      }
    }
    current = next;
  }
  return current[0];
}
