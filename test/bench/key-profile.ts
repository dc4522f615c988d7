// The UI thread's CPU profile over a session's key phase, with each key's send
// and frame times, to see what a slow key waited for (the bench's
// WLX_BENCH_KEY_PROFILE=FILE; key-profile-summary.ts reads it). Samples every
// 250 µs: a key whose window holds far fewer samples than its duration waited
// for a core, not for work on the UI thread.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';

/** A key press: written to stdin at `sent`, its frame at `t` (epoch ms). */
export interface KeyMark {
  sent: number;
  t: number;
}

export interface KeyProfileFile {
  profile: Profiler.Profile;
  /** Epoch ms when the profiler started: profile.startTime (µs, another clock) maps to it. */
  startedAt: number;
  keys: KeyMark[];
}

export const KEY_PROFILE_INTERVAL_US = 250;

/** Starts profiling this thread when `path` is set; stop() writes the profile and the keys there. */
export async function startKeyProfile(
  path: string | undefined,
): Promise<{ stop(keys: KeyMark[]): Promise<void> } | null> {
  if (!path) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: KEY_PROFILE_INTERVAL_US });
  await session.post('Profiler.start');
  const startedAt = performance.timeOrigin + performance.now();
  return {
    async stop(keys) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      const file: KeyProfileFile = { profile, startedAt, keys };
      writeFileSync(path, JSON.stringify(file));
    },
  };
}
