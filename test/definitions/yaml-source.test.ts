// Field paths map to the line of their YAML node, in block and flow style,
// across documents, and through nested list items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldPath, parseYamlDocuments, type ParsedDocument } from '../../src/definitions/yaml-source.js';

function docs(text: string): ParsedDocument[] {
  return parseYamlDocuments(text, 't.yaml').map((r) => {
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    return r.document;
  });
}

const TEXT = `# header comment
spec:
  structure:
    childComponents:
      - name: a
      - name: b
        podSelector: {componentTypeSelector: {keyPath: .x}}
      - name: c

        podSelector:
          componentTypeSelector:
            # the key path:
            keyPath: .metadata.labels["x"]
            value: "1"
    list: [1, 2,
      3]
`;

test('nested list items map to their own lines', () => {
  const [doc] = docs(TEXT);
  const base = ['spec', 'structure', 'childComponents'];
  assert.equal(doc.lineOf([...base, 0, 'name']), 5);
  assert.equal(doc.lineOf([...base, 1]), 6);
  assert.equal(doc.lineOf([...base, 1, 'podSelector', 'componentTypeSelector', 'keyPath']), 7);
  assert.equal(doc.lineOf([...base, 2, 'podSelector', 'componentTypeSelector', 'keyPath']), 13);
  assert.equal(doc.lineOf([...base, 2, 'podSelector', 'componentTypeSelector', 'value']), 14);
  assert.equal(doc.lineOf(['spec', 'structure', 'list', 2]), 16);
  assert.equal(doc.lineOf([]), 2);
});

test('a missing field maps to its deepest existing ancestor', () => {
  const [doc] = docs(TEXT);
  assert.equal(doc.lineOf(['spec', 'structure', 'childComponents', 2, 'ownerRef']), 8);
  assert.equal(doc.lineOf(['spec', 'structure', 'childComponents', 7, 'name']), 4);
  assert.equal(doc.lineOf(['spec', 'nothing', 'here']), 2);
});

test('documents keep file line numbers; `--- value` and `...` are handled', () => {
  const text = 'a: 1\n---\nb:\n  c: 2\n--- {d: 3}\n...\n# trailing comment\n---\n\n# only a comment\n';
  const all = docs(text);
  assert.equal(all.length, 3);
  assert.deepEqual(all.map((d) => d.value), [{ a: 1 }, { b: { c: 2 } }, { d: 3 }]);
  assert.equal(all[1].lineOf(['b', 'c']), 4);
  assert.equal(all[1].startLine, 2);
  assert.equal(all[2].lineOf(['d']), 5);
});

test('a syntax error is reported with its file line, and later documents still parse', () => {
  const results = parseYamlDocuments('a: 1\n---\nb: [\n---\nc: 3\n', 't.yaml');
  assert.equal(results.length, 3);
  assert.ok(results[0].ok && results[2].ok);
  const bad = results[1];
  assert.ok(!bad.ok);
  assert.ok(bad.error.line >= 3 && bad.error.line <= 4, `line ${bad.error.line}`);
});

test('CRLF line ends and a byte-order mark do not shift lines', () => {
  const [doc] = docs('\uFEFFa:\r\n  b:\r\n    - x\r\n    - y\r\n');
  assert.deepEqual(doc.value, { a: { b: ['x', 'y'] } });
  assert.equal(doc.lineOf(['a', 'b', 1]), 4);
});

test('field paths format like spec.x[2].y, quoting odd keys', () => {
  assert.equal(formatFieldPath(['spec', 'childComponents', 2, 'podSelector']), 'spec.childComponents[2].podSelector');
  assert.equal(formatFieldPath(['matchLabels', 'app.kubernetes.io/name']), 'matchLabels["app.kubernetes.io/name"]');
  assert.equal(formatFieldPath([]), '');
});
