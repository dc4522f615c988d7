// The startup waterfall: every pod a bar on the workload's shared time axis
// (creation → all ready, or now), its phases in distinct glyphs and colours,
// a band per role, the gang's "all scheduled" / "all ready" marks on the
// axis, and p50 / p90 / max bands per role when the pods do not fit on one
// screen. Pure: a timeline and a width in, lines of coloured spans out; the
// TUI (IncidentView) and `wlx get --timeline` (src/cli/timeline-text.ts) draw them.
import {
  formatDuration,
  groupSegments,
  phaseDurations,
  podSegments,
  pullDurationMs,
  quantile,
  STARTUP_PHASES,
  timelineAxis,
  type PhaseSegment,
  type PodWaterfall,
  type StartupPhase,
  type StartupTimeline,
} from '../../model/timeline.js';
import { sanitise } from '../../text/sanitise.js';
import { displayWidth, fitMiddle, type Tone } from './table.js';

/** A run of text in one style: a phase's colour, a mark's, or a tone. */
export interface Span {
  text: string;
  phase?: StartupPhase;
  mark?: boolean;
  tone?: Tone;
}

export interface WaterfallLine {
  text: string;
  tone: Tone;
  /** The line's styled runs (their texts make `text`); absent: plain text in `tone`, wrapped by the view. */
  spans?: Span[];
  /** The pod a bar belongs to. */
  pods?: string[];
}

/** Glyphs of the phases (density grows with progress, so the bars read without colour), the axis and the marks. */
export interface GlyphSet {
  phase: Record<StartupPhase, string>;
  rule: string;
  tick: string;
  ellipsis: string;
  bullet: string;
}

export const UNICODE_GLYPHS: GlyphSet = {
  phase: { waiting: '░', pulling: '▒', starting: '▓', ready: '█' },
  rule: '─',
  tick: '┬',
  ellipsis: '…',
  bullet: '▸',
};

export const ASCII_GLYPHS: GlyphSet = {
  phase: { waiting: '.', pulling: '-', starting: '=', ready: '#' },
  rule: '-',
  tick: '+',
  ellipsis: '~',
  bullet: '>',
};

/** Colour names (Ink's and the CLI's ANSI table alike) of the phases. */
export const PHASE_COLOUR: Record<StartupPhase, 'yellow' | 'cyan' | 'magenta' | 'green'> = {
  waiting: 'yellow',
  pulling: 'cyan',
  starting: 'magenta',
  ready: 'green',
};

export const PHASE_LABEL: Record<StartupPhase, string> = {
  waiting: 'waiting to schedule',
  pulling: 'pulling',
  starting: 'starting',
  ready: 'ready',
};

/** The gang's marks on the axis. */
export const MARK_ALL_SCHEDULED = 'S';
export const MARK_ALL_READY = 'R';

export interface WaterfallOptions {
  /** Columns available. */
  width: number;
  /** Pod rows that fit on a screen: more pods than this get a p50/p90/max summary band per role first. */
  rows?: number;
  glyphs?: GlyphSet;
}

/** The columns of a bar row: name, bar, numbers (durations: wait, pull, start, total). */
export interface WaterfallLayout {
  nameWidth: number;
  barWidth: number;
}

const NUMBER_WIDTH = 6;
const NUMBER_COLUMNS = 4;
const NUMBERS_WIDTH = NUMBER_COLUMNS * (NUMBER_WIDTH + 1) - 1;

/** Names as wide as the longest (`longestName`), within 20 columns and 30% of the line; the bar takes the rest. */
export function waterfallLayout(width: number, longestName = 36): WaterfallLayout {
  const nameWidth = Math.max(20, Math.min(longestName, Math.floor(width * 0.3)));
  const barWidth = Math.max(10, width - nameWidth - NUMBERS_WIDTH - 2);
  return { nameWidth, barWidth };
}

/** The bar column of time `t` on an axis of `cols` columns. */
export function axisColumn(t: number, startMs: number, endMs: number, cols: number): number {
  return Math.round(((t - startMs) / (endMs - startMs)) * cols);
}

/**
 * A bar as spans: each segment covers the columns between its rounded ends
 * (so widths are proportional to durations), blanks where no phase is known.
 * `tipAt`: a ready pod's ready time; its ready glyph shows even when it was
 * the last one ready (its ready segment then has no width).
 */
