import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExposition } from '../../src/metrics/prometheus.js';
import { DCGM_TEXT, UUID0, UUID1 } from './fixtures.js';

test('dcgm-exporter text: families with HELP and TYPE, gauges and counters, every label', () => {
  const e = parseExposition(DCGM_TEXT);
  assert.deepEqual(e.problems, []);
  assert.equal(e.truncated, false);
  assert.equal(e.families.get('DCGM_FI_DEV_GPU_UTIL')?.type, 'gauge');
  assert.equal(e.families.get('DCGM_FI_DEV_GPU_UTIL')?.help, 'GPU utilization (in %).');
  assert.equal(e.families.get('DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION')?.type, 'counter');
  const util = e.samples.filter((s) => s.name === 'DCGM_FI_DEV_GPU_UTIL');
  assert.equal(util.length, 2);
  assert.equal(util[0].value, 87);
  assert.equal(util[0].labels.UUID, UUID0);
  assert.equal(util[0].labels.pod, 'llama-pretrain-worker-0-0-x7k2p');
  assert.equal(util[0].labels.modelName, 'NVIDIA H100 80GB HBM3');
  assert.equal(util[1].labels.UUID, UUID1);
  assert.equal(util[1].labels.pod, '', 'a free GPU has empty pod labels');
  const energy = e.samples.find((s) => s.name === 'DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION');
  assert.equal(energy?.value, 48211734512);
  const xid = e.samples.filter((s) => s.name === 'DCGM_FI_DEV_XID_ERRORS');
  assert.deepEqual(
    xid.map((s) => [s.labels.err_msg, s.value]),
    [
      ['No Error', 0],
      ['GPU has fallen off the bus', 79],
    ],
  );
  const mig = e.samples.filter((s) => s.labels.GPU_I_PROFILE === '1g.10gb');
  assert.equal(mig.length, 4);
  assert.equal(mig[0].labels.GPU_I_ID, '9');
});

test('label escapes, special values, timestamps, spacing and comments', () => {
  const e = parseExposition(
    [
      '# a plain comment',
      'm{path="C:\\\\dir\\\\file",quote="say \\"hi\\"",nl="a\\nb",other="x\\ty"} 1',
      'm{ a = "1" , b="2", } -Inf 1700000000123',
      'm NaN',
      'm +Inf',
      'm{} 3e-2\r',
      'm_total{le="0.5"} 2.5E3 -5',
      '# HELP h line one\\nline \\\\two',
      '# TYPE h counter',
      'h 7',
    ].join('\n'),
  );
  assert.deepEqual(e.problems, []);
  const [a, b, c, d, f, g, h] = e.samples;
  assert.equal(a.labels.path, 'C:\\dir\\file');
  assert.equal(a.labels.quote, 'say "hi"');
  assert.equal(a.labels.nl, 'a\nb');
  assert.equal(a.labels.other, 'x\\ty', 'an unknown escape is kept as written');
  assert.deepEqual({ ...b.labels }, { a: '1', b: '2' });
  assert.equal(b.value, -Infinity);
  assert.equal(b.timestampMs, 1700000000123);
  assert.ok(Number.isNaN(c.value));
  assert.equal(d.value, Infinity);
  assert.equal(f.value, 0.03);
  assert.equal(g.value, 2500);
  assert.equal(g.timestampMs, -5);
  assert.equal(h.value, 7);
  assert.equal(e.families.get('h')?.help, 'line one\nline \\two');
  assert.equal(e.families.get('h')?.type, 'counter');
  assert.equal(e.families.get('m'), undefined, 'no family without HELP or TYPE');
});

test('junk lines are reported with their line number and skipped; the rest is kept', () => {
  const e = parseExposition(
    [
      'good 1',
      '<html><body>502 Bad Gateway</body></html>',
      'bad{a="unterminated} 1',
      'bad{a="1",a="2"} 1',
      'bad{a=1} 1',
      'bad{1a="x"} 1',
      'bad',
      'bad 1 2 3',
      'bad 0x10',
      'bad 1 1.5',
      '# TYPE good sometimes',
      'good 2',
    ].join('\n'),
  );
  assert.deepEqual(
    e.samples.map((s) => s.value),
    [1, 2],
  );
  assert.deepEqual(
    e.problems.map((p) => p.line),
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  );
  assert.equal(e.skippedLines, 10);
  assert.match(e.problems[1].message, /unterminated/);
  assert.match(e.problems[2].message, /given twice/);
  assert.match(e.problems[3].message, /not quoted/);
  assert.match(e.problems[4].message, /bad label name/);
  assert.match(e.problems[5].message, /no value/);
  assert.match(e.problems[6].message, /text after the timestamp/);
  assert.match(e.problems[7].message, /"0x10" is not a number/);
  assert.match(e.problems[8].message, /timestamp "1.5" is not an integer/);
  assert.match(e.problems[9].message, /unknown type "sometimes"/);
});

test('bounded: characters, samples and listed problems', () => {
  const line = 'DCGM_FI_DEV_GPU_UTIL{gpu="0"} 50\n';
  const big = line.repeat(1000);
  const cut = parseExposition(big, { maxChars: line.length * 10 + 5 });
  assert.equal(cut.truncated, true);
  assert.equal(cut.samples.length, 10, 'only whole lines within the bound');
  assert.deepEqual(cut.problems, [], 'the cut line is not reported as junk');
  const few = parseExposition(big, { maxSamples: 3 });
  assert.equal(few.samples.length, 3);
  assert.equal(few.truncated, true);
  const junk = parseExposition('x y z\n'.repeat(100), { maxProblems: 5 });
  assert.equal(junk.problems.length, 5);
  assert.equal(junk.skippedLines, 100);
  assert.equal(junk.problems[0].text, 'x y z');
  const long = parseExposition(`${'j'.repeat(500)} {\n`);
  assert.equal(long.problems[0].text.length, 80);
});

test('a name filter keeps only the wanted series', () => {
  const e = parseExposition(DCGM_TEXT, { names: new Set(['DCGM_FI_DEV_POWER_USAGE']) });
  assert.deepEqual(
    e.samples.map((s) => s.value),
    [612.337, 71.5],
  );
});
