// The `:` command prompt, with the Tab completion candidates after it.
import type React from 'react';
import { Text } from 'ink';
import { fit } from '../render/table.js';
import { useSkin } from '../hooks/useSkin.js';

export function CommandLine(props: {
  input: string;
  candidates: readonly string[];
  width: number;
  noColor: boolean;
}): React.JSX.Element {
  const skin = useSkin();
  const hint = props.candidates.length > 1 ? '  ' + props.candidates.join(' ') : '';
  return (
    <Text wrap="truncate-end">
      <Text bold color={props.noColor ? undefined : (skin.prompt ?? 'cyan')}>
        :
      </Text>
      <Text>{props.input}</Text>
      <Text inverse> </Text>
      <Text dimColor>{fit(hint, Math.max(0, props.width - props.input.length - 2))}</Text>
    </Text>
  );
}
