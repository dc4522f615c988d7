// The main table: a boxed, titled, virtualised row list. Only the rows in the
// visible window are turned into elements, so 100,000 rows cost no more to
// draw than 20. Column widths come from the whole (memoised) row set.
//
// Per-frame cost matters more than per-row cost here: Ink lays out and
// re-measures every text node of the screen on every frame. The side and
// bottom borders are therefore drawn by the Box (one write each) rather than
// as text in every line, so each row's text stays plain ASCII when its cells
// are, and Ink measures it on string-width's fast path instead of segmenting
// it into graphemes. Each row is a memoised element: a frame that only moves
// the cursor or changes one row re-renders only the rows whose props changed.
import type React from 'react';
import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { type Column, type Row, type Layout, layoutColumns, formatLine, fit, displayWidth } from '../render/table.js';
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

/** The text of one data row at the given layout (AGE cells from createdMs at `now`). */
export function rowText(row: Row, columns: Column[], layout: Layout, inner: number, now: number): string {
  if (row.span) return fit(row.cells[0] ?? '', inner);
  const cells = columns.some((c) => c.age)
    ? columns.map((c, ci) => (c.age ? formatAge(row.createdMs, now) : (row.cells[ci] ?? '')))
    : row.cells;
  return formatLine(cells, columns, layout);
}

interface RowLineProps {
  text: string;
  tone: Row['tone'];
  selected: boolean;
  changed: boolean;
  noColor: boolean;
}

const RowLine = memo(function RowLine({ text, tone, selected, changed, noColor }: RowLineProps): React.JSX.Element {
  const style = toneStyle(tone, noColor);
  return (
    <Text
      {...style}
      inverse={selected}
      bold={style.bold || changed}
      backgroundColor={changed && !noColor ? 'blackBright' : undefined}
      wrap="truncate-end"
    >
      {text}
    </Text>
  );
});

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
    const row = rows[i];
    const isSelected = i === selected;
    const isChanged = !isSelected && row.workloadUid !== undefined && changed.has(row.workloadUid);
    lines.push(
      <RowLine
        key={row.key}
        text={rowText(row, columns, layout, inner, now)}
        tone={row.tone}
        selected={isSelected}
        changed={isChanged}
        noColor={noColor}
      />,
    );
  }
  if (rows.length === 0) {
    lines.push(
      <Text key="(empty)" dimColor wrap="truncate-end">
        {fit(props.emptyText ?? 'nothing to show', inner)}
      </Text>,
    );
  }
  while (lines.length < page) {
    lines.push(
      <Text key={`(pad)${lines.length}`} wrap="truncate-end">
        {' '.repeat(inner)}
      </Text>,
    );
  }
  return (
    <Box flexDirection="column" width={inner + 2}>
      <Text wrap="truncate-end" {...border}>
        {borderTop(props.title, inner + 2)}
      </Text>
      <Box flexDirection="column" width={inner + 2} borderStyle="single" borderTop={false} borderColor={border.color}>
        <Text bold wrap="truncate-end">
          {header}
        </Text>
        {lines}
      </Box>
    </Box>
  );
}
