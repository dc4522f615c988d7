// Text lines of the incident views (why, timeline, describe, events, YAML),
// built from model results and raw objects. Every piece of cluster text goes
// through src/text/sanitise.ts here; the components only lay lines out.
import { dump } from 'js-yaml';
import type { KubeObject, NodeSummary, PodSummary, WorkloadTree } from '../../model/types.js';
import type { WhyReport } from '../../model/why.js';
import {
  formatDuration,
  progressBar,
  eventFacts,
  containerStatuses,
  podConditions,
  nodeNameOf,
  type StartupTimeline,
  type ContainerState,
} from '../../model/timeline.js';
import { containerRequest, slicesPhrase } from '../../model/gpu.js';
import { roleName } from '../../model/role-name.js';
import { sanitise, sanitiseMultiline } from '../../text/sanitise.js';
import { displayWidth, type Tone } from './table.js';
import { formatAge, gpuRatio, podGpus, statusTone } from './format.js';
import { waterfallLines, type Span, type WaterfallOptions } from './waterfall.js';

export interface TextLine {
  text: string;
  tone: Tone;
  /** Pods this line points at (why view: digit keys jump to them). */
  pods?: string[];
  /** Styled runs making up `text` (the waterfall's bars): drawn as they are, never wrapped. */
  spans?: Span[];
}

const line = (text: string, tone: Tone = 'normal'): TextLine => ({ text, tone });

function clock(msValue: number | null): string {
  if (msValue === null) return '-';
  return new Date(msValue).toISOString().slice(11, 19);
}

// ---- wrapping ----------------------------------------------------------------

/**
 * Splits a line into rows of at most `width` display columns at word
 * boundaries (a word longer than a row is cut). Continuation rows are indented
 * to the line's own indentation + 2 (at most half the width), so a long
 * scheduler message stays visibly inside its block.
 */
export function wrapTextLine(text: string, width: number): string[] {
  if (width <= 0 || displayWidth(text) <= width) return [text];
  const lead = /^ */.exec(text)![0].length;
  const indent = ' '.repeat(Math.min(lead + 2, Math.floor(width / 2)));
  const out: string[] = [];
  let rest = text;
  let prefix = '';
  let wordStart = lead; // spaces before this index are indentation, not break points
  for (;;) {
    const avail = width - displayWidth(prefix);
    if (displayWidth(rest) <= avail) {
      out.push(prefix + rest);
      return out;
    }
    let cut = 0;
    let used = 0;
    let lastSpace = -1;
    for (const ch of rest) {
      const cw = displayWidth(ch);
      if (used + cw > avail) break;
      if (ch === ' ' && cut > wordStart) lastSpace = cut;
      cut += ch.length;
      used += cw;
    }
    if (cut === 0) cut = rest.codePointAt(0)! > 0xffff ? 2 : 1; // a wide character wider than the row
    let head: string;
    let tail: string;
    if (rest[cut] === ' ' && cut > wordStart) {
      head = rest.slice(0, cut);
      tail = rest.slice(cut);
    } else if (lastSpace > 0) {
      head = rest.slice(0, lastSpace);
      tail = rest.slice(lastSpace + 1);
    } else {
      head = rest.slice(0, cut);
      tail = rest.slice(cut);
    }
    out.push(prefix + head.trimEnd());
    tail = tail.replace(/^ +/, '');
    if (!tail) return out;
    rest = tail;
    prefix = indent;
    wordStart = 0;
  }
}

// ---- why -------------------------------------------------------------------

