// A few lines of detail above the table (workload / node views).
import type React from 'react';
import { Box, Text } from 'ink';
import type { PanelLine } from '../render/panels.js';
import { fit } from '../render/table.js';
import { toneStyle } from './theme.js';
import { useSkin } from '../hooks/useSkin.js';

export function DetailPanel(props: {
  lines: readonly PanelLine[];
  width: number;
  noColor: boolean;
}): React.JSX.Element {
  const skin = useSkin();
  return (
    <Box flexDirection="column">
      {props.lines.map((l, i) => (
        <Text key={i} wrap="truncate-end" {...toneStyle(l.tone, props.noColor, skin)}>
          {fit(l.text, props.width)}
        </Text>
      ))}
    </Box>
  );
}
