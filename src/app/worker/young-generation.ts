// The engine worker's young generation. V8 lets an isolate's semi-spaces grow to 16 MB each (a 48 MB young
// generation with the new large-object space) when objects survive its scavenges, and keeps them: at 1,000 pods
// the engine worker's had grown to that, ~12 MB of RSS beyond what a 6 MB one holds (test/bench/README.md "The
// everyday cluster"). A smaller one is scavenged more often: nothing measurable at 1,000 pods, within the noise
// at 20,000 (the engine's CPU to catch up). It is fixed when the worker is spawned, before the cluster's size is
// known: the single cluster's worker is capped; a fleet's shared worker, where clusters add up and lists
// interleave, keeps V8's own (engine-host.ts). The UI thread's isolate exists before any of this runs: only a
// Node flag at start (--max-semi-space-size) sizes it, and V8 reads that flag's maximum at start only.
import type { ResourceLimits } from 'node:worker_threads';

/** The engine worker's young generation, in MB (3 × its semi-space). */
export const ENGINE_YOUNG_GENERATION_MB = 6;

/** The single cluster's engine worker's resource limits; WLX_YOUNG_GENERATION=v8 leaves V8's own (measurements). */
export function engineResourceLimits(env: NodeJS.ProcessEnv = process.env): ResourceLimits {
  const raw = env.WLX_YOUNG_GENERATION;
  if (raw === 'v8') return {};
  if (raw !== undefined && raw !== '')
    throw new Error(
      `WLX_YOUNG_GENERATION: expected "v8" (V8's own young generation) or unset, got ${JSON.stringify(raw)}`,
    );
  return { maxYoungGenerationSizeMb: ENGINE_YOUNG_GENERATION_MB };
}
