// skins/NAME.yaml, chosen by `skin:` in config.yaml: a k9s skin file. wlx
// reads the subset of k9s's keys that has a counterpart in its screen
// (SKIN_KEYS; the rest of a k9s skin is valid and unused), and under its own
// `wlx:` key the GPU map's colours. A bad colour is one file:line problem.
import { join } from 'node:path';
import type { MapColour } from '../../ui/render/gpu-map/colours.js';
import type { MapPalette, Skin } from '../../ui/skin.js';
import { inkColour, paletteColour } from './colour-names.js';
import { isMapping, openConfigMapping, problemAt, type ConfigProblem, type YamlMapping } from './yaml-file.js';

type Setter = (skin: Skin, colour: string | undefined) => void;

/** k9s skin key (under `k9s:`) → where wlx uses it. */
export const SKIN_KEYS: Record<string, { use: string; set: Setter }> = {
  'body.fgColor': { use: 'plain text and rows', set: (s, c) => (s.tones.normal = c) },
  'views.table.fgColor': { use: 'healthy rows and status words (Running, Succeeded)', set: (s, c) => (s.tones.ok = c) },
  'frame.status.pendingColor': {
    use: 'rows and words that wait or warn (Pending, Queued, Degraded)',
    set: (s, c) => (s.tones.warn = c),
  },
  'frame.status.errorColor': { use: 'failed rows and words (Failed, OOMKilled)', set: (s, c) => (s.tones.error = c) },
  'frame.status.completedColor': { use: 'dimmed rows (finished, unknown)', set: (s, c) => (s.tones.dim = c) },
  'frame.status.highlightColor': { use: 'a row whose workload just changed', set: (s, c) => (s.changed = c) },
  'views.table.cursorFgColor': { use: 'the selected row (text)', set: (s, c) => (s.cursor = { ...s.cursor, fg: c }) },
  'views.table.cursorBgColor': {
    use: 'the selected row (background)',
    set: (s, c) => (s.cursor = { ...s.cursor, bg: c }),
  },
  'views.table.header.fgColor': {
    use: 'column headers and group rows (topology domains)',
    set: (s, c) => {
      s.columnHeader = c;
      s.tones.group = c;
    },
  },
  'info.fgColor': { use: 'header labels (Context:, GPUs:)', set: (s, c) => (s.header = { ...s.header, label: c }) },
  'info.sectionColor': { use: 'header values', set: (s, c) => (s.header = { ...s.header, value: c }) },
  'frame.title.fgColor': { use: 'the table title', set: (s, c) => (s.title = c) },
  'frame.border.fgColor': { use: 'the table border', set: (s, c) => (s.border = c) },
  'frame.crumbs.fgColor': { use: 'breadcrumbs (text)', set: (s, c) => (s.crumbs = { ...s.crumbs, fg: c }) },
  'frame.crumbs.bgColor': { use: 'breadcrumbs (background)', set: (s, c) => (s.crumbs = { ...s.crumbs, bg: c }) },
  'frame.crumbs.activeColor': {
    use: 'the current breadcrumb (background)',
    set: (s, c) => (s.crumbs = { ...s.crumbs, active: c }),
  },
  'prompt.fgColor': { use: 'the : and / prompts', set: (s, c) => (s.prompt = c) },
};

const MAP_LEVELS = ['free', 'low', 'mid', 'high', 'full'] as const;
/** `wlx.map.*` → the GPU map's colours (16 terminal colours). */
export const MAP_KEYS = [...MAP_LEVELS, 'noGpu', 'cursor'] as const;

export interface LoadedSkin {
  file: string;
  exists: boolean;
  skin: Skin | null;
  problems: ConfigProblem[];
}

function at(value: Record<string, unknown>, dotted: string): unknown {
  let v: unknown = value;
  for (const k of dotted.split('.')) {
    if (!isMapping(v)) return undefined;
    v = v[k];
  }
  return v;
}

function readMap(m: YamlMapping, wlx: unknown, problems: ConfigProblem[]): Partial<MapPalette> | undefined {
  if (wlx === undefined || wlx === null) return undefined;
  if (!isMapping(wlx)) {
    problems.push(problemAt(m, ['wlx'], 'expected a mapping (map: {...})'));
    return undefined;
  }
  for (const k of Object.keys(wlx))
    if (k !== 'map') problems.push(problemAt(m, ['wlx', k], `unknown key "${k}" (wlx: holds map:)`));
  const map = wlx.map;
  if (map === undefined || map === null) return undefined;
  if (!isMapping(map)) {
    problems.push(problemAt(m, ['wlx', 'map'], `expected a mapping of ${MAP_KEYS.join(', ')}`));
    return undefined;
  }
  const colours: Partial<Record<(typeof MAP_KEYS)[number], MapColour>> = {};
  for (const [k, v] of Object.entries(map)) {
    if (!(MAP_KEYS as readonly string[]).includes(k)) {
      problems.push(problemAt(m, ['wlx', 'map', k], `unknown key "${k}" (known: ${MAP_KEYS.join(', ')})`));
      continue;
    }
    try {
      if (typeof v !== 'string') throw new Error('expected a colour name');
      colours[k as (typeof MAP_KEYS)[number]] = paletteColour(v) as MapColour;
    } catch (err) {
      problems.push(problemAt(m, ['wlx', 'map', k], `map.${k}: ${(err as Error).message}`));
    }
  }
  const out: Partial<MapPalette> = {};
  if (colours.noGpu) out.noGpu = colours.noGpu;
  if (colours.cursor) out.cursor = colours.cursor;
  if (MAP_LEVELS.some((l) => colours[l])) {
    const base: MapColour[] = ['blue', 'cyan', 'green', 'yellow', 'red'];
    out.levels = MAP_LEVELS.map((l, i) => colours[l] ?? base[i]) as unknown as MapPalette['levels'];
  }
  return out;
}

export function skinFile(skinsDir: string, name: string): string {
  return join(skinsDir, `${name}.yaml`);
}

export function loadSkin(skinsDir: string, name: string): LoadedSkin {
  const file = skinFile(skinsDir, name);
  const out: LoadedSkin = { file, exists: false, skin: null, problems: [] };
  const m = openConfigMapping(file, out);
  if (!m) return out;
  const skin: Skin = { tones: {} };
  const k9s = m.value.k9s;
  if (k9s !== undefined && k9s !== null && !isMapping(k9s))
    out.problems.push(problemAt(m, ['k9s'], 'expected a mapping (body:, frame:, views:, …)'));
  else if (isMapping(k9s))
    for (const [dotted, spec] of Object.entries(SKIN_KEYS)) {
      const v = at(k9s, dotted);
      if (v === undefined || v === null) continue;
      try {
        if (typeof v !== 'string') throw new Error('expected a colour name');
        spec.set(skin, inkColour(v) ?? undefined);
      } catch (err) {
        out.problems.push(problemAt(m, ['k9s', ...dotted.split('.')], `${dotted}: ${(err as Error).message}`));
      }
    }
  const map = readMap(m, m.value.wlx, out.problems);
  if (map) skin.map = map;
  out.skin = skin;
  return out;
}
