// k9s's key names (tcell's: `a`, `Shift-A`, `Shift-0`, `Ctrl-A`) and `Alt-x`
// to the explorer's key names (src/ui/keymap.ts keyName: `a`, `A`, `)`,
// `ctrl-a`, `alt-x`).

// US layout, as tcell names them (Shift-1 is `!`).
const SHIFT_DIGITS = [')', '!', '@', '#', '$', '%', '^', '&', '*', '('];

// Control keys a terminal cannot tell from other keys.
const CTRL_TAKEN: Record<string, string> = {
  h: 'Backspace',
  i: 'Tab',
  j: 'Enter',
  m: 'Enter',
  '[': 'Esc',
};

/** The explorer's name of a k9s shortCut; throws with what is wrong. */
export function keyOfShortCut(shortCut: string): string {
  const s = shortCut.trim();
  if (/^[a-z0-9]$/.test(s)) return s;
  let m = /^shift-([a-z])$/i.exec(s);
  if (m) return m[1].toUpperCase();
  m = /^shift-([0-9])$/i.exec(s);
  if (m) return SHIFT_DIGITS[Number(m[1])];
  m = /^ctrl-([a-z])$/i.exec(s);
  if (m) {
    const c = m[1].toLowerCase();
    if (CTRL_TAKEN[c]) throw new Error(`${s} is ${CTRL_TAKEN[c]} in a terminal`);
    return `ctrl-${c}`;
  }
  m = /^alt-([a-z0-9])$/i.exec(s);
  if (m) return `alt-${m[1]}`;
  if (/^[A-Z]$/.test(s)) throw new Error(`"${s}": write Shift-${s}`);
  throw new Error(`"${shortCut}" is not a key wlx reads (a–z, 0–9, Shift-A, Shift-0, Ctrl-A, Alt-a)`);
}
