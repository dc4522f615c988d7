// Reads one Workload Map document — current `run.ai/v1alpha1` Karta or older
// `optimization.nvidia.com/v1alpha1` ResourceInterface — into the one typed
// model of types.ts. This file checks shapes (a string where a string belongs,
// required fields present, unknown fields flagged); the upstream rules that
// relate fields to each other live in validate.ts.
import type {
  Component,
  ComponentTypeSelector,
  ConditionMatcher,
  ConditionsDefinition,
  Definition,
  DefinitionProblem,
  DefinitionSource,
  FragmentedPodSpecDefinition,
  GangGroup,
  GangMember,
  Gvk,
  PodSelector,
  ScaleDefinition,
  SpecDefinition,
  StatusDefinition,
  StatusKey,
  StatusMatcher,
  SuspendAction,
  SuspendDefinition,
} from './types.js';
import { formatFieldPath, type FieldPath } from './yaml-source.js';

export type DefinitionFormat = Definition['format'];

export const KARTA_API_VERSION = 'run.ai/v1alpha1';
export const RESOURCE_INTERFACE_API_VERSION = 'optimization.nvidia.com/v1alpha1';

export const STATUS_KEYS: readonly StatusKey[] = [
  'initializing',
  'running',
  'completed',
  'failed',
  'degraded',
  'suspended',
  'suspending',
  'resuming',
];

export const FRAGMENTED_POD_SPEC_FIELDS: readonly (keyof FragmentedPodSpecDefinition)[] = [
  'schedulerNamePath',
  'labelsPath',
  'annotationsPath',
  'resourcesPath',
  'resourceClaimsPath',
  'podAffinityPath',
  'nodeAffinityPath',
  'containersPath',
  'containerPath',
  'priorityClassNamePath',
  'imagePath',
];

/** A jq expression found in a definition, with where it was written. */
export interface ExpressionSite {
  path: FieldPath;
  expression: string;
}

/** The model plus where each part came from, for validate.ts to point at. */
export interface NormalisedDraft {
  definition: Definition;
  /** Field path of each entry of definition.components (same order). */
  componentPaths: FieldPath[];
  /** Field path of each gang, and of each of its members. */
  gangPaths: FieldPath[];
  gangMemberPaths: FieldPath[][];
  expressions: ExpressionSite[];
}

export type DocumentClass =
  | { kind: 'definition'; format: DefinitionFormat }
  | { kind: 'unsupported-version'; format: DefinitionFormat; apiVersion: string }
  | { kind: 'other'; description: string };

/** Is this document a definition, and in which format? */
export function classifyDocument(obj: unknown): DocumentClass {
  if (!isRecord(obj)) return { kind: 'other', description: obj === null ? 'an empty document' : `a ${typeName(obj)}` };
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  if (kind === 'Karta') {
    return apiVersion === KARTA_API_VERSION
      ? { kind: 'definition', format: 'Karta' }
      : { kind: 'unsupported-version', format: 'Karta', apiVersion };
  }
  if (kind === 'ResourceInterface') {
    return apiVersion === RESOURCE_INTERFACE_API_VERSION
      ? { kind: 'definition', format: 'ResourceInterface' }
      : { kind: 'unsupported-version', format: 'ResourceInterface', apiVersion };
  }
  const what = kind ? `${apiVersion || '(no apiVersion)'} ${kind}` : 'a document without a kind';
  return { kind: 'other', description: what };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'mapping';
  return typeof value;
}

/** Collects problems with their field path and line while a document is read. */
export class ProblemSink {
  readonly problems: DefinitionProblem[] = [];

  constructor(
    readonly file: string,
    private readonly lineOf?: (path: FieldPath) => number,
  ) {}

  add(path: FieldPath, message: string, severity: 'error' | 'warning' = 'error'): void {
    const problem: DefinitionProblem = { file: this.file, message, severity };
    const line = this.lineOf?.(path);
    if (line !== undefined) problem.line = line;
    if (path.length) problem.field = formatFieldPath(path);
    this.problems.push(problem);
  }

  get hasErrors(): boolean {
    return this.problems.some((p) => p.severity === 'error');
  }
}

class DocumentReader {
  readonly expressions: ExpressionSite[] = [];

  constructor(
    readonly sink: ProblemSink,
    readonly format: DefinitionFormat,
  ) {}

