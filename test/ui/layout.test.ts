// The column layout rule: each column as wide as its longest value (or header,
// or minimum), spare width only to the columns whose content is cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutColumns, formatLine, LayoutMemo, type Column, type Row } from '../../src/ui/render/table.js';

const COLUMNS: Column[] = [
  { name: 'NAME', min: 6, max: 40, flex: true },
  { name: 'STATUS', min: 6, max: 12 },
  { name: 'LIST', min: 4, max: 20 },
  { name: 'AGE', min: 4, age: true, align: 'right' },
];

function row(key: string, ...cells: string[]): Row {
  return { key, cells: [...cells, ''], tone: 'normal', createdMs: null, sort: { name: key, status: '', gpus: 0 } };
}

const ROWS = [row('a', 'short', 'Running', 'x'.repeat(50)), row('b', 'a-longer-name', 'Pending', 'y,z')];

test('layout: a wide terminal gives no column more than its longest value; a cut column takes the spare', () => {
  const layout = layoutColumns(COLUMNS, ROWS, 160);
  assert.deepEqual(layout.widths, [13, 7, 50, 4], 'NAME, STATUS at their longest; LIST past its cap of 20, uncut');
  const line = formatLine(ROWS[0].cells, COLUMNS, layout);
  assert.equal(line.length, 160, 'the line is padded after the last column');
  assert.equal(line.trimEnd(), `short${' '.repeat(9)}Running ${'x'.repeat(50)}`);
});

test('layout: when width is short, caps hold and spare goes to the flex column first, then evenly', () => {
  // Natural widths 13 + 7 + 20 (LIST capped) + 4 + 3 gaps = 47.
  assert.deepEqual(layoutColumns(COLUMNS, ROWS, 47).widths, [13, 7, 20, 4]);
  // Nine spare: LIST is the only cut column.
  assert.deepEqual(layoutColumns(COLUMNS, ROWS, 56).widths, [13, 7, 29, 4]);
  const long = [...ROWS, row('c', 'n'.repeat(60), 'Running', 'l'.repeat(30))];
  // NAME (flex) capped at 40, LIST at 20: 40 + 7 + 20 + 4 + 3 = 74; 20 spare all to NAME (cut by 20).
  assert.deepEqual(layoutColumns(COLUMNS, long, 94).widths, [60, 7, 20, 4]);
  // 30 spare: NAME uncut, the remaining 10 to LIST; 10 more would be past both longest values.
  assert.deepEqual(layoutColumns(COLUMNS, long, 104).widths, [60, 7, 30, 4]);
  assert.deepEqual(layoutColumns(COLUMNS, long, 200).widths, [60, 7, 50, 4]);
  // Narrow: the widest shrink first, down to their minimum.
  const narrow = layoutColumns(COLUMNS, long, 30);
  assert.equal(narrow.widths.reduce((s, w) => s + w, 0) + 3, 30);
});

test('layout memo: each row measured once, the same layout for the same rows and width', () => {
  const counters = { cellMeasures: 0 };
  const memo = new LayoutMemo(counters);
  const rows = Array.from({ length: 5000 }, (_, i) => row(String(i), `pod-${i}`, 'Running', 'x'));
  const first = memo.layout(COLUMNS, rows, 120);
  const measured = counters.cellMeasures;
  assert.equal(measured, 2000 * COLUMNS.length, 'a huge list is sampled (head and tail)');
  assert.equal(memo.layout(COLUMNS, rows, 120), first);
  memo.layout(COLUMNS, rows, 80);
  assert.equal(counters.cellMeasures, measured, 'a resize measures nothing again');
});

test('layout: a kept column (the name) shrinks only after the others reach their minimum', () => {
  const columns: Column[] = [
    { name: 'NAME', min: 6, max: 40, keep: true },
    { name: 'STATUS', min: 6, max: 30 },
  ];
  const rows = [row('a', 'broken-finetune', 'Initializing (Unschedulable)')];
  // 15 + 1 + 28 = 44: STATUS gives up 10 first.
  assert.deepEqual(layoutColumns(columns, rows, 34).widths, [15, 18]);
  assert.deepEqual(layoutColumns(columns, rows, 20).widths, [13, 6]);
});
