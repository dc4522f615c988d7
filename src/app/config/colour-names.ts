// Colour names in skins, as tcell (and so k9s) reads them: the 16 terminal
// colours by their W3C names (drawn with the terminal's own palette), the
// other CSS named colours as RGB, `#rrggbb`, and `default` for the
// terminal's own colour. Ink draws chalk's names and hex.

/** tcell's names of the 16 palette colours → chalk's. */
const PALETTE: Record<string, string> = {
  black: 'black',
  maroon: 'red',
  green: 'green',
  olive: 'yellow',
  navy: 'blue',
  purple: 'magenta',
  teal: 'cyan',
  silver: 'white',
  gray: 'gray',
  grey: 'gray',
  red: 'redBright',
  lime: 'greenBright',
  yellow: 'yellowBright',
  blue: 'blueBright',
  fuchsia: 'magentaBright',
  aqua: 'cyanBright',
  white: 'whiteBright',
};

/** chalk's own names, accepted as they are. */
const CHALK = [
  'black',
  'red',
  'green',
  'yellow',
  'blue',
  'magenta',
  'cyan',
  'white',
  'gray',
  'blackBright',
  'redBright',
  'greenBright',
  'yellowBright',
  'blueBright',
  'magentaBright',
  'cyanBright',
  'whiteBright',
];

// The remaining CSS Color Module named colours.
const CSS = `aliceblue f0f8ff antiquewhite faebd7 aquamarine 7fffd4 azure f0ffff beige f5f5dc bisque ffe4c4
blanchedalmond ffebcd blueviolet 8a2be2 brown a52a2a burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00
chocolate d2691e coral ff7f50 cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b
darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgrey a9a9a9 darkgreen 006400 darkkhaki bdb76b
darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000 darksalmon e9967a
darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f darkslategrey 2f4f4f darkturquoise 00ced1
darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff dimgray 696969 dimgrey 696969 dodgerblue 1e90ff
firebrick b22222 floralwhite fffaf0 forestgreen 228b22 gainsboro dcdcdc ghostwhite f8f8ff gold ffd700
goldenrod daa520 greenyellow adff2f honeydew f0fff0 hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0
khaki f0e68c lavender e6e6fa lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6
lightcoral f08080 lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgrey d3d3d3
lightgreen 90ee90 lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa
lightslategray 778899 lightslategrey 778899 lightsteelblue b0c4de lightyellow ffffe0 limegreen 32cd32
linen faf0e6 magenta ff00ff mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db
mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc
mediumvioletred c71585 midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5
navajowhite ffdead oldlace fdf5e6 olivedrab 6b8e23 orange ffa500 orangered ff4500 orchid da70d6
palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee palevioletred db7093 papayawhip ffefd5
peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd powderblue b0e0e6 rebeccapurple 663399 rosybrown bc8f8f
royalblue 4169e1 saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee
sienna a0522d skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa
springgreen 00ff7f steelblue 4682b4 tan d2b48c thistle d8bfd8 tomato ff6347 turquoise 40e0d0 violet ee82ee
wheat f5deb3 whitesmoke f5f5f5 yellowgreen 9acd32`;

// The CSS names as a map: an immutable table built once from the constant above (on first use), not a cache.
let cssTable: Map<string, string> | null = null;
function css(): Map<string, string> {
  if (!cssTable) {
    const words = CSS.split(/\s+/).filter(Boolean);
    cssTable = new Map();
    for (let i = 0; i + 1 < words.length; i += 2) cssTable.set(words[i], `#${words[i + 1]}`);
  }
  return cssTable;
}

/**
 * A skin colour as Ink draws it: a chalk name or `#rrggbb`; null for
 * `default` (the terminal's own). Throws when the name is not a colour.
 */
export function inkColour(text: string): string | null {
  const t = text.trim();
  const lower = t.toLowerCase();
  if (lower === 'default' || lower === '') return null;
  if (/^#[0-9a-f]{6}$/i.test(t)) return t.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(t)) return `#${[...t.slice(1)].map((c) => c + c).join('')}`.toLowerCase();
  if (PALETTE[lower]) return PALETTE[lower];
  const chalk = CHALK.find((c) => c.toLowerCase() === lower);
  if (chalk) return chalk;
  const hex = css().get(lower);
  if (hex) return hex;
  throw new Error(`"${text}" is not a colour (a name such as dodgerblue, #rrggbb, or default)`);
}

/** A colour of the 16 the GPU map draws with (chalk's name); throws for others. */
export function paletteColour(text: string): string {
  const c = inkColour(text);
  if (c === null || !CHALK.includes(c) || c === 'black' || c === 'blackBright')
    throw new Error(`"${text}": the map draws with the 16 terminal colours (e.g. blue, teal, redBright), not black`);
  return c;
}
