// The box every main view is drawn in: the title set into the top border, the sides and bottom drawn by Ink's
// Box (one write each, not a border character in every line).
import type React from 'react';
import { Box, Text } from 'ink';
import { displayWidth, fit } from '../render/table.js';
import { accent } from './theme.js';
import { useSkin } from '../hooks/useSkin.js';

export interface TitledBoxProps {
  title: string;
  /** Width including the border. */
  width: number;
  noColor: boolean;
  children: React.ReactNode;
}

export function TitledBox({ title, width, noColor, children }: TitledBoxProps): React.JSX.Element {
  const skin = useSkin();
  const border = accent(noColor, 'blue', skin.border);
  const top = borderTop(title, width);
  const at = skin.title && !noColor ? top.indexOf(title.trim()) : -1;
  return (
    <Box flexDirection="column" width={width}>
      {at < 0 ? (
        <Text wrap="truncate-end" {...border}>
          {top}
        </Text>
      ) : (
        <Text wrap="truncate-end" {...border}>
          {top.slice(0, at)}
          <Text color={skin.title}>{title.trim()}</Text>
          {top.slice(at + title.trim().length)}
        </Text>
      )}
      <Box flexDirection="column" width={width} borderStyle="single" borderTop={false} borderColor={border.color}>
        {children}
      </Box>
    </Box>
  );
}

/** The top border with the title centred in it (cut to fit). */
export function borderTop(title: string, width: number): string {
  const inner = width - 2;
  const t = displayWidth(title) > inner - 2 ? fit(title, Math.max(0, inner - 2)) : title;
  const left = Math.max(0, Math.floor((inner - displayWidth(t)) / 2));
  const right = Math.max(0, inner - left - displayWidth(t));
  return '┌' + '─'.repeat(left) + t + '─'.repeat(right) + '┐';
}
