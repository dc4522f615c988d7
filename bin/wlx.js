#!/usr/bin/env node
// Thin launcher: the CLI lives in src/cli (compiled to dist/). Kept tiny so that
// `wlx --version` and other UI-less commands start fast.
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`wlx: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