/** The why-panel: one block per cause, numbered (the number jumps to its pods). */
export function whyLines(report: WhyReport): TextLine[] {
  const out: TextLine[] = [line(sanitise(report.summary), report.causes.length ? 'warn' : 'ok')];
  report.causes.forEach((c, i) => {
    const num = i < 9 ? `${i + 1}` : ' ';
    const pods = c.pods.map((p) => p.name);
    out.push(line(''));
    out.push({
      text: `${num}) ${sanitise(c.title)}${pods.length ? `  [${num} shows the pods]` : ''}`,
      tone: c.severity === 'error' ? 'error' : 'warn',
      pods,
    });
    if (c.message) out.push(line(`   ${sanitise(c.message)}`));
    for (const d of c.details)
      out.push(line(`   ${sanitise(d)}`, /cannot start|no node has/.test(d) ? 'warn' : 'normal'));
    for (const p of c.pods.slice(0, 20)) {
      out.push(line(`   • ${sanitise(p.name)}${p.node ? ` on ${sanitise(p.node)}` : ''}: ${sanitise(p.detail)}`));
      for (const l of p.logTail ?? []) out.push(line(`       │ ${sanitise(l)}`, 'dim'));
    }
    if (c.pods.length > 20) out.push(line(`   … ${c.pods.length - 20} more pods`, 'dim'));
  });
  return out;
}

// ---- timeline --------------------------------------------------------------

/** The startup view: milestones, role progress, gangs, then the waterfall (`waterfall.width` columns; 120 by default). */
export function timelineLines(
  t: StartupTimeline,
  nowMs: number,
  waterfall: WaterfallOptions = { width: 120 },
): TextLine[] {
  const out: TextLine[] = [];
  out.push(line(`startup of ${sanitise(t.workload)}`, 'group'));
  for (const m of t.milestones) {
    const pending = m.atMs === null;
    out.push(
      line(
        `  ${m.label.padEnd(20)} ${pending ? 'not yet'.padEnd(9) : clock(m.atMs).padEnd(9)} ${pending ? '' : `+${formatDuration(m.elapsedMs)}`}`,
        pending ? 'warn' : 'ok',
      ),
    );
  }
  if (t.createdMs !== null && t.milestones.find((m) => m.label === 'all ready')?.atMs === null)
    out.push(line(`  elapsed so far       ${formatDuration(nowMs - t.createdMs)}`, 'dim'));
  out.push(line(''));
  out.push(line('roles                       scheduled             ready', 'group'));
  for (const r of t.roles) {
    const tone: Tone = r.ready >= r.desired && r.desired > 0 ? 'ok' : r.scheduled < r.desired ? 'warn' : 'normal';
    out.push(
      line(
        `  ${sanitise(r.role).padEnd(24).slice(0, 24)} ${progressBar(r.scheduled, r.desired, 10)} ${`${r.scheduled}/${r.desired}`.padEnd(6)} ${progressBar(r.ready, r.desired, 10)} ${r.ready}/${r.desired}`,
        tone,
      ),
    );
  }
  if (t.gangs.length) {
    out.push(line(''));
    out.push(line('gangs', 'group'));
    for (const g of t.gangs) {
      out.push(
        line(
          `  ${sanitise(g.name)} ${sanitise(g.key)}: ${g.scheduled}/${g.members} scheduled, ${g.ready}/${g.members} ready`,
          g.blocked ? 'warn' : g.ready === g.members ? 'ok' : 'normal',
        ),
      );
      if (g.blocked) out.push(line(`    ${sanitise(g.blocked)}`, 'error'));
    }
  }
  out.push(line(''));
  out.push(...waterfallLines(t, nowMs, waterfall));
  return out;
}

// ---- events ----------------------------------------------------------------

export interface EventRow {
  type: string;
  reason: string;
  object: string;
  message: string;
  count: number;
  lastMs: number | null;
  firstMs: number | null;
}

/** Deduplicated (same object, type, reason, message: counts summed), newest first; objects named with their namespace when asked. */
export function dedupeEvents(events: readonly KubeObject[], withNamespace = false): EventRow[] {
  const byKey = new Map<string, EventRow>();
  for (const e of events) {
    const f = eventFacts(e);
    const ns = withNamespace && e.metadata.namespace ? `${e.metadata.namespace}/` : '';
    const object = `${ns}${f.involvedKind.toLowerCase()}/${f.involvedName}`;
    const key = [object, f.type, f.reason, f.message].join('\u0000');
    const row = byKey.get(key);
    if (row) {
      row.count += f.count;
      if ((f.lastMs ?? 0) > (row.lastMs ?? 0)) row.lastMs = f.lastMs;
      if (f.firstMs !== null && (row.firstMs === null || f.firstMs < row.firstMs)) row.firstMs = f.firstMs;
    } else
      byKey.set(key, {
        type: f.type,
        reason: f.reason,
        object,
        message: f.message,
        count: f.count,
        lastMs: f.lastMs,
        firstMs: f.firstMs,
      });
  }
  return [...byKey.values()].sort((a, b) => (b.lastMs ?? 0) - (a.lastMs ?? 0) || (a.object < b.object ? -1 : 1));
}

