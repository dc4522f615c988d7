// Keys 1–9 kept per context across sessions (src/app/config/namespace-history.ts): read back as written,
// k9s's shape (`wlx.namespace.favorites`), in the context's state file under $XDG_STATE_HOME; the file's other
// keys kept; a bad entry told with its file and line while the good ones are used; at most 9.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { contextStateFile } from '../../src/app/config/paths.js';
import { readNamespaceHistory, writeNamespaceHistory } from '../../src/app/config/namespace-history.js';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-ns-history-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('the context state file: under $XDG_STATE_HOME/wlx/clusters/<cluster>/<context>, names made safe', () => {
  const env = { XDG_STATE_HOME: '/state' };
  assert.equal(
    contextStateFile({ cluster: 'gke_proj_us/east', context: 'prod' }, { env }),
    '/state/wlx/clusters/gke_proj_us_east/prod/config.yaml',
  );
  assert.equal(
    contextStateFile({ cluster: 'c', context: '..' }, { env: {}, home: '/home/me' }),
    '/home/me/.local/state/wlx/clusters/c/_/config.yaml',
  );
});

test('favourites written and read back, most recent first; other keys kept; only the user may read it', (t) => {
  const file = join(tempDir(t), 'clusters', 'c', 'ctx', 'config.yaml');
  assert.deepEqual(readNamespaceHistory(file), { namespaces: [], problems: [] }, 'none yet');
  writeNamespaceHistory(file, ['training', 'inference']);
  assert.deepEqual(readNamespaceHistory(file), { namespaces: ['training', 'inference'], problems: [] });
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(yaml.load(readFileSync(file, 'utf8')), {
    wlx: { namespace: { favorites: ['training', 'inference'] } },
  });
  // Someone's note and another key beside the favourites stay.
  writeFileSync(file, 'note: mine\nwlx:\n  namespace:\n    lockFavorites: true\n    favorites: [a]\n');
  writeNamespaceHistory(file, ['research', ...Array.from({ length: 12 }, (_, i) => `ns-${i}`)]);
  const doc = yaml.load(readFileSync(file, 'utf8')) as { note: string; wlx: { namespace: Record<string, unknown> } };
  assert.equal(doc.note, 'mine');
  assert.equal(doc.wlx.namespace.lockFavorites, true);
  assert.equal((doc.wlx.namespace.favorites as string[]).length, 9, 'keys 1–9');
  assert.equal((doc.wlx.namespace.favorites as string[])[0], 'research');
});

test('bad entries: each told with file and line, the good ones used; a file wlx cannot read is not overwritten', (t) => {
  const file = join(tempDir(t), 'config.yaml');
  writeFileSync(
    file,
    'wlx:\n  namespace:\n    favorites:\n      - training\n      - Not_A_Namespace\n      - 7\n      - training\n      - inference\n',
  );
  const h = readNamespaceHistory(file);
  assert.deepEqual(h.namespaces, ['training', 'inference']);
  assert.deepEqual(
    h.problems.map((p) => [p.line, p.message]),
    [
      [5, 'favorites: not a namespace name: "Not_A_Namespace"'],
      [6, 'favorites: not a namespace name: 7'],
    ],
  );
  writeFileSync(file, 'wlx:\n  namespace: [training]\n');
  assert.deepEqual(
    readNamespaceHistory(file).problems.map((p) => [p.file, p.line, p.message]),
    [[file, 2, 'namespace: expected a mapping']],
  );
  const broken = 'wlx: [unclosed\n';
  writeFileSync(file, broken);
  assert.equal(readNamespaceHistory(file).problems.length, 1);
  writeNamespaceHistory(file, ['training']);
  assert.equal(readFileSync(file, 'utf8'), broken, 'left as it is');
});
