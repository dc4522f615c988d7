// A terminal for the explorer driven in-process (tui-session.ts, fleet-session.ts): a 160×50 stdout
// that timestamps every frame Ink writes and keeps the last one as plain text, and a stdin that keys
// are written to.
import { EventEmitter } from 'node:events';
import type { ReactElement } from 'react';
import type { ModelSource } from '../../src/model/source.js';

const now = () => performance.timeOrigin + performance.now();
const COLUMNS = 160;
const ROWS = 50;
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

export class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  get columns() {
    return COLUMNS;
  }
  get rows() {
    return ROWS;
  }
  frames = 0;
  last = '';
  onFrame: ((text: string, t: number) => void) | undefined;
  write = (chunk: string | Uint8Array): boolean => {
    const t = now();
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const plain = text.replace(ANSI, '');
    // Cursor and mode sequences alone are not frames.
    if (!plain.trim()) return true;
    this.frames++;
    this.last = plain;
    this.onFrame?.(plain, t);
    return true;
  };
}

export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  write(data: string): void {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = (): string | null => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

/** The explorer drawn into a fake terminal: what the sessions measure. */
export interface DrawnExplorer {
  stdout: FakeStdout;
  stdin: FakeStdin;
  unmount(): void;
}

/**
 * Loads what the explorer draws with (React, Ink, App, the frame memo run.tsx installs) and returns the
 * function that draws a source with the explorer's options. Loaded before a session's clock starts, after
 * NODE_ENV is set (React reads it when it loads).
 */
export async function loadExplorerDraw(): Promise<(source: ModelSource) => DrawnExplorer> {
  const React = (await import('react')).default;
  const { render } = await import('ink');
  // The explorer's frames (run.tsx imports it too): Ink draws only the rows that changed (WLX_INK_FRAME_MEMO).
  await import('../../src/ui/ink-frame-memo.js');
  const { App } = await import('../../src/ui/components/App.js');
  const { MAX_FPS } = await import('../../src/ui/frame-rate.js');
  return (source) => {
    const stdout = new FakeStdout();
    const stdin = new FakeStdin();
    const element = React.createElement(App, { source, wlxVersion: 'bench', onQuit: () => undefined }) as ReactElement;
    const instance = render(element, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stderr: stdout as unknown as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: MAX_FPS,
    });
    return { stdout, stdin, unmount: () => instance.unmount() };
  };
}
