// `wlx get TYPE/NAME --timeline`: the startup view of the TUI's `s` (the
// milestones, role progress, gangs and the waterfall of src/ui/render/
// waterfall.ts) printed as text. A terminal gets the block glyphs in colour;
// a pipe or NO_COLOR gets plain ASCII (`.` waiting, `-` pulling, `=`
// starting, `#` ready) that diffs and greps.
import type { ModelSnapshot, WorkloadTree } from '../model/types.js';
import type { ObjectAccess } from '../model/source.js';
import type { StartupTimeline } from '../model/timeline.js';
import type { Tone } from '../ui/render/table.js';
import { timelineLines, type TextLine } from '../ui/render/incident.js';
import { ASCII_GLYPHS, PHASE_COLOUR, UNICODE_GLYPHS, type Span } from '../ui/render/waterfall.js';
import { loadStartupTimeline } from '../ui/state/incident.js';

export interface TimelineTextOptions {
  /** Columns to lay the bars out in. */
  width: number;
  /** ANSI colours and block glyphs; false: plain ASCII. */
  colour: boolean;
  /** More pods than this get p50 / p90 / max bands per role above them. */
  summaryOver?: number;
}

/** Columns when not a terminal (a pipe has no width: wide enough for a readable bar). */
export const PIPE_WIDTH = 120;

/** Colour on a terminal unless NO_COLOR; the terminal's width, else PIPE_WIDTH. */
export function timelineTextOptions(
  out: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv = process.env,
): TimelineTextOptions {
  const tty = out.isTTY === true;
  return { width: tty && out.columns ? out.columns : PIPE_WIDTH, colour: tty && !env.NO_COLOR };
}

const SGR: Record<string, string> = { yellow: '33', cyan: '36', magenta: '35', green: '32', red: '31' };

const TONE_SGR: Record<Tone, string> = {
  normal: '',
  ok: SGR.green,
  warn: SGR.yellow,
  error: SGR.red,
  dim: '2',
  group: `${SGR.cyan};1`,
};

const paint = (text: string, sgr: string) => (sgr && text.trim() ? `\x1b[${sgr}m${text}\x1b[0m` : text);

function spanSgr(s: Span, line: TextLine): string {
  if (s.phase) return SGR[PHASE_COLOUR[s.phase]];
  if (s.mark) return '1';
  return TONE_SGR[s.tone ?? line.tone];
}

/** Cluster text is sanitised already; plain output is ASCII throughout (anything else becomes `?`). */
const ascii = (text: string) => text.replace(/[^\x20-\x7e]/g, '?');

/** The startup timeline as text, one line per `\n`, ending with a newline. */
export function timelineText(t: StartupTimeline, nowMs: number, opts: TimelineTextOptions): string {
  const lines = timelineLines(t, nowMs, {
    width: opts.width,
    rows: opts.summaryOver ?? 50,
    glyphs: opts.colour ? UNICODE_GLYPHS : ASCII_GLYPHS,
  });
  const out = lines.map((l) => {
    if (!opts.colour) return ascii(l.text).trimEnd();
    if (!l.spans) return paint(l.text, TONE_SGR[l.tone]).trimEnd();
    return l.spans
      .map((s) => paint(s.text, spanSgr(s, l)))
      .join('')
      .trimEnd();
  });
  return out.join('\n') + '\n';
}

/**
 * The text for one workload of a model source: its pods and their events read
 * fresh through `access` (GET and LIST only), laid out by `timelineTextOptions(out)`.
 */
export async function workloadTimelineText(
  access: ObjectAccess,
  snapshot: ModelSnapshot,
  workload: WorkloadTree,
  out: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const nowMs = Date.now();
  const timeline = await loadStartupTimeline({
    access,
    snapshot,
    target: { kind: 'workload', workloadUid: workload.uid },
    nowMs,
  });
  if (!timeline) throw new Error(`${workload.namespace}/${workload.name} no longer exists`);
  return timelineText(timeline, nowMs, timelineTextOptions(out, env));
}
