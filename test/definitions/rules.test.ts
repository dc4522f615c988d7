// One bad definition per validation rule; each asserts the problem's field
// path and the line of the offending YAML node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadDefinitionText } from '../../src/definitions/index.js';
import { KARTA, RESOURCE_INTERFACE, edit, findProblem, lineContaining } from './helpers.js';

const CHILD = 'spec.structureDefinition.childComponents';
const ROOT = 'spec.structureDefinition.rootComponent';

function load(text: string) {
  return loadDefinitionText(text, 'defs/example.yaml', 'file');
}

/** Loads `text`, asserts it is rejected with a problem at `field` on the line containing `lineNeedle`. */
function expectRejected(text: string, field: string, pattern: RegExp, lineNeedle: string, occurrence = 1) {
  const result = load(text);
  assert.equal(result.definitions.length, 0, 'the definition must be rejected');
  const problem = findProblem(result.problems, field, pattern);
  assert.equal(problem.file, 'defs/example.yaml');
  assert.equal(problem.severity, 'error');
  assert.equal(problem.line, lineContaining(text, lineNeedle, occurrence), `line of ${field}`);
  return problem;
}

test('the example definitions are valid in both formats', () => {
  for (const text of [KARTA, RESOURCE_INTERFACE]) {
    const result = load(text);
    assert.deepEqual(result.problems, []);
    assert.equal(result.definitions.length, 1);
  }
});

test('component names must be non-empty', () => {
  const text = edit(KARTA, '- name: worker', '- name: ""');
  expectRejected(text, `${CHILD}[1].name`, /component name is empty/, '- name: ""');
});

test('component names must be unique', () => {
  const text = edit(KARTA, '- name: worker', '- name: group');
  // reported at the second `- name: group`, the duplicate
  expectRejected(text, `${CHILD}[1].name`, /"group" is not unique/, '- name: group', 2);
});

test('the root needs a group unless it is a core kind', () => {
  const text = edit(KARTA, 'group: example.com', 'group: ""');
  expectRejected(text, `${ROOT}.kind.group`, /must have a group/, 'group: ""', 1);
});

test('the root needs a version and a kind', () => {
  const text = edit(KARTA, '        version: v1\n        kind: TrainJob\n', '        kind: TrainJob\n');
  expectRejected(text, `${ROOT}.kind.version`, /must have a version/, 'kind:', 2);
});

test('the root needs a kind at all', () => {
  const text = edit(KARTA, '      kind:\n        group: example.com\n        version: v1\n        kind: TrainJob\n', '');
  expectRejected(text, `${ROOT}.kind`, /must have a kind/, 'rootComponent:');
});

test('a core-group root (Pod) is accepted', () => {
  const text = edit(edit(KARTA, 'group: example.com', 'group: ""'), 'kind: TrainJob', 'kind: Pod');
  assert.equal(load(text).definitions.length, 1);
});

test('the root cannot have an ownerRef', () => {
  const text = edit(KARTA, '      name: trainjob\n', '      name: trainjob\n      ownerRef: group\n');
  expectRejected(text, `${ROOT}.ownerRef`, /cannot have an ownerRef/, 'ownerRef: group', 1);
});

test('the root needs a statusDefinition (reported at the root component)', () => {
  const text = edit(KARTA, '      statusDefinition:', '      xStatusDefinition:');
  expectRejected(text, `${ROOT}.statusDefinition`, /must have a statusDefinition/, 'rootComponent:');
});

test("a child's ownerRef must name a component", () => {
  const text = edit(KARTA, 'ownerRef: group', 'ownerRef: grup');
  expectRejected(text, `${CHILD}[1].ownerRef`, /"grup" names no component/, 'ownerRef: grup');
});

test('a child must have an ownerRef (reported at its list item)', () => {
  const text = edit(KARTA, '        ownerRef: trainjob\n', '');
  expectRejected(text, `${CHILD}[0].ownerRef`, /must have an ownerRef/, '- name: group');
});

test('ownership may not form a cycle', () => {
  const text = edit(KARTA, 'ownerRef: trainjob', 'ownerRef: worker');
  expectRejected(text, `${CHILD}[0].ownerRef`, /ownership cycle: group -> worker -> group/, 'ownerRef: worker');
});

test('a component has at most one pod spec form', () => {
  const text = edit(KARTA, '          podTemplateSpecPath: .spec.groups[].template\n', '          podTemplateSpecPath: .spec.groups[].template\n          podSpecPath: .spec.groups[].template.spec\n');
  expectRejected(text, `${CHILD}[1].specDefinition`, /podTemplateSpecPath and podSpecPath/, 'specDefinition:', 1);
});

test('instanceIdPath needs a componentInstanceSelector', () => {
  const text = edit(KARTA, 'componentInstanceSelector:\n            idPath:', 'replicaSelector:\n            keyPath:');
  expectRejected(text, `${CHILD}[0].instanceIdPath`, /no podSelector.componentInstanceSelector/, 'instanceIdPath:');
});

test('a componentInstanceSelector needs instanceIdPath', () => {
  const text = edit(KARTA, '        instanceIdPath: .spec.groups[].name\n', '');
  expectRejected(text, `${CHILD}[0].podSelector.componentInstanceSelector`, /no instanceIdPath/, 'componentInstanceSelector:');
});

test('componentTypeSelector needs keyPath or matchLabels', () => {
  const text = edit(KARTA, '            keyPath: .metadata.labels["example.com/role"]\n            value: worker\n', '            matchLabels: {}\n');
  expectRejected(text, `${CHILD}[1].podSelector.componentTypeSelector`, /needs keyPath or matchLabels/, 'componentTypeSelector:');
});