  /** Flags keys this format does not define (upstream drops them silently). */
  knownKeys(obj: Record<string, unknown>, path: FieldPath, keys: readonly string[]): void {
    for (const key of Object.keys(obj)) {
      if (!keys.includes(key)) this.sink.add([...path, key], `unknown field "${key}" (ignored)`, 'warning');
    }
  }

  record(obj: Record<string, unknown>, key: string, path: FieldPath, required: boolean): Record<string, unknown> | undefined {
    const value = obj[key];
    if (value === undefined || value === null) {
      if (required) this.sink.add([...path, key], `${key} is required`);
      return undefined;
    }
    if (!isRecord(value)) {
      this.sink.add([...path, key], `must be a mapping, not a ${typeName(value)}`);
      return undefined;
    }
    return value;
  }

  list(obj: Record<string, unknown>, key: string, path: FieldPath, required = false): unknown[] | undefined {
    const value = obj[key];
    if (value === undefined || value === null) {
      if (required) this.sink.add([...path, key], `${key} is required`);
      return undefined;
    }
    if (!Array.isArray(value)) {
      this.sink.add([...path, key], `must be a list, not a ${typeName(value)}`);
      return undefined;
    }
    return value;
  }

  string(obj: Record<string, unknown>, key: string, path: FieldPath, required = false): string | undefined {
    const value = obj[key];
    if (value === undefined || value === null) {
      if (required) this.sink.add([...path, key], `${key} is required`);
      return undefined;
    }
    if (typeof value !== 'string') {
      // YAML turns `value: "0"` into a string but `value: 0` into a number;
      // upstream's Go types reject the latter, and so do we (the fix is quoting).
      this.sink.add([...path, key], `must be a string, not a ${typeName(value)} (quote it)`);
      return undefined;
    }
    return value;
  }

  /** A jq expression field: a string, remembered for the jq checks. */
  expression(obj: Record<string, unknown>, key: string, path: FieldPath, required = false): string | undefined {
    const value = this.string(obj, key, path, required);
    if (value !== undefined) this.expressions.push({ path: [...path, key], expression: value });
    return value;
  }

  expressionList(obj: Record<string, unknown>, key: string, path: FieldPath): string[] {
    const items = this.list(obj, key, path) ?? [];
    const out: string[] = [];
    items.forEach((item, i) => {
      if (typeof item !== 'string') {
        this.sink.add([...path, key, i], `must be a string (a jq expression), not a ${typeName(item)}`);
        return;
      }
      this.expressions.push({ path: [...path, key, i], expression: item });
      out.push(item);
    });
    return out;
  }

  gvk(value: unknown, path: FieldPath): Gvk | undefined {
    if (!isRecord(value)) {
      this.sink.add(path, `must be a mapping with group, version and kind, not a ${typeName(value)}`);
      return undefined;
    }
    this.knownKeys(value, path, ['group', 'version', 'kind']);
    const group = value.group === undefined || value.group === null ? '' : this.string(value, 'group', path);
    const version = this.string(value, 'version', path) ?? '';
    const kind = this.string(value, 'kind', path) ?? '';
    if (group === undefined) return undefined;
    return { group, version, kind };
  }

  component(raw: unknown, path: FieldPath, isRoot: boolean): Component | undefined {
    if (!isRecord(raw)) {
      this.sink.add(path, `a component must be a mapping, not a ${typeName(raw)}`);
      return undefined;
    }
    this.knownKeys(raw, path, [
      'name',
      'kind',
      'ownerRef',
      'specDefinition',
      'scaleDefinition',
      'statusDefinition',
      'suspendDefinition',
      'instanceIdPath',
      'podSelector',
    ]);
    const name = this.string(raw, 'name', path) ?? '';
    const component: Component = { name, isRoot };
    if (raw.kind !== undefined && raw.kind !== null) {
      const kind = this.gvk(raw.kind, [...path, 'kind']);
      if (kind) component.kind = kind;
    }
    if (raw.ownerRef !== undefined && raw.ownerRef !== null) {
      const ownerRef = this.string(raw, 'ownerRef', path);
      if (ownerRef !== undefined) component.ownerRef = ownerRef;
    }
    const spec = this.record(raw, 'specDefinition', path, false);
    if (spec) component.specDefinition = this.specDefinition(spec, [...path, 'specDefinition']);
    const scale = this.record(raw, 'scaleDefinition', path, false);
    if (scale) component.scaleDefinition = this.scaleDefinition(scale, [...path, 'scaleDefinition']);
    const status = this.record(raw, 'statusDefinition', path, false);
    if (status) {
      const statusDefinition = this.statusDefinition(status, [...path, 'statusDefinition']);
      if (statusDefinition) component.statusDefinition = statusDefinition;
    }
    const suspend = this.record(raw, 'suspendDefinition', path, false);
    if (suspend) {
      const suspendDefinition = this.suspendDefinition(suspend, [...path, 'suspendDefinition']);
      if (suspendDefinition) component.suspendDefinition = suspendDefinition;
    }
    const instanceIdPath = this.expression(raw, 'instanceIdPath', path);
    if (instanceIdPath !== undefined) component.instanceIdPath = instanceIdPath;
    const selector = this.record(raw, 'podSelector', path, false);
    if (selector) component.podSelector = this.podSelector(selector, [...path, 'podSelector']);
    return component;
  }

