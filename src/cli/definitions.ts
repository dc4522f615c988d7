// `wlx definitions`: list, validate and show Workload Map definitions. Reads
// only files (built-in catalog, --definitions, $WLX_DEFINITIONS), never the
// cluster, and loads no UI code, so it starts fast.
import { relative, isAbsolute } from 'node:path';
import yaml from 'js-yaml';
import {
  DefinitionSet,
  loadDefinitionPath,
  loadDefinitions,
  type Component,
  type Definition,
  type DefinitionEntry,
  type DefinitionProblem,
  type DefinitionSource,
  type Gvk,
  type StatusMatcher,
  STATUS_KEYS,
} from '../definitions/index.js';
import { formatProblem } from '../definitions/problem.js';
import { sanitise } from '../text/sanitise.js';
import { parseCommandArgs, UsageError } from './usage.js';

const HELP = `Usage:
  wlx definitions [list] [--all] [-o table|json|yaml]
                                  list the definitions in effect
  wlx definitions validate FILE|DIR...
                                  check definition files; one line per problem
  wlx definitions show NAME [-o text|yaml|json]
                                  show one definition, normalised

NAME is a definition name or a kind the definition covers (jobset, JobSet,
jobsets.jobset.x-k8s.io, ...).

Options:
  --definitions PATH   also load definitions from PATH (file or directory; repeatable;
                       $WLX_DEFINITIONS adds a ':'-separated list too). Files beat the
                       built-in catalog; the cluster's Kartas beat both (read by the explorer).
  --no-builtin         leave out the built-in catalog
  --all                (list) also show shadowed and invalid definitions
  -o, --output FORMAT  table (list default), text (show default), json or yaml
  -h, --help           show this help

Exit status: 0 ok; 1 invalid definitions (validate) or NAME not found (show);
2 usage error or unreadable path.
`;

const HINT = 'wlx definitions --help';

