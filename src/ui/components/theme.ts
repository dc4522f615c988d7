// Colours for tones, and the NO_COLOR switch (https://no-color.org): when
// set, nothing is coloured; selection still shows (inverse is not a colour).
import type { Tone } from '../render/table.js';

export interface TextStyle {
  color?: string;
  dimColor?: boolean;
  bold?: boolean;
}

export function noColorRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== '';
}

export function toneStyle(tone: Tone, noColor: boolean): TextStyle {
  if (noColor) return tone === 'dim' ? { dimColor: true } : tone === 'group' ? { bold: true } : {};
  switch (tone) {
    case 'ok':
      return { color: 'green' };
    case 'warn':
      return { color: 'yellow' };
    case 'error':
      return { color: 'red' };
    case 'dim':
      return { dimColor: true };
    case 'group':
      return { color: 'cyan', bold: true };
    default:
      return {};
  }
}

export function accent(noColor: boolean, color = 'cyan'): TextStyle {
  return noColor ? {} : { color };
}
