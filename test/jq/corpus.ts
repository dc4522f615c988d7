// The differential corpus: (expression, input) cases evaluated by wlx and by
// jq itself. Hand-written cases cover jq's semantics beyond the catalog
// (streams, errors, `//`, any/all, entries, arithmetic over streams, object
// construction with streams, cross-type comparisons, slices, negative indexes,
// null propagation, `?`); catalogCases() adds every jq expression found in the
// upstream definitions (read from /work/shared at test time, never copied
// here), each against a set of workload- and pod-shaped inputs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

export interface JqCase {
  expr: string;
  input: unknown;
}

export const UPSTREAM_CATALOG = '/work/shared/upstream-catalog';

/** A workload-shaped object reaching most paths the catalog reads. */
export const WORKLOAD = {
  apiVersion: 'example.io/v1',
  kind: 'Thing',
  metadata: {
    name: 'llama',
    generation: 2,
    labels: { 'app.kubernetes.io/name': 'llama', team: 'ml' },
    annotations: { 'leaderworkerset.sigs.k8s.io/leader-name': 'llama-0' },
  },
  spec: {
    replicas: 3,
    suspend: true,
    operatingMode: 'Suspended',
    template: {
      metadata: { annotations: { 'autoscaling.knative.dev/max-scale': '5', 'autoscaling.knative.dev/min-scale': '2' } },
      spec: { containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': 8 } } }] },
    },
    leaderWorkerTemplate: { size: 4, leaderTemplate: { spec: {} }, workerTemplate: { spec: {} } },
    workerGroupSpecs: [
      { groupName: 'small', replicas: 2, minReplicas: 1, maxReplicas: 4, template: { spec: {} } },
      { groupName: 'large', minReplicas: 0, template: { spec: {} } },
    ],
    rayClusterSpec: {
      headGroupSpec: { template: { spec: {} } },
      workerGroupSpecs: [{ groupName: 'gpu', replicas: 3, minReplicas: 1, maxReplicas: 8, template: {} }],
    },
    rayClusterConfig: { headGroupSpec: { template: {} }, workerGroupSpecs: [{ groupName: 'w', template: {} }] },
    replicatedJobs: [
      { name: 'driver', replicas: 1, template: { spec: { template: { spec: {} } } } },
      { name: 'workers', replicas: 4, template: { spec: { template: { spec: {} } } } },
    ],
    services: {
      Frontend: {
        replicas: 2,
        multinode: { nodeCount: 2 },
        annotations: { a: 'b' },
        extraPodSpec: { mainContainer: { image: 'img' } },
      },
      Decode: { autoscaling: { minReplicas: 1, maxReplicas: 3 } },
    },
    predictor: { model: { storageUri: 's3://m' }, minReplicas: 1, maxReplicas: 2, labels: { x: 'y' } },
    scaling: { minReplicas: 2, maxReplicas: 6 },
    prefill: { scaling: { minReplicas: 1 } },
    pytorchReplicaSpecs: { Master: { replicas: 1, template: {} }, Worker: { replicas: 7, template: {} } },
    mpiReplicaSpecs: { Launcher: { template: {} }, Worker: { replicas: 2, template: {} } },
    components: { proxy: { replicas: 2, resources: { limits: { cpu: '1' } } } },
  },
  status: {
    observedGeneration: 2,
    replicas: 3,
    readyReplicas: 2,
    updatedReplicas: 3,
    currentRevision: 'r1',
    updateRevision: 'r1',
    jobDeploymentStatus: 'Initializing',
    jobStatus: 'RUNNING',
    state: 'suspended',
    conditions: [
      { type: 'Ready', status: 'False', reason: 'Failed', message: 'boom' },
      { type: 'Suspended', status: 'True' },
    ],
  },
};

/** A second workload: defaults everywhere, strings where numbers might be. */
export const WORKLOAD_SPARSE = {
  metadata: { name: 'tiny', generation: 1 },
  spec: { replicas: '2', operatingMode: 'Running', workerGroupSpecs: [], services: {} },
  status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True', reason: 'Progressing' }] },
};

export const POD = {
  metadata: {
    name: 'llama-0-1',
    labels: {
      'app.kubernetes.io/name': 'llama',
      'app.kubernetes.io/instance': 'inst',
      'app.kubernetes.io/component': 'worker',
      component: 'worker',
      'jobset.sigs.k8s.io/replicatedjob-name': 'workers',
      'leaderworkerset.sigs.k8s.io/name': 'llama',
      'leaderworkerset.sigs.k8s.io/group-index': '0',
      'leaderworkerset.sigs.k8s.io/worker-index': '1',
      'nvidia.com/dynamo-component': 'Frontend',
      'ray.io/cluster': 'rc',
      'ray.io/group': 'gpu',
      'ray.io/node-type': 'worker',
      'serving.knative.dev/revision': 'rev-1',
      'serving.kserve.io/inferenceservice': 'isvc',
      'training.kubeflow.org/job-name': 'job',
      'training.kubeflow.org/replica-type': 'worker',
    },
    annotations: { 'leaderworkerset.sigs.k8s.io/leader-name': 'llama-0' },
    ownerReferences: [
      { kind: 'ReplicaSet', uid: 'rs-1' },
      { kind: 'Sandbox', uid: 'sb-1' },
    ],
  },
  spec: { nodeName: 'node-1' },
  status: { phase: 'Running' },
};

export const POD_BARE = { metadata: { name: 'lonely', labels: { 'agents.x-k8s.io/sandbox-name-hash': 'h' } } };

/** Inputs each catalog expression is run against (errors included on purpose). */
export const CATALOG_INPUTS: unknown[] = [WORKLOAD, WORKLOAD_SPARSE, POD, POD_BARE, {}, null, 7];

const SMALL = { a: 1, b: 'x', c: null, d: false, e: [1, 2, 3], f: { g: 'h' }, 'x/y': 'slash', n: -2.5 };
const MIXED = [3, 'a', null, true, false, [1], { k: 'v' }, -1, 0.5, ''];
const ENTRIES = { zeta: 1, alpha: 2, mid: null };

const EXPRESSIONS_ON_SMALL = [
  '.',
  '.a',
  '.b',
  '.c',
  '.missing',
  '.f.g',
  '.f.g.h',
  '.["x/y"]',
  '.f["g"]',
  '."b"',
  '.e[0]',
  '.e[-1]',
  '.e[-3]',
  '.e[-4]',
  '.e[5]',
  '.e[1:]',
  '.e[:2]',
  '.e[-2:]',
  '.e[1:-1]',
  '.e[5:]',
  '.e[:-5]',
  '.e[]',
  '.e[]?',
  '.[]',
  '.[]?',
  '.a?',
  '.e.x?',
  '[.e.x?]',
  '.e.x',
  '.a.b',
  '.c.d.e',
  '.c[0]',
  '.c[]?',
  '.d // "dflt"',
  '.c // .a',
  '.missing // empty',
  '(.a, .c) // 9',
  '.a, .b',
  '[.a, .b, .c]',
  '.e | length',
  '.b | length',
  '. | length',
  '.n | length',
  'keys',
  'keys_unsorted',
  'to_entries | length',
  '[to_entries[] | .key]',
  'has("a")',
  'has("zz")',
  '.e | has(1)',
  '.e | has(7)',
  '[.[] | type]',
  'map_values(.)',
  '.a + 1',
  '.a - 1',
  '.a * 3',
  '.a / 4',
  '.a % 1',
  '.b + "y"',
  '.b * 3',
  '.e + [4]',
  '.e - [2]',
  '.f + {z: 1}',
  '.f * {g: {deep: 1}}',
  '.c + 5',
  '5 + .c',
  '.a + .b',
  '.b - 1',
  '.e * 2',
  '.f / 2',
  '.a == 1',
  '.a != 1',
  '.a < .b',
  '.b < .e',
  '.e < .f',
  '.c < .d',
  '.d < .a',
  '.c == false',
  '.a >= 1',
  '.a <= 0.5',
  '.a == 1 and .b == "x"',
  '.a == 2 or .b == "x"',
  '.c and true',
  '.d or .c',
  '(.a | not)',
  '.c | not',
  'if .a == 1 then "one" else "other" end',
  'if .c then 1 elif .d then 2 else 3 end',
  'if .a then .b end',
  '[.e[] | select(. > 1)]',
  '[.e[] | select(. > 1) | . * 10]',
  'any(.e[]; . > 2)',
  'all(.e[]; . > 0)',
  '.e | any(. > 2)',
  '.e | all(. > 2)',
  '[.e | any, all]',
  '[.[] | numbers]',
  '[.[] | strings]',
  '[.[] | values]',
  '.e | first',
  '.e | last',
  'first(.e[])',
  '[first(empty)]',
  'last(.e[])',
  '.e | add',
  '[.a, .b] | join("-")',
  '.b | ascii_upcase',
  '.b | ascii_downcase',
  '.a | tostring',
  '.f | tostring',
  '.b | tonumber?',
  '.a | tonumber',
  '"12" | tonumber',
  '.b | startswith("x")',
  '.b | endswith("y")',
  '"a,b,c" | split(",")',
  '.b | split("")',
  '{a, b}',
  '{a: .b, b: .a}',
  '{(.b): .a}',
  '{"lit": 1, f}',
  '{a: (1, 2)}',
  '{a: (1, 2), b: (3, 4)}',
  '[{x: .e[]}]',
  '{e: .e[]}',
  '[.e[] as $x | $x]',
  'to_entries',
  'to_entries | from_entries',
  'with_entries(.value |= tostring)',
  'with_entries(select(.value != null))',
  'try error("boom") catch .',
  'try .a.b catch "caught"',
  '[.[] | try tonumber catch "bad"]',
  'error("x")',
  '.a | error',
  '[.e[] | (. * 2, . + 100)]',
  '[(.e[], .a) + (10, 20)]',
  '[(1, 2) * (3, 4)]',
  '[(.a, .b) == (1, "x")]',
  '.e | map(. + 1)',
  '.e | map(select(. != 2))',
  '[.e[] | -.]',
  '-.a',
  '[.e[1:][0]]',
  '.e | .[1:2][0]',
  '"abcdef" | .[2:4]',
  '"héllo" | .[1:3]',
  '[limit(2; .e[])]',
  'reduce .e[] as $x (0; . + $x)',
  '"\\(.a)-\\(.b)"',
  '[paths] | length',
  '.e | sort',
  '.e | reverse',
  '[.e | min, max]',
  'tojson',
  '.e | tojson',
  '[.[] | tojson]',
  '.e | join(",")',
  '.missing[0]',
  '.missing[1:]',
  '.missing | length',
  '.missing | keys?',
  '[.missing[]?]',
  '.f.g // "none" | ascii_upcase',
  '.e[0] // 1 | . + 1',
  '(.a // 0) * 2',
  '((.n // 0) | floor)',
  '[.e[] | . % 2]',
  '.a / 0',
  '.a % 0',
  '{} | .a.b.c',
  '[.e[] | tostring] | join("")',
  '[.[] | length?]',
  'utf8bytelength?',
  '.b | utf8bytelength',
  '.e | .[1.5:2.5]',
  '.e[1.2]',
  '. as {a: $v} | $v',
  '[.e[] | if . == 2 then empty else . end]',
];

const EXPRESSIONS_ON_MIXED = [
  '.[]',
  '[.[] | type]',
  'sort',
  '[.[] | tostring]',
  '[.[] | length?]',
  '[.[] | not]',
  '[.[] | . // "dflt"]',
  '[.[] | select(type == "number")] | add',
  '[.[] | numbers] | add',
  'map(type) | unique',
  '[.[] | tonumber?]',
  '[.[] | .k?]',
  '[.[] | .[0]?]',
  '[.[] | keys?]',
  '.[2:5]',
  '.[-3:]',
  '.[-1]',
  '.[10]',
  'first',
  'last',
  'length',
  '[.[] | [.] | .[0] == .[0]]',
  '[.[] | . < 1]',
  '[.[] | . > "a"]',
  '[.[] | (. == null)]',
  'any',
  'all',
  '[.[] | select(.)]',
  'map(select(type == "string")) | join("+")',
  '[.[] | values]',
  '[.[] | booleans]',
  '[.[] | iterables]',
  '[.[] | scalars]',
  '[.[] | objects]',
  '[.[] | arrays]',
  '[.[] | nulls]',
  'min',
  'max',
  '.[0] + .[1]',
  '.[5] + .[5]',
  '.[6] + .[6]',
  '.[6] * {k: {deep: 1}}',
  '.[1] * 0',
  '.[1] * 0.5',
  '.[1] * 2.7',
  '3 * .[1]',
  '.[5] - .[5]',
  '.[3] + 1',
  '[.[] | ascii_downcase?]',
  '.[] | .k',
  '.[] | .[]',
];

const EXPRESSIONS_ON_ENTRIES = [
  'to_entries',
  'keys',
  'keys_unsorted',
  '[.[]]',
  'with_entries(.key |= ascii_upcase)',
  'to_entries | map(.key)',
  '[to_entries[] | select(.value)] | from_entries',
  'add',
  'any',
  'all',
  'length',
  '[.[] | . // 0]',
  '{zeta, alpha}',
  '.alpha < .zeta',
  '. == {alpha: 2, zeta: 1, mid: null}',
  '[paths]',
  'del(.mid)',
  '.mid |= 5',
  '[{"key": "k", "value": 1}, {"name": "n", "value": 2}, {"k": "kk", "v": 3}] | from_entries',
  '[{"key": null, "value": 1}] | from_entries',
  '[{"key": 1, "value": 1}] | from_entries',
  '[] | from_entries',
  'to_entries | map(.value) | add',
];

/** Cases written for this corpus (not from the catalog). */
export const CASES: JqCase[] = [
  ...EXPRESSIONS_ON_SMALL.map((expr) => ({ expr, input: SMALL })),
  ...EXPRESSIONS_ON_MIXED.map((expr) => ({ expr, input: MIXED })),
  ...EXPRESSIONS_ON_ENTRIES.map((expr) => ({ expr, input: ENTRIES })),
  // Number formatting and literals.
  ...[
    '1.0',
    '100',
    '1e1000',
    '-1e1000',
    '0.1',
    '1e-7',
    '0.0001',
    '0.00001',
    '1e16',
    '1.5e16',
    '1e17',
    '123456789012345678',
    '3.14159',
    '-0',
    '[1e21, 2e-300, 1.5e300]',
    '"\\u00e9\\n\\t\\"\\\\ \\u007f \\u0001"',
    'true',
    'null',
    '[]',
    '{}',
    '"a" < "b"',
    '[1, [2]] < [1, [3]]',
    '{} < []',
    '[] < "a"',
    '"a" < 1',
    'null < false',
    'false < true',
    '{"a": 1} < {"b": 0}',
    '{"a": 2} < {"a": 1, "b": 0}',
    '[1, 2] < [1, 2, 0]',
    '1 < 1.5',
    '(1, 2) < (2, 1)',
    '[(1, 2) < (2, 1)]',
    '"\\ud83d\\ude00" > "\\uffff"',
    '1 as $x | 2 | $x',
    '[.[]?]',
    '. // 5',
    'empty',
    '[empty]',
    '1, 2, 3',
    '[1, 2, 3] | .[1:]',
    '(1, null, 2) // 3',
    '[(null, false) // (3, 4)]',
    '(null, false) // empty',
    'if (true, false) then 1 else 2 end',
    '[(true, false) and (true, false)]',
    '[(true, false) or (true, false)]',
    '[1, 2] | .[(0, 1)]',
    '[[1, 2], [3, 4]] | [.[] [(0, 1)]]',
    '[1, 2, 3] | [.[(0, 1):(2, 3)]]',
    '{(("a", "b")): (1, 2)}',
    '[{a: 1} | .a, .b]',
    'try (1, error("x"), 3) catch "c"',
    '[.[]?, 1]',
    '"abc" * 0',
    '"+1" | tonumber',
    '"" | tonumber',
    '"-1.5e3" | tonumber',
    '".5" | tonumber',
    '"1." | tonumber',
    '"a😀b" | length',
    '"a😀b" | .[1:2]',
    '["😀", "\\uffff", "a", "é"] | sort',
    '{"😀": 1, "\\uffff": 2, "b": 3} | keys',
    '[1, 2, 3] | .[-2.5:]',
    '[1, 2, 3] | .[:1.2]',
    '[1, 2, 3] | .[null:2]',
    '[1, 2, 3] | .["a":]',
    '[3, "a", null, true, false, [1], {}] | min, max',
    '["a", 1, null, true] | join("-")',
    '[{"a": 1}, {"b": 2}] | add',
    '"\\u0000" | tojson',
    '1 / 3',
    '{"a": {"b": 1, "c": 2}} * {"a": {"b": 3}}',
    '[1, 2, 1] - [1]',
    '"a,b" / ","',
    '5 % -3',
    '-5 % 3',
    '5.5 % 2',
    // null has no keys of any type (jq 1.6 and 1.7 agree: false, not an error).
    'has("x")',
    'has(0)',
    'has(null)',
    '.missing | has("a")',
    '[.a?, .b] | map(has("k"))',
  ].map((expr) => ({ expr, input: null })),
  // Negation of a parenthesised path: `jq '-(.a)'` (the CLI test runs it as an argument).
  ...['-(.a)', '-(.a) + 1', '[-(.a), -.a]', '-(.missing)'].map((expr) => ({ expr, input: { a: 3 } })),
  // Errors: both must raise (exit 5 / JqError runtime).
  ...[
    '.a',
    '.[0]',
    '.[]',
    'keys',
    'length',
    '. + 1',
    '. - 1',
    'has("a")',
    'error',
    'tonumber',
    'ascii_downcase',
    'split(",")',
    'startswith("a")',
    '.["a"]',
    'to_entries',
    'add',
    '-(.)',
    '.a.b',
    'join(",")',
  ].map((expr) => ({ expr, input: true })),
  ...['.a', '.[0]', '.[] ', '.[1:2]', 'keys', 'has(0)', 'tonumber', '. * .', '. / 0', '{(.) : 1}'].map((expr) => ({
    expr,
    input: 12,
  })),
  // Compile errors: both must refuse the expression (exit 3 / JqError compile).
  ...[
    '.a |',
    '.[',
    '(1',
    '{a:}',
    '{a: 1 + 2}',
    'foo',
    'foo(1)',
    '$x',
    '"abc',
    'if 1 then 2 else 3',
    '1 +',
    '.a.',
    '1 == 2 == 3',
    '.[] as',
    ')',
    'reduce',
    'map(',
    '{(1)}',
  ].map((expr) => ({ expr, input: {} })),
];

function walkYaml(value: unknown, keyName: string | null, out: Set<string>): void {
  if (typeof value === 'string') {
    if (keyName && /(Path|expression|keyPath|idPath|groupByKeyPaths|filters|^path)$/.test(keyName) && value.trim()) {
      out.add(value);
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) walkYaml(v, keyName, out);
    return;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) walkYaml(v, k, out);
  }
}

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}

/** Every jq expression in the upstream definitions (unparseable files skipped). */
export function catalogExpressions(): string[] {
  return expressionsIn(UPSTREAM_CATALOG);
}

/** Every jq expression in the definitions (YAML files) under `dir`; none when it is missing. */
export function expressionsIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out = new Set<string>();
  for (const file of yamlFiles(dir)) {
    try {
      yaml.loadAll(readFileSync(file, 'utf8'), (doc) => walkYaml(doc, null, out));
    } catch {
      // mpijob.yaml is invalid YAML upstream; the definitions loader reports it.
    }
  }
  return [...out].sort();
}

export function catalogCases(): JqCase[] {
  return catalogExpressions().flatMap((expr) => CATALOG_INPUTS.map((input) => ({ expr, input })));
}
