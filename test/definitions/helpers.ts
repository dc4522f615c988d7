// Shared helpers for the definitions tests: a valid example in each format and
// assertions that find a problem by field and line.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { DefinitionProblem } from '../../src/definitions/index.js';

/** The repository root (tests run from dist/test/definitions). */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const upstreamCatalog = path.resolve(repoRoot, '../shared/upstream-catalog');

/** 1-based line of the `occurrence`-th line containing `needle`. */
export function lineContaining(text: string, needle: string, occurrence = 1): number {
  const lines = text.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].includes(needle) && ++seen === occurrence) return i + 1;
  }
  throw new Error(`no line ${occurrence} containing ${JSON.stringify(needle)}`);
}

/** Replaces exactly one occurrence of `from` (fails loudly when the fixture changed). */
export function edit(text: string, from: string, to: string): string {
  const index = text.indexOf(from);
  assert.ok(index >= 0, `fixture has no ${JSON.stringify(from)}`);
  assert.equal(text.indexOf(from, index + 1), -1, `fixture has ${JSON.stringify(from)} more than once`);
  return text.slice(0, index) + to + text.slice(index + from.length);
}

export function findProblem(problems: DefinitionProblem[], field: string, pattern: RegExp): DefinitionProblem {
  const found = problems.find((p) => p.field === field && pattern.test(p.message));
  assert.ok(
    found,
    `expected a problem at ${field} matching ${pattern}; got:\n` + problems.map((p) => `  ${p.line}: ${p.field}: ${p.message}`).join('\n'),
  );
  return found;
}

/** A valid Karta exercising most fields. */
export const KARTA = `# a comment before the document
apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: example-com-trainjob-v1
spec:
  structureDefinition:
    rootComponent:
      name: trainjob
      kind:
        group: example.com
        version: v1
        kind: TrainJob
      statusDefinition:
        conditionsDefinition:
          path: .status.conditions
        phaseDefinition:
          path: .status.phase
        statusMappings:
          running:
            - byConditions:
                - type: Running
                  status: "True"
            - byPhase: Active
          failed:
            - byExpression:
                expression: (.status.failed // 0) > 0
                expectedResult: "true"
    childComponents:
      - name: group
        ownerRef: trainjob
        instanceIdPath: .spec.groups[].name
        scaleDefinition:
          replicasPath: .spec.groups[].replicas
        podSelector:
          componentInstanceSelector:
            idPath: .metadata.labels["example.com/group"]
      - name: worker
        kind:
          group: ""
          version: v1
          kind: Pod
        ownerRef: group
        specDefinition:
          podTemplateSpecPath: .spec.groups[].template
        podSelector:
          componentTypeSelector:
            keyPath: .metadata.labels["example.com/role"]
            value: worker
  optimizationInstructions:
    gangScheduling:
      podGroups:
        - name: job
          members:
            - componentName: worker
              groupByKeyPaths:
                - .metadata.labels["example.com/job"]
              filters:
                - (.spec.containers | length) > 0
`;

/** The same definition in the older ResourceInterface format (and another layout). */
export const RESOURCE_INTERFACE = `apiVersion: optimization.nvidia.com/v1alpha1
kind: ResourceInterface
metadata: {name: example-com-trainjob-v1}
spec:
  structureDefinition:
    childComponents:
    - name: group
      ownerRef: trainjob
      scaleDefinition: {replicasPath: ".spec.groups[].replicas"}
      instanceIdPath: .spec.groups[].name
      podSelector:
        componentInstanceSelector:
          idPath: .metadata.labels["example.com/group"]
    - kind: {group: "", version: v1, kind: Pod}
      name: worker
      ownerRef: group
      specDefinition:
        podTemplateSpecPath: .spec.groups[].template
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels["example.com/role"]', value: worker}
    rootComponent:
      kind: {group: example.com, version: v1, kind: TrainJob}
      name: trainjob
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        conditionsDefinition:
          path: .status.conditions
          typeFieldName: type
          statusFieldName: status
          messageFieldName: message
        statusMappings:
          failed:
          - byExpression: {expression: (.status.failed // 0) > 0, expectedResult: "true"}
          running:
          - byConditions: [{type: Running, status: "True"}]
          - byPhase: Active
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: job
        members:
        - componentName: worker
          groupByKeyPaths: ['.metadata.labels["example.com/job"]']
          filters: ['(.spec.containers | length) > 0']
`;
