// The Prometheus text exposition format (version 0.0.4), as exporters such as
// dcgm-exporter write it: `# HELP` / `# TYPE` lines, then one sample a line,
// `name{label="value",...} value [timestamp]`. Only what a scrape needs: no
// OpenMetrics extensions (exemplars, `# EOF`, `_created`). A line that does
// not parse is reported with its number and skipped; the rest is kept.
// The input is bounded: an exporter gone wrong must not make wlx hold
// megabytes of text per scrape.

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  name: string;
  labels: Readonly<Record<string, string>>;
  /** NaN, +Inf and -Inf are kept as such. */
  value: number;
  /** Milliseconds since the epoch when the exporter gave one, else null. */
  timestampMs: number | null;
}

export interface MetricFamily {
  name: string;
  type: MetricType;
  help: string | null;
}

/** A line that was skipped, and why (the text is cluster data: sanitise before display). */
export interface ExpositionProblem {
  line: number;
  message: string;
  /** The line's first 80 characters. */
  text: string;
}

export interface Exposition {
  samples: Sample[];
  /** By family name, from the `# TYPE` / `# HELP` lines. */
  families: Map<string, MetricFamily>;
  /** The first `maxProblems` lines skipped. */
  problems: ExpositionProblem[];
  /** Lines skipped in all (problems lists only the first few). */
  skippedLines: number;
  /** The input was over `maxBytes` (or `maxSamples`): only its beginning was read. */
  truncated: boolean;
}

export interface ExpositionLimits {
  /** Characters read; the rest is ignored and `truncated` set (default 8 Mi). */
  maxChars: number;
  /** Samples kept (default 100,000). */
  maxSamples: number;
  /** Problems listed (default 20). */
  maxProblems: number;
  /** Keeps only samples of these metric names (the rest is not even label-parsed). */
  names?: ReadonlySet<string>;
}

export const DEFAULT_EXPOSITION_LIMITS: ExpositionLimits = {
  maxChars: 8 * 1024 * 1024,
  maxSamples: 100_000,
  maxProblems: 20,
};

const TYPES: ReadonlySet<string> = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

class LineError extends Error {}

/** A sample value as Prometheus writes it (a Go float: `1e3`, `NaN`, `+Inf`, `-Inf`); null when it is not one. */
export function parseSampleValue(text: string): number | null {
  switch (text) {
    case 'NaN':
      return NaN;
    case '+Inf':
    case 'Inf':
      return Infinity;
    case '-Inf':
      return -Infinity;
  }
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : null;
}

function parseValue(text: string): number {
  const v = parseSampleValue(text);
  if (v === null) throw new LineError(`"${text}" is not a number`);
  return v;
}

/** `\\`, `\"` and `\n` in a label value; a backslash before anything else stays as it is. */
function readLabels(line: string, start: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = Object.create(null) as Record<string, string>;
  let i = start + 1; // after '{'
  const skipSpace = () => {
    while (line[i] === ' ' || line[i] === '\t') i++;
  };
  for (;;) {
    skipSpace();
    if (line[i] === '}') return { labels, end: i + 1 };
    const nameStart = i;
    while (i < line.length && /[a-zA-Z0-9_]/.test(line[i])) i++;
    const name = line.slice(nameStart, i);
    if (!LABEL_NAME.test(name)) throw new LineError(`bad label name at column ${nameStart + 1}`);
    skipSpace();
    if (line[i] !== '=') throw new LineError(`expected = after label ${name}`);
    i++;
    skipSpace();
    if (line[i] !== '"') throw new LineError(`label ${name}: value is not quoted`);
    i++;
    let value = '';
    for (;;) {
      if (i >= line.length) throw new LineError(`label ${name}: unterminated value`);
      const ch = line[i];
      if (ch === '"') break;
      if (ch === '\\' && i + 1 < line.length) {
        const next = line[i + 1];
        value += next === 'n' ? '\n' : next === '"' || next === '\\' ? next : `\\${next}`;
        i += 2;
        continue;
      }
      value += ch;
      i++;
    }
    i++; // closing quote
    if (name in labels) throw new LineError(`label ${name} given twice`);
    labels[name] = value;
    skipSpace();
    if (line[i] === ',') {
      i++;
      continue;
    }
    if (line[i] === '}') return { labels, end: i + 1 };
    throw new LineError(`expected , or } after label ${name}`);
  }
}

