// Upstream's validation rules for a definition, applied to a draft read by
// normalise.ts, each problem pointing at the field that breaks the rule:
// - component names unique and non-empty;
// - the root has a full GVK (an empty group only for core kinds), no ownerRef
//   and a statusDefinition;
// - every child's ownerRef names a component, and ownership has no cycles;
// - at most one pod spec form per component;
// - instanceIdPath and componentInstanceSelector come together or not at all;
// - componentTypeSelector has keyPath or matchLabels (value needs keyPath; the
//   older format requires keyPath);
// - gang members name components;
// - every jq expression compiles and uses no write/recursion construct.
import { checkJqExpression } from './jq-check.js';
import type { NormalisedDraft, ProblemSink } from './normalise.js';
import type { FieldPath } from './yaml-source.js';

/** Core-group kinds a workload definition may have as its root (group ''). */
const CORE_ROOT_KINDS = new Set(['Pod', 'ReplicationController']);

export function validateDraft(draft: NormalisedDraft, sink: ProblemSink): void {
  const { definition, componentPaths } = draft;
  const byName = new Map<string, number>();

  definition.components.forEach((component, index) => {
    const path = componentPaths[index];
    if (component.name === '') {
      sink.add([...path, 'name'], 'component name is empty');
    } else if (byName.has(component.name)) {
      const first = componentPaths[byName.get(component.name)!];
      sink.add([...path, 'name'], `component name "${component.name}" is not unique (also at ${pathText(first)})`);
    } else {
      byName.set(component.name, index);
    }
  });

  // Root rules.
  const root = definition.root;
  const rootPath = componentPaths[0];
  if (!root.kind) {
    sink.add([...rootPath, 'kind'], 'root component must have a kind (group, version, kind)');
  } else {
    if (!root.kind.kind) sink.add([...rootPath, 'kind', 'kind'], 'root component kind must name a kind');
    if (!root.kind.version) sink.add([...rootPath, 'kind', 'version'], 'root component kind must have a version');
    if (root.kind.group === '' && root.kind.kind && !CORE_ROOT_KINDS.has(root.kind.kind)) {
      sink.add(
        [...rootPath, 'kind', 'group'],
        `root component kind must have a group (only core kinds such as ${[...CORE_ROOT_KINDS].join(', ')} have none)`,
      );
    }
  }
  if (root.ownerRef !== undefined) sink.add([...rootPath, 'ownerRef'], 'root component cannot have an ownerRef');
  if (!root.statusDefinition) sink.add([...rootPath, 'statusDefinition'], 'root component must have a statusDefinition');

  // Child rules.
  let ownersResolve = true;
  definition.components.forEach((component, index) => {
    const path = componentPaths[index];
    if (!component.isRoot) {
      if (component.ownerRef === undefined || component.ownerRef === '') {
        sink.add([...path, 'ownerRef'], `child component "${component.name}" must have an ownerRef naming its parent component`);
        ownersResolve = false;
      } else if (!byName.has(component.ownerRef)) {
        sink.add([...path, 'ownerRef'], `ownerRef "${component.ownerRef}" names no component (known: ${[...byName.keys()].join(', ')})`);
        ownersResolve = false;
      }
      if (component.statusDefinition) {
        sink.add([...path, 'statusDefinition'], 'statusDefinition is only read on the root component (ignored)', 'warning');
      }
      if (component.kind && (!component.kind.version || !component.kind.kind)) {
        sink.add([...path, 'kind'], 'a component kind needs version and kind');
      }
    }
    validateComponentForms(draft, index, path, sink);
  });

  // Ownership cycles: only meaningful once every ownerRef resolves (as upstream).
  if (ownersResolve) {
    const inReportedCycle = new Set<string>();
    for (let index = 1; index < definition.components.length; index++) {
      const chain: string[] = [];
      let current = definition.components[index];
      while (current.ownerRef !== undefined) {
        if (chain.includes(current.name)) {
          const cycle = chain.slice(chain.indexOf(current.name));
          if (!cycle.some((name) => inReportedCycle.has(name))) {
            cycle.forEach((name) => inReportedCycle.add(name));
            const at = componentPaths[byName.get(current.name)!];
            sink.add([...at, 'ownerRef'], `ownership cycle: ${[...cycle, current.name].join(' -> ')} never reaches the root`);
          }
          break;
        }
        chain.push(current.name);
        current = definition.components[byName.get(current.ownerRef)!]!;
      }
    }
  }

  // Status matchers that read something the definition never extracts can
  // never match: legal upstream, but almost certainly a mistake.
  const status = root.statusDefinition;
  if (status) {
    for (const [key, matchers] of Object.entries(status.statusMappings)) {
      matchers?.forEach((matcher, i) => {
        const at = [...rootPath, 'statusDefinition', 'statusMappings', key, i];
        if (matcher.byPhase !== undefined && !status.phaseDefinition) {
          sink.add([...at, 'byPhase'], 'byPhase can never match: the statusDefinition has no phaseDefinition', 'warning');
        }
        if (matcher.byConditions?.length && !status.conditionsDefinition) {
          sink.add([...at, 'byConditions'], 'byConditions can never match: the statusDefinition has no conditionsDefinition', 'warning');
        }
      });
    }
  }

  // Gang members.
  definition.gangs.forEach((gang, gi) => {
    if (gang.name === '') sink.add([...draft.gangPaths[gi], 'name'], 'pod group name is empty');
    gang.members.forEach((member, mi) => {
      if (!byName.has(member.componentName)) {
        sink.add(
          draft.gangMemberPaths[gi][mi],
          `pod group member "${member.componentName}" is not a component (known: ${[...byName.keys()].join(', ')})`,
        );
      }
    });
  });

  // jq expressions.
  for (const site of draft.expressions) {
    const problem = checkJqExpression(site.expression);
    if (problem) sink.add(site.path, problem);
  }
}

