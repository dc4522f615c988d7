// /openapi/v2 and /openapi/v3 of the simulated cluster, built from the schemas
// in demo/schemas.ts (built-in kinds) and the CRD facts in demo/kinds.ts
// (custom kinds, under the reversed-group names kube-apiserver gives CRD
// schemas, e.g. io.x-k8s.jobset.v1alpha2.JobSet). v3 is what kubectl explain
// reads: a root listing one document per group/version, each fetched at its
// serverRelativeURL whose `hash` makes it immutable for caches.
import { createHash } from 'node:crypto';
import { SERVED_KINDS, servedGroups } from '../kinds.js';
import type { ServedKind } from '../kind-types.js';
import {
  BUILTIN_DEFINITIONS,
  crdOpenApiSchema,
  definitionName,
  definitionSchema,
  type JsonSchema,
} from '../schemas.js';
import { VERSION_INFO } from './version.js';

type Flavour = 'v2' | 'v3';

/** Kinds with operations of their own; Kueue's visibility resources only have a subresource and no schema here. */
const DOCUMENTED_KINDS = SERVED_KINDS.filter((k) => k.verbs.length > 0);

function refTo(flavour: Flavour, full: string): JsonSchema {
  return { $ref: flavour === 'v2' ? `#/definitions/${full}` : `#/components/schemas/${full}` };
}

function gvkOf(k: ServedKind): { group: string; version: string; kind: string } {
  return { group: k.group, version: k.version, kind: k.kind };
}

/** The OpenAPI name of a kind's schema. */
export function schemaNameOf(k: ServedKind): string {
  if (k.crd) return `${k.group.split('.').reverse().join('.')}.${k.version}.${k.kind}`;
  const found = Object.entries(BUILTIN_DEFINITIONS).find(
    ([, d]) => d.gvk && d.gvk.group === k.group && d.gvk.version === k.version && d.gvk.kind === k.kind,
  );
  if (!found) throw new Error(`openapi: no schema for ${k.kind}`);
  return found[0];
}

/** Every definition a set of kinds needs (their own and every type they reference), by name. */
function definitionsFor(kinds: ServedKind[], flavour: Flavour): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const pending: string[] = [];
  const resolve = (short: string): JsonSchema | undefined => {
    const full = definitionName(short);
    if (!full) return undefined;
    if (!(full in out) && !pending.includes(full)) pending.push(full);
    return refTo(flavour, full);
  };
  for (const k of kinds) {
    const name = schemaNameOf(k);
    if (k.crd) {
      const schema = crdOpenApiSchema(k.kind, k.crd.schema);
      schema.properties!.metadata = {
        description: "The object's name, namespace, labels, annotations and owners.",
        allOf: [resolve('ObjectMeta')!],
      };
      out[name] = { ...schema, 'x-kubernetes-group-version-kind': [gvkOf(k)] };
    } else {
      pending.push(name);
    }
  }
  while (pending.length) {
    const full = pending.shift()!;
    if (full in out) continue;
    const def = BUILTIN_DEFINITIONS[full];
    const schema = definitionSchema(def, resolve);
    out[full] = def.gvk ? { ...schema, 'x-kubernetes-group-version-kind': [def.gvk] } : schema;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function groupVersionPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/**
 * The operations of each kind: get and list, and create/patch with the
 * `fieldValidation` parameter, which tells kubectl (create, apply) that the
 * server validates fields itself, so it does not fetch /openapi/v2 to validate
 * on the client.
 */
function pathsFor(kinds: ServedKind[], flavour: Flavour): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const response = (schema: JsonSchema) =>
    flavour === 'v2'
      ? { description: 'OK', schema }
      : { description: 'OK', content: { 'application/json': { schema } } };
  for (const k of kinds) {
    const base = `/${groupVersionPath(k.group, k.version)}`;
    const ref = refTo(flavour, schemaNameOf(k));
    const op = (action: string, description: string, schema: JsonSchema) => {
      const o: Record<string, unknown> = {
        description,
        operationId: `${action}${k.kind}`,
        responses: { '200': response(schema) },
        'x-kubernetes-action': action,
        'x-kubernetes-group-version-kind': gvkOf(k),
      };
      if (action === 'post' || action === 'patch') o.parameters = [fieldValidation(flavour)];
      return o;
    };
    if (k.verbs.length === 1 && k.verbs[0] === 'create') {
      paths[`${base}/${k.plural}`] = { post: op('post', `create a ${k.kind}`, ref) };
      continue;
    }
    const list: JsonSchema = {
      type: 'object',
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, items: { type: 'array', items: ref } },
    };
    const collection = k.namespaced ? `${base}/namespaces/{namespace}/${k.plural}` : `${base}/${k.plural}`;
    paths[collection] = {
      get: op('list', `list or watch objects of kind ${k.kind}`, list),
      post: op('post', `create a ${k.kind}`, ref),
    };
    paths[`${collection}/{name}`] = {
      get: op('get', `read the specified ${k.kind}`, ref),
      patch: op('patch', `partially update the specified ${k.kind}`, ref),
    };
    if (k.namespaced) paths[`${base}/${k.plural}`] = { get: op('list', `list ${k.kind} in all namespaces`, list) };
  }
  return paths;
}

function fieldValidation(flavour: Flavour): Record<string, unknown> {
  const description = 'Ignore, Warn or Strict: what the server does with unknown or duplicate fields.';
  return flavour === 'v2'
    ? { name: 'fieldValidation', in: 'query', type: 'string', uniqueItems: true, description }
    : { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true }, description };
}

const info = { title: 'Kubernetes', version: VERSION_INFO.gitVersion };

let v2: { body: string; etag: string } | undefined;

/** /openapi/v2 as JSON (every kind in one document). */
export function openApiV2(): { body: string; etag: string } {
  if (!v2) {
    const kinds = [...DOCUMENTED_KINDS];
    const body = JSON.stringify({
      swagger: '2.0',
      info,
      paths: pathsFor(kinds, 'v2'),
      definitions: definitionsFor(kinds, 'v2'),
    });
    v2 = { body, etag: hashOf(body) };
  }
  return v2;
}

function hashOf(body: string): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

interface V3Document {
  body: string;
  hash: string;
}

let v3: Map<string, V3Document> | undefined;

function v3Documents(): Map<string, V3Document> {
  if (!v3) {
    v3 = new Map();
    for (const { group, versions } of servedGroups()) {
      for (const version of versions) {
        const kinds = DOCUMENTED_KINDS.filter((k) => k.group === group && k.version === version);
        if (!kinds.length) continue;
        const body = JSON.stringify({
          openapi: '3.0.0',
          info,
          paths: pathsFor(kinds, 'v3'),
          components: { schemas: definitionsFor(kinds, 'v3') },
        });
        v3.set(groupVersionPath(group, version), { body, hash: hashOf(body) });
      }
    }
  }
  return v3;
}

/** /openapi/v3: where each group/version document lives. */
export function openApiV3Root(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [path, doc] of v3Documents()) paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${doc.hash}` };
  return { paths };
}

/** /openapi/v3/<api/v1 | apis/group/version>, or undefined when not served. */
export function openApiV3Document(path: string): V3Document | undefined {
  return v3Documents().get(path);
}
