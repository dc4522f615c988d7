// The streaming scan of issue 15 option (b) (a benchmark prototype): what
// Trimmer.pod makes of its output must equal what it makes of JSON.parse's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Trimmer, withTypeMeta } from '../../src/kube/trim.js';
import type { KubeObject } from '../../src/model/types.js';
import { realisticPod } from '../kube/pod-fixture.js';
import { scanPodList, scanValue } from './pod-scanner.js';

function bothWays(page: string): { parsed: KubeObject[]; scanned: KubeObject[]; meta: unknown } {
  const viaParse = new Trimmer().for('pod');
  const viaScan = new Trimmer().for('pod');
  const parsed = (JSON.parse(page) as { items: unknown[] }).items.map((o) => viaParse(withTypeMeta(o, 'v1', 'Pod')));
  const scanned: KubeObject[] = [];
  const meta = scanPodList(Buffer.from(page, 'utf8'), (o) => scanned.push(viaScan(withTypeMeta(o, 'v1', 'Pod'))));
  return { parsed, scanned, meta };
}

const list = (items: unknown[], space?: number) =>
  JSON.stringify(
    { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '42', continue: 'tok"en' }, items },
    null,
    space,
  );

test('realistic pods (managedFields, env, probes, last-applied) trim the same scanned as parsed', () => {
  const items = Array.from({ length: 30 }, (_, i) => realisticPod(i, i % 2 ? 'training' : 'serving'));
  for (const space of [undefined, 2]) {
    const { parsed, scanned, meta } = bothWays(list(items, space));
    assert.equal(scanned.length, 30);
    assert.deepStrictEqual(scanned, parsed);
    assert.deepStrictEqual(meta, { resourceVersion: '42', continue: 'tok"en' });
  }
});

test('escapes, non-ASCII, long messages, odd numbers and odd shapes trim the same', () => {
  const pod = realisticPod(1) as {
    metadata: Record<string, unknown>;
    spec: Record<string, unknown>;
    status: Record<string, unknown>;
  };
  pod.metadata.labels = {
    'team\u00e9': 'caf\u00e9 \u{1F680}',
    quote: 'a "quoted" \\ value\n',
    ['__proto__']: 'x',
    long: 'v'.repeat(2000),
  };
  pod.metadata.generation = 12;
  pod.spec.containers = ['not an object', { name: 'a\u0000b', image: 'img', resources: { limits: { cpu: 1.5e3 } } }];
  pod.spec.overhead = { cpu: -0.25, memory: 0 };
  pod.status.message = 'm'.repeat(5000);
  pod.status.containerStatuses = [
    {
      name: 'main',
      ready: false,
      restartCount: 12345678901234,
      state: { terminated: { exitCode: -1, reason: 'Error', message: 'x'.repeat(300), signal: 9 } },
      lastState: { waiting: {} },
    },
    7,
  ];
  pod.status.initContainerStatuses = [{ name: 'init', ready: true, restartCount: 0, state: null }];
  const { parsed, scanned } = bothWays(list([pod, { metadata: null, spec: [], status: 'x' }]));
  assert.deepStrictEqual(scanned, parsed);
  // Keys spelled with escapes are the same keys.
  const escaped = list([realisticPod(2)]).replace('"metadata":{"name"', '"metad\\u0061ta":{"n\\u0061me"');
  const again = bothWays(escaped);
  assert.deepStrictEqual(again.scanned, again.parsed);
});

test('whole values come out as JSON.parse makes them', () => {
  for (const text of [
    '{"a":[1,-2,3.5,1e21,0,-0,true,false,null,"",{}],"b":{"c":[]},"__proto__":{"x":1}}',
    '"\\ud83d\\ude80 \\t \\/"',
    ' [ 1 , { "k" : "v" } ] ',
    '123456789012345678',
  ])
    assert.deepStrictEqual(scanValue(text), JSON.parse(text));
});

test('malformed pages throw', () => {
  const good = list([realisticPod(0)]);
  for (const bad of [
    good.slice(0, good.length - 3),
    good.replace('"metadata"', '"metadata'),
    good.replace('"spec":{', '"spec":{"env":"a\u0001b",'),
    `${good}x`,
  ])
    assert.throws(() => scanPodList(Buffer.from(bad, 'utf8'), () => undefined), SyntaxError);
});
