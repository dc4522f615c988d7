// `remote` in `wlx get -o json` over a fleet (src/cli/printers/json.ts): a
// MultiKueue job dispatched to a worker has `remote: {cluster, worker,
// namespace, name, status}`; one still waiting on its manager has no
// `remote` (nothing of it is known) but `tried`, each worker with its Kueue's word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonDocument, type JsonSources } from '../../src/cli/printers/json.js';
import { EMPTY_SCHEDULING } from '../../src/model/scheduling/index.js';
import { fleetKey } from '../../src/model/fleet/link.js';
import type { FleetLinks } from '../../src/model/fleet/types.js';
import { workload } from '../ui/fixtures.js';

test('-o json over a fleet: a dispatched job has remote; a waiting one tried, and no remote of nulls', () => {
  const links: FleetLinks = {
    remote: new Map([
      [
        fleetKey('manager', 'm-sft'),
        { cluster: 'east', worker: 'east', namespace: 'training', name: 'llm-sft', uid: 'w-sft', status: ['Running'] },
      ],
    ]),
    origin: new Map(),
    tried: new Map([
      [
        fleetKey('manager', 'm-pre'),
        [
          { worker: 'east', cluster: 'east', state: 'Pending', message: 'insufficient unused quota' },
          { worker: 'gone', cluster: null, state: null, message: null },
        ],
      ],
    ]),
  };
  const sources: JsonSources = {
    nodes: [],
    scheduling: EMPTY_SCHEDULING,
    access: { clusterWide: true, namespaces: [], forbidden: [] },
    topologyKeys: [],
    cluster: 'manager',
    links: { context: 'manager', links },
  };
  const doc = jsonDocument(
    [
      workload('llm-sft', [], { uid: 'm-sft' }),
      workload('llm-pretrain', [], { uid: 'm-pre' }),
      workload('local', [], { uid: 'm-local' }),
    ],
    sources,
    [],
  ) as { workloads: Record<string, unknown>[] };
  const [sft, pre, local] = doc.workloads;
  assert.deepEqual(sft.remote, {
    cluster: 'east',
    worker: 'east',
    namespace: 'training',
    name: 'llm-sft',
    status: ['Running'],
  });
  assert.equal(sft.tried, undefined);
  assert.equal('remote' in pre, false);
  assert.deepEqual(pre.tried, [
    { worker: 'east', cluster: 'east', state: 'Pending', message: 'insufficient unused quota' },
    { worker: 'gone', cluster: null, state: null, message: null },
  ]);
  assert.equal('remote' in local, false);
  assert.equal('tried' in local, false);
});