function parseSample(line: string, names: ReadonlySet<string> | undefined): Sample | null {
  let i = 0;
  while (i < line.length && /[a-zA-Z0-9_:]/.test(line[i])) i++;
  const name = line.slice(0, i);
  if (!METRIC_NAME.test(name)) throw new LineError('not a sample line (no metric name)');
  if (names && !names.has(name)) return null;
  let labels: Record<string, string> = {};
  while (line[i] === ' ' || line[i] === '\t') i++;
  if (line[i] === '{') {
    const read = readLabels(line, i);
    labels = { ...read.labels };
    i = read.end;
  }
  const rest = line
    .slice(i)
    .trim()
    .split(/[ \t]+/);
  if (rest.length === 0 || rest[0] === '') throw new LineError(`${name}: no value`);
  if (rest.length > 2) throw new LineError(`${name}: text after the timestamp`);
  const value = parseValue(rest[0]);
  let timestampMs: number | null = null;
  if (rest.length === 2) {
    if (!/^-?\d+$/.test(rest[1])) throw new LineError(`${name}: timestamp "${rest[1]}" is not an integer`);
    timestampMs = Number(rest[1]);
  }
  return { name, labels, value, timestampMs };
}

/** `# HELP` text: `\\` and `\n` are the only escapes. */
function unescapeHelp(text: string): string {
  return text.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}

/** Parses exposition text; never throws. */
export function parseExposition(text: string, limits: Partial<ExpositionLimits> = {}): Exposition {
  const lim = { ...DEFAULT_EXPOSITION_LIMITS, ...limits };
  const out: Exposition = { samples: [], families: new Map(), problems: [], skippedLines: 0, truncated: false };
  let body = text;
  if (body.length > lim.maxChars) {
    out.truncated = true;
    // Only whole lines: the cut one would read as junk.
    const cut = body.lastIndexOf('\n', lim.maxChars);
    body = cut >= 0 ? body.slice(0, cut) : '';
  }
  const skip = (line: number, raw: string, message: string) => {
    out.skippedLines++;
    if (out.problems.length < lim.maxProblems) out.problems.push({ line, message, text: raw.slice(0, 80) });
  };
  const family = (name: string): MetricFamily => {
    let f = out.families.get(name);
    if (!f) out.families.set(name, (f = { name, type: 'untyped', help: null }));
    return f;
  };
  let lineNo = 0;
  let from = 0;
  while (from <= body.length) {
    let nl = body.indexOf('\n', from);
    if (nl < 0) nl = body.length;
    const raw = body.slice(from, nl);
    from = nl + 1;
    lineNo++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      const m = /^#\s*(HELP|TYPE)\s+(\S+)(?:\s+(.*))?$/.exec(trimmed);
      if (!m) continue; // an ordinary comment
      if (!METRIC_NAME.test(m[2])) {
        skip(lineNo, line, `# ${m[1]}: "${m[2]}" is not a metric name`);
        continue;
      }
      if (m[1] === 'HELP') family(m[2]).help = unescapeHelp(m[3] ?? '');
      else if (TYPES.has(m[3] ?? '')) family(m[2]).type = m[3] as MetricType;
      else skip(lineNo, line, `# TYPE ${m[2]}: unknown type "${m[3] ?? ''}"`);
      continue;
    }
    if (out.samples.length >= lim.maxSamples) {
      out.truncated = true;
      break;
    }
    try {
      const sample = parseSample(trimmed, lim.names);
      if (sample) out.samples.push(sample);
    } catch (err) {
      if (!(err instanceof LineError)) throw err;
      skip(lineNo, line, err.message);
    }
  }
  return out;
}