  specDefinition(raw: Record<string, unknown>, path: FieldPath): SpecDefinition {
    this.knownKeys(raw, path, ['podTemplateSpecPath', 'podSpecPath', 'metadataPath', 'fragmentedPodSpecDefinition']);
    const spec: SpecDefinition = {};
    const podTemplateSpecPath = this.expression(raw, 'podTemplateSpecPath', path);
    if (podTemplateSpecPath !== undefined) spec.podTemplateSpecPath = podTemplateSpecPath;
    const podSpecPath = this.expression(raw, 'podSpecPath', path);
    if (podSpecPath !== undefined) spec.podSpecPath = podSpecPath;
    const metadataPath = this.expression(raw, 'metadataPath', path);
    if (metadataPath !== undefined) spec.metadataPath = metadataPath;
    const fragmented = this.record(raw, 'fragmentedPodSpecDefinition', path, false);
    if (fragmented) {
      const fpath = [...path, 'fragmentedPodSpecDefinition'];
      this.knownKeys(fragmented, fpath, FRAGMENTED_POD_SPEC_FIELDS);
      const out: FragmentedPodSpecDefinition = {};
      for (const field of FRAGMENTED_POD_SPEC_FIELDS) {
        const value = this.expression(fragmented, field, fpath);
        if (value !== undefined) out[field] = value;
      }
      spec.fragmentedPodSpecDefinition = out;
    }
    return spec;
  }

  scaleDefinition(raw: Record<string, unknown>, path: FieldPath): ScaleDefinition {
    this.knownKeys(raw, path, ['replicasPath', 'minReplicasPath', 'maxReplicasPath']);
    const scale: ScaleDefinition = {};
    for (const field of ['replicasPath', 'minReplicasPath', 'maxReplicasPath'] as const) {
      const value = this.expression(raw, field, path);
      if (value !== undefined) scale[field] = value;
    }
    return scale;
  }

  podSelector(raw: Record<string, unknown>, path: FieldPath): PodSelector {
    this.knownKeys(raw, path, ['componentTypeSelector', 'componentInstanceSelector', 'replicaSelector']);
    const selector: PodSelector = {};
    const type = this.record(raw, 'componentTypeSelector', path, false);
    if (type) {
      const tpath = [...path, 'componentTypeSelector'];
      this.knownKeys(type, tpath, ['keyPath', 'value', 'matchLabels']);
      const out: ComponentTypeSelector = {};
      const keyPath = this.expression(type, 'keyPath', tpath);
      if (keyPath !== undefined) out.keyPath = keyPath;
      const value = this.string(type, 'value', tpath);
      if (value !== undefined) out.value = value;
      const labels = this.record(type, 'matchLabels', tpath, false);
      if (labels) {
        const matchLabels: Record<string, string> = {};
        for (const [k, v] of Object.entries(labels)) {
          if (typeof v === 'string') matchLabels[k] = v;
          else this.sink.add([...tpath, 'matchLabels', k], `label values must be strings, not a ${typeName(v)} (quote it)`);
        }
        out.matchLabels = matchLabels;
      }
      selector.componentTypeSelector = out;
    }
    const instance = this.record(raw, 'componentInstanceSelector', path, false);
    if (instance) {
      const ipath = [...path, 'componentInstanceSelector'];
      this.knownKeys(instance, ipath, ['idPath']);
      const idPath = this.expression(instance, 'idPath', ipath, true);
      if (idPath !== undefined) selector.componentInstanceSelector = { idPath };
    }
    const replica = this.record(raw, 'replicaSelector', path, false);
    if (replica) {
      const rpath = [...path, 'replicaSelector'];
      this.knownKeys(replica, rpath, ['keyPath']);
      const keyPath = this.expression(replica, 'keyPath', rpath, true);
      if (keyPath !== undefined) selector.replicaSelector = { keyPath };
    }
    return selector;
  }

