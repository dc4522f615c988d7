// A terminal for the explorer driven in-process (tui-session.ts, fleet-session.ts): a 160×50 stdout
// that timestamps every frame Ink writes and keeps the last one as plain text, and a stdin that keys
// are written to.
import { EventEmitter } from 'node:events';

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
