// The incident views: why, timeline, describe, YAML, events (text refreshed
// every few seconds while open) and logs (streamed). A boxed, scrollable text
// pane; `/` (the App's filter line) searches and highlights; keys the pane
// does not use fall through to the App (Esc, q, ?, :). Every fetch and
// stream is aborted when the view closes.
import type React from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import type { KubeObject, ModelSnapshot } from '../../model/types.js';
import type { ModelSource } from '../../model/source.js';
import { sanitise } from '../../text/sanitise.js';
import { displayWidth, fit } from '../render/table.js';
import { timelineLines, wrapTextLine, type TextLine } from '../render/incident.js';
import { PHASE_COLOUR, type Span } from '../render/waterfall.js';
import type { StartupTimeline } from '../../model/timeline.js';
import {
  freshPods,
  loadIncidentLines,
  loadStartupTimeline,
  podContainers,
  targetPods,
  type IncidentKind,
  type IncidentTarget,
} from '../state/incident.js';
import { toneStyle, accent, type TextStyle } from './theme.js';
import { useSkin } from '../hooks/useSkin.js';
import type { Skin } from '../skin.js';
import { DEFAULT_LOG_LINES, Ring } from '../state/incident-logs.js';

import type { WorkerTry } from '../../model/fleet/types.js';

export type PaneKeyHandler = (name: string, input: string) => boolean;

export interface IncidentViewProps {
  kind: IncidentKind;
  target: IncidentTarget;
  title: string;
  source: ModelSource;
  snapshot: ModelSnapshot;
  width: number;
  /** Text rows inside the box. */
  height: number;
  search: string;
  noColor: boolean;
  /** The App routes keys here first; return true when handled. */
  setKeyHandler: (handler: PaneKeyHandler | null) => void;
  /** Why view: jump to these pods (names) in the workload. */
  onJumpToPods?: (names: string[]) => void;
  refreshMs?: number;
  /** Log lines kept (the newest); default DEFAULT_LOG_LINES. */
  maxLogLines?: number;
  /** A fleet's MultiKueue job waiting on its manager: the workers it was tried on (the why view says what each said). */
  multiKueueTries?: readonly WorkerTry[];
  /** The clock the pane's time is read from (ages, "refreshed at"); default Date.now. */
  clock?: () => number;
}

function searchTest(search: string): ((s: string) => boolean) | null {
  if (!search) return null;
  try {
    const re = new RegExp(search, 'i');
    return (s) => re.test(s);
  } catch {
    const lower = search.toLowerCase();
    return (s) => s.toLowerCase().includes(lower);
  }
}

/** Splits a log line into chunks of at most `width` display columns (logs are not prose: no word breaks, no indent). */
function wrapLogLine(text: string, width: number): string[] {
  if (width <= 0 || displayWidth(text) <= width) return [text];
  const out: string[] = [];
  let cur = '';
  let w = 0;
  for (const ch of text) {
    const cw = displayWidth(ch);
    if (w + cw > width) {
      out.push(cur);
      cur = '';
      w = 0;
    }
    cur += ch;
    w += cw;
  }
  if (cur) out.push(cur);
  return out;
}

/** A waterfall span's style: its phase's colour (NO_COLOR: the glyphs alone tell), marks bold. */
function spanStyle(span: Span, lineTone: TextLine['tone'], noColor: boolean, skin: Skin): TextStyle {
  if (span.phase) return noColor ? {} : { color: PHASE_COLOUR[span.phase] };
  if (span.mark) return { bold: true };
  return toneStyle(span.tone ?? lineTone, noColor, skin);
}

/** Spans cut to `width` columns and padded to it. */
function fitSpans(spans: readonly Span[], width: number): Span[] {
  const out: Span[] = [];
  let used = 0;
  for (const s of spans) {
    if (used >= width) break;
    const w = displayWidth(s.text);
    const text = used + w > width ? fit(s.text, width - used) : s.text;
    out.push({ ...s, text });
    used += Math.min(w, width - used);
  }
  if (used < width) out.push({ text: ' '.repeat(width - used) });
  return out;
}

interface LogState {
  container: string | null;
  containers: string[];
  picking: boolean;
  previous: boolean;
  timestamps: boolean;
}

