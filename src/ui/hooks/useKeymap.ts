// Keyboard input as normalised key names (see keymap.ts). Several characters
// arriving in one chunk (typed fast, pasted, or sent by tmux) are split so
// that each is its own key: `/llama⏎` must filter and then press Enter.
import { useInput } from 'ink';
import { keyName } from '../keymap.js';

export type KeyHandler = (name: string, input: string) => void;

/** The key name of one raw character from a chunk. */
export function charKeyName(ch: string): string {
  switch (ch) {
    case '\r':
    case '\n':
      return 'enter';
    case '\t':
      return 'tab';
    case '\u007f':
    case '\b':
      return 'backspace';
    case '\u001b':
      return 'esc';
    case ' ':
      return 'space';
  }
  const code = ch.codePointAt(0)!;
  if (code >= 1 && code <= 26) return `ctrl-${String.fromCharCode(code + 96)}`;
  return ch;
}

export function useKeymap(handler: KeyHandler): void {
  useInput((input, key) => {
    const name = keyName(input, key);
    if (name === input && [...input].length > 1) {
      for (const ch of input) handler(charKeyName(ch), ch);
      return;
    }
    handler(name, input);
  });
}
