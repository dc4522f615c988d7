// The engine worker's young generation. V8 lets an isolate's semi-spaces grow to 16 MB each (a 48 MB young
// generation with the new large-object space) when objects survive its scavenges, and keeps them. Capped at 6 MB,
// the worker held 10–20 MB less RSS at 1,000 pods at no measurable CPU there, but its list and catch-up at 20,000
// pods took 30–40 % more CPU (more scavenges, more survivors promoted; test/bench/README.md "The everyday
// cluster"). The size is fixed when the worker is spawned, before the cluster's size is known, so the default is
// V8's own; WLX_ENGINE_YOUNG_MB caps it (measurements, small clusters). A fleet's shared worker keeps V8's own.
// The UI thread's isolate exists before any of this runs: only a Node flag at start (--max-semi-space-size)
// sizes it.
import type { ResourceLimits } from 'node:worker_threads';

/** The single cluster's engine worker's resource limits: WLX_ENGINE_YOUNG_MB=N caps its young generation at N MB. */
export function engineResourceLimits(env: NodeJS.ProcessEnv = process.env): ResourceLimits {
  const raw = env.WLX_ENGINE_YOUNG_MB;
  if (raw === undefined || raw === '') return {};
  const mb = Number(raw);
  if (!Number.isInteger(mb) || mb < 3 || mb > 1024)
    throw new Error(`WLX_ENGINE_YOUNG_MB: expected a whole number of MB from 3 to 1024, got ${JSON.stringify(raw)}`);
  return { maxYoungGenerationSizeMb: mb };
}
