// The main table: a boxed, titled, virtualised row list. Only the rows in the
// visible window are turned into elements, so 100,000 rows cost no more to
// draw than 20. Column widths come from the whole (memoised) row set.
import React, { useMemo } from 'react';
import { Box, Text } from 'ink';
import { type Column, type Row, layoutColumns, formatLine, fit, displayWidth } from '../render/table.js';
import { formatAge } from '../render/format.js';
import type { SortState } from '../state/viewState.js';
import { toneStyle, accent } from './theme.js';

export interface RowListProps {
  title: string;
  columns: Column[];
  rows: readonly Row[];
  selected: number;
  top: number;
  /** Visible data rows. */
  page: number;
  /** Total width including the box. */
  width: number;
  now: number;
  sort: SortState | null;
  /** Workload uids changed recently: their rows are highlighted. */
  changed: ReadonlySet<string>;
  noColor: boolean;
  emptyText?: string;
}

function borderTop(title: string, width: number): string {
  const inner = width - 2;
  const t = displayWidth(title) > inner - 2 ? fit(title, Math.max(0, inner - 2)) : title;
  const left = Math.max(0, Math.floor((inner - displayWidth(t)) / 2));
  const right = Math.max(0, inner - left - displayWidth(t));
  return '┌' + '─'.repeat(left) + t + '─'.repeat(right) + '┐';
}

export function RowList(props: RowListProps): React.JSX.Element {
  const { columns, rows, selected, top, page, width, now, sort, changed, noColor } = props;
  const inner = Math.max(10, width - 2);
  // Widths depend on all rows (not the window) so they do not jump while scrolling.
  const layout = useMemo(() => layoutColumns(columns, rows, inner), [columns, rows, inner]);
  const header = useMemo(
    () =>
      formatLine(
        columns.map((c) => c.name + (sort && c.sortKey === sort.key ? (sort.desc ? '↓' : '↑') : '')),
        columns,
        layout,
      ),
    [columns, layout, sort],
  );
  const border = accent(noColor, 'blue');
  const lines: React.JSX.Element[] = [];
  const end = Math.min(rows.length, top + page);
  for (let i = top; i < end; i++) {
    const row = rows[i]!;
    const cells = columns.some((c) => c.age) ? columns.map((c, ci) => (c.age ? formatAge(row.createdMs, now) : row.cells[ci] ?? '')) : row.cells;
    const text = row.span ? fit(row.cells[0] ?? '', inner) : formatLine(cells, columns, layout);
    const isSelected = i === selected;
    const isChanged = !isSelected && row.workloadUid !== undefined && changed.has(row.workloadUid);
    const style = toneStyle(row.tone, noColor);
    lines.push(
      <Text key={row.key} wrap="truncate-end">
        <Text {...border}>│</Text>
        <Text {...style} inverse={isSelected} bold={style.bold || isChanged} backgroundColor={isChanged && !noColor ? 'blackBright' : undefined}>
          {text}
        </Text>
        <Text {...border}>│</Text>
      </Text>,
    );
  }
  if (rows.length === 0) {
    lines.push(
      <Text key="(empty)" wrap="truncate-end">
        <Text {...border}>│</Text>
        <Text dimColor>{fit(props.emptyText ?? 'nothing to show', inner)}</Text>
        <Text {...border}>│</Text>
      </Text>,
    );
  }
  while (lines.length < page) {
    lines.push(
      <Text key={`(pad)${lines.length}`} wrap="truncate-end">
        <Text {...border}>│</Text>
        {' '.repeat(inner)}
        <Text {...border}>│</Text>
      </Text>,
    );
  }
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end" {...border}>
        {borderTop(props.title, inner + 2)}
      </Text>
      <Text wrap="truncate-end">
        <Text {...border}>│</Text>
        <Text bold>{header}</Text>
        <Text {...border}>│</Text>
      </Text>
      {lines}
      <Text wrap="truncate-end" {...border}>
        {'└' + '─'.repeat(inner) + '┘'}
      </Text>
    </Box>
  );
}
