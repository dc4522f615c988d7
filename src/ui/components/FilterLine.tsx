// The `/` prompt while a filter is typed (it applies as you type).
import type React from 'react';
import { Text } from 'ink';
import { fit } from '../render/table.js';
import { useSkin } from '../hooks/useSkin.js';

export function FilterLine(props: {
  filter: string;
  error?: string;
  width: number;
  noColor: boolean;
}): React.JSX.Element {
  const skin = useSkin();
  const hint = props.error
    ? `  (not a regex, matching literally: ${props.error})`
    : '  (Enter keeps, Esc clears, /!re inverts)';
  return (
    <Text wrap="truncate-end">
      <Text bold color={props.noColor ? undefined : (skin.prompt ?? 'cyan')}>
        /
      </Text>
      <Text>{props.filter}</Text>
      <Text inverse> </Text>
      <Text dimColor>{fit(hint, Math.max(0, props.width - props.filter.length - 2))}</Text>
    </Text>
  );
}
