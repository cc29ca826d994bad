import { useApp, useInput } from 'ink';
import type { ReactElement } from 'react';
import { useCallback, useEffect, useReducer, useState } from 'react';
import { nextVersion } from '../curate-session.js';
import type { AppProps } from './app.js';
import type { AppState, ScreenName } from './app-state.js';
import { appReducer, initialAppState } from './app-state.js';
import { errorLine } from './error-line.js';
import type { KeyHelp } from './help-bar.js';
import type { ScreenContext } from './screen.js';
import type { ScreenTab } from './screen-tabs.js';
import { helpKeys, nextTab, screenTabs, tabOfKey } from './screen-tabs.js';
import { SCREENS } from './screens.js';
import { useFlow } from './use-flow.js';
import type { TerminalSize } from './use-terminal-size.js';
import { useTerminalSize } from './use-terminal-size.js';

/** What the App draws: the header's tabs, the current screen's view, the message line and the help bar. */
export interface CurateApp {
  readonly size: TerminalSize;
  readonly state: AppState;
  readonly tabs: readonly ScreenTab[];
  /** The tab the header marks. */
  readonly currentTab: ScreenName;
  /** The rows between the header and the message line. */
  readonly bodyHeight: number;
  readonly body: ReactElement | null;
  readonly keys: readonly KeyHelp[];
}

/**
 * The App's controller: the shared state, the flow, each screen's controller (the registry's hooks), and
 * the App's own keys (q, the tab keys, x) before the current screen's.
 */
export function useCurateApp(props: AppProps): CurateApp {
  const { session } = props;
  const { exit } = useApp();
  const size = useTerminalSize(props.size);
  const [state, dispatch] = useReducer(appReducer, undefined, () =>
    initialAppState({
      status: props.initialStatus,
      requested: props.requested,
      version:
        session.settings.version ?? nextVersion(props.initialStatus.releasedVersions.map((item) => item.version)),
      now: Date.now(),
    }),
  );
  const { screen, running, confirmQuit, typing, evaluation } = state;
  // Read once: the screens' hooks run on every render, in this order, so the list must not change.
  const [screens] = useState(() => props.screens ?? SCREENS);
  const [tabs] = useState(() => screenTabs(screens));

  const report = useCallback((error: unknown) => dispatch({ kind: 'message', message: errorLine(error) }), []);
  const setTyping = useCallback((typing: boolean) => dispatch({ kind: 'typing', typing }), []);
  const flow = useFlow(session, state, dispatch);
  const context: ScreenContext = { session, state, dispatch, report, setTyping, flow };
  // biome-ignore lint/correctness/useHookAtTopLevel: the list is read once (above): the same hooks in the same order
  const controllers = screens.map((entry) => entry.useScreen(context));

  // Elapsed times and ETAs move while the flow or an evaluation runs.
  const ticking = running || evaluation.state === 'running';
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => dispatch({ kind: 'tick', now: Date.now() }), 1000);
    return () => clearInterval(timer);
  }, [ticking]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only at the start
  useEffect(() => {
    if (props.autoRun === true) flow.startFlow();
  }, []);

  const at = screens.findIndex((entry) => entry.name === screen);
  const current = screens[at];
  const controller = controllers[at];

  const open = (target: ScreenName): void => {
    dispatch({ kind: 'open', screen: target });
    controllers[screens.findIndex((entry) => entry.name === target)]?.load?.();
  };
  const quit = (): void => {
    flow.stop();
    exit();
  };

  useInput(
    (input, key) => {
      if (confirmQuit) {
        if (input === 'y') quit();
        else if (input === 'n' || key.escape) dispatch({ kind: 'confirm-quit', asking: false });
        return;
      }
      if (input === 'q') {
        if (running) dispatch({ kind: 'confirm-quit', asking: true });
        else quit();
        return;
      }
      if (current?.tab === null) {
        controller?.onKey?.(input, key);
        return;
      }
      const chosen = tabOfKey(tabs, input) ?? (key.tab ? nextTab(tabs, screen, key.shift) : undefined);
      if (chosen !== undefined) {
        open(chosen.screen);
        return;
      }
      if (controller?.onKey?.(input, key) === true) return;
      if (input === 'x' && running) {
        flow.stop();
        dispatch({ kind: 'message', message: 'stopping after the current step…' });
      }
    },
    { isActive: !typing },
  );

  const bodyHeight = Math.max(4, size.height - 4);
  return {
    size,
    state,
    tabs,
    currentTab: current?.within ?? screen,
    bodyHeight,
    body: controller?.render({ width: size.width, height: bodyHeight, active: !confirmQuit }) ?? null,
    keys: current === undefined ? [] : helpKeys(current, tabs),
  };
}
