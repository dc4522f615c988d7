// No import cycles in src/ and demo/, type-only imports and dynamic imports
// included: a cycle makes the load order decide what a module sees, and two
// files that need each other are one concern split badly. (The layers' one
// direction is ESLint's: eslint.config.mjs LAYERS.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from './definitions/builtin-fixtures.js';

const IMPORT = /(?:\bimport|\bexport)\s[^;]*?\bfrom\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

/** Each file's relative imports, as files. */
export function importGraph(dirs: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sources(d))) {
    const deps: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const base = resolve(dirname(file), (m[1] ?? m[2]).replace(/\.js$/, ''));
      const target = [`${base}.ts`, `${base}.tsx`].find((p) => existsSync(p));
      if (target) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Groups of files that import each other (Tarjan's strongly connected components of more than one file, or a self-import). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      group.push(w);
      if (w === v) break;
    }
    if (group.length > 1 || graph.get(v)?.includes(v)) cycles.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

test('the cycle finder finds a type-only cycle and a dynamic-import one', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['a']],
    ['c', ['d']],
    ['d', ['e']],
    ['e', ['c']],
    ['f', ['a']],
  ]);
  assert.deepEqual(importCycles(graph), [
    ['a', 'b'],
    ['c', 'd', 'e'],
  ]);
  assert.match("import type { X } from './x.js';", IMPORT);
  IMPORT.lastIndex = 0;
  assert.match("const { y } = await import('./y.js');", IMPORT);
  IMPORT.lastIndex = 0;
});

test('src/ and demo/ have no import cycles', () => {
  const graph = importGraph([join(repoRoot, 'src'), join(repoRoot, 'demo')]);
  assert.ok(graph.size > 100, `read ${graph.size} files`);
  const cycles = importCycles(graph).map((c) => c.map((f) => relative(repoRoot, f)).join(' ↔ '));
  assert.deepEqual(cycles, []);
});