  statusDefinition(raw: Record<string, unknown>, path: FieldPath): StatusDefinition | undefined {
    this.knownKeys(raw, path, ['conditionsDefinition', 'phaseDefinition', 'statusMappings']);
    const out: StatusDefinition = { statusMappings: {} };
    const conditions = this.record(raw, 'conditionsDefinition', path, false);
    if (conditions) {
      const cpath = [...path, 'conditionsDefinition'];
      this.knownKeys(conditions, cpath, ['path', 'typeFieldName', 'statusFieldName', 'messageFieldName', 'reasonFieldName']);
      const conditionsPath = this.expression(conditions, 'path', cpath, true);
      if (conditionsPath !== undefined) {
        const definition: ConditionsDefinition = {
          path: conditionsPath,
          typeFieldName: this.string(conditions, 'typeFieldName', cpath) || 'type',
          statusFieldName: this.string(conditions, 'statusFieldName', cpath) || 'status',
          messageFieldName: this.string(conditions, 'messageFieldName', cpath) || 'message',
        };
        const reasonFieldName = this.string(conditions, 'reasonFieldName', cpath);
        if (reasonFieldName) definition.reasonFieldName = reasonFieldName;
        out.conditionsDefinition = definition;
      }
    }
    const phase = this.record(raw, 'phaseDefinition', path, false);
    if (phase) {
      const ppath = [...path, 'phaseDefinition'];
      this.knownKeys(phase, ppath, ['path']);
      const phasePath = this.expression(phase, 'path', ppath, true);
      if (phasePath !== undefined) out.phaseDefinition = { path: phasePath };
    }
    const mappings = this.record(raw, 'statusMappings', path, true);
    if (!mappings) return out;
    const mpath = [...path, 'statusMappings'];
    for (const key of Object.keys(mappings)) {
      if (!(STATUS_KEYS as readonly string[]).includes(key)) {
        this.sink.add([...mpath, key], `unknown status "${key}" (expected one of ${STATUS_KEYS.join(', ')}; ignored)`, 'warning');
        continue;
      }
      const matchers = this.list(mappings, key, mpath) ?? [];
      out.statusMappings[key as StatusKey] = matchers.flatMap((m, i) => {
        const matcher = this.statusMatcher(m, [...mpath, key, i]);
        return matcher ? [matcher] : [];
      });
    }
    return out;
  }

  statusMatcher(raw: unknown, path: FieldPath): StatusMatcher | undefined {
    if (!isRecord(raw)) {
      this.sink.add(path, `a status matcher must be a mapping, not a ${typeName(raw)}`);
      return undefined;
    }
    this.knownKeys(raw, path, ['byPhase', 'byConditions', 'byExpression']);
    const matcher: StatusMatcher = {};
    const byPhase = this.string(raw, 'byPhase', path);
    if (byPhase !== undefined) matcher.byPhase = byPhase;
    const conditions = this.list(raw, 'byConditions', path);
    if (conditions) {
      matcher.byConditions = conditions.flatMap((c, i) => {
        const cpath = [...path, 'byConditions', i];
        if (!isRecord(c)) {
          this.sink.add(cpath, `a condition matcher must be a mapping, not a ${typeName(c)}`);
          return [];
        }
        this.knownKeys(c, cpath, ['type', 'status', 'reason']);
        const type = this.string(c, 'type', cpath, true);
        if (type === undefined) return [];
        const out: ConditionMatcher = { type };
        const status = this.string(c, 'status', cpath);
        if (status !== undefined) out.status = status;
        const reason = this.string(c, 'reason', cpath);
        if (reason !== undefined) out.reason = reason;
        return [out];
      });
    }
    const byExpression = this.record(raw, 'byExpression', path, false);
    if (byExpression) {
      const epath = [...path, 'byExpression'];
      this.knownKeys(byExpression, epath, ['expression', 'expectedResult']);
      const expression = this.expression(byExpression, 'expression', epath, true);
      const expectedResult = this.string(byExpression, 'expectedResult', epath, true);
      if (expression !== undefined && expectedResult !== undefined) matcher.byExpression = { expression, expectedResult };
    }
    return matcher;
  }

