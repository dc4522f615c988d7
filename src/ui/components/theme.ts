// Colours for tones, and the NO_COLOR switch (https://no-color.org): when
// set, nothing is coloured; selection still shows (inverse is not a colour).
// A skin (src/ui/skin.ts) replaces the colours it names.
import type { Tone } from '../render/table.js';
import type { Skin } from '../skin.js';

export interface TextStyle {
  color?: string;
  dimColor?: boolean;
  bold?: boolean;
}

export function noColorRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== '';
}

export function toneStyle(tone: Tone, noColor: boolean, skin?: Skin): TextStyle {
  if (noColor) return tone === 'dim' ? { dimColor: true } : tone === 'group' ? { bold: true } : {};
  const own = skin?.tones[tone];
  if (own) return { color: own, bold: tone === 'group' };
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

/** `color`, or the skin's when it sets one (`skinned`). */
export function accent(noColor: boolean, color = 'cyan', skinned?: string): TextStyle {
  return noColor ? {} : { color: skinned ?? color };
}
