// Lint rules that catch real bugs in this codebase's shape: async work nobody
// awaits (a dropped watch error), dead code, and value imports used only as types
// (they would load ink/react where a command must start without them).
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

// The layers, one direction: text, jq ← definitions ← model ← {kube (may read
// metrics' parsers), metrics, ui} ← app ← cli. Each entry lists the src/ folders
// a layer must not import; demo/ (the simulator, our second opinion) imports
// nothing of src/.
const LAYERS = [
  ['src/text', ['jq', 'definitions', 'model', 'kube', 'metrics', 'ui', 'app', 'cli']],
  ['src/jq', ['definitions', 'model', 'kube', 'metrics', 'ui', 'app', 'cli']],
  ['src/definitions', ['model', 'kube', 'metrics', 'ui', 'app', 'cli']],
  ['src/model', ['kube', 'metrics', 'ui', 'app', 'cli']],
  ['src/metrics', ['kube', 'ui', 'app', 'cli']],
  ['src/kube', ['ui', 'app', 'cli']],
  ['src/ui', ['kube', 'metrics', 'app', 'cli']],
  ['src/app', ['cli']],
];
const layerRules = [
  ...LAYERS.map(([dir, banned]) => ({
    files: [`${dir}/**/*.ts`, `${dir}/**/*.tsx`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${banned.join('|')})/`,
              message: `${dir} sits below ${banned.join(', ')}: imports go one way (eslint.config.mjs LAYERS).`,
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['demo/**/*.ts', 'demo/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+src/', message: 'demo/ imports nothing of src/: it is an independent check.' },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bin/**', '**/*.mjs'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test()/describe() return promises the runner itself awaits.
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  ...layerRules,
);
