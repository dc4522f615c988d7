// Public API of the definitions layer: load, validate and normalise Workload
// Map definitions (Karta / ResourceInterface) into the model of types.ts.
export * from './types.js';
export {
  loadDefinitionText,
  loadDefinitionFile,
  loadDefinitionPath,
  loadDefinitionPaths,
  normaliseDefinitionObject,
  type DefinitionLoadResult,
} from './load.js';
export {
  loadDefinitions,
  DefinitionSet,
  builtinDefinitionsDir,
  definitionPathsFromEnv,
  guessPlural,
  type LoadDefinitionsOptions,
} from './registry.js';
export { classifyDocument, derivedDefinitionName, STATUS_KEYS, KARTA_API_VERSION, RESOURCE_INTERFACE_API_VERSION } from './normalise.js';
export { formatFieldPath, parseYamlDocuments, type FieldPath } from './yaml-source.js';
export { checkJqExpression, FORBIDDEN_JQ_CONSTRUCTS } from './jq-check.js';
