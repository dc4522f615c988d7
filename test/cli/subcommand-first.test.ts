// Global options before the subcommand, as kubectl takes its flags anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subcommandFirst } from '../../src/cli/main.js';

const valued = new Set(['--kubeconfig', '--context', '-n', '--namespace', '--definitions']);
const takesValue = (flag: string) => valued.has(flag);

test('options before a subcommand move after it; their values are not taken for the subcommand', () => {
  assert.deepEqual(subcommandFirst(['--kubeconfig', 'get', 'get', '-A'], takesValue), [
    'get',
    '--kubeconfig',
    'get',
    '-A',
  ]);
  assert.deepEqual(subcommandFirst(['--context', 'c', '--protobuf', 'get', 'jobs'], takesValue), [
    'get',
    '--context',
    'c',
    '--protobuf',
    'jobs',
  ]);
  assert.deepEqual(subcommandFirst(['-n', 'training', 'defs', 'list'], takesValue), ['defs', '-n', 'training', 'list']);
  assert.deepEqual(subcommandFirst(['--kubeconfig=F', 'get'], takesValue), ['get', '--kubeconfig=F']);
});

test('without a subcommand (the explorer) or after --, the arguments stay as they are', () => {
  for (const argv of [
    ['--kubeconfig', 'F', '--context', 'c'],
    ['--demo'],
    ['--', 'get'],
    ['get', '-A'],
    ['--context', 'c', 'bogus'],
  ])
    assert.deepEqual(subcommandFirst(argv, takesValue), argv);
});
