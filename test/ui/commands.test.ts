import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommand, completeCommand } from '../../src/ui/state/commands.js';

test('commands and their aliases', () => {
  assert.deepEqual(parseCommand('wl'), { kind: 'view', view: 'workloads' });
  assert.deepEqual(parseCommand(' workloads '), { kind: 'view', view: 'workloads' });
  assert.deepEqual(parseCommand('no'), { kind: 'view', view: 'nodes' });
  assert.deepEqual(parseCommand('po'), { kind: 'view', view: 'pods' });
  assert.deepEqual(parseCommand('defs'), { kind: 'view', view: 'defs' });
  assert.deepEqual(parseCommand('ns training'), { kind: 'namespace', namespace: 'training' });
  assert.deepEqual(parseCommand('ns all'), { kind: 'namespace', namespace: null });
  assert.deepEqual(parseCommand('ctx prod'), { kind: 'context', context: 'prod' });
  assert.deepEqual(parseCommand('q'), { kind: 'quit' });
  assert.deepEqual(parseCommand('ns'), { kind: 'view', view: 'namespaces' }, ':ns alone opens the picker');
  assert.deepEqual(parseCommand('ctx'), { kind: 'view', view: 'contexts' }, ':ctx alone opens the picker');
  assert.equal(parseCommand('frobnicate').kind, 'error');
});

test('Tab completes command names and their arguments', () => {
  assert.deepEqual(completeCommand('nod', [], []), { text: 'nodes', candidates: ['nodes'] });
  assert.equal(completeCommand('n', [], []).text, 'n', 'ambiguous: nodes, no, ns, namespace');
  assert.ok(completeCommand('n', [], []).candidates.includes('ns'));
  assert.equal(completeCommand('def', [], []).text, 'def', 'defs and definitions share "def"');
  assert.equal(completeCommand('ctx', [], []).text, 'ctx ', 'commands with an argument get a space');
  assert.deepEqual(completeCommand('ns tr', ['default', 'training'], []), {
    text: 'ns training',
    candidates: ['training'],
  });
  assert.deepEqual(completeCommand('ns ', ['default', 'training'], []).candidates, ['all', 'default', 'training']);
  assert.deepEqual(completeCommand('ctx pr', [], ['prod-a', 'prod-b', 'dev']), {
    text: 'ctx prod-',
    candidates: ['prod-a', 'prod-b'],
  });
});
