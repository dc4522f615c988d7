// The one typed model of a Workload Map definition. Both upstream formats
// (run.ai/v1alpha1 Karta and optimization.nvidia.com/v1alpha1 ResourceInterface)
// are normalised into these types by src/definitions/normalise.ts; everything
// downstream (model, UI, CLI) reads only these.

export interface Gvk {
  group: string; // '' for the core group
  version: string;
  kind: string;
}

/** Upstream's status keys, as written in statusMappings. */
export type StatusKey =
  | 'initializing'
  | 'running'
  | 'completed'
  | 'failed'
  | 'degraded'
  | 'suspended'
  | 'suspending'
  | 'resuming';

/** Capitalised status names as users read them (and as `-o json` prints them). */
export type StatusName =
  | 'Initializing'
  | 'Running'
  | 'Completed'
  | 'Failed'
  | 'Degraded'
  | 'Suspended'
  | 'Suspending'
  | 'Resuming'
  | 'Undefined';

export interface FragmentedPodSpecDefinition {
  schedulerNamePath?: string;
  labelsPath?: string;
  annotationsPath?: string;
  resourcesPath?: string;
  resourceClaimsPath?: string;
  podAffinityPath?: string;
  nodeAffinityPath?: string;
  containersPath?: string;
  containerPath?: string;
  priorityClassNamePath?: string;
  imagePath?: string;
}

/** At most one form is set (validation enforces it). */
export interface SpecDefinition {
  podTemplateSpecPath?: string;
  podSpecPath?: string;
  metadataPath?: string;
  fragmentedPodSpecDefinition?: FragmentedPodSpecDefinition;
}

export interface ScaleDefinition {
  replicasPath?: string;
  minReplicasPath?: string;
  maxReplicasPath?: string;
}

export interface ComponentTypeSelector {
  keyPath?: string;
  value?: string;
  matchLabels?: Record<string, string>;
}

export interface PodSelector {
  componentTypeSelector?: ComponentTypeSelector;
  componentInstanceSelector?: { idPath: string };
  replicaSelector?: { keyPath: string };
}

export interface ConditionsDefinition {
  path: string;
  typeFieldName: string; // default 'type'
  statusFieldName: string; // default 'status'
  messageFieldName: string; // default 'message'
  reasonFieldName?: string; // upstream reads the reason only when set
}

export interface ConditionMatcher {
  type: string;
  status?: string;
  reason?: string;
}

/** Fields set in one matcher are AND'd; matchers of one status are OR'd. */
export interface StatusMatcher {
  byPhase?: string;
  byConditions?: ConditionMatcher[];
  byExpression?: { expression: string; expectedResult: string };
}

export interface StatusDefinition {
  conditionsDefinition?: ConditionsDefinition;
  phaseDefinition?: { path: string };
  statusMappings: Partial<Record<StatusKey, StatusMatcher[]>>;
}

export interface SuspendAction {
  path: string;
  value: string; // JSON-encoded, as upstream stores it
}

export interface SuspendDefinition {
  suspendActions: SuspendAction[];
  resumeActions: SuspendAction[];
}

export interface Component {
  name: string;
  /** Full GVK on the root; optional on children. */
  kind?: Gvk;
  /** Parent component's name; undefined on the root. */
  ownerRef?: string;
  specDefinition?: SpecDefinition;
  scaleDefinition?: ScaleDefinition;
  /** Root only. */
  statusDefinition?: StatusDefinition;
  instanceIdPath?: string;
  podSelector?: PodSelector;
  isRoot: boolean;
  /** Karta only; upstream allows it on any component, in practice the root (also copied to Definition.suspendDefinition). */
  suspendDefinition?: SuspendDefinition;
}

export interface GangMember {
  componentName: string;
  /**
   * Each yields exactly one non-empty value per pod; the gang key is the tuple.
   * Empty for the Karta `podGroup{subGroups}` form (and when omitted): upstream
   * then groups by owner references.
   */
  groupByKeyPaths: string[];
  /** AND'd; each must yield `true` for the pod to be a member. */
  filters: string[];
  topology?: unknown;
}

export interface GangGroup {
  name: string;
  members: GangMember[];
  topology?: unknown;
}

export type DefinitionSourceKind = 'builtin' | 'file' | 'cluster';

export interface DefinitionSource {
  kind: DefinitionSourceKind;
  /** File path for builtin/file sources; `kartas.run.ai/<name>` for cluster ones. */
  location: string;
  /** 1-based line of the document's start in the file, when known. */
  line?: number;
}

export interface Definition {
  /** metadata.name of the Karta / ResourceInterface. */
  name: string;
  format: 'Karta' | 'ResourceInterface';
  source: DefinitionSource;
  /** The root component's kind: the type this definition covers. */
  rootGvk: Gvk;
  root: Component;
  /** Every component, root first, then in document order. */
  components: Component[];
  additionalChildKinds: Gvk[];
  suspendDefinition?: SuspendDefinition;
  gangs: GangGroup[];
}

/**
 * One definition document as loaded, valid or not: what listings such as
 * `wlx definitions` and `:defs` show, including definitions that were rejected.
 */
export interface DefinitionEntry {
  /** metadata.name ('' when it has none). */
  name: string;
  format: Definition['format'];
  source: DefinitionSource;
  /** The root component's kind, when the document got that far. */
  rootGvk?: Gvk;
  valid: boolean;
  /** Set when valid. */
  definition?: Definition;
  /** Everything found in this document (errors make it invalid; warnings do not). */
  problems: DefinitionProblem[];
  /** Set when another definition of the same root kind takes precedence over this one. */
  shadowedBy?: DefinitionSource;
}

/** A problem found while loading or validating a definition. */
export interface DefinitionProblem {
  file: string;
  line?: number;
  /** Dotted field path, e.g. `spec.structure.childComponents[1].ownerRef`. */
  field?: string;
  message: string;
  severity: 'error' | 'warning';
}

export function gvkKey(gvk: Gvk): string {
  return `${gvk.group}/${gvk.version}/${gvk.kind}`;
}

/** `apps/v1` + `StatefulSet` → its Gvk (`v1`: the core group ''). */
export function gvkOf(apiVersion: string, kind: string): Gvk {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion, kind }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind };
}

/** The apiVersion of a Gvk: `group/version`, or `version` for the core group. */
export function apiVersionOf(gvk: Pick<Gvk, 'group' | 'version'>): string {
  return gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
}
