// Imported before ink (see run.tsx): Ink decides once, when first imported,
// whether it runs "in CI" (CI=1) and then draws only the last frame on exit,
// which would leave an interactive terminal blank. When stdout is a real
// terminal the user is looking at it, so the CI variables must not apply to
// the explorer.
if (process.stdout.isTTY) {
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
}
// React's development build checks and times every render (several times
// slower with big tables); the explorer runs the production build unless the
// user asked otherwise.
process.env.NODE_ENV ??= 'production';
export {};
