import type { Key } from 'ink';
import type { Dispatch, ReactElement } from 'react';
import type { CurateSession } from '../curate-session.js';
import type { AppAction, AppState, ScreenName } from './app-state.js';
import type { KeyHelp } from './help-bar.js';
import type { FlowControls } from './use-flow.js';

/**
 * One screen of the curator's TUI, as the registry (screens.ts) lists it: everything the App knows of a
 * screen is here, so that adding one is adding an entry.
 */
export interface Screen {
  readonly name: ScreenName;
  /**
   * Its title among the header's tabs, numbered in the registry's order (the number is its key); null
   * for a screen another opens (the task screen, from the tasks table), which takes the digits and Tab
   * for itself: Esc is the way back.
   */
  readonly tab: string | null;
  /** The tab the header marks while a screen without one shows. */
  readonly within?: ScreenName;
  /** Its keys on the help bar, before the App's. */
  readonly keys: readonly KeyHelp[];
  /**
   * Its controller: a hook the App calls on every render, in the registry's order, so that what the
   * screen loaded stays while another shows.
   */
  readonly useScreen: (app: ScreenContext) => ScreenController;
}

/** What a screen's controller hook is given: the shared state and what changes it. */
export interface ScreenContext {
  readonly session: CurateSession;
  readonly state: AppState;
  readonly dispatch: Dispatch<AppAction>;
  /** Shows an error's first line on the message line. */
  readonly report: (error: unknown) => void;
  /** A screen takes every key as text (a filter, a version): the App's own keys wait. */
  readonly setTyping: (typing: boolean) => void;
  readonly flow: FlowControls;
}

/** A screen's controller, as its hook returns it on each render. */
export interface ScreenController {
  /** Loads what the screen reads: called as a tab key opens it (again: the key refreshes it). */
  readonly load?: () => void;
  /** A key the App's own (q, the tab keys) did not take; true when the screen took it. */
  readonly onKey?: (input: string, key: Key) => boolean;
  /** The screen's view, in the room between the header and the message line. */
  readonly render: (frame: ScreenFrame) => ReactElement | null;
}

export interface ScreenFrame {
  readonly width: number;
  readonly height: number;
  /** False while the App asks before quitting: the screen's keys wait. */
  readonly active: boolean;
}
