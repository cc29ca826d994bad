import { Text } from 'ink';
import type React from 'react';
import type { FlowBoard } from '../flow-board.js';
import type { ScreenName } from './app-state.js';
import type { ScreenTab } from './screen-tabs.js';

/** The App's first line: the tabs (the current one marked), and what the flow runs while it runs. */
export function AppHeader(props: {
  readonly tabs: readonly ScreenTab[];
  /** The tab to mark. */
  readonly current: ScreenName;
  readonly running: boolean;
  readonly board: FlowBoard;
}): React.JSX.Element {
  const runningRow = props.board.rows.find((row) => row.status === 'running');
  return (
    <Text wrap="truncate-end">
      <Text bold color="magenta">
        repocod{' '}
      </Text>
      {props.tabs.map((tab) => (
        <Text key={tab.screen} inverse={tab.screen === props.current} bold={tab.screen === props.current}>
          {` ${tab.number} ${tab.title} `}
        </Text>
      ))}
      {props.running ? (
        <Text color="yellow">
          {' ▶ '}
          {runningRow === undefined
            ? 'running'
            : `${runningRow.stage}${runningRow.repository === null ? '' : ` ${runningRow.repository}`}`}
        </Text>
      ) : null}
    </Text>
  );
}