function validateComponentForms(draft: NormalisedDraft, index: number, path: FieldPath, sink: ProblemSink): void {
  const component = draft.definition.components[index];
  const spec = component.specDefinition;
  if (spec) {
    const forms = [
      spec.podTemplateSpecPath !== undefined && 'podTemplateSpecPath',
      spec.podSpecPath !== undefined && 'podSpecPath',
      spec.fragmentedPodSpecDefinition !== undefined && 'fragmentedPodSpecDefinition',
    ].filter((f): f is string => f !== false);
    if (forms.length > 1) {
      sink.add([...path, 'specDefinition'], `has ${forms.join(' and ')}; use only one pod spec form`);
    }
    if (spec.metadataPath !== undefined && spec.podSpecPath === undefined) {
      sink.add([...path, 'specDefinition', 'metadataPath'], 'metadataPath is only read together with podSpecPath (ignored)', 'warning');
    }
  }
  const selector = component.podSelector;
  const hasInstanceSelector = selector?.componentInstanceSelector !== undefined;
  if (component.instanceIdPath !== undefined && !hasInstanceSelector) {
    sink.add(
      [...path, 'instanceIdPath'],
      `component "${component.name}" has instanceIdPath but no podSelector.componentInstanceSelector to match pods to instances`,
    );
  }
  if (hasInstanceSelector && component.instanceIdPath === undefined) {
    sink.add(
      [...path, 'podSelector', 'componentInstanceSelector'],
      `component "${component.name}" has a componentInstanceSelector but no instanceIdPath`,
    );
  }
  const type = selector?.componentTypeSelector;
  if (type) {
    const tpath = [...path, 'podSelector', 'componentTypeSelector'];
    const hasLabels = type.matchLabels !== undefined && Object.keys(type.matchLabels).length > 0;
    if (type.keyPath === undefined || type.keyPath === '') {
      if (draft.definition.format === 'ResourceInterface') {
        sink.add([...tpath, 'keyPath'], 'componentTypeSelector.keyPath is required in the ResourceInterface format');
      } else if (!hasLabels) {
        sink.add(tpath, 'componentTypeSelector needs keyPath or matchLabels');
      }
      if (type.value !== undefined) sink.add([...tpath, 'value'], 'value needs keyPath (it is compared with what keyPath yields)');
    }
    if (type.matchLabels !== undefined && !hasLabels) {
      sink.add([...tpath, 'matchLabels'], 'matchLabels must have at least one label');
    }
  }
}

function pathText(path: FieldPath): string {
  return path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('').replace(/^\./, '');
}
