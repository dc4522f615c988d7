// Parses YAML (or JSON, which is YAML) text into documents that remember where
// each of their nodes came from, so that a problem found in a field can be
// reported as `file:line: field.path: message` with the line of that field.
//
// js-yaml 4 keeps no node positions; its `listener` option reports every node
// it composes ('open' before, 'close' after, with the parser state). We rebuild
// a small position tree from those events: for a mapping, its direct children
// are its keys and values in turn; for a sequence, its items. Documents are
// split before parsing so that a syntax error in one of them does not lose the
// others.
import yaml from 'js-yaml';

export type FieldPath = ReadonlyArray<string | number>;

interface PositionNode {
  /** 1-based line where the node starts (for a value: where its key's colon is). */
  line: number;
  kind: 'mapping' | 'sequence' | 'scalar' | null;
  /** The composed value, for collections (to check that the tree matches it). */
  value: unknown;
  children: PositionNode[];
}

export interface ParsedDocument {
  /** The document's value (undefined for an empty document). */
  value: unknown;
  /** 1-based line of the document's first line in the file. */
  startLine: number;
  /** 1-based line of its first line that is not blank or a comment. */
  firstContentLine: number;
  /** 1-based line of the node at `path`, or of its deepest ancestor that exists. */
  lineOf(path: FieldPath): number;
}

export interface DocumentSyntaxError {
  /** 1-based line of the error in the file. */
  line: number;
  message: string;
  startLine: number;
}

export type DocumentParseResult = { ok: true; document: ParsedDocument } | { ok: false; error: DocumentSyntaxError };

