// The GPU map's colours and glyphs: the 16 ANSI colours only, and a glyph for each for NO_COLOR.
/** The 16 ANSI colours only, so a 16-colour terminal draws the map as a 256-colour one does. */
export type MapColour =
  | 'gray'
  | 'blue'
  | 'cyan'
  | 'green'
  | 'yellow'
  | 'red'
  | 'magenta'
  | 'white'
  | 'whiteBright'
  | 'magentaBright'
  | 'greenBright'
  | 'yellowBright'
  | 'cyanBright'
  | 'redBright'
  | 'blueBright';

export const FG: Record<MapColour, number> = {
  gray: 90,
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  white: 37,
  redBright: 91,
  greenBright: 92,
  yellowBright: 93,
  blueBright: 94,
  magentaBright: 95,
  cyanBright: 96,
  whiteBright: 97,
};

export const sgr = (codes: readonly number[]) => `\u001b[${codes.join(';')}m`;
export const RESET = '\u001b[0m';

/** Free → full: five steps of allocation (or utilisation). */
export const LEVEL_COLOURS: readonly MapColour[] = ['blue', 'cyan', 'green', 'yellow', 'red'];
/** NO_COLOR: glyph density instead of colour. */
export const LEVEL_GLYPHS = ['·', '░', '▒', '▓', '█'] as const;
export const NO_GPU_COLOUR: MapColour = 'gray';
export const NO_GPU_GLYPH = '-';
/** Role colours and NO_COLOR glyphs of a highlighted workload (cycled past the last). */
export const ROLE_COLOURS: readonly MapColour[] = [
  'greenBright',
  'yellowBright',
  'cyanBright',
  'redBright',
  'blueBright',
];
export const MATCH_GLYPH = '*';
export const CURSOR_COLOUR: MapColour = 'whiteBright';

/** The colours a skin may change (src/ui/skin.ts): the five steps, no GPU, the cursor. */
export interface MapPalette {
  /** Free (or idle) → full (or busy). */
  levels: readonly [MapColour, MapColour, MapColour, MapColour, MapColour];
  noGpu: MapColour;
  cursor: MapColour;
}

export const DEFAULT_PALETTE: MapPalette = {
  levels: ['blue', 'cyan', 'green', 'yellow', 'red'],
  noGpu: NO_GPU_COLOUR,
  cursor: CURSOR_COLOUR,
};

export type NodeMark = 'NotReady' | 'cordoned' | 'pressure';
export const MARK_COLOURS: Record<NodeMark, MapColour> = {
  NotReady: 'magenta',
  cordoned: 'white',
  pressure: 'magentaBright',
};
export const MARK_GLYPHS: Record<NodeMark, string> = { NotReady: 'X', cordoned: 'C', pressure: 'P' };

export const roleGlyph = (i: number) => String((i % 9) + 1);
export const roleColour = (i: number) => ROLE_COLOURS[i % ROLE_COLOURS.length];
