// Generic status evaluation, rule by rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExprCompiler } from '../../src/model/expr.js';
import { planDefinition } from '../../src/model/plan.js';
import { evaluateStatus } from '../../src/model/status.js';
import type { StatusDefinition } from '../../src/definitions/types.js';
import type { KubeObject } from '../../src/model/types.js';
import { definition } from './fixtures.js';

const GVK = { group: 'x.io', version: 'v1', kind: 'W' };

function evaluate(sd: StatusDefinition, status: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const plan = planDefinition(definition('w', GVK, { name: 'w', statusDefinition: sd }), new ExprCompiler());
  assert.deepEqual(plan.problems, []);
  const obj: KubeObject = {
    apiVersion: 'x.io/v1',
    kind: 'W',
    metadata: { name: 'w1', namespace: 'ns', uid: 'u' },
    status,
    ...extra,
  };
  return evaluateStatus(plan.status, obj, 'ns/w1');
}

const cond = {
  path: '.status.conditions',
  typeFieldName: 'type',
  statusFieldName: 'status',
  messageFieldName: 'message',
};
const c = (type: string, status: string, extra: Record<string, string> = {}) => ({ type, status, ...extra });

test('byConditions: every listed type must exist; status compared when given', () => {
  const sd: StatusDefinition = {
    conditionsDefinition: cond,
    statusMappings: {
      running: [
        {
          byConditions: [
            { type: 'Running', status: 'True' },
            { type: 'Failed', status: 'False' },
          ],
        },
      ],
    },
  };
  assert.deepEqual(evaluate(sd, { conditions: [c('Running', 'True'), c('Failed', 'False')] }).status, ['Running']);
  // Failed missing: the matcher does not hold.
  assert.deepEqual(evaluate(sd, { conditions: [c('Running', 'True')] }).status, ['Undefined']);
  assert.deepEqual(evaluate(sd, { conditions: [c('Running', 'False'), c('Failed', 'False')] }).status, ['Undefined']);
  // No status given: presence is enough.
  const anyStatus: StatusDefinition = {
    conditionsDefinition: cond,
    statusMappings: { initializing: [{ byConditions: [{ type: 'Created' }] }] },
  };
  assert.deepEqual(evaluate(anyStatus, { conditions: [c('Created', 'False')] }).status, ['Initializing']);
});

test('byConditions reason: read only when reasonFieldName is set', () => {
  const mapping = { failed: [{ byConditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] }] };
  const conditions = [c('Failed', 'True', { reason: 'BackoffLimitExceeded' })];
  assert.deepEqual(
    evaluate({ conditionsDefinition: { ...cond, reasonFieldName: 'reason' }, statusMappings: mapping }, { conditions })
      .status,
    ['Failed'],
  );
  assert.deepEqual(evaluate({ conditionsDefinition: cond, statusMappings: mapping }, { conditions }).status, [
    'Undefined',
  ]);
  assert.deepEqual(
    evaluate(
      { conditionsDefinition: { ...cond, reasonFieldName: 'reason' }, statusMappings: mapping },
      { conditions: [c('Failed', 'True', { reason: 'DeadlineExceeded' })] },
    ).status,
    ['Undefined'],
  );
});

test('custom condition field names', () => {
  const sd: StatusDefinition = {
    conditionsDefinition: {
      path: '.status.conds',
      typeFieldName: 'kind',
      statusFieldName: 'state',
      messageFieldName: 'text',
    },
    statusMappings: { failed: [{ byConditions: [{ type: 'Broken', status: 'yes' }] }] },
  };
  const r = evaluate(sd, { conds: [{ kind: 'Broken', state: 'yes', text: 'disk on fire' }] });
  assert.deepEqual(r.status, ['Failed']);
  assert.equal(r.statusMessage, 'disk on fire');
});

test('byPhase compares the phase; byExpression compares (expr) | tostring with expectedResult', () => {
  const sd: StatusDefinition = {
    phaseDefinition: { path: '.status.jobStatus' },
    statusMappings: {
      running: [{ byPhase: 'RUNNING' }],
      degraded: [{ byExpression: { expression: '.status.ready', expectedResult: '3' } }],
      completed: [{ byExpression: { expression: '.status.done', expectedResult: 'true' } }],
      suspended: [{ byExpression: { expression: '.status.mode', expectedResult: 'Suspended' } }],
    },
  };
  assert.deepEqual(evaluate(sd, { jobStatus: 'RUNNING' }).status, ['Running']);
  assert.deepEqual(evaluate(sd, { jobStatus: 'PENDING', ready: 3 }).status, ['Degraded']);
  assert.deepEqual(evaluate(sd, { ready: '3' }).status, ['Degraded']);
  assert.deepEqual(evaluate(sd, { done: true }).status, ['Completed']);
  assert.deepEqual(evaluate(sd, { done: 'true' }).status, ['Completed']);
  assert.deepEqual(evaluate(sd, { mode: 'Suspended' }).status, ['Suspended']);
  assert.deepEqual(evaluate(sd, {}).status, ['Undefined']);
});

