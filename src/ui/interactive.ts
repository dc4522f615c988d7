// Imported before ink (see run.tsx): Ink decides once, when first imported,
// whether it runs "in CI" (CI=1) and then draws only the last frame on exit,
// which would leave an interactive terminal blank. When stdout is a real
// terminal the user is looking at it, so the CI variables must not apply to
// the explorer.
if (process.stdout.isTTY) {
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
}

/**
 * Call before the first import of react / ink: React's development build
 * checks and times every render (several times slower with big tables), so
 * the explorer runs the production build unless the user chose otherwise.
 * It cannot be done by an import placed first: Node evaluates CommonJS
 * modules (react) imported from ES modules while linking, before any ES module
 * body runs, so react would pick its build before the variable is set.
 */
export function preferProductionReact(env: NodeJS.ProcessEnv = process.env): void {
  env.NODE_ENV ??= 'production';
}
