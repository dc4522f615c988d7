// The flash line: errors and notices (bad regex, unknown command, model problems).
import type React from 'react';
import { Text } from 'ink';
import type { Flash as FlashMessage } from '../state/viewState.js';
import { fit } from '../render/table.js';

export function Flash(props: { flash: FlashMessage | null; width: number; noColor: boolean }): React.JSX.Element {
  const f = props.flash;
  if (!f) return <Text> </Text>;
  const color = props.noColor ? undefined : f.level === 'error' ? 'red' : f.level === 'warn' ? 'yellow' : 'green';
  return (
    <Text wrap="truncate-end" color={color}>
      {fit(f.text, props.width)}
    </Text>
  );
}