  suspendDefinition(raw: Record<string, unknown>, path: FieldPath): SuspendDefinition | undefined {
    this.knownKeys(raw, path, ['suspendActions', 'resumeActions']);
    const actions = (key: 'suspendActions' | 'resumeActions'): SuspendAction[] => {
      const items = this.list(raw, key, path, true);
      if (items && items.length === 0) this.sink.add([...path, key], `${key} needs at least one action`);
      return (items ?? []).flatMap((item, i) => {
        const apath = [...path, key, i];
        if (!isRecord(item)) {
          this.sink.add(apath, `an action must be a mapping with path and value, not a ${typeName(item)}`);
          return [];
        }
        this.knownKeys(item, apath, ['path', 'value']);
        const actionPath = this.expression(item, 'path', apath, true);
        const value = this.string(item, 'value', apath, true);
        if (value !== undefined) {
          try {
            JSON.parse(value);
          } catch {
            this.sink.add([...apath, 'value'], `value must be JSON-encoded (e.g. 'true', '0', '"Suspended"'), got ${JSON.stringify(value)}`);
          }
        }
        return actionPath !== undefined && value !== undefined ? [{ path: actionPath, value }] : [];
      });
    };
    return { suspendActions: actions('suspendActions'), resumeActions: actions('resumeActions') };
  }

  gangs(raw: Record<string, unknown>, path: FieldPath): { gangs: GangGroup[]; gangPaths: FieldPath[]; memberPaths: FieldPath[][] } {
    const gangs: GangGroup[] = [];
    const gangPaths: FieldPath[] = [];
    const memberPaths: FieldPath[][] = [];
    this.knownKeys(raw, path, this.format === 'Karta' ? ['podGroups', 'podGroup'] : ['podGroups']);
    const groups = this.list(raw, 'podGroups', path) ?? [];
    groups.forEach((group, gi) => {
      const gpath = [...path, 'podGroups', gi];
      if (!isRecord(group)) {
        this.sink.add(gpath, `a pod group must be a mapping, not a ${typeName(group)}`);
        return;
      }
      this.knownKeys(group, gpath, ['name', 'members']);
      const name = this.string(group, 'name', gpath, true) ?? '';
      const members: GangMember[] = [];
      const paths: FieldPath[] = [];
      (this.list(group, 'members', gpath, true) ?? []).forEach((member, mi) => {
        const mpath = [...gpath, 'members', mi];
        if (!isRecord(member)) {
          this.sink.add(mpath, `a member must be a mapping, not a ${typeName(member)}`);
          return;
        }
        this.knownKeys(member, mpath, ['componentName', 'groupByKeyPaths', 'filters']);
        const componentName = this.string(member, 'componentName', mpath, true);
        if (componentName === undefined) return;
        members.push({
          componentName,
          groupByKeyPaths: this.expressionList(member, 'groupByKeyPaths', mpath),
          filters: this.expressionList(member, 'filters', mpath),
        });
        paths.push([...mpath, 'componentName']);
      });
      gangs.push({ name, members });
      gangPaths.push(gpath);
      memberPaths.push(paths);
    });
    const single = this.format === 'Karta' ? this.record(raw, 'podGroup', path, false) : undefined;
    if (single) {
      const gpath = [...path, 'podGroup'];
      this.knownKeys(single, gpath, ['name', 'subGroups', 'topology']);
      const name = this.string(single, 'name', gpath, true) ?? '';
      const members: GangMember[] = [];
      const paths: FieldPath[] = [];
      (this.list(single, 'subGroups', gpath) ?? []).forEach((sub, si) => {
        const spath = [...gpath, 'subGroups', si];
        if (!isRecord(sub)) {
          this.sink.add(spath, `a sub-group must be a mapping, not a ${typeName(sub)}`);
          return;
        }
        this.knownKeys(sub, spath, ['componentName', 'topology']);
        const componentName = this.string(sub, 'componentName', spath, true);
        if (componentName === undefined) return;
        // The podGroup form groups by owner references, so no key paths.
        const member: GangMember = { componentName, groupByKeyPaths: [], filters: [] };
        if (sub.topology !== undefined) member.topology = sub.topology;
        members.push(member);
        paths.push([...spath, 'componentName']);
      });
      const gang: GangGroup = { name, members };
      if (single.topology !== undefined) gang.topology = single.topology;
      gangs.push(gang);
      gangPaths.push(gpath);
      memberPaths.push(paths);
    }
    return { gangs, gangPaths, memberPaths };
  }
}

