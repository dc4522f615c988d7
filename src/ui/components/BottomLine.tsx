// The last line: the filter or command prompt while typing one, else the flash.
import type React from 'react';
import type { Screen } from '../state/screen.js';
import { CommandLine } from './CommandLine.js';
import { FilterLine } from './FilterLine.js';
import { Flash } from './Flash.js';
import { confirmText } from '../state/keys.js';

export function BottomLine(props: { screen: Screen; width: number; noColor: boolean }): React.JSX.Element {
  const { screen, width, noColor } = props;
  const { state } = screen;
  if (state.mode === 'filter')
    return <FilterLine filter={screen.frame.filter} error={screen.filterError} width={width} noColor={noColor} />;
  if (state.mode === 'command')
    return <CommandLine input={state.input} candidates={state.candidates} width={width} noColor={noColor} />;
  if (state.mode === 'confirm' && state.confirm)
    return <Flash flash={{ text: confirmText(state.confirm), level: 'warn' }} width={width} noColor={noColor} />;
  return <Flash flash={screen.flash} width={width} noColor={noColor} />;
}