test('fields of one matcher are ANDed, matchers ORed; an empty matcher matches', () => {
  const sd: StatusDefinition = {
    conditionsDefinition: cond,
    phaseDefinition: { path: '.status.phase' },
    statusMappings: {
      running: [
        { byPhase: 'Up', byConditions: [{ type: 'Ready', status: 'True' }] },
        { byExpression: { expression: '.status.forced', expectedResult: 'true' } },
      ],
      initializing: [{}],
    },
  };
  assert.deepEqual(evaluate(sd, { phase: 'Up', conditions: [c('Ready', 'True')] }).status, ['Initializing', 'Running']);
  assert.deepEqual(evaluate(sd, { phase: 'Up', conditions: [c('Ready', 'False')] }).status, ['Initializing']);
  assert.deepEqual(evaluate(sd, { phase: 'Down', forced: true }).status, ['Initializing', 'Running']);
});

test('several statuses at once are ordered by severity', () => {
  const sd: StatusDefinition = {
    conditionsDefinition: cond,
    statusMappings: {
      completed: [{ byConditions: [{ type: 'Done' }] }],
      running: [{ byConditions: [{ type: 'Run' }] }],
      suspended: [{ byConditions: [{ type: 'Susp' }] }],
      resuming: [{ byConditions: [{ type: 'Res' }] }],
      initializing: [{ byConditions: [{ type: 'Init' }] }],
      suspending: [{ byConditions: [{ type: 'Suspg' }] }],
      degraded: [{ byConditions: [{ type: 'Deg', status: 'True' }] }],
      failed: [{ byConditions: [{ type: 'Fail', status: 'True' }] }],
    },
  };
  const all = ['Done', 'Run', 'Susp', 'Res', 'Init', 'Suspg', 'Deg', 'Fail'].map((t) => c(t, 'True'));
  assert.deepEqual(evaluate(sd, { conditions: all }).status, [
    'Failed',
    'Degraded',
    'Suspending',
    'Resuming',
    'Suspended',
    'Initializing',
    'Running',
    'Completed',
  ]);
  assert.deepEqual(evaluate(sd, { conditions: [c('Run', 'True'), c('Deg', 'True')] }).status, ['Degraded', 'Running']);
});

test('statusMessage: the message of the condition that drove the most severe status', () => {
  const sd: StatusDefinition = {
    conditionsDefinition: cond,
    statusMappings: {
      running: [{ byConditions: [{ type: 'Running', status: 'True' }] }],
      failed: [{ byConditions: [{ type: 'Failed', status: 'True' }] }],
    },
  };
  const r = evaluate(sd, {
    conditions: [
      c('Running', 'True', { message: 'job is running' }),
      c('Failed', 'True', { message: 'worker-3 exited with 137' }),
    ],
  });
  assert.deepEqual(r.status, ['Failed', 'Running']);
  assert.equal(r.statusMessage, 'worker-3 exited with 137');
  assert.equal(
    evaluate(sd, { conditions: [c('Running', 'True', { message: 'job is running' })] }).statusMessage,
    'job is running',
  );
});

test('an expression failing at runtime is reported and does not match; other statuses still evaluate', () => {
  const sd: StatusDefinition = {
    conditionsDefinition: cond,
    statusMappings: {
      failed: [{ byExpression: { expression: '.status.count + "x"', expectedResult: 'true' } }],
      running: [{ byConditions: [{ type: 'Running', status: 'True' }] }],
    },
  };
  const r = evaluate(sd, { count: 1, conditions: [c('Running', 'True')] });
  assert.deepEqual(r.status, ['Running']);
  assert.equal(r.errors.length, 1);
  assert.match(
    r.errors[0],
    /^ns\/w1: component w: statusDefinition\.statusMappings\.failed\[0\]\.byExpression `\(\.status\.count \+ "x"\) \| tostring`: .+/,
  );
});

test('no status definition: Undefined', () => {
  const plan = planDefinition(definition('w', GVK, { name: 'w' }), new ExprCompiler());
  assert.deepEqual(evaluateStatus(plan.status, { metadata: { name: 'a', uid: 'b' } }, 'a').status, ['Undefined']);
});
