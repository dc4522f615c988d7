// `<workloads> <llama-pretrain> <worker> <pod>`: the view stack, last one highlighted.
import type React from 'react';
import { Text } from 'ink';
import type { ViewFrame } from '../state/ui-state.js';
import { fit } from '../render/table.js';
import { useSkin } from '../hooks/useSkin.js';

export function Breadcrumbs(props: {
  stack: readonly ViewFrame[];
  width: number;
  noColor: boolean;
}): React.JSX.Element {
  const skin = useSkin();
  const c = props.noColor ? undefined : skin.crumbs;
  const crumbs = props.stack.map((f) => `<${f.label}>`);
  // Keep the tail when it does not fit: the current view matters most.
  let shown = crumbs;
  while (shown.length > 1 && shown.join(' ').length > props.width) shown = shown.slice(1);
  const head = shown.slice(0, -1).join(' ');
  const last = shown[shown.length - 1] ?? '';
  return (
    <Text wrap="truncate-end">
      {head ? (
        <Text color={props.noColor ? undefined : (c?.fg ?? 'blue')} backgroundColor={c?.bg}>
          {head + ' '}
        </Text>
      ) : null}
      <Text inverse={!c?.active} bold color={c?.active ? c.fg : undefined} backgroundColor={c?.active}>
        {fit(last, Math.min(last.length, props.width))}
      </Text>
    </Text>
  );
}
