// `wlx eval EXPR [FILE...]`: evaluate a jq expression like `jq -c EXPR FILE...`,
// with the same engine the definitions use. Inputs are JSON (several values in
// a file form a stream, as in jq) or YAML (one input per document); stdin when
// no file is given. One compact JSON value per output line, formatted as jq
// prints it. Exit status as jq's: 0 ok, 2 usage or unreadable input,
// 3 expression does not compile, 5 runtime error (after processing every input).
// No ink/react here: this command must start fast.
import { readFileSync } from 'node:fs';
import { compile, DEFAULT_BUDGET, formatJson, JqError, setEvaluationBudget, type JqProgram } from '../jq/index.js';
import { parseCommandArgs, UsageError } from './usage.js';

const HELP = `Usage: wlx eval [-n] EXPR [FILE...]

Evaluate the jq expression EXPR against each JSON or YAML input, like \`jq -c\`.
Inputs come from the FILEs, or stdin when none is given. A file may hold several
JSON values (a stream, as jq reads it) or a multi-document YAML file (one input
per document). Each output is printed as compact JSON on its own line.

Options:
  -n, --null-input   run EXPR once with null as its input; read no input
      --timeout MS   wall-time budget in ms (default ${DEFAULT_BUDGET.timeMs}) per input; for expressions
                     that run on jq-wasm, per file plus ${DEFAULT_BUDGET.batchMsPerInput} ms per further input. Over
                     it the evaluation fails: "exceeded the evaluation budget" (exit 5)
  -h, --help         show this help

An EXPR that starts with '-' (such as '-(.a)') is taken as the expression, as
jq does; \`--\` ends the options too.

Exit status: 0 success, 2 usage error or unreadable input, 3 EXPR does not
compile, 5 EXPR raised an error on some input.
`;

interface Input {
  value: unknown;
  /** Where the value ends, for jq-style error locations. */
  line: number;
}

class InputError extends Error {}

/** Splits concatenated JSON values (jq's input stream); null when the text is not such a stream. */
export function parseJsonStream(text: string): Input[] | null {
  const out: Input[] = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  while (true) {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) {
      if (text[i] === '\n') line++;
      i++;
    }
    if (i >= n) return out;
    const start = i;
    const c = text[i];
    if (c === '{' || c === '[') {
      let depth = 0;
      for (; i < n; i++) {
        const ch = text[i];
        if (ch === '"') {
          for (i++; i < n && text[i] !== '"'; i++) if (text[i] === '\\') i++;
        } else if (ch === '{' || ch === '[') depth++;
        else if (ch === '}' || ch === ']') {
          depth--;
          if (depth === 0) {
            i++;
            break;
          }
        } else if (ch === '\n') line++;
      }
    } else if (c === '"') {
      for (i++; i < n && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      i++;
    } else {
      while (i < n && !/[\s{}[\]",]/.test(text[i])) i++;
      if (i === start) return null;
    }
    try {
      out.push({ value: JSON.parse(text.slice(start, i)), line });
    } catch {
      return null;
    }
  }
}

async function parseInputs(text: string, name: string): Promise<Input[]> {
  const json = parseJsonStream(text);
  if (json) return json;
  // Not JSON: YAML, one input per document. js-yaml is loaded only here.
  const yaml = await import('js-yaml');
  try {
    const docs: Input[] = [];
    // CORE_SCHEMA: no timestamps (they would become Date objects, not JSON).
    yaml.loadAll(text, (doc) => docs.push({ value: doc === undefined ? null : doc, line: 1 }), {
      schema: yaml.CORE_SCHEMA,
    });
    return docs;
  } catch (err) {
    throw new InputError(
      `jq: error (at ${name}:0): Cannot parse input as JSON or YAML: ${(err as Error).message.split('\n')[0]}`,
    );
  }
}

function errorLine(err: JqError, where: string): string {
  if (typeof err.value === 'string') return `jq: error (at ${where}): ${err.value}\n`;
  return `jq: error (at ${where}) (not a string): ${formatJson(err.value)}\n`;
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  'null-input': { type: 'boolean', short: 'n' },
  timeout: { type: 'string' },
} as const;

/**
 * jq takes an argument in the filter's position that starts with '-' but is
 * no option as the filter (`jq '-(.a)'`); parseArgs would refuse it. Returns
 * the arguments without that filter. Letters only (`-x`, `-nc`) and `--name`
 * still read as options, so a mistyped option is reported as one.
 */
function takeDashFilter(args: string[]): { rest: string[]; filter: string | null } {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return { rest: args, filter: null };
    if (a === '--timeout') {
      i++;
      continue;
    }
    if (!a.startsWith('-') || a === '-') return { rest: args, filter: null };
    if (/^-[A-Za-z]+$/.test(a) || /^--[A-Za-z]/.test(a)) continue;
    return { rest: [...args.slice(0, i), ...args.slice(i + 1)], filter: a };
  }
  return { rest: args, filter: null };
}

export async function runEval(args: string[]): Promise<number> {
  // `wlx eval … | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const { rest, filter } = takeDashFilter(args);
  const { values, positionals } = parseCommandArgs(rest, OPTIONS, 'wlx eval --help');
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (filter !== null) positionals.unshift(filter);
  const [expr, ...files] = positionals;
  if (expr === undefined) throw new UsageError('eval needs a jq expression', 'wlx eval --help');
  if (values.timeout !== undefined) {
    const ms = Number(values.timeout);
    if (!/^\d+$/.test(values.timeout) || ms <= 0)
      throw new UsageError(
        `--timeout needs a positive number of milliseconds, not '${values.timeout}'`,
        'wlx eval --help',
      );
    setEvaluationBudget({ timeMs: ms });
  }

  let program: JqProgram;
  try {
    program = compile(expr);
  } catch (err) {
    if (err instanceof JqError) {
      process.stderr.write(`jq: error: ${err.message}\njq: 1 compile error\n`);
      return 3;
    }
    throw err;
  }

  const sources: { name: string; inputs: Input[] }[] = [];
  if (values['null-input']) {
    sources.push({ name: '<unknown>', inputs: [{ value: null, line: 0 }] });
  } else {
    const names = files.length ? files : ['-'];
    for (const file of names) {
      const name = file === '-' ? '<stdin>' : file;
      let text: string;
      try {
        text = readFileSync(file === '-' ? 0 : file, 'utf8');
      } catch (err) {
        process.stderr.write(
          `jq: error: Could not open ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`,
        );
        return 2;
      }
      try {
        sources.push({ name, inputs: await parseInputs(text, name) });
      } catch (err) {
        if (err instanceof InputError) {
          process.stderr.write(`${err.message}\n`);
          return 2;
        }
        throw err;
      }
    }
  }

  let status = 0;
  let out = '';
  const flush = () => {
    if (out) process.stdout.write(out);
    out = '';
  };
  for (const source of sources) {
    // One evaluation pass per source (a single jq-wasm run for fallback programs).
    program.streamMany(
      source.inputs.map((i) => i.value),
      (_, v) => {
        out += formatJson(v) + '\n';
        if (out.length > 1 << 16) flush();
      },
      (i, err) => {
        flush();
        process.stderr.write(errorLine(err, `${source.name}:${source.inputs[i].line}`));
        status = 5;
      },
    );
  }
  flush();
  return status;
}
