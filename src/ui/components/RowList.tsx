// The main table: a boxed, titled, virtualised row list. Only the rows in the
// visible window are turned into elements, so 100,000 rows cost no more to
// draw than 20. The lines come laid out from the screen model (column widths
// from the whole row set), so this component only places them.
//
// Per-frame cost matters more than per-row cost here: Ink lays out and
// re-measures every text node of the screen on every frame. The side and
// bottom borders are therefore drawn by the Box (one write each) rather than
// as text in every line, so each row's text stays plain ASCII when its cells
// are, and Ink measures it on string-width's fast path instead of segmenting
// it into graphemes. Each row is a memoised element: a frame that only moves
// the cursor or changes one row re-renders only the rows whose props changed.
import type React from 'react';
import { memo } from 'react';
import { Text } from 'ink';
import { fit } from '../render/table.js';
import type { ScreenLine } from '../state/screen.js';
import { toneStyle } from './theme.js';
import { useSkin } from '../hooks/useSkin.js';
import { TitledBox } from './TitledBox.js';

export interface RowListProps {
  title: string;
  /** The column header line, laid out. */
  columnHeader: string;
  /** The visible rows' lines, laid out (src/ui/state/screen.ts). */
  lines: readonly ScreenLine[];
  /** Visible data rows. */
  page: number;
  /** Total width including the box. */
  width: number;
  noColor: boolean;
  /** Shown when there are no rows. */
  emptyText: string | null;
}

type RowLineProps = Omit<ScreenLine, 'key'> & { noColor: boolean };

const RowLine = memo(function RowLine({ text, tone, selected, changed, noColor }: RowLineProps): React.JSX.Element {
  const skin = useSkin();
  const style = toneStyle(tone, noColor, skin);
  // A skin's cursor colours replace the inverse selection.
  const cursor = selected && !noColor && skin.cursor?.bg ? skin.cursor : null;
  return (
    <Text
      {...style}
      color={cursor?.fg ?? style.color}
      inverse={selected && !cursor}
      bold={style.bold || changed}
      backgroundColor={cursor ? cursor.bg : changed && !noColor ? (skin.changed ?? 'blackBright') : undefined}
      wrap="truncate-end"
    >
      {text}
    </Text>
  );
});

export function RowList(props: RowListProps): React.JSX.Element {
  const { page, width, noColor } = props;
  const skin = useSkin();
  const inner = Math.max(10, width - 2);
  const lines: React.JSX.Element[] = props.lines.map((l) => (
    <RowLine key={l.key} text={l.text} tone={l.tone} selected={l.selected} changed={l.changed} noColor={noColor} />
  ));
  if (props.emptyText !== null) {
    lines.push(
      <Text key="(empty)" dimColor wrap="truncate-end">
        {fit(props.emptyText, inner)}
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
    <TitledBox title={props.title} width={inner + 2} noColor={noColor}>
      <Text bold wrap="truncate-end" color={noColor ? undefined : skin.columnHeader}>
        {props.columnHeader}
      </Text>
      {lines}
    </TitledBox>
  );
}
