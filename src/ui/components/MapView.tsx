// The GPU map's box: title, legend, then the map lines (src/ui/render/gpu-map/), padded to the table's
// height. Each line arrives as one string with its colours as SGR codes, so a frame is a few dozen text
// nodes however many nodes the cluster has.
import type React from 'react';
import { memo } from 'react';
import { Text } from 'ink';
import type { MapScreen } from '../render/gpu-map/index.js';
import { TitledBox } from './TitledBox.js';

export interface MapViewProps {
  title: string;
  map: MapScreen;
  /** Lines inside the box (the legend's included). */
  height: number;
  /** Total width including the box. */
  width: number;
  noColor: boolean;
  emptyText: string | null;
}

const MapLine = memo(function MapLine({ text }: { text: string }): React.JSX.Element {
  return <Text wrap="truncate-end">{text}</Text>;
});

export function MapView(props: MapViewProps): React.JSX.Element {
  const { map, width, height } = props;
  const inner = Math.max(10, width - 2);
  const lines: React.JSX.Element[] = [...map.legend, ...map.lines]
    .slice(0, height)
    .map((text, i) => <MapLine key={i} text={text} />);
  if (props.emptyText !== null && lines.length < height)
    lines.push(
      <Text key="(empty)" dimColor wrap="truncate-end">
        {props.emptyText}
      </Text>,
    );
  while (lines.length < height) lines.push(<Text key={`(pad)${lines.length}`}>{' '.repeat(inner)}</Text>);
  return (
    <TitledBox title={props.title} width={inner + 2} noColor={props.noColor}>
      {lines}
    </TitledBox>
  );
}