export function barSpans(
  segments: readonly PhaseSegment[],
  startMs: number,
  endMs: number,
  cols: number,
  glyphs: GlyphSet,
  tipAt: number | null = null,
): Span[] {
  const runs: { phase: StartupPhase | null; from: number; to: number }[] = [];
  let at = 0;
  for (const seg of segments) {
    const from = Math.max(at, axisColumn(seg.fromMs, startMs, endMs, cols));
    const to = Math.min(cols, axisColumn(seg.toMs, startMs, endMs, cols));
    if (to <= from) continue;
    if (from > at) runs.push({ phase: null, from: at, to: from });
    const last = runs[runs.length - 1];
    if (last && last.phase === seg.phase && last.to === from) last.to = to;
    else runs.push({ phase: seg.phase, from, to });
    at = to;
  }
  if (at < cols) runs.push({ phase: null, from: at, to: cols });
  if (tipAt !== null && !runs.some((r) => r.phase === 'ready')) {
    const c = Math.max(0, Math.min(cols - 1, axisColumn(tipAt, startMs, endMs, cols) - 1));
    const i = runs.findIndex((r) => r.from <= c && c < r.to);
    const r = runs[i];
    const split = [
      { phase: r.phase, from: r.from, to: c },
      { phase: 'ready' as const, from: c, to: c + 1 },
      { phase: r.phase, from: c + 1, to: r.to },
    ].filter((x) => x.to > x.from);
    runs.splice(i, 1, ...split);
  }
  return runs.map((r) =>
    r.phase
      ? { text: glyphs.phase[r.phase].repeat(r.to - r.from), phase: r.phase }
      : { text: ' '.repeat(r.to - r.from) },
  );
}

/** `text` in exactly `width` columns: padded, or cut in the middle (a pod's distinguishing suffix survives). */
function cut(text: string, width: number, glyphs: GlyphSet): string {
  return fitMiddle(text, width, 'left', glyphs.ellipsis);
}

function makeLine(spans: Span[], tone: Tone = 'normal', pods?: string[]): WaterfallLine {
  const merged: Span[] = [];
  let text = '';
  for (const s of spans) {
    if (!s.text) continue;
    text += s.text;
    const last = merged[merged.length - 1];
    if (last && last.phase === s.phase && last.mark === s.mark && last.tone === s.tone) last.text += s.text;
    else merged.push({ text: s.text, phase: s.phase, mark: s.mark, tone: s.tone });
  }
  const out: WaterfallLine = { text, tone, spans: merged };
  if (pods) out.pods = pods;
  return out;
}

/**
 * The numbers beside a bar, all durations (the axis gives the offsets):
 * time waiting to be scheduled, pulling, starting, and created → ready
 * (`-` while not ready, or a phase not reached / not known).
 */
export const NUMBER_HEADERS = ['wait', 'pull', 'start', 'total'] as const;

function durationNumbers(segments: readonly PhaseSegment[], total: number | null, pullMs: number | null): string {
  const d = phaseDurations(segments);
  const has = (phase: PhaseSegment['phase']) => segments.some((x) => x.phase === phase);
  return numbers([
    // Scheduled the moment it was created: no waiting segment, but a known wait of 0.
    segments.length ? formatDuration(d.waiting) : '-',
    // The kubelet's own measure: a pod whose status times precede its creation (skewed clocks) keeps it.
    pullMs !== null ? formatDuration(pullMs) : has('pulling') ? formatDuration(d.pulling) : '-',
    has('starting') ? formatDuration(d.starting) : '-',
    total !== null ? formatDuration(Math.max(0, total)) : '-',
  ]);
}

function numbers(cells: readonly string[]): string {
  return cells.map((c) => c.padStart(NUMBER_WIDTH).slice(-NUMBER_WIDTH)).join(' ');
}

/** An axis label: `0s`, `45s`, `2m`, `1m30s`, `1h`. */
export function axisLabel(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m >= 60 ? `${Math.floor(m / 60)}h${m % 60}m` : s ? `${m}m${s}s` : `${m}m`;
}

const TICK_STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/** Tick times (seconds since the axis start) at least ~10 columns apart. */
export function axisTicks(spanMs: number, cols: number): number[] {
  const minGap = 10;
  const step = TICK_STEPS_S.find((s) => (s * 1000 * cols) / spanMs >= minGap) ?? TICK_STEPS_S[TICK_STEPS_S.length - 1];
  const out: number[] = [];
  for (let s = 0; s * 1000 <= spanMs; s += step) out.push(s);
  return out;
}

interface Axis {
  startMs: number;
  endMs: number;
  allScheduledMs: number | null;
  allReadyMs: number | null;
}