test('componentTypeSelector.value needs keyPath', () => {
  const text = edit(KARTA, '            keyPath: .metadata.labels["example.com/role"]\n', '            matchLabels: {app: x}\n');
  expectRejected(text, `${CHILD}[1].podSelector.componentTypeSelector.value`, /value needs keyPath/, 'value: worker');
});

test('matchLabels alone is enough in the Karta format', () => {
  const text = edit(KARTA, '            keyPath: .metadata.labels["example.com/role"]\n            value: worker\n', '            matchLabels:\n              app: trainer\n');
  const result = load(text);
  assert.deepEqual(result.problems, []);
  assert.deepEqual(result.definitions[0].components[2].podSelector?.componentTypeSelector, { matchLabels: { app: 'trainer' } });
});

test('the ResourceInterface format requires componentTypeSelector.keyPath', () => {
  const text = edit(RESOURCE_INTERFACE, `{keyPath: '.metadata.labels["example.com/role"]', value: worker}`, '{matchLabels: {app: x}}');
  expectRejected(text, `${CHILD}[1].podSelector.componentTypeSelector.keyPath`, /required in the ResourceInterface format/, 'componentTypeSelector:');
});

test('gang members must name components', () => {
  const text = edit(KARTA, '- componentName: worker', '- componentName: wroker');
  expectRejected(
    text,
    'spec.optimizationInstructions.gangScheduling.podGroups[0].members[0].componentName',
    /"wroker" is not a component/,
    '- componentName: wroker',
  );
});

test('expressions may not use forbidden constructs', () => {
  const cases: [string, string, RegExp][] = [
    ['.metadata.labels["example.com/role"]', '.metadata | ..', /`\.\.`/],
    ['.metadata.labels["example.com/role"]', 'del(.metadata)', /`del`/],
    ['.metadata.labels["example.com/role"]', '.metadata.name = "x"', /`=`/],
    ['.metadata.labels["example.com/role"]', '.metadata |= {}', /`\|=`/],
    ['.metadata.labels["example.com/role"]', '[range(3)]', /`range`/],
    ['.metadata.labels["example.com/role"]', '[paths]', /`paths`/],
    ['.metadata.labels["example.com/role"]', 'walk(.)', /`walk`/],
    ['.metadata.labels["example.com/role"]', '[recurse]', /`recurse`/],
  ];
  for (const [from, to, pattern] of cases) {
    const text = edit(KARTA, `keyPath: ${from}`, `keyPath: '${to}'`);
    expectRejected(text, `${CHILD}[1].podSelector.componentTypeSelector.keyPath`, pattern, `keyPath: '${to}'`);
  }
});

test('comparison operators and string contents are not mistaken for assignment', () => {
  const text = edit(KARTA, '(.status.failed // 0) > 0', '.status.a == "x = y" and .status.b != 1 and .status.c <= 2 and .status.d >= 3');
  assert.deepEqual(load(text).problems, []);
});

test('a jq expression in a nested list item is reported at its line', () => {
  const text = edit(KARTA, '- (.spec.containers | length) > 0', "- 'walk(.)'");
  expectRejected(
    text,
    'spec.optimizationInstructions.gangScheduling.podGroups[0].members[0].filters[0]',
    /`walk`/,
    "- 'walk(.)'",
  );
});

test('a jq field that is not a string is rejected', () => {
  const text = edit(KARTA, 'replicasPath: .spec.groups[].replicas', 'replicasPath: 3');
  expectRejected(text, `${CHILD}[0].scaleDefinition.replicasPath`, /must be a string/, 'replicasPath: 3');
});

test('a byExpression needs expectedResult', () => {
  const text = edit(KARTA, '                expectedResult: "true"\n', '');
  expectRejected(text, `${ROOT}.statusDefinition.statusMappings.failed[0].byExpression.expectedResult`, /required/, 'byExpression:');
});

test('unknown fields are warnings that name the field and keep the definition', () => {
  const text = edit(KARTA, '        ownerRef: group\n', '        ownerRef: group\n        ownerName: group\n');
  const result = load(text);
  assert.equal(result.definitions.length, 1);
  const problem = findProblem(result.problems, `${CHILD}[1].ownerName`, /unknown field/);
  assert.equal(problem.severity, 'warning');
  assert.equal(problem.line, lineContaining(text, 'ownerName: group'));
});

test('every jq expression must compile (checked by the jq engine)', () => {
  const text = edit(KARTA, 'expression: (.status.failed // 0) > 0', 'expression: (.status.failed // 0) >');
  expectRejected(text, `${ROOT}.statusDefinition.statusMappings.failed[0].byExpression.expression`, /does not compile/, 'expression: (.status.failed // 0) >');
  const unclosed = edit(KARTA, 'replicasPath: .spec.groups[].replicas', "replicasPath: '.spec.groups[.replicas'");
  expectRejected(unclosed, `${CHILD}[0].scaleDefinition.replicasPath`, /does not compile/, 'replicasPath:');
});

test('valid jq outside the common subset is accepted', () => {
  const text = edit(KARTA, 'replicasPath: .spec.groups[].replicas', 'replicasPath: \'.spec.groups[] | "\\(.replicas)" | tonumber\'');
  assert.deepEqual(load(text).problems, []);
});

test('status matchers that can never match are warned about', () => {
  const text = edit(KARTA, '        phaseDefinition:\n          path: .status.phase\n', '');
  const result = load(text);
  assert.equal(result.definitions.length, 1, 'still valid: upstream accepts it');
  const problem = findProblem(result.problems, `${ROOT}.statusDefinition.statusMappings.running[1].byPhase`, /no phaseDefinition/);
  assert.equal(problem.severity, 'warning');
  assert.equal(problem.line, lineContaining(text, '- byPhase: Active'));
});
