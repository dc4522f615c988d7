// The simulator against the real kube-apiserver: the same seed (test/e2e/real-seed.ts)
// written through the API to both, then `wlx get -A -o json` from each must be the
// same but for what cannot be (uids, resourceVersions, timestamps) and the known
// differences listed in demo/server/README.md ("Known differences from kube-apiserver").
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoCluster } from '../../demo/index.js';
import { ApiClient, realServerSkipReason, useRealServer } from './real-apiserver.js';
import { applySeed, ensureNamespaces, gpuClusterSeed, reseed, seedClock } from './real-seed/index.js';
import { runWlx } from './wlx-cli.js';

const skip = realServerSkipReason();

/** Fields that differ between any two servers: identities, versions and times the server assigns, and `cluster`, the context each was read through. */
const SERVER_ASSIGNED = /^(uid|resourceVersion|serverVersion|cluster)$|At$|Time$|[Tt]imestamp$/;

/** Every leaf where `a` and `b` differ, as `path: a | b`; array items are named by their `name` when they have one. */
function differences(a: unknown, b: unknown, path = ''): string[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    const key = (v: unknown, i: number) =>
      v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string'
        ? `[${(v as { namespace?: string }).namespace ? `${(v as { namespace: string }).namespace}/` : ''}${(v as { name: string }).name}]`
        : `[${i}]`;
    const as = new Map(a.map((v, i) => [key(v, i), v]));
    const bs = new Map(b.map((v, i) => [key(v, i), v]));
    const out: string[] = [];
    if ([...as.keys()].join() !== [...bs.keys()].join())
      out.push(`${path}: items ${[...as.keys()].join(' ')} | ${[...bs.keys()].join(' ')}`);
    for (const [k, v] of as) if (bs.has(k)) out.push(...differences(v, bs.get(k), `${path}${k}`));
    return out;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const out: string[] = [];
    const ka = Object.keys(a).filter((k) => !SERVER_ASSIGNED.test(k));
    const kb = Object.keys(b).filter((k) => !SERVER_ASSIGNED.test(k));
    // Key order is output too (a label map prints in the order the server sent it).
    if (ka.join() !== kb.join()) out.push(`${path}: keys ${ka.join(',')} | ${kb.join(',')}`);
    for (const k of ka)
      if (kb.includes(k))
        out.push(...differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`));
    return out;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [`${path}: ${JSON.stringify(a)} | ${JSON.stringify(b)}`];
}

/**
 * Documented in demo/server/README.md: Kueue's visibility API (pending positions) is served by
 * Kueue's controller, which the real server here does not run.
 */
const KNOWN = ['.workloads[training/gpt-eval].queue.position: 0 | null'];

test(
  'the same seed on the simulator and on the real kube-apiserver: wlx get -A -o json is the same',
  { skip, timeout: 120_000 },
  async (t) => {
    const real = await useRealServer(after);
    const seed = gpuClusterSeed(seedClock());
    await reseed(real.admin, seed);

    const dir = mkdtempSync(join(tmpdir(), 'wlx-differential-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const kubeconfig = join(dir, 'kubeconfig');
    const sim = await startDemoCluster({ simulate: false, allowWrites: true, kubeconfigPath: kubeconfig });
    t.after(() => sim.stop());
    const simApi = new ApiClient(sim.server, undefined);
    t.after(() => simApi.close());
    await ensureNamespaces(simApi);
    await applySeed(simApi, seed);

    const env = { WLX_DEFINITIONS: '' };
    const [fromSim, fromReal] = await Promise.all([
      runWlx(['get', '-A', '-o', 'json', '--kubeconfig', kubeconfig], env),
      runWlx(['get', '-A', '-o', 'json', '--kubeconfig', real.kubeconfig], env),
    ]);
    assert.equal(fromSim.code, 0, fromSim.stderr);
    assert.equal(fromReal.code, 0, fromReal.stderr);
    const simDoc = JSON.parse(fromSim.stdout) as { workloads: unknown[]; nodes: unknown[] };
    const realDoc = JSON.parse(fromReal.stdout) as { workloads: unknown[]; nodes: unknown[] };
    // Not two empty documents that agree: the whole seed is there.
    assert.equal(realDoc.workloads.length, 6, fromReal.stdout.slice(0, 2000));
    assert.equal(realDoc.nodes.length, 7);
    assert.deepEqual(differences(simDoc, realDoc), KNOWN);
  },
);