/** The label row (tick labels, left-aligned at their tick, never overlapping) of the bar column. */
function labelRow(axis: Axis, cols: number): string {
  const row = new Array<string>(cols).fill(' ');
  let free = 0;
  for (const s of axisTicks(axis.endMs - axis.startMs, cols)) {
    const c = axisColumn(axis.startMs + s * 1000, axis.startMs, axis.endMs, cols);
    const label = axisLabel(s);
    if (c < free || c + label.length > cols) continue;
    for (let i = 0; i < label.length; i++) row[c + i] = label[i];
    free = c + label.length + 1;
  }
  return row.join('');
}

/** The ruler row: ticks, and the gang's marks over them. */
function rulerSpans(axis: Axis, cols: number, glyphs: GlyphSet): Span[] {
  const row = new Array<string>(cols).fill(glyphs.rule);
  for (const s of axisTicks(axis.endMs - axis.startMs, cols)) {
    const c = axisColumn(axis.startMs + s * 1000, axis.startMs, axis.endMs, cols);
    if (c < cols) row[c] = glyphs.tick;
  }
  const marks = new Set<number>();
  for (const [at, mark] of [
    [axis.allScheduledMs, MARK_ALL_SCHEDULED],
    [axis.allReadyMs, MARK_ALL_READY],
  ] as const) {
    if (at === null) continue;
    const c = Math.min(cols - 1, Math.max(0, axisColumn(at, axis.startMs, axis.endMs, cols)));
    row[c] = marks.has(c) ? '*' : mark;
    marks.add(c);
  }
  return row.map((ch, i) => (marks.has(i) ? { text: ch, mark: true } : { text: ch, tone: 'dim' as Tone }));
}

/** Legend items packed into lines of at most `width` columns. */
function legendLines(axis: Axis, glyphs: GlyphSet, width: number): WaterfallLine[] {
  const items: Span[][] = STARTUP_PHASES.map((p) => [
    { text: glyphs.phase[p].repeat(2), phase: p },
    { text: ` ${PHASE_LABEL[p]}` },
  ]);
  const since = (at: number | null) => (at === null ? 'not yet' : `+${formatDuration(at - axis.startMs)}`);
  items.push([{ text: MARK_ALL_SCHEDULED, mark: true }, { text: ` all scheduled ${since(axis.allScheduledMs)}` }]);
  items.push([{ text: MARK_ALL_READY, mark: true }, { text: ` all ready ${since(axis.allReadyMs)}` }]);
  items.push([{ text: 'numbers: time waiting, pulling, starting; total to ready' }]);
  const out: WaterfallLine[] = [];
  let cur: Span[] = [];
  let used = 0;
  for (const item of items) {
    const w = item.reduce((a, s) => a + displayWidth(s.text), 0);
    if (cur.length && used + 2 + w > width) {
      out.push(makeLine(cur, 'dim'));
      cur = [];
      used = 0;
    }
    if (cur.length) cur.push({ text: '  ' });
    cur.push(...item);
    used += (used ? 2 : 0) + w;
  }
  if (cur.length) out.push(makeLine(cur, 'dim'));
  return out;
}

/** Pods by role, in the order the timeline lists roles (pods of no listed role last). */
function podsByRole(t: StartupTimeline): [string, PodWaterfall[]][] {
  const by = new Map<string, PodWaterfall[]>(t.roles.map((r) => [r.role, []]));
  for (const p of t.pods) {
    let list = by.get(p.role);
    if (!list) by.set(p.role, (list = []));
    list.push(p);
  }
  return [...by.entries()].filter(([, pods]) => pods.length > 0);
}

function maxOf(values: readonly (number | null)[]): number | null {
  let out: number | null = null;
  for (const v of values) if (v !== null && (out === null || v > out)) out = v;
  return out;
}

/**
 * The waterfall's lines: legend, summary bands (when the pods outnumber
 * `rows`), axis, one band per role, then every pod, slowest first (the
 * timeline's order), each with its wait / pull / start / total durations.
 */
