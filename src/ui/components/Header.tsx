// The header: where we are (context, cluster, user, namespace, versions),
// cluster GPU totals, workload counts by status and the connection state of
// the watches (live / syncing / reconnecting since … / forbidden kinds).
import type React from 'react';
import { Box, Text } from 'ink';
import type { ConnectionInfo, KindState, ModelSnapshot } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import { fit } from '../render/table.js';
import { accent, type TextStyle } from './theme.js';

export interface HeaderProps {
  snapshot: ModelSnapshot;
  connection: ConnectionInfo;
  namespace: string | null;
  wlxVersion: string;
  width: number;
  /** 1 = compact one-line header for very short terminals. */
  lines: number;
  noColor: boolean;
}

export interface ConnectionSummary {
  text: string;
  level: 'ok' | 'warn' | 'error';
}

function clock(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return sanitise(iso);
  return new Date(t).toISOString().slice(11, 19);
}

/** One phrase for the state of all watched kinds. */
export function summariseConnection(kinds: readonly KindState[]): ConnectionSummary {
  if (!kinds.length) return { text: 'connecting…', level: 'warn' };
  const parts: string[] = [];
  let level: ConnectionSummary['level'] = 'ok';
  const reconnecting = kinds.filter((k) => k.state === 'reconnecting' || k.state === 'error');
  const syncing = kinds.filter((k) => k.state === 'syncing');
  const forbidden = kinds.filter((k) => k.state === 'forbidden');
  if (reconnecting.length) {
    const oldest = reconnecting.reduce((a, b) => (a.since <= b.since ? a : b));
    parts.push(`reconnecting ${reconnecting.map((k) => sanitise(k.resource)).join(',')} since ${clock(oldest.since)}`);
    level = 'warn';
  } else if (syncing.length) {
    parts.push(`syncing ${kinds.length - syncing.length}/${kinds.length}`);
    level = 'warn';
  } else {
    parts.push('live');
  }
  if (forbidden.length) {
    parts.push(`forbidden: ${forbidden.map((k) => sanitise(k.resource)).join(',')}`);
    if (level === 'ok') level = 'warn';
  }
  return { text: parts.join('  '), level };
}

/** `7 workloads: 4 Running 1 Failed …` — each status a workload holds counts once. */
export function workloadCounts(snapshot: ModelSnapshot, namespace: string | null): string {
  // Asked by the render and by the screen signature of each snapshot: once per snapshot and scope.
  let memo = countsMemo.get(snapshot);
  if (!memo) countsMemo.set(snapshot, (memo = new Map()));
  let text = memo.get(namespace);
  if (text === undefined) memo.set(namespace, (text = computeWorkloadCounts(snapshot, namespace)));
  return text;
}

const countsMemo = new WeakMap<ModelSnapshot, Map<string | null, string>>();

function computeWorkloadCounts(snapshot: ModelSnapshot, namespace: string | null): string {
  const counts = new Map<string, number>();
  let n = 0;
  for (const w of snapshot.workloads) {
    if (namespace !== null && w.namespace !== namespace) continue;
    n++;
    for (const s of w.status.length ? w.status : ['Undefined']) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const order = [
    'Running',
    'Failed',
    'Degraded',
    'Initializing',
    'Suspended',
    'Suspending',
    'Resuming',
    'Completed',
    'Undefined',
  ];
  const parts = [...counts.entries()]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([s, c]) => `${c} ${s}`);
  return `${n}${parts.length ? '  ' + parts.join(' ') : ''}`;
}

function Pair(props: { label: string; value: string; width: number; style?: TextStyle }): React.JSX.Element {
  const label = props.label + ' ';
  return (
    <Text wrap="truncate-end">
      <Text bold>{label}</Text>
      <Text {...props.style}>{fit(props.value, Math.max(0, props.width - label.length))}</Text>
    </Text>
  );
}

export function Header(props: HeaderProps): React.JSX.Element {
  const { snapshot, connection: c, width, noColor } = props;
  const t = snapshot.totals;
  const conn = summariseConnection(snapshot.kinds);
  const connStyle = noColor ? {} : { color: conn.level === 'ok' ? 'green' : conn.level === 'warn' ? 'yellow' : 'red' };
  const ns = props.namespace === null ? 'all' : sanitise(props.namespace);
  const gpus = `${t.gpuRequested}/${t.gpuAllocatable} req/alloc  free ${t.gpuFree}  pending ${t.gpuPending}`;
  if (props.lines <= 1) {
    return (
      <Text wrap="truncate-end">
        <Text {...accent(noColor)}>
          {fit(`${sanitise(c.context)} ns:${ns} GPUs ${t.gpuRequested}/${t.gpuAllocatable} ${conn.text}`, width)}
        </Text>
      </Text>
    );
  }
  const left = Math.min(44, Math.max(28, Math.floor(width * 0.42)));
  const right = Math.max(0, width - left - 1);
  const version = `wlx ${props.wlxVersion}  k8s ${c.serverVersion ? sanitise(c.serverVersion) : '?'}`;
  return (
    <Box flexDirection="column">
      <Box>
        <Box width={left + 1}>
          <Pair label="Context:" value={sanitise(c.context)} width={left} style={accent(noColor, 'yellow')} />
        </Box>
        <Pair label="GPUs:" value={gpus} width={right} style={accent(noColor, 'magenta')} />
      </Box>
      <Box>
        <Box width={left + 1}>
          <Pair label="Cluster:" value={sanitise(c.cluster)} width={left} style={accent(noColor)} />
        </Box>
        <Pair
          label="Workloads:"
          value={workloadCounts(snapshot, props.namespace)}
          width={right}
          style={accent(noColor)}
        />
      </Box>
      <Box>
        <Box width={left + 1}>
          <Pair label="User:" value={sanitise(c.user)} width={left} style={accent(noColor)} />
        </Box>
        <Pair label="Conn:" value={conn.text} width={right} style={connStyle} />
      </Box>
      <Box>
        <Box width={left + 1}>
          <Pair label="Namespace:" value={ns} width={left} style={accent(noColor)} />
        </Box>
        <Pair label="Nodes:" value={`${t.nodes}  pods ${t.pods}   ${version}`} width={right} style={accent(noColor)} />
      </Box>
    </Box>
  );
}
