// Imported first by the UI tests: Ink reads CI once at import time and, in CI
// mode, writes frames only on unmount, which would blind ink-testing-library.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
export {};
