// The engine worker runs at a lower scheduling priority than the UI thread,
// so that on a busy machine a key or a frame gets a core before the engine's
// next batch does. On two cores shared by the engine, the UI thread and
// whatever else runs (a local API server, a build), the slow keys were ones
// that waited for a core, not for work on the UI thread. Measured in
// test/bench/README.md ("Run of 2026-12-06, 60 fps"): slowest of 60 keys
// 117–126 ms at 0, 60–110 ms at 10, 62–63 ms at 15; 5 made no visible change.
// Only on Linux: there setpriority(2) on "this process" sets the calling
// thread's nice value; elsewhere it would renice the UI thread with it.
import { getPriority, setPriority } from 'node:os';

/** The default: the engine thread runs 10 nice levels below the UI (scheduler weight 110 against 1,024). */
export const ENGINE_NICE = 10;

/** How many nice levels to lower the engine thread by; 0 when WLX_ENGINE_NICE=0 leaves it as the UI's. */
export function engineNiceOf(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WLX_ENGINE_NICE;
  const nice = raw === undefined || raw === '' ? ENGINE_NICE : Number(raw);
  if (!Number.isInteger(nice) || nice < 0 || nice > 19)
    throw new Error(`WLX_ENGINE_NICE: expected a whole number from 0 to 19, got ${JSON.stringify(raw)}`);
  return nice;
}

/**
 * Lowers the calling thread's priority by `nice` levels (capped at 19), relative to what it inherited.
 * Returns the nice value now in effect, or null when it was left alone (0, not Linux, or refused).
 */
export function lowerThreadPriority(nice: number, platform: NodeJS.Platform = process.platform): number | null {
  if (nice === 0 || platform !== 'linux') return null;
  try {
    const target = Math.min(19, getPriority() + nice);
    setPriority(target);
    return target;
  } catch {
    // Raising one's own nice value needs no privilege; a sandbox that refuses it leaves the engine as fast as the UI.
    return null;
  }
}