const OPTIONS = {
  definitions: { type: 'string', multiple: true },
  'no-builtin': { type: 'boolean' },
  all: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function runDefinitions(args: string[]): number {
  const { values, positionals } = parseCommandArgs(args, OPTIONS, HINT);
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const [sub = 'list', ...rest] = positionals;
  const output = values.output;
  switch (sub) {
    case 'list':
    case 'ls': {
      if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`, HINT);
      if (output !== undefined && !['table', 'json', 'yaml'].includes(output)) {
        throw new UsageError(`unknown output format "${output}" for list (table, json, yaml)`, HINT);
      }
      return listDefinitions(loadForCommand(values), values.all === true, output ?? 'table');
    }
    case 'validate': {
      if (!rest.length) throw new UsageError('validate needs at least one FILE or DIR', HINT);
      if (output !== undefined) throw new UsageError('validate has no --output', HINT);
      return validatePaths(rest);
    }
    case 'show':
    case 'describe': {
      if (rest.length !== 1) throw new UsageError('show needs exactly one NAME', HINT);
      if (output !== undefined && !['text', 'json', 'yaml'].includes(output)) {
        throw new UsageError(`unknown output format "${output}" for show (text, json, yaml)`, HINT);
      }
      return showDefinition(loadForCommand(values), rest[0], output ?? 'text');
    }
    default:
      throw new UsageError(`unknown definitions command "${sub}"`, HINT);
  }
}

function loadForCommand(values: { definitions?: string[]; 'no-builtin'?: boolean }): DefinitionSet {
  return loadDefinitions({ userPaths: values.definitions ?? [], includeBuiltin: values['no-builtin'] !== true });
}

/** A problem as the CLI prints it: the shared text form, the file relative to the working directory. */
function problemLine(problem: DefinitionProblem): string {
  return sanitise(formatProblem({ ...problem, file: displayPath(problem.file) }));
}

function displayPath(file: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

function gvkText(gvk: Gvk | undefined): string {
  if (!gvk) return '-';
  return `${gvk.group ? `${gvk.group}/` : ''}${gvk.version}/${gvk.kind}`;
}

function sourceText(source: DefinitionSource): string {
  return source.kind === 'builtin' ? 'builtin' : `${source.kind}:${displayPath(source.location)}`;
}

/** Plain column layout (no UI library: this command must start fast). */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('   ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

function reportProblems(set: DefinitionSet): void {
  for (const problem of set.problems) process.stderr.write(`wlx: ${problemLine(problem)}\n`);
}

function listDefinitions(set: DefinitionSet, all: boolean, output: string): number {
  if (output === 'json' || output === 'yaml') {
    const entries = all ? set.entries : set.entries.filter((e) => e.valid && !e.shadowedBy);
    const data = entries.map((e) => ({
      name: e.name,
      kind: gvkText(e.rootGvk),
      format: e.format,
      source: e.source.kind,
      location: e.source.location,
      state: entryState(e),
      components: e.definition?.components.map((c) => c.name) ?? [],
      problems: e.problems.map(problemLine),
    }));
    process.stdout.write(output === 'json' ? JSON.stringify(data, null, 2) + '\n' : yaml.dump(data));
  } else {
    const entries = all ? set.entries : set.entries.filter((e) => e.valid && !e.shadowedBy);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    const header = ['NAME', 'KIND', 'SOURCE', 'COMPONENTS', ...(all ? ['STATE'] : [])];
    const rows = entries.map((e) => [
      sanitise(e.name || '-'),
      sanitise(gvkText(e.rootGvk)),
      sanitise(sourceText(e.source)),
      sanitise(e.definition ? e.definition.components.map((c) => c.name).join(',') : '-'),
      ...(all ? [entryState(e)] : []),
    ]);
    // With --all the STATE column comes last; keep COMPONENTS readable before it.
    process.stdout.write(table(header, rows));
  }
  reportProblems(set);
  return set.unreadablePaths.length ? 2 : 0;
}

function entryState(entry: DefinitionEntry): string {
  if (!entry.valid) return 'invalid';
  if (entry.shadowedBy) return `shadowed by ${sourceText(entry.shadowedBy)}`;
  return 'active';
}

function validatePaths(paths: string[]): number {
  const results = paths.map((p) => loadDefinitionPath(p, 'file'));
  // One set over everything given, so that two files defining the same kind are flagged too.
  const set = new DefinitionSet(results);
  for (const problem of set.problems) process.stdout.write(`${problemLine(problem)}\n`);
  const files = results.flatMap((r) => r.files);
  for (const file of files) {
    if (!set.entries.some((e) => e.source.location === file) && !set.problems.some((p) => p.file === file)) {
      process.stdout.write(`${problemLine({ file, message: 'no definitions in this file', severity: 'warning' })}\n`);
    }
  }
  const valid = set.entries.filter((e) => e.valid).length;
  const invalid = set.entries.length - valid;
  const errors = set.problems.filter((p) => p.severity === 'error').length;
  const warnings = set.problems.length - errors;
  const unreadable = set.unreadablePaths.length;
  const summary =
    `${valid} valid, ${invalid} invalid definition${valid + invalid === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'}` +
    ` (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}` +
    `${unreadable ? `, ${unreadable} unreadable path${unreadable === 1 ? '' : 's'}` : ''})`;
  process.stdout.write(`${summary}\n`);
  if (unreadable) return 2;
  return invalid > 0 ? 1 : 0;
}

function showDefinition(set: DefinitionSet, name: string, output: string): number {
  const definition = set.byName(name) ?? set.byKind(name);
  if (!definition) {
    const rejected = set.entries.filter((e) => !e.valid && e.name.toLowerCase() === name.toLowerCase());
    if (rejected.length) {
      process.stderr.write(`wlx: definition "${sanitise(name)}" is invalid:\n`);
      for (const e of rejected) for (const p of e.problems) process.stderr.write(`  ${problemLine(p)}\n`);
      return 1;
    }
    const known = set.definitions.map((d) => d.name).join(', ');
    process.stderr.write(
      `wlx: no definition named or covering "${sanitise(name)}"${known ? ` (known: ${sanitise(known)})` : ''}\n`,
    );
    return 1;
  }
  if (output === 'json') process.stdout.write(JSON.stringify(definition, null, 2) + '\n');
  else if (output === 'yaml') process.stdout.write(yaml.dump(definition, { lineWidth: -1, noRefs: true }));
  else process.stdout.write(sanitiseLines(describeDefinition(definition, set)));
  return 0;
}

function sanitiseLines(text: string): string {
  return text
    .split('\n')
    .map((l) => sanitise(l))
    .join('\n');
}

/** The readable form of `show`: components as a tree with their paths, status rules, gangs. */
export function describeDefinition(definition: Definition, set?: DefinitionSet): string {
  const out: string[] = [];
  const field = (label: string, value: string) => out.push(`${`${label}:`.padEnd(12)}${value}`);
  field('Name', definition.name);
  field('Kind', gvkText(definition.rootGvk));
  field('Format', definition.format);
  field(
    'Source',
    `${definition.source.kind} ${displayPath(definition.source.location)}${definition.source.line !== undefined ? `:${definition.source.line}` : ''}`,
  );
  const shadowed = set?.entries.filter(
    (e) =>
      e.definition !== definition &&
      e.definition &&
      e.shadowedBy &&
      e.rootGvk &&
      gvkText(e.rootGvk) === gvkText(definition.rootGvk),
  );
  for (const e of shadowed ?? []) field('Shadows', `${e.name} (${e.source.kind} ${displayPath(e.source.location)})`);

  out.push('', 'Components:');
  const children = (parent: string) => definition.components.filter((c) => !c.isRoot && c.ownerRef === parent);
  const walk = (component: Component, prefix: string, last: boolean, isTop: boolean) => {
    const branch = isTop ? '' : last ? '└─ ' : '├─ ';
    const kind = component.kind ? `  ${gvkText(component.kind)}` : '';
    out.push(`  ${prefix}${branch}${component.name}${component.isRoot ? ' (root)' : ''}${kind}`);
    const inner = isTop ? '' : prefix + (last ? '   ' : '│  ');
    const kids = children(component.name);
    const detailPrefix = `  ${inner}${kids.length ? '│  ' : '   '}`;
    const details = componentDetails(component);
    const width = Math.max(0, ...details.map(([label]) => label.length)) + 2;
    for (const [label, value] of details) out.push(`${detailPrefix}${`${label}:`.padEnd(width)}${value}`);
    kids.forEach((kid, i) => walk(kid, inner, i === kids.length - 1, false));
  };
  walk(definition.root, '', true, true);
  const orphans = definition.components.filter(
    (c) => !c.isRoot && !definition.components.some((p) => p.name === c.ownerRef),
  );
  for (const c of orphans) out.push(`  ? ${c.name} (ownerRef "${c.ownerRef ?? ''}" not found)`);

  const status = definition.root.statusDefinition;
  if (status) {
    out.push('', 'Status:');
    if (status.phaseDefinition) out.push(`  phase:       ${status.phaseDefinition.path}`);
    const c = status.conditionsDefinition;
    if (c) {
      const fields = `type=${c.typeFieldName} status=${c.statusFieldName} message=${c.messageFieldName}${c.reasonFieldName ? ` reason=${c.reasonFieldName}` : ''}`;
      out.push(`  conditions:  ${c.path}  (${fields})`);
    }
    for (const key of STATUS_KEYS) {
      const matchers = status.statusMappings[key];
      if (!matchers?.length) continue;
      const label = key[0].toUpperCase() + key.slice(1);
      matchers.forEach((m, i) =>
        out.push(`  ${(i === 0 ? label : '').padEnd(13)}${i === 0 ? 'when ' : 'or   '}${describeMatcher(m)}`),
      );
    }
  }
  const suspend = definition.suspendDefinition;
  if (suspend) {
    out.push('', 'Suspend:');
    for (const a of suspend.suspendActions) out.push(`  suspend: set ${a.path} = ${a.value}`);
    for (const a of suspend.resumeActions) out.push(`  resume:  set ${a.path} = ${a.value}`);
  }
  if (definition.gangs.length) {
    out.push('', 'Gangs:');
    for (const gang of definition.gangs) {
      out.push(
        `  ${gang.name || '(unnamed)'}${gang.topology !== undefined ? `  topology: ${JSON.stringify(gang.topology)}` : ''}`,
      );
      for (const m of gang.members) {
        const by = m.groupByKeyPaths.length ? `grouped by ${m.groupByKeyPaths.join(' , ')}` : 'grouped by owner';
        const filters = m.filters.length ? `; only where ${m.filters.join(' and ')}` : '';
        const topology = m.topology !== undefined ? `; topology ${JSON.stringify(m.topology)}` : '';
        out.push(`    ${m.componentName}: ${by}${filters}${topology}`);
      }
    }
  }
  if (definition.additionalChildKinds.length) {
    out.push('', 'Additional child kinds:');
    for (const gvk of definition.additionalChildKinds) out.push(`  ${gvkText(gvk)}`);
  }
  return out.join('\n') + '\n';
}

function componentDetails(c: Component): [string, string][] {
  const d: [string, string][] = [];
  const spec = c.specDefinition;
  if (spec?.podTemplateSpecPath) d.push(['pod template', spec.podTemplateSpecPath]);
  if (spec?.podSpecPath) d.push(['pod spec', spec.podSpecPath]);
  if (spec?.metadataPath) d.push(['pod metadata', spec.metadataPath]);
  if (spec?.fragmentedPodSpecDefinition) {
    for (const [k, v] of Object.entries(spec.fragmentedPodSpecDefinition)) d.push([`pod ${k.replace(/Path$/, '')}`, v]);
  }
  if (c.scaleDefinition?.replicasPath) d.push(['replicas', c.scaleDefinition.replicasPath]);
  if (c.scaleDefinition?.minReplicasPath) d.push(['min replicas', c.scaleDefinition.minReplicasPath]);
  if (c.scaleDefinition?.maxReplicasPath) d.push(['max replicas', c.scaleDefinition.maxReplicasPath]);
  if (c.instanceIdPath) d.push(['instance ids', c.instanceIdPath]);
  const sel = c.podSelector;
  const t = sel?.componentTypeSelector;
  if (t?.keyPath)
    d.push([
      'pods where',
      t.value !== undefined ? `${t.keyPath} == ${JSON.stringify(t.value)}` : `${t.keyPath} is set`,
    ]);
  if (t?.matchLabels)
    d.push([
      'pods labelled',
      Object.entries(t.matchLabels)
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
    ]);
  if (sel?.componentInstanceSelector) d.push(['pod instance id', sel.componentInstanceSelector.idPath]);
  if (sel?.replicaSelector) d.push(['pod replica key', sel.replicaSelector.keyPath]);
  return d;
}

function describeMatcher(m: StatusMatcher): string {
  const parts: string[] = [];
  if (m.byPhase !== undefined) parts.push(`phase == ${JSON.stringify(m.byPhase)}`);
  for (const c of m.byConditions ?? []) {
    const extra = [
      c.status !== undefined ? `status=${c.status}` : '',
      c.reason !== undefined ? `reason=${c.reason}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    parts.push(`condition ${c.type}${extra ? ` (${extra})` : ' present'}`);
  }
  if (m.byExpression) parts.push(`(${m.byExpression.expression}) == ${m.byExpression.expectedResult}`);
  return parts.length ? parts.join(' and ') : 'always';
}
