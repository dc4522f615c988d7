// The one rule for what `/` matches: a case-insensitive regex, `!` in front inverts it, an invalid one
// matches literally (and says why). Table filters and the GPU map's highlight both read it.

export interface RegexFilter {
  /** Whether a text is kept (matched, or not matched when inverted). */
  keeps: (text: string) => boolean;
  inverted: boolean;
  /** Nothing to match: every text is kept. */
  empty: boolean;
  /** Why the regex did not compile (it is then matched literally). */
  error?: string;
}

export function regexFilter(filter: string): RegexFilter {
  const inverted = filter.startsWith('!');
  const pattern = inverted ? filter.slice(1) : filter;
  if (!pattern) return { keeps: () => true, inverted, empty: true };
  let test: (s: string) => boolean;
  let error: string | undefined;
  try {
    const re = new RegExp(pattern, 'i');
    test = (s) => re.test(s);
  } catch (err) {
    error = (err as Error).message;
    const lower = pattern.toLowerCase();
    test = (s) => s.toLowerCase().includes(lower);
  }
  return { keeps: (s) => test(s) !== inverted, inverted, empty: false, error };
}