/** Formats a field path as `spec.structureDefinition.childComponents[2].podSelector`. */
export function formatFieldPath(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** One chunk of text per YAML document, split at `---` lines (and `...` ends). */
function splitDocuments(text: string): { text: string; startLine: number }[] {
  const lines = text.split('\n');
  const chunks: { text: string; startLine: number }[] = [];
  let current: string[] = [];
  let startLine = 1;
  const flush = (nextStart: number): void => {
    // A chunk of only comments, blank lines and directives (`%YAML 1.2`
    // before a `---`), or an empty document, holds no document worth reporting.
    if (current.some((l) => l.trim() !== '' && !l.trim().startsWith('#') && !l.startsWith('%'))) {
      chunks.push({ text: current.join('\n'), startLine });
    }
    current = [];
    startLine = nextStart;
  };
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (/^---(\s|$)/.test(line)) {
      flush(lineNo);
      // `--- value` puts content on the separator line; keep it, minus the marker,
      // padded so columns (and so js-yaml's indentation rules) stay the same.
      current.push('   ' + line.slice(3));
      return;
    }
    if (/^\.\.\.(\s|$)/.test(line)) {
      flush(lineNo + 1);
      return;
    }
    current.push(line);
  });
  flush(lines.length + 1);
  return chunks;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineAt(starts: number[], position: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

interface ListenerState {
  position: number;
  kind: string | null;
  result: unknown;
}

function parseChunk(chunk: { text: string; startLine: number }, filename: string): DocumentParseResult {
  const offset = chunk.startLine - 1;
  let value: unknown;
  // Parse plainly first: most documents are valid and never need a line, and
  // the position tree costs as much again. It is built on the first lineOf().
  try {
    value = yaml.load(chunk.text, { filename });
  } catch (err) {
    const e = err as { mark?: { line?: number }; reason?: string; message?: string };
    const line = (e.mark?.line ?? 0) + 1 + offset;
    return { ok: false, error: { line, message: e.reason ?? String(e.message ?? err), startLine: chunk.startLine } };
  }
  const firstContentLine = firstContentLineOf(chunk.text) + offset;
  let root: PositionNode | null | undefined;
  return {
    ok: true,
    document: {
      value: value === null && chunk.text.trim() === '' ? undefined : value,
      startLine: chunk.startLine,
      firstContentLine,
      lineOf: (path) => {
        if (root === undefined) root = positionTree(chunk.text, offset, filename);
        return root ? locate(root, path) : firstContentLine;
      },
    },
  };
}

/** Parses again with js-yaml's listener to learn where each node starts. */
function positionTree(text: string, offset: number, filename: string): PositionNode | null {
  const starts = lineStartsOf(text);
  const stack: { position: number; children: PositionNode[] }[] = [{ position: 0, children: [] }];
  try {
    yaml.load(text, {
      filename,
      listener(event: 'open' | 'close', state: ListenerState) {
        if (event === 'open') {
          stack.push({ position: state.position, children: [] });
          return;
        }
        const frame = stack.pop()!;
        const kind = state.kind === 'mapping' || state.kind === 'sequence' || state.kind === 'scalar' ? state.kind : null;
        stack[stack.length - 1].children.push({
          line: lineAt(starts, frame.position) + offset,
          kind,
          value: state.result,
          children: frame.children,
        });
      },
    });
  } catch {
    return null; // parsed fine the first time; cannot happen, but never crash over a line number
  }
  // The document's root is the last top-level node the listener closed.
  const top = stack[0].children;
  return top[top.length - 1] ?? null;
}

function firstContentLineOf(text: string): number {
  const lines = text.split('\n');
  const index = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  return index < 0 ? 1 : index + 1;
}

/** Walks the position tree along `path`; stops at the deepest node that exists. */
function locate(root: PositionNode, path: FieldPath): number {
  let node = unwrap(root);
  let line = root.kind === 'mapping' || root.kind === 'sequence' ? firstKeyLine(root) : root.line;
  for (const segment of path) {
    if (typeof segment === 'number') {
      if (node.kind !== 'sequence' || !Array.isArray(node.value)) return line;
      // Empty items (`- ` with nothing after) compose no node; then positions
      // would not line up, so stay at the sequence itself.
      if (node.children.length !== node.value.length) return line;
      const item = node.children[segment];
      if (!item) return line;
      node = unwrap(item);
      line = item.line;
    } else {
      if (node.kind !== 'mapping') return line;
      const pair = findPair(node, segment);
      if (!pair) return line;
      line = pair.keyLine;
      if (!pair.value) return line;
      node = unwrap(pair.value);
    }
  }
  return line;
}

/**
 * Flow collections (`{...}`, `[...]`) are composed by a nested call that
 * reports the same value again; look through such wrappers.
 */
function unwrap(node: PositionNode): PositionNode {
  let current = node;
  while (current.children.length === 1 && current.kind !== 'scalar' && current.children[0].value === current.value) {
    current = current.children[0]!;
  }
  return current;
}

/** The line a collection really starts on: its first key or item (the open position may be before a line break). */
function firstKeyLine(node: PositionNode): number {
  return node.children[0]?.line ?? node.line;
}

function findPair(node: PositionNode, key: string): { keyLine: number; value?: PositionNode } | undefined {
  const children = node.children;
  const keyCount = node.value && typeof node.value === 'object' ? Object.keys(node.value).length : -1;
  if (children.length === keyCount * 2) {
    for (let i = 0; i + 1 < children.length; i += 2) {
      const k = children[i];
      if (k.kind === 'scalar' && String(k.value) === key) return { keyLine: k.line, value: children[i + 1] };
    }
    return undefined;
  }
  // Irregular tree (merge keys, empty values): take the first scalar child that
  // spells the key, and the node after it.
  const index = children.findIndex((c) => c.kind === 'scalar' && String(c.value) === key);
  if (index < 0) return undefined;
  return { keyLine: children[index].line, value: children[index + 1] };
}

/** Splits `text` into YAML documents and parses each on its own. */
export function parseYamlDocuments(text: string, filename: string): DocumentParseResult[] {
  // Byte-order marks and CRLF line ends would shift nothing in lines, but
  // js-yaml handles them; normalise CRLF so the splitter sees clean lines.
  const clean = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  return splitDocuments(clean).map((chunk) => parseChunk(chunk, filename));
}
