// The flash line: errors and notices (bad regex, unknown command, model problems).
import type React from 'react';
import { Text } from 'ink';
import type { Flash as FlashMessage } from '../state/ui-state.js';
import { fit } from '../render/table.js';
import { useSkin } from '../hooks/useSkin.js';

export function Flash(props: { flash: FlashMessage | null; width: number; noColor: boolean }): React.JSX.Element {
  const skin = useSkin();
  const f = props.flash;
  if (!f) return <Text> </Text>;
  const tone = f.level === 'error' ? 'error' : f.level === 'warn' ? 'warn' : 'ok';
  const color = props.noColor
    ? undefined
    : (skin.tones[tone] ?? (tone === 'error' ? 'red' : tone === 'warn' ? 'yellow' : 'green'));
  return (
    <Text wrap="truncate-end" color={color}>
      {fit(f.text, props.width)}
    </Text>
  );
}
