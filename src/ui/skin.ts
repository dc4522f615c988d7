// The explorer's colours a skin may change (src/app/config/skins.ts reads
// k9s's skin keys into this; docs/configuration.md lists the mapping).
// Colours are as Ink draws them (chalk names or #rrggbb); absent: wlx's own.
// The GPU map draws with the 16 terminal colours only, so its are names.
import { createContext } from 'react';
import type { Tone } from './render/table.js';
import type { MapPalette } from './render/gpu-map/colours.js';

export type { MapPalette };

export interface Skin {
  /** Row and status-word colours by tone. */
  tones: Partial<Record<Exclude<Tone, 'normal'>, string>> & { normal?: string };
  /** A row whose workload just changed. */
  changed?: string;
  cursor?: { fg?: string; bg?: string };
  header?: { label?: string; value?: string };
  title?: string;
  columnHeader?: string;
  border?: string;
  crumbs?: { fg?: string; bg?: string; active?: string };
  prompt?: string;
  map?: Partial<MapPalette>;
}

export const DEFAULT_SKIN: Skin = { tones: {} };

export const SkinContext = createContext<Skin>(DEFAULT_SKIN);