export function eventLines(rows: readonly EventRow[], nowMs: number, withObject: boolean): TextLine[] {
  if (!rows.length) return [line('no events (the API server keeps them about an hour)', 'dim')];
  const out: TextLine[] = [
    line(
      `${'LAST'.padEnd(6)}${'TYPE'.padEnd(9)}${'REASON'.padEnd(20)}${withObject ? 'OBJECT'.padEnd(36) : ''}MESSAGE`,
      'group',
    ),
  ];
  for (const r of rows) {
    const count = r.count > 1 ? ` (x${r.count} over ${formatAge(r.firstMs, nowMs)})` : '';
    out.push(
      line(
        `${formatAge(r.lastMs, nowMs).padEnd(6)}${sanitise(r.type).padEnd(9)}${sanitise(r.reason).padEnd(20).slice(0, 20)}${withObject ? sanitise(r.object).padEnd(36).slice(0, 36) : ''}${sanitise(r.message)}${count}`,
        r.type === 'Warning' ? 'warn' : 'normal',
      ),
    );
  }
  return out;
}

// ---- YAML ------------------------------------------------------------------

export function yamlLines(object: unknown): TextLine[] {
  let text: string;
  try {
    text = dump(object, { noRefs: true, lineWidth: -1, sortKeys: false });
  } catch (err) {
    text = `# cannot show as YAML: ${(err as Error).message}\n${JSON.stringify(object, null, 2)}`;
  }
  return sanitiseMultiline(text)
    .replace(/\n$/, '')
    .split('\n')
    .map((t) => line(t.replace(/\t/g, '  ')));
}

// ---- describe ----------------------------------------------------------------

function stateText(s: ContainerState | undefined): string {
  if (!s) return '-';
  if (s.running) return `Running (started ${s.running.startedAt ?? '?'})`;
  if (s.waiting) return `Waiting: ${s.waiting.reason ?? ''}${s.waiting.message ? ` (${s.waiting.message})` : ''}`;
  if (s.terminated)
    return `Terminated: ${s.terminated.reason ?? ''} exit ${s.terminated.exitCode ?? '?'} (${s.terminated.startedAt ?? '?'} → ${s.terminated.finishedAt ?? '?'})`;
  return '-';
}

