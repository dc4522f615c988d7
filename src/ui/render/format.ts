// Small formatting helpers shared by the resource renderers.
import type { Tone } from './table.js';
import type { GpuCounts, PodSummary } from '../../model/types.js';
import { withSlices, type SlicesStyle } from '../../model/gpu.js';
import { sanitise } from '../../text/sanitise.js';
import { humanDuration } from '../../text/duration.js';

/** kubectl's AGE (text/duration.ts), `-` when the time is not known. */
export function formatAge(createdMs: number | null, nowMs: number): string {
  return createdMs === null || !Number.isFinite(createdMs) ? '-' : humanDuration(nowMs - createdMs);
}

export function parseTime(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

const ERROR_WORDS =
  /^(Failed|Error|CrashLoopBackOff|OOMKilled|ImagePullBackOff|ErrImagePull|CreateContainerError|CreateContainerConfigError|InvalidImageName|Evicted|NotReady|Unknown|RunContainerError|ContainerStatusUnknown|Forbidden)/;
const WARN_WORDS =
  /^(Degraded|Pending|Initializing|ContainerCreating|PodInitializing|Init:|Terminating|Suspending|Resuming|Suspended|Unschedulable|SchedulingDisabled|Undefined|Progressing|Waiting)/;
const OK_WORDS = /^(Running|Ready|Available|Succeeded)/;
const DONE_WORDS = /^(Completed)/;

/** Colour class of a status word (kubectl / Workload Map vocabulary). */
export function statusTone(status: string): Tone {
  if (ERROR_WORDS.test(status)) return 'error';
  if (WARN_WORDS.test(status)) return 'warn';
  if (OK_WORDS.test(status)) return 'ok';
  if (DONE_WORDS.test(status)) return 'dim';
  return 'normal';
}

/** The tone of a set of statuses: the most severe one wins. */
export function worstTone(statuses: readonly string[]): Tone {
  const tones = statuses.map(statusTone);
  for (const t of ['error', 'warn', 'ok', 'dim'] as const) if (tones.includes(t)) return t;
  return 'normal';
}

/** Severity rank for sorting by status (most severe first, as the Headlamp design orders chips). */
export function statusRank(status: string): number {
  switch (statusTone(status)) {
    case 'error':
      return 0;
    case 'warn':
      return 1;
    case 'ok':
      return 2;
    case 'dim':
      return 3;
    default:
      return 4;
  }
}

export function ratio(a: number, b: number): string {
  return `${a}/${b}`;
}

/**
 * A workload's or role's GPUs: whole GPUs allocated/desired, the slices (MIG, shared) its pods request beside.
 * Table cells name their kinds (`1 mig`: at 80 columns STATUS and its trouble marker need the width), panels
 * each resource (`1×mig-1g.10gb`).
 */
export function gpuRatio(g: GpuCounts, style: SlicesStyle = 'kinds'): string {
  const none = g.allocated === 0 && g.desired === 0 && g.requested === 0;
  return sanitise(withSlices(ratio(g.allocated, g.desired), none, g.slices, style));
}

/** A pod's GPUs: its GPU count and its slices (styles as gpuRatio). */
export function podGpus(p: Pick<PodSummary, 'gpus' | 'gpuSlices'>, style: SlicesStyle = 'kinds'): string {
  return sanitise(withSlices(String(p.gpus), p.gpus === 0, p.gpuSlices, style));
}