export function IncidentView(props: IncidentViewProps): React.JSX.Element {
  const { kind, target, source, width, height, noColor } = props;
  const skin = useSkin();
  const maxLogLines = props.maxLogLines ?? DEFAULT_LOG_LINES;
  const inner = Math.max(10, width - 2);
  const [lines, setLines] = useState<TextLine[]>([]);
  // The startup view keeps its timeline: the waterfall is laid out for the pane's size at render.
  const [timeline, setTimeline] = useState<{ timeline: StartupTimeline; nowMs: number } | null>(null);
  const [status, setStatus] = useState<string>('loading…');
  const [top, setTop] = useState(0);
  const [follow, setFollow] = useState(kind === 'logs');
  const [wrap, setWrap] = useState(kind !== 'yaml');
  const [pickIndex, setPickIndex] = useState(0);
  const [log, setLog] = useState<LogState>({
    container: null,
    containers: [],
    picking: false,
    previous: false,
    timestamps: false,
  });
  const snapshotRef = useRef(props.snapshot);
  snapshotRef.current = props.snapshot;
  const triesRef = useRef(props.multiKueueTries);
  triesRef.current = props.multiKueueTries;
  const crashLogTails = useRef(new Map<string, string[]>()).current;
  const access = source.access;
  const clockRef = useRef(props.clock ?? Date.now);
  clockRef.current = props.clock ?? Date.now;

  // Text views: load now and refresh while open (YAML once: it is a fresh read on demand).
  useEffect(() => {
    if (kind === 'logs') return;
    if (!access) {
      setStatus('not available: this model source has no cluster access (offline)');
      return;
    }
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const load = async () => {
      try {
        const ctx = {
          access,
          snapshot: snapshotRef.current,
          target,
          nowMs: clockRef.current(),
          signal: abort.signal,
          multiKueueTries: triesRef.current,
          crashLogTails,
        };
        if (kind === 'timeline') {
          const got = await loadStartupTimeline(ctx);
          if (abort.signal.aborted) return;
          if (got) setTimeline({ timeline: got, nowMs: ctx.nowMs });
          else setLines([{ text: 'the workload no longer exists', tone: 'error' }]);
        } else {
          const got = await loadIncidentLines(kind, ctx);
          if (abort.signal.aborted) return;
          setLines(got);
        }
        setStatus(
          kind === 'yaml'
            ? 'fetched from the API server'
            : `live, refreshed ${new Date(ctx.nowMs).toISOString().slice(11, 19)}`,
        );
      } catch (err) {
        if (!abort.signal.aborted) setStatus(`error: ${sanitise((err as Error).message)}`);
      }
      if (!abort.signal.aborted && kind !== 'yaml') timer = setTimeout(() => void load(), props.refreshMs ?? 3000);
    };
    void load();
    return () => {
      abort.abort();
      if (timer) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, access, JSON.stringify(target)]);

  // Logs, step 1: which pods and containers.
  const [logPods, setLogPods] = useState<KubeObject[] | null>(null);
  useEffect(() => {
    if (kind !== 'logs' || !access) {
      if (kind === 'logs') setStatus('not available: this model source has no cluster access (offline)');
      return;
    }
    let cancelled = false;
    const summaries = targetPods(snapshotRef.current, target).slice(0, 20);
    freshPods(access, summaries)
      .then((pods) => {
        if (cancelled) return;
        setLogPods(pods);
        if (target.kind === 'pod' && pods[0]) {
          const containers = podContainers(pods[0]);
          setLog((l) => ({
            ...l,
            containers,
            container: containers.length === 1 ? containers[0] : null,
            picking: containers.length > 1,
          }));
        }
        if (!pods.length) setStatus('no pods to show logs of');
      })
      .catch((err: Error) => !cancelled && setStatus(`error: ${sanitise(err.message)}`));
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, access, JSON.stringify(target)]);

  // Logs, step 2: stream (one pod's container, or every pod prefixed).
  const buffer = useRef(new Ring<TextLine>(maxLogLines));
  useEffect(() => {
    if (kind !== 'logs' || !access || !logPods || !logPods.length || log.picking) return;
    if (target.kind === 'pod' && log.container === null) return;
    const abort = new AbortController();
    buffer.current = new Ring<TextLine>(maxLogLines);
    setLines([]);
    let flushTimer: NodeJS.Timeout | undefined;
    const push = (text: string) => {
      buffer.current.push({
        text: sanitise(text),
        tone: /\b(error|fatal|killed|traceback|exception)\b/i.test(text) ? 'warn' : 'normal',
      });
      if (!flushTimer) {
        flushTimer = setTimeout(() => {
          flushTimer = undefined;
          if (!abort.signal.aborted) setLines(buffer.current.toArray());
        }, 50);
      }
    };
    const single = target.kind === 'pod';
    const streams = logPods.map((p) => {
      const container = single ? log.container! : podContainers(p)[0];
      const prefix = single ? '' : `[${p.metadata.name}] `;
      return access
        .streamLogs(
          p.metadata.namespace ?? '',
          p.metadata.name,
          {
            container,
            follow: !log.previous,
            previous: log.previous,
            timestamps: log.timestamps,
            tailLines: single ? 500 : 100,
            signal: abort.signal,
          },
          (l) => push(prefix + l),
        )
        .catch((err: Error) => push(`${prefix}(${err.message})`));
    });
    setStatus(
      `${single ? `container ${sanitise(log.container)}` : `${logPods.length} pods`}${log.previous ? ' · previous' : ' · following'}${log.timestamps ? ' · timestamps' : ''}`,
    );
    void Promise.all(streams).then(() => {
      if (!abort.signal.aborted) setStatus((s) => `${s.replace(' · following', '')} · stream ended`);
    });
    return () => {
      abort.abort();
      if (flushTimer) clearTimeout(flushTimer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, access, logPods, log.container, log.previous, log.timestamps, log.picking]);

  // Display lines (wrapped or not) and search.
  const test = useMemo(() => searchTest(props.search), [props.search]);
  const viewLines = useMemo(
    () =>
      kind === 'timeline' && timeline
        ? timelineLines(timeline.timeline, timeline.nowMs, { width: inner, rows: height })
        : lines,
    [kind, timeline, lines, inner, height],
  );
  const shown: Array<TextLine & { match: boolean }> = useMemo(() => {
    const src: TextLine[] = log.picking
      ? log.containers.map((c, i) => ({
          text: `${i === pickIndex ? '▶ ' : '  '}${sanitise(c)}`,
          tone: i === pickIndex ? 'group' : 'normal',
        }))
      : viewLines;
    // `:events` (a namespace's events) is a list: `/` keeps the matching lines, as a table's filter does.
    const filtering = target.kind === 'namespace' && test !== null;
    const out: Array<TextLine & { match: boolean }> = [];
    for (const l of src) {
      if (filtering && l.tone !== 'group' && !test(l.text)) continue;
      const match = test && !filtering ? test(l.text) : false;
      // Bars are laid out for the pane: never wrapped.
      if (wrap && !l.spans)
        for (const chunk of (kind === 'logs' ? wrapLogLine : wrapTextLine)(l.text, inner))
          out.push({ ...l, text: chunk, match });
      else out.push({ ...l, match });
    }
    return out;
  }, [kind, target.kind, viewLines, wrap, inner, test, log.picking, log.containers, pickIndex]);

  const maxTop = Math.max(0, shown.length - height);
  const effectiveTop = follow ? maxTop : Math.min(top, maxTop);

  // A new search jumps to its first match.
  useEffect(() => {
    if (!test) return;
    const i = shown.findIndex((l) => l.match);
    if (i >= 0) {
      setFollow(false);
      setTop(Math.max(0, Math.min(i, maxTop)));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.search]);

  const stateRef = useRef({ effectiveTop, maxTop, shown, log, pickIndex });
  stateRef.current = { effectiveTop, maxTop, shown, log, pickIndex };

  const handler: PaneKeyHandler = (name) => {
    const s = stateRef.current;
    const scrollTo = (t: number) => {
      const next = Math.max(0, Math.min(s.maxTop, t));
      setTop(next);
      // Auto-scroll pauses when the user scrolls up, resumes at the bottom.
      setFollow(kind === 'logs' && next >= s.maxTop);
    };
    if (s.log.picking) {
      if (name === 'up' || name === 'k') return (setPickIndex((i) => Math.max(0, i - 1)), true);
      if (name === 'down' || name === 'j')
        return (setPickIndex((i) => Math.min(s.log.containers.length - 1, i + 1)), true);
      if (name === 'enter')
        return (setLog((l) => ({ ...l, container: l.containers[s.pickIndex] ?? null, picking: false })), true);
      return false;
    }
    switch (name) {
      case 'up':
      case 'k':
        scrollTo(s.effectiveTop - 1);
        return true;
      case 'down':
      case 'j':
        scrollTo(s.effectiveTop + 1);
        return true;
      case 'pgup':
      case 'ctrl-b':
        scrollTo(s.effectiveTop - height);
        return true;
      case 'pgdn':
      case 'ctrl-f':
        scrollTo(s.effectiveTop + height);
        return true;
      case 'g':
      case 'home':
        scrollTo(0);
        return true;
      case 'G':
      case 'end':
        setTop(s.maxTop);
        setFollow(kind === 'logs');
        return true;
      case 'n': {
        // Next search match below the top line (wraps around).
        const from = s.shown.findIndex((l, i) => i > s.effectiveTop && l.match);
        const i = from >= 0 ? from : s.shown.findIndex((l) => l.match);
        if (i >= 0) scrollTo(i);
        return i >= 0;
      }
      case 'w':
        if (kind === 'why') return false;
        setWrap((x) => !x);
        return true;
    }
    if (kind === 'logs') {
      if (name === 'p') return (setLog((l) => ({ ...l, previous: !l.previous })), setFollow(true), true);
      if (name === 't') return (setLog((l) => ({ ...l, timestamps: !l.timestamps })), setFollow(true), true);
      if (name === 'c' && s.log.containers.length > 1) return (setLog((l) => ({ ...l, picking: true })), true);
    }
    if (kind === 'why' && /^[1-9]$/.test(name) && props.onJumpToPods) {
      const numbered = lines.filter((l) => l.pods && /^\d\)/.test(l.text));
      const pick = numbered[Number(name) - 1];
      if (pick?.pods?.length) props.onJumpToPods(pick.pods);
      return true;
    }
    return false;
  };
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const { setKeyHandler } = props;
  useEffect(() => {
    setKeyHandler((n, i) => handlerRef.current(n, i));
    return () => setKeyHandler(null);
  }, [setKeyHandler]);

  const border = accent(noColor, 'blue', skin.border);
  const title = ` ${props.title} `;
  const titleText = displayWidth(title) > inner - 2 ? fit(title, inner - 2) : title;
  const left = Math.max(0, Math.floor((inner - displayWidth(titleText)) / 2));
  const rows: React.JSX.Element[] = [];
  for (let i = effectiveTop; i < Math.min(shown.length, effectiveTop + height); i++) {
    const l = shown[i];
    rows.push(
      <Text key={i} wrap="truncate-end">
        <Text {...border}>│</Text>
        {l.spans ? (
          fitSpans(l.spans, inner).map((span, j) => (
            <Text key={j} {...spanStyle(span, l.tone, noColor, skin)} inverse={l.match}>
              {span.text}
            </Text>
          ))
        ) : (
          <Text {...toneStyle(l.tone, noColor, skin)} inverse={l.match}>
            {fit(l.text, inner)}
          </Text>
        )}
        <Text {...border}>│</Text>
      </Text>,
    );
  }
  while (rows.length < height) {
    rows.push(
      <Text key={`pad${rows.length}`} wrap="truncate-end">
        <Text {...border}>│</Text>
        {' '.repeat(inner)}
        <Text {...border}>│</Text>
      </Text>,
    );
  }
  const keysHint =
    kind === 'logs'
      ? log.picking
        ? 'pick a container: ↑↓ Enter'
        : `p previous · t timestamps · w wrap · / search · G follow${log.containers.length > 1 ? ' · c container' : ''}`
      : kind === 'why'
        ? '1-9 jump to the pods · / search · Esc back'
        : '/ search · n next match · w wrap · Esc back';
  const foot = ` ${status} · ${keysHint} `;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end" {...border}>
        {'┌' + '─'.repeat(left) + titleText + '─'.repeat(Math.max(0, inner - left - displayWidth(titleText))) + '┐'}
      </Text>
      {rows}
      <Text wrap="truncate-end" {...border}>
        {'└' + fit(foot.length < inner ? foot + '─'.repeat(inner - displayWidth(foot)) : foot, inner) + '┘'}
      </Text>
    </Box>
  );
}
