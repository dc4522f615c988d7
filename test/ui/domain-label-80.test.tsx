// At 80 columns a topology domain's label keeps its rack: `:nodes` by domain and the GPU map shorten the
// general levels (zone, block) first, never the rack and NVLink domain at the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelSnapshot } from '../../src/model/types.js';
import { defaultSnapshot, FakeSource } from './fixtures.js';
import { KEY, mountApp } from './helpers.js';
import { fitDomainLabel } from '../../src/ui/render/nodes.js';
import { displayWidth } from '../../src/ui/render/table.js';

const ZONE = 'topology.kubernetes.io/zone';
const BLOCK = 'cloud.google.com/gce-topology-block';
const RACK = 'network.topology.kubernetes.io/rack';
const CLIQUE = 'nvidia.com/gpu.clique';

/** Six nodes: two zones × a long block name × racks 07, 12 and 31, each its own NVLink domain. */
function deep(): ModelSnapshot {
  const s = defaultSnapshot();
  const racks = ['rack-07', 'rack-12', 'rack-31'];
  return {
    ...s,
    nodes: s.nodes.map((n, i) => ({
      ...n,
      labels: {
        [ZONE]: i < 3 ? 'us-central1-a' : 'us-central1-b',
        [BLOCK]: i % 2 ? 'gce-block-7f3a9c21' : 'gce-block-0b94e6d2',
        [RACK]: racks[i % 3],
        [CLIQUE]: `2df6d60c-30f6-4ac5-aff6-d9322af6d153.${i}`,
      },
    })),
  };
}

const plain = (frame: string) => frame.replace(/\u001b\[[0-9;]*m/g, '');

const RACK_OF = ['rack-07', 'rack-12', 'rack-31'];

test('80 columns: :nodes domain headers and :map bands keep their rack and NVLink domain', async () => {
  const h = await mountApp({ source: new FakeSource(deep()), size: { columns: 80, rows: 24 } });
  try {
    await h.press(':', 'n', 'o', 'd', 'e', 's', KEY.enter);
    let f = plain(await h.waitFor((x) => x.includes('▾'), 'the domain headers'));
    const headers = f.split('\n').filter((l) => l.includes('▾'));
    assert.equal(headers.length, 6, f);
    for (const [i, rack] of RACK_OF.entries()) {
      // Zone a and b told apart by their tails, each block by its own, then the whole rack and clique.
      for (const zone of ['a', 'b'])
        assert.ok(
          headers.some((l) => new RegExp(`▾ …1-${zone} / …[0-9a-f]{4} / ${rack} / 2df6….\\d `).test(l)),
          `${zone} ${rack} (${i}):\n${f}`,
        );
    }
    await h.press(':', 'm', 'a', 'p', KEY.enter);
    f = plain(await h.waitFor((x) => x.includes('map('), 'the map'));
    const bands = f.split('\n').filter((l) => /[▀▄]/.test(l) && !l.includes('GPUs allocated'));
    assert.equal(bands.length, 6, f);
    for (const b of bands) assert.match(b, /rack-(07|12|31) \/ 2df6….\d +[▀▄]/);
    for (const l of f.split('\n')) assert.ok([...l].length <= 80, `too wide: ${l}`);
  } finally {
    h.unmount();
  }
});

test('a domain label shortened step by step: the zone and block first, the rack whole the longest', () => {
  const path = ['us-central1-a', 'gce-block-7f3a9c21', 'rack-07', '2df6d60c-30f6-4ac5-aff6-d9322af6d153.0'];
  const at = (w: number) => fitDomainLabel(path, w);
  assert.equal(at(80), 'us-central1-a / gce-block-7f3a9c21 / rack-07 / 2df6….0');
  assert.equal(at(45), '…1-a / gce-block-7f3a9c21 / rack-07 / 2df6….0');
  assert.equal(at(31), '…1-a / …c21 / rack-07 / 2df6….0');
  assert.equal(at(28), '… / …c21 / rack-07 / 2df6….0');
  assert.equal(at(21), '… / rack-07 / 2df6….0');
  assert.equal(at(18), 'rack-07 / 2df6….0');
  assert.equal(at(17), 'rack-07 / 2df6….0');
  assert.equal(at(12), 'rack-07 / …');
  assert.equal(at(10), '2df6….0');
  assert.equal(at(5), '…6….0');
  for (let w = 1; w < 60; w++) assert.ok(displayWidth(at(w)) <= w, `${w}: ${at(w)}`);
  // Heads of the general levels (two zones alike at their tails); the rack still keeps its tail.
  assert.equal(fitDomainLabel(path, 40, 'head'), 'us-… / gce-block-7f… / rack-07 / 2df6….0');
  assert.equal(fitDomainLabel(path, 18, 'head'), 'rack-07 / 2df6….0');
  assert.equal(fitDomainLabel(['us-east-1a', 'rack-12'], 12), '… / rack-12');
  assert.equal(fitDomainLabel(['zone-a', null, 'rack-1'], 14), '… / - / rack-1');
});
