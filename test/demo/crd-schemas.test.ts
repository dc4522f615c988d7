// Every custom object the simulated default scenario serves matches the
// openAPIV3Schema of its served CRD: declared fields have the declared types,
// required fields are present, and no field would be pruned (an object without
// x-kubernetes-preserve-unknown-fields declares every field it holds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { customKinds, storeKeyOf } from '../../demo/kinds.js';
import { crdFor } from '../../demo/server/crds.js';
import type { JsonSchema } from '../../demo/schemas.js';
import { startSim, until } from './sim-helpers.js';

function typeOf(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Problems of `value` against a structural schema, each with its path. */
export function schemaProblems(value: unknown, schema: JsonSchema, path = ''): string[] {
  if (schema['x-kubernetes-int-or-string'])
    return typeof value === 'string' || typeOf(value) === 'integer' ? [] : [`${path}: not an int or string`];
  const t = typeOf(value);
  if (schema.type && t !== schema.type && !(schema.type === 'number' && t === 'integer'))
    return [`${path}: ${t}, the schema says ${schema.type}`];
  const problems: string[] = [];
  if (t === 'array' && schema.items)
    (value as unknown[]).forEach((v, i) => problems.push(...schemaProblems(v, schema.items!, `${path}[${i}]`)));
  if (t === 'object') {
    const obj = value as Record<string, unknown>;
    for (const r of schema.required ?? []) if (!(r in obj)) problems.push(`${path}.${r}: required`);
    for (const [k, v] of Object.entries(obj)) {
      const sub = schema.properties?.[k] ?? schema.additionalProperties;
      if (sub) problems.push(...schemaProblems(v, sub, `${path}.${k}`));
      else if (schema.properties && !schema['x-kubernetes-preserve-unknown-fields'])
        problems.push(`${path}.${k}: not in the schema (would be pruned)`);
    }
  }
  return problems;
}

test('schemaProblems finds wrong types, missing required fields and fields that would be pruned', () => {
  const schema: JsonSchema = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string' },
      n: { type: 'integer' },
      tags: { type: 'array', items: { type: 'string' } },
    },
  };
  assert.deepEqual(schemaProblems({ name: 'a', n: 1, tags: ['x'] }, schema), []);
  assert.deepEqual(schemaProblems({ n: 'one', tags: [2], extra: true }, schema), [
    '.name: required',
    '.n: string, the schema says integer',
    '.tags[0]: integer, the schema says string',
    '.extra: not in the schema (would be pruned)',
  ]);
});

test('the default scenario: every custom object matches its CRD schema', async (t) => {
  const sim = startSim(t, { speed: 60 });
  // Let the controllers write status for a while (simulated minutes).
  await until('jobs running', () => sim.pods().filter((p) => p.status?.phase === 'Running').length > 5, 15_000);
  let checked = 0;
  const problems: string[] = [];
  for (const kind of customKinds()) {
    const crd = crdFor(kind, '2025-01-01T00:00:00Z') as unknown as {
      spec: { versions: Array<{ schema: { openAPIV3Schema: JsonSchema } }> };
    };
    const schema = crd.spec.versions[0].schema.openAPIV3Schema;
    for (const o of sim.store.list(storeKeyOf(kind))) {
      const { metadata: _metadata, ...rest } = o;
      for (const p of schemaProblems(rest, schema)) problems.push(`${kind.kind} ${o.metadata.name}${p}`);
      checked++;
    }
  }
  assert.deepEqual([...new Set(problems)], []);
  assert.ok(checked >= 6, `${checked} custom objects checked`);
});
