// Keyboard input as normalised key names (see keymap.ts). Several characters
// arriving in one chunk (typed fast, pasted, or sent by tmux) are split so
// that each is its own key: `/llama⏎` must filter and then press Enter.
import { useInput } from 'ink';
import { useCallback, useLayoutEffect, useRef } from 'react';
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

/** Calls the latest `handler` for each key (Ink's input listener is long-lived). */
export function useKeymap(handler: KeyHandler): void {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  const onInput = useCallback((input: string, key: Parameters<typeof keyName>[1]) => {
    // Ink reads two Escapes in one chunk (a burst from tmux, or fast keys) as one
    // meta-Escape whose input is the second ESC: each is its own key.
    if (key.escape && input === '\u001b') {
      latest.current('esc', '');
      latest.current('esc', '');
      return;
    }
    const name = keyName(input, key);
    if (name === input && [...input].length > 1) {
      for (const ch of input) latest.current(charKeyName(ch), ch);
      return;
    }
    latest.current(name, input);
  }, []);
  useInput(onInput);
}