export function waterfallLines(t: StartupTimeline, nowMs: number, opts: WaterfallOptions): WaterfallLine[] {
  const glyphs = opts.glyphs ?? UNICODE_GLYPHS;
  const range = timelineAxis(t, nowMs);
  if (!range || !t.pods.length) return [{ text: 'no pods yet: nothing to draw', tone: 'dim' }];
  const axis: Axis = {
    ...range,
    allScheduledMs: t.milestones.find((m) => m.label === 'all scheduled')?.atMs ?? null,
    allReadyMs: t.milestones.find((m) => m.label === 'all ready')?.atMs ?? null,
  };
  const roleLabel = (role: string, n: number) => `${glyphs.bullet} ${sanitise(role)} (${n})`;
  const byRole = podsByRole(t);
  const longest = Math.max(
    ...t.pods.map((p) => displayWidth(sanitise(p.name))),
    ...byRole.map(([role, pods]) => displayWidth(roleLabel(role, pods.length))),
  );
  const { nameWidth, barWidth } = waterfallLayout(opts.width, longest);
  const bar = (segments: readonly PhaseSegment[], tipAt: number | null = null) =>
    barSpans(segments, axis.startMs, axis.endMs, barWidth, glyphs, tipAt);
  const row = (name: string, bars: Span[], nums: string, tone: Tone, nameTone?: Tone, pods?: string[]) =>
    makeLine(
      [{ text: cut(name, nameWidth, glyphs), tone: nameTone }, { text: ' ' }, ...bars, { text: ` ${nums}` }],
      tone,
      pods,
    );
  const out: WaterfallLine[] = legendLines(axis, glyphs, opts.width);
  const segmentsOf = new Map(t.pods.map((p) => [p, podSegments(p, axis.endMs)]));

  // Summary bands: each phase's p50 / p90 / max laid end to end from the axis start.
  if (t.pods.length > (opts.rows ?? Infinity)) {
    out.push({ text: '', tone: 'normal' });
    out.push(
      makeLine(
        [
          {
            text: `${cut('per role', nameWidth, glyphs)} ${' '.repeat(barWidth)} ${numbers([...NUMBER_HEADERS])}`,
          },
        ],
        'group',
      ),
    );
    for (const [role, pods] of byRole) {
      const durations = pods.map((p) => phaseDurations(segmentsOf.get(p)!));
      for (const [label, q] of [
        ['p50', 0.5],
        ['p90', 0.9],
        ['max', 1],
      ] as const) {
        const d = {
          waiting: quantile(
            durations.map((x) => x.waiting),
            q,
          ),
          pulling: quantile(
            durations.map((x) => x.pulling),
            q,
          ),
          starting: quantile(
            durations.map((x) => x.starting),
            q,
          ),
        };
        const segments: PhaseSegment[] = [];
        let at = axis.startMs;
        for (const phase of ['waiting', 'pulling', 'starting'] as const) {
          segments.push({ phase, fromMs: at, toMs: at + d[phase] });
          at += d[phase];
        }
        const total = d.waiting + d.pulling + d.starting;
        out.push(
          row(
            `${sanitise(role)} ${label}`,
            bar(segments),
            numbers([d.waiting, d.pulling, d.starting, total].map((v) => formatDuration(v))),
            'normal',
            'group',
          ),
        );
      }
    }
  }

  // The axis: labels, then the ruler with the marks.
  out.push({ text: '', tone: 'normal' });
  out.push(
    makeLine(
      [
        { text: cut('pods (slowest first)', nameWidth, glyphs) },
        { text: ' ' },
        { text: labelRow(axis, barWidth) },
        { text: ` ${numbers([...NUMBER_HEADERS])}` },
      ],
      'group',
    ),
  );
  out.push(makeLine([{ text: ' '.repeat(nameWidth + 1) }, ...rulerSpans(axis, barWidth, glyphs)], 'dim'));

  // A band per role: its critical path.
  for (const [role, pods] of byRole) {
    const allDone = pods.every((p) => p.done);
    const allScheduled = pods.every((p) => p.node !== null);
    const lastReady = allDone ? maxOf(pods.map((p) => p.readyMs ?? p.startedMs)) : null;
    const segments = groupSegments(pods, axis.startMs, axis.endMs);
    out.push(
      row(
        roleLabel(role, pods.length),
        bar(segments, lastReady),
        // The role's critical path: its last pod scheduled, its longest pull, its last pod ready.
        durationNumbers(
          segments,
          lastReady === null ? null : lastReady - axis.startMs,
          maxOf(pods.map((p) => pullDurationMs(p, axis.endMs))),
        ),
        allDone ? 'ok' : allScheduled ? 'normal' : 'warn',
        'group',
      ),
    );
  }

  // Every pod, slowest first.
  for (const p of t.pods) {
    const readyAt = p.done ? (p.readyMs ?? p.startedMs) : null;
    out.push(
      row(
        sanitise(p.name),
        bar(segmentsOf.get(p)!, readyAt),
        durationNumbers(
          segmentsOf.get(p)!,
          readyAt !== null && p.createdMs !== null ? readyAt - p.createdMs : null,
          pullDurationMs(p, axis.endMs),
        ),
        p.done ? 'normal' : 'warn',
        undefined,
        [p.name],
      ),
    );
    if (p.waiting) out.push({ text: `  waiting: ${sanitise(p.waiting)}`, tone: 'warn' });
  }
  return out;
}
