// Loading the built-in catalog's fixtures (test/fixtures/builtin/<definition>.yaml) and rendering
// a WorkloadTree as compact text, so each fixture's expected tree reads like `kli describe` output.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import yaml from 'js-yaml';
import type { Definition } from '../../src/definitions/types.js';
import type { KubeObject, RoleTree, WorkloadTree } from '../../src/model/types.js';

/** The package root: tests run from dist/test/definitions/. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const catalogDir = join(repoRoot, 'definitions');
export const fixturesDir = join(repoRoot, 'test', 'fixtures', 'builtin');

export function catalogFiles(): string[] {
  return readdirSync(catalogDir).filter((f) => f.endsWith('.yaml')).sort();
}

/** Fixture files: `<definition>.yaml`, and `<definition>@<variant>.yaml` for another shape of the same type. */
export function fixtureFiles(): string[] {
  return readdirSync(fixturesDir).filter((f) => f.endsWith('.yaml')).sort();
}

/** The definition (file name without .yaml) a fixture file is for. */
export function definitionNameOf(fixtureFile: string): string {
  return fixtureFile.replace(/\.yaml$/, '').split('@')[0];
}

export interface Fixture {
  workload: KubeObject;
  pods: KubeObject[];
  /** Every other object but nodes: the intermediate owners (Jobs, ReplicaSets, StatefulSets, RayClusters, ...). */
  owners: KubeObject[];
  /** The nodes the pods run on. */
  nodes: KubeObject[];
}

function apiVersionOf(def: Definition): string {
  const g = def.rootGvk;
  return g.group ? `${g.group}/${g.version}` : g.version;
}

/** The fixture for a definition: its one object of the definition's root kind, pods and the rest. */
export function loadFixture(def: Definition, file: string): Fixture {
  const docs = yaml.loadAll(readFileSync(join(fixturesDir, file), 'utf8')).filter((d): d is KubeObject => typeof d === 'object' && d !== null);
  const roots = docs.filter((d) => d.apiVersion === apiVersionOf(def) && d.kind === def.rootGvk.kind);
  if (roots.length !== 1) throw new Error(`${file}: expected one ${def.rootGvk.kind}, found ${roots.length}`);
  const workload = roots[0];
  const core = (kind: string) => (d: KubeObject) => d.kind === kind && d.apiVersion === 'v1';
  return {
    workload,
    pods: docs.filter(core('Pod')),
    owners: docs.filter((d) => d !== workload && !core('Pod')(d) && !core('Node')(d)),
    nodes: docs.filter(core('Node')),
  };
}

/** A deep copy to patch in a test without touching the shared fixture. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

const n = (c: { desired: number; requested: number; allocated: number }) => `${c.desired}/${c.requested}/${c.allocated}`;

/** Roles that expect nothing and have nothing (e.g. Milvus standalone in cluster mode) are left out. */
function isEmptyRole(r: RoleTree): boolean {
  return r.replicas.desired === 0 && r.replicas.current === 0 && r.pods.length === 0 && r.roles.every(isEmptyRole);
}

function renderRole(r: RoleTree, indent: string, out: string[]): void {
  if (isEmptyRole(r)) return;
  const name = `${r.component}${r.instance !== null ? `[${r.instance}]` : ''}${r.replica !== null ? `{${r.replica}}` : ''}`;
  out.push(`${indent}${name} ${r.replicas.current}/${r.replicas.desired} ready ${r.replicas.ready} gpus ${n(r.gpus)} nodes ${r.nodes.join(',') || '-'}`);
  for (const p of r.pods) out.push(`${indent}  ${p.name} ${p.status}${p.reason && p.reason !== p.status ? ` (${p.reason})` : ''} gpus ${p.gpus} node ${p.node ?? '-'}`);
  for (const c of r.roles) renderRole(c, `${indent}  `, out);
}

/**
 * The tree as lines: a header (statuses, workload replicas current/desired, ready, GPUs
 * desired/requested/allocated), the roles with their pods, unattributed pods and gangs.
 */
export function renderTree(t: WorkloadTree): string[] {
  const out = [`${t.status.join(',')} ${t.replicas.current}/${t.replicas.desired} ready ${t.replicas.ready} gpus ${n(t.gpus)}`];
  for (const r of t.roles) renderRole(r, '', out);
  for (const p of t.unattributedPods) out.push(`unattributed ${p.name} ${p.status} gpus ${p.gpus} node ${p.node ?? '-'}`);
  for (const g of t.gangs) out.push(`gang ${g.name} ${g.key} members ${g.members} scheduled ${g.scheduled} ready ${g.ready}`);
  return out;
}
