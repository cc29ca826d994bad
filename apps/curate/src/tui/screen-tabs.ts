import type { ScreenName } from './app-state.js';
import type { KeyHelp } from './help-bar.js';
import type { Screen } from './screen.js';

/** A tab in the header: its number is its key. */
export interface ScreenTab {
  readonly screen: ScreenName;
  readonly title: string;
  readonly number: number;
}

/** The registry's screens that have a tab, numbered from 1 in its order. */
export function screenTabs(screens: readonly Screen[]): readonly ScreenTab[] {
  return screens
    .flatMap((screen) => (screen.tab === null ? [] : [{ screen: screen.name, title: screen.tab }]))
    .map((tab, index) => ({ ...tab, number: index + 1 }));
}

/** The tab a screen's number key opens, if any. */
export function tabOfKey(tabs: readonly ScreenTab[], input: string): ScreenTab | undefined {
  const number = Number(input);
  return Number.isInteger(number) && number >= 1 ? tabs[number - 1] : undefined;
}

/** The tab Tab (or Shift-Tab, `back`) moves to from `screen`. */
export function nextTab(tabs: readonly ScreenTab[], screen: ScreenName, back: boolean): ScreenTab | undefined {
  const at = tabs.findIndex((tab) => tab.screen === screen);
  return tabs[(at + (back ? tabs.length - 1 : 1)) % tabs.length];
}

/**
 * The help bar's keys for `screen`: its own, then the App's. A screen without a tab takes the digits
 * and Tab for itself: only q is left for the App.
 */
export function helpKeys(screen: Screen, tabs: readonly ScreenTab[]): readonly KeyHelp[] {
  const quit: KeyHelp = { key: 'q', action: 'quit' };
  if (screen.tab === null) return [...screen.keys, quit];
  return [...screen.keys, { key: `1-${tabs.length}/tab`, action: 'screens' }, quit];
}