/**
 * Reads one document into a draft definition. Returns no draft when the shape
 * is too broken to build one (the problems say why); shape problems that still
 * leave a usable draft are returned alongside it.
 */
export function readDefinitionDraft(
  obj: unknown,
  format: DefinitionFormat,
  source: DefinitionSource,
  sink: ProblemSink,
): NormalisedDraft | undefined {
  const reader = new DocumentReader(sink, format);
  if (!isRecord(obj)) {
    sink.add([], 'a definition must be a mapping');
    return undefined;
  }
  reader.knownKeys(obj, [], ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  const metadata = reader.record(obj, 'metadata', [], false);
  let name = metadata ? reader.string(metadata, 'name', ['metadata']) : undefined;
  const spec = reader.record(obj, 'spec', [], true);
  if (!spec) return undefined;
  reader.knownKeys(spec, ['spec'], ['structureDefinition', 'optimizationInstructions']);
  const structure = reader.record(spec, 'structureDefinition', ['spec'], true);
  if (!structure) return undefined;
  const spath: FieldPath = ['spec', 'structureDefinition'];
  reader.knownKeys(structure, spath, ['rootComponent', 'childComponents', 'additionalChildKinds']);
  const rawRoot = reader.record(structure, 'rootComponent', spath, true);
  if (!rawRoot) return undefined;
  const root = reader.component(rawRoot, [...spath, 'rootComponent'], true);
  if (!root) return undefined;

  const components: Component[] = [root];
  const componentPaths: FieldPath[] = [[...spath, 'rootComponent']];
  (reader.list(structure, 'childComponents', spath) ?? []).forEach((raw, i) => {
    const path = [...spath, 'childComponents', i];
    const child = reader.component(raw, path, false);
    if (child) {
      components.push(child);
      componentPaths.push(path);
    }
  });

  const additionalChildKinds: Gvk[] = [];
  (reader.list(structure, 'additionalChildKinds', spath) ?? []).forEach((raw, i) => {
    const gvk = reader.gvk(raw, [...spath, 'additionalChildKinds', i]);
    if (gvk) additionalChildKinds.push(gvk);
  });

  let gangs: GangGroup[] = [];
  let gangPaths: FieldPath[] = [];
  let gangMemberPaths: FieldPath[][] = [];
  const instructions = reader.record(spec, 'optimizationInstructions', ['spec'], false);
  if (instructions) {
    const ipath: FieldPath = ['spec', 'optimizationInstructions'];
    reader.knownKeys(instructions, ipath, ['gangScheduling']);
    const gang = reader.record(instructions, 'gangScheduling', ipath, false);
    if (gang) ({ gangs, gangPaths, memberPaths: gangMemberPaths } = reader.gangs(gang, [...ipath, 'gangScheduling']));
  }

  if (name === undefined || name === '') {
    // Some of the older examples have no metadata; a Karta in the cluster
    // always has a name. Name it the way upstream's catalog names files.
    name = root.kind ? derivedDefinitionName(root.kind) : '';
    if (name) sink.add(metadata ? ['metadata'] : [], `metadata.name is missing; named "${name}" after its root kind`, 'warning');
    else sink.add(['metadata', 'name'], 'metadata.name is required');
  }
  const definition: Definition = {
    name,
    format,
    source,
    rootGvk: root.kind ?? { group: '', version: '', kind: '' },
    root,
    components,
    additionalChildKinds,
    gangs,
  };
  if (root.suspendDefinition) definition.suspendDefinition = root.suspendDefinition;
  return { definition, componentPaths, gangPaths, gangMemberPaths, expressions: reader.expressions };
}

/** `leaderworkerset.x-k8s.io/v1 LeaderWorkerSet` -> `leaderworkerset-x-k8s-io-leaderworkerset-v1`. */
export function derivedDefinitionName(gvk: Gvk): string {
  const parts = [gvk.group.replace(/\./g, '-'), gvk.kind.toLowerCase(), gvk.version].filter((p) => p !== '');
  return parts.join('-');
}
