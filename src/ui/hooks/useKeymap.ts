// Keyboard input as normalised key names (see keymap.ts). Several characters
// arriving in one chunk (typed fast, pasted, or sent by tmux) are split so
// that each is a key, except in text entry where the chunk is the text.
import { useInput } from 'ink';
import { keyName } from '../keymap.js';

export type KeyHandler = (name: string, input: string) => void;

export function useKeymap(handler: KeyHandler, textEntry: () => boolean): void {
  useInput((input, key) => {
    const name = keyName(input, key);
    if (!textEntry() && name === input && [...input].length > 1) {
      for (const ch of input) handler(ch === ' ' ? 'space' : ch, ch);
      return;
    }
    handler(name, input);
  });
}