function resourcesText(resources: unknown, gpuResources: readonly string[]): string[] {
  const r = (resources ?? {}) as { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  const fmt = (m: Record<string, unknown> | undefined) =>
    Object.entries(m ?? {})
      .map(([k, v]) => `${sanitise(k)}=${sanitise(v)}`)
      .join(' ') || '-';
  const gpus = gpuResources.map((g) => containerRequest(resources, g)).reduce((a, b) => a + b, 0);
  return [`Requests: ${fmt(r.requests)}`, `Limits:   ${fmt(r.limits)}`, `GPUs:     ${gpus}`];
}

/** Like `kubectl describe pod`: identity, node, conditions, containers (states, resources with GPUs), events. */
export function describePodLines(
  pod: KubeObject,
  summary: PodSummary | null,
  events: readonly EventRow[],
  nowMs: number,
  gpuResources: readonly string[] = ['nvidia.com/gpu', 'amd.com/gpu'],
): TextLine[] {
  const m = pod.metadata;
  const spec = (pod.spec ?? {}) as {
    containers?: Array<{ name: string; image?: string; resources?: unknown }>;
    initContainers?: Array<{ name: string; image?: string; resources?: unknown }>;
    priorityClassName?: string;
  };
  const status = (pod.status ?? {}) as { phase?: string; podIP?: string; qosClass?: string; startTime?: string };
  const out: TextLine[] = [];
  const kv = (k: string, v: unknown, tone: Tone = 'normal') =>
    out.push(line(`${k.padEnd(16)}${sanitise(v ?? '-')}`, tone));
  kv('Name:', m.name);
  kv('Namespace:', m.namespace);
  kv('Node:', nodeNameOf(pod) ?? '<none>');
  kv('Status:', summary?.status ?? status.phase, statusTone(summary?.status ?? status.phase ?? ''));
  if (summary?.reason) kv('Reason:', summary.reason, 'warn');
  if (summary?.message) kv('Message:', summary.message);
  kv('GPUs:', summary ? podGpus(summary, 'names') : '-');
  kv('Created:', m.creationTimestamp);
  kv('Start Time:', status.startTime);
  kv('IP:', status.podIP);
  kv('QoS Class:', status.qosClass);
  if (spec.priorityClassName) kv('Priority Class:', spec.priorityClassName);
  const owner = m.ownerReferences?.find((o) => o.controller) ?? m.ownerReferences?.[0];
  kv('Controlled By:', owner ? `${owner.kind}/${owner.name}` : '<none>');
  for (const [label, list, init] of [
    ['Init Containers:', spec.initContainers ?? [], true],
    ['Containers:', spec.containers ?? [], false],
  ] as const) {
    if (!list.length) continue;
    out.push(line(label, 'group'));
    const statuses = containerStatuses(pod, init);
    for (const c of list) {
      const cs = statuses.find((s) => s.name === c.name);
      out.push(line(`  ${sanitise(c.name)}:`, 'group'));
      out.push(line(`    Image:        ${sanitise(c.image)}`));
      out.push(
        line(
          `    State:        ${sanitise(stateText(cs?.state))}`,
          cs?.state?.waiting || cs?.state?.terminated?.exitCode ? 'warn' : 'normal',
        ),
      );
      if (cs?.lastState && Object.keys(cs.lastState).length)
        out.push(
          line(
            `    Last State:   ${sanitise(stateText(cs.lastState))}`,
            cs.lastState.terminated?.exitCode ? 'warn' : 'normal',
          ),
        );
      out.push(line(`    Ready:        ${cs?.ready ? 'True' : 'False'}`));
      out.push(line(`    Restarts:     ${cs?.restartCount ?? 0}`, (cs?.restartCount ?? 0) > 0 ? 'warn' : 'normal'));
      for (const r of resourcesText(c.resources, gpuResources)) out.push(line(`    ${r}`));
    }
  }
  out.push(line('Conditions:', 'group'));
  for (const c of podConditions(pod)) {
    const bad = c.type !== 'DisruptionTarget' && c.status !== 'True';
    out.push(
      line(
        `  ${sanitise(c.type).padEnd(28)}${sanitise(c.status).padEnd(7)}${c.reason ? sanitise(c.reason) : ''}${c.message ? `: ${sanitise(c.message)}` : ''}`,
        bad ? 'warn' : 'normal',
      ),
    );
  }
  out.push(line('Events:', 'group'));
  out.push(...eventLines(events, nowMs, false).map((l) => ({ ...l, text: `  ${l.text}` })));
  return out;
}

export function describeWorkloadLines(
  w: WorkloadTree,
  object: KubeObject | null,
  events: readonly EventRow[],
  nowMs: number,
): TextLine[] {
  const out: TextLine[] = [];
  const kv = (k: string, v: unknown, tone: Tone = 'normal') =>
    out.push(line(`${k.padEnd(16)}${sanitise(v ?? '-')}`, tone));
  kv('Name:', w.name);
  kv('Namespace:', w.namespace);
  kv('Kind:', `${w.kind} (${w.apiVersion})`);
  kv('Status:', w.status.join(', ') || 'Undefined', w.status.includes('Failed') ? 'error' : 'normal');
  if (w.statusMessage) kv('Message:', w.statusMessage);
  kv('Replicas:', `${w.replicas.ready}/${w.replicas.desired} ready, ${w.replicas.current} current`);
  const slices = w.gpus.slices ? `, slices ${slicesPhrase(w.gpus.slices)} requested` : '';
  kv('GPUs:', `${w.gpus.allocated} allocated, ${w.gpus.requested} requested, ${w.gpus.desired} desired${slices}`);
  kv('Definition:', `${w.definition} (${w.definitionSource})`);
  kv('Created:', w.createdAt);
  const labels = object?.metadata.labels ?? {};
  kv(
    'Labels:',
    Object.entries(labels)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ') || '<none>',
  );
  const conds = ((object?.status as { conditions?: unknown } | undefined)?.conditions ?? []) as Array<{
    type?: string;
    status?: string;
    reason?: string;
    message?: string;
  }>;
  if (Array.isArray(conds) && conds.length) {
    out.push(line('Conditions:', 'group'));
    for (const c of conds)
      out.push(
        line(
          `  ${sanitise(c.type).padEnd(24)}${sanitise(c.status).padEnd(7)}${c.reason ? sanitise(c.reason) : ''}${c.message ? `: ${sanitise(c.message)}` : ''}`,
        ),
      );
  }
  out.push(line('Roles:', 'group'));
  const walk = (roles: WorkloadTree['roles'], depth: number) => {
    for (const r of roles) {
      out.push(
        line(
          `${'  '.repeat(depth + 1)}${sanitise(roleName(r))}: ready ${r.replicas.ready}/${r.replicas.desired}, GPUs ${gpuRatio(r.gpus, 'names')}${r.nodes.length ? `, nodes ${sanitise(r.nodes.join(','))}` : ''}`,
        ),
      );
      walk(r.roles, depth + 1);
    }
  };
  walk(w.roles, 0);
  out.push(line('Events:', 'group'));
  out.push(...eventLines(events, nowMs, true).map((l) => ({ ...l, text: `  ${l.text}` })));
  return out;
}

export function describeNodeLines(
  n: NodeSummary | null,
  object: KubeObject | null,
  events: readonly EventRow[],
  nowMs: number,
): TextLine[] {
  const out: TextLine[] = [];
  const kv = (k: string, v: unknown, tone: Tone = 'normal') =>
    out.push(line(`${k.padEnd(16)}${sanitise(v ?? '-')}`, tone));
  const name = n?.name ?? object?.metadata.name ?? '?';
  kv('Name:', name);
  if (n) {
    kv('Ready:', n.ready ? 'True' : 'False', n.ready ? 'ok' : 'error');
    kv('Schedulable:', n.unschedulable ? 'False (cordoned)' : 'True', n.unschedulable ? 'warn' : 'normal');
    kv(
      'GPUs:',
      `capacity ${n.gpuCapacity}, allocatable ${n.gpuAllocatable}, requested ${n.gpuRequested}, free ${Math.max(0, n.gpuAllocatable - n.gpuRequested)}`,
    );
    kv('Pods:', n.pods);
    out.push(line('Conditions:', 'group'));
    for (const c of n.conditions)
      out.push(
        line(
          `  ${sanitise(c.type).padEnd(24)}${sanitise(c.status).padEnd(7)}${c.reason ? sanitise(c.reason) : ''}${c.message ? `: ${sanitise(c.message)}` : ''}`,
          (c.type === 'Ready') !== (c.status === 'True') ? 'warn' : 'normal',
        ),
      );
    out.push(
      line(
        `Taints:         ${n.taints.map((t) => `${sanitise(t.key)}${t.value ? `=${sanitise(t.value)}` : ''}:${sanitise(t.effect)}`).join(' ') || '<none>'}`,
      ),
    );
    out.push(line(`Workloads:      ${sanitise(n.workloads.join(', ')) || '<none>'}`));
  }
  out.push(line('Events:', 'group'));
  out.push(...eventLines(events, nowMs, false).map((l) => ({ ...l, text: `  ${l.text}` })));
  return out;
}
