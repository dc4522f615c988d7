// Runs a plugin's program: the user's own command (wlx itself stays
// read-only). Foreground: on the terminal (the explorer has given it up,
// src/ui/run.tsx); background: detached from it, output discarded. Either
// way the selection's environment is added to wlx's, as k9s does with its
// variables, and the result is the exit status.
import { spawn } from 'node:child_process';
import type { PluginResult, PluginRun } from '../ui/user-config.js';

export function runPluginProcess(run: PluginRun, baseEnv: NodeJS.ProcessEnv = process.env): Promise<PluginResult> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(run.command, run.args, {
        env: { ...baseEnv, ...run.env },
        stdio: run.plugin.background ? 'ignore' : 'inherit',
      });
    } catch (err) {
      resolve({ code: null, error: (err as Error).message });
      return;
    }
    child.once('error', (err: NodeJS.ErrnoException) =>
      resolve({
        code: null,
        error: err.code === 'ENOENT' ? `${run.command}: command not found` : err.message,
      }),
    );
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}
