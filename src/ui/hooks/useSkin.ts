// The skin in effect (src/ui/skin.ts; DEFAULT_SKIN: wlx's own colours).
import { useContext } from 'react';
import { SkinContext, type Skin } from '../skin.js';

export function useSkin(): Skin {
  return useContext(SkinContext);
}
