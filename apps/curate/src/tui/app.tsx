import { Box, Text } from 'ink';
import React from 'react';
import type { FlowStatus } from '@repocod/pipeline';
import type { CurateSession } from '../curate-session.js';
import { AppHeader } from './app-header.js';
import { HelpBar } from './help-bar.js';
import type { Screen } from './screen.js';
import { useCurateApp } from './use-curate-app.js';

export interface AppProps {
  readonly session: CurateSession;
  readonly initialStatus: FlowStatus;
  /** Repositories named with --repo: chosen from the start. */
  readonly requested: readonly string[];
  /** Start the flow at once (the curator named the repositories). */
  readonly autoRun?: boolean;
  /** Fixed size for tests; a real terminal's size (and its resizes) otherwise. */
  readonly size?: { readonly width: number; readonly height: number };
  /** The screens, in tab order: the registry (screens.ts) unless a test brings its own. */
  readonly screens?: readonly Screen[];
}

/**
 * The curator's TUI: a header with the tabs, the current screen, a line for messages and the help bar.
 * The flow runs in this process through the session; its events fold into the board the stages
 * screen draws. Quitting while it runs asks first; what finished is in the catalog either way.
 */
export function App(props: AppProps): React.JSX.Element {
  const { size, state, tabs, currentTab, bodyHeight, body, keys } = useCurateApp(props);
  const { screen, running, board, confirmQuit, message } = state;
  return (
    <Box flexDirection="column" width={size.width} height={size.height - 1}>
      <AppHeader tabs={tabs} current={currentTab} running={running} board={board} />
      <Box height={bodyHeight} flexDirection="column" overflow="hidden">
        {/* Keyed by the screen: each one's view starts afresh as it opens. */}
        <React.Fragment key={screen}>{body}</React.Fragment>
      </Box>
      <Text wrap="truncate-end" color={confirmQuit ? 'yellow' : 'red'}>
        {confirmQuit ? 'the flow is running: quit now? what finished is kept in the catalog (y/n)' : (message ?? ' ')}
      </Text>
      <HelpBar keys={keys} width={size.width} />
    </Box>
  );
}
