// The one sanitiser for text that came from the cluster. Object names, labels,
// annotations, messages and logs are attacker-controlled (a compromised image
// can write its termination message); before any of it reaches a terminal,
// escape sequences, C0/C1 control characters and bidi overrides become visible
// escapes, so they can neither move the cursor, retitle the window nor reorder
// what the user reads.

// C0 controls except nothing (tab and newline are handled by the caller's mode),
// DEL, C1 controls, and the Unicode bidi embedding/override/isolate controls.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (code === 0x1b) return '\\e';
  if (code === 0x0a) return '\\n';
  if (code === 0x0d) return '\\r';
  if (code === 0x09) return '\\t';
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

/** One line of cluster text: every control character becomes a visible escape. */
export function sanitise(text: unknown): string {
  const s = typeof text === 'string' ? text : text === undefined || text === null ? '' : String(text);
  return s.replace(UNSAFE, escapeChar);
}

/** Multi-line cluster text (logs, YAML): keeps newlines and tabs, escapes the rest. */
export function sanitiseMultiline(text: unknown): string {
  const s = typeof text === 'string' ? text : String(text ?? '');
  return s.replace(UNSAFE, (ch) => (ch === '\n' || ch === '\t' ? ch : escapeChar(ch)));
}
