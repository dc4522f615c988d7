// The header: where we are (context, cluster, user, namespace, versions),
// cluster GPU totals, workload counts by status and the connection state of
// the cluster (live / syncing / unreachable since … / forbidden kinds; see
// render/header.ts connectionHeadline).
import type React from 'react';
import { Box, Text } from 'ink';
import { sanitise } from '../../text/sanitise.js';
import type { HeaderModel } from '../render/header.js';
import { displayWidth, fit } from '../render/table.js';
import { accent, type TextStyle } from './theme.js';
import { useSkin } from '../hooks/useSkin.js';

export interface HeaderProps {
  model: HeaderModel;
  wlxVersion: string;
  width: number;
  /** 1 = compact one-line header for very short terminals. */
  lines: number;
  noColor: boolean;
}

interface PairProps {
  label: string;
  value: string;
  style?: TextStyle;
}

function Pair(props: PairProps & { width: number; labelColor?: string }): React.JSX.Element {
  const label = props.label + ' ';
  return (
    <Text wrap="truncate-end">
      <Text bold color={props.labelColor}>
        {label}
      </Text>
      <Text {...props.style}>{fit(props.value, Math.max(0, props.width - label.length))}</Text>
    </Text>
  );
}

export function Header(props: HeaderProps): React.JSX.Element {
  const { model, width, noColor } = props;
  const skin = useSkin();
  const value = skin.header?.value;
  const labelColor = noColor ? undefined : skin.header?.label;
  const { connection: c, totals: t, summary: conn } = model;
  const connTone = conn.level === 'ok' ? 'ok' : conn.level === 'warn' ? 'warn' : 'error';
  const connStyle = noColor
    ? {}
    : { color: skin.tones[connTone] ?? (connTone === 'ok' ? 'green' : connTone === 'warn' ? 'yellow' : 'red') };
  const ns = model.namespace === null ? 'all' : sanitise(model.namespace);
  const gpus = model.gpus;
  if (props.lines <= 1) {
    return (
      <Text wrap="truncate-end">
        <Text {...accent(noColor, 'cyan', value)}>
          {fit(`${sanitise(c.context)} ns:${ns} GPUs ${gpus} ${conn.text}`, width)}
        </Text>
      </Text>
    );
  }
  // Narrow terminals give the left column only what its values need: the right one holds the counts.
  const leftValues = [`Context: ${c.context}`, `Cluster: ${c.cluster}`, `User: ${c.user}`, `Namespace: ${ns}`];
  const leftNeeds = Math.max(...leftValues.map((v) => displayWidth(sanitise(v)))) + 2;
  const wide = Math.min(44, Math.max(28, Math.floor(width * 0.42)));
  const left = width < 100 ? Math.min(wide, Math.max(20, leftNeeds)) : wide;
  const right = Math.max(0, width - left - 1);
  const version = `wlx ${props.wlxVersion}  k8s ${c.serverVersion ? sanitise(c.serverVersion) : '?'}`;
  // Narrow: the compact counts, which keep Queued and Unschedulable before Running.
  const workloads =
    displayWidth(model.workloads) <= right - 'Workloads: '.length ? model.workloads : model.workloadsCompact;
  // Four lines, each a pair on the left (who and where) and one on the right (the figures).
  const lines: Array<[PairProps, PairProps]> = [
    [
      { label: 'Context:', value: sanitise(c.context), style: accent(noColor, 'yellow', value) },
      { label: 'GPUs:', value: gpus, style: accent(noColor, 'magenta', value) },
    ],
    [
      { label: 'Cluster:', value: sanitise(c.cluster), style: accent(noColor, 'cyan', value) },
      { label: 'Workloads:', value: workloads, style: accent(noColor, 'cyan', value) },
    ],
    [
      { label: 'User:', value: sanitise(c.user), style: accent(noColor, 'cyan', value) },
      { label: 'Conn:', value: conn.text, style: connStyle },
    ],
    [
      { label: 'Namespace:', value: ns, style: accent(noColor, 'cyan', value) },
      { label: 'Nodes:', value: `${model.nodes}  pods ${t.pods}   ${version}`, style: accent(noColor, 'cyan', value) },
    ],
  ];
  return (
    <Box flexDirection="column">
      {lines.map(([l, r]) => (
        <Box key={l.label}>
          <Box width={left + 1}>
            <Pair {...l} width={left} labelColor={labelColor} />
          </Box>
          <Pair {...r} width={right} labelColor={labelColor} />
        </Box>
      ))}
    </Box>
  );
}
