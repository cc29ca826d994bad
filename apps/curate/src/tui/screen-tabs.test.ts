import { describe, expect, it } from 'vitest';
import { helpKeys, nextTab, screenTabs, tabOfKey } from './screen-tabs.js';
import { SCREENS } from './screens.js';

const TABS = screenTabs(SCREENS);

function screen(name: string): (typeof SCREENS)[number] {
  const found = SCREENS.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`no screen ${name}`);
  return found;
}

describe('the tabs, read from the registry', () => {
  it('numbers the screens that have a tab, in order: the task screen has none', () => {
    expect(TABS.map((tab) => `${tab.number} ${tab.title}`)).toEqual([
      '1 sources',
      '2 stages',
      '3 tasks',
      '4 validation',
      '5 publish',
      '6 evaluate',
    ]);
  });

  it('opens a tab by its number, and moves with Tab and Shift-Tab round the ends', () => {
    expect(tabOfKey(TABS, '4')?.screen).toBe('validation');
    expect(tabOfKey(TABS, '7')).toBeUndefined();
    expect(tabOfKey(TABS, '0')).toBeUndefined();
    expect(tabOfKey(TABS, 'r')).toBeUndefined();
    expect(nextTab(TABS, 'evaluate', false)?.screen).toBe('sources');
    expect(nextTab(TABS, 'sources', true)?.screen).toBe('evaluate');
  });

  it("lists a screen's keys, then the tab keys by their count and q; a screen without a tab keeps only q", () => {
    expect(helpKeys(screen('stages'), TABS).slice(-2)).toEqual([
      { key: '1-6/tab', action: 'screens' },
      { key: 'q', action: 'quit' },
    ]);
    const task = helpKeys(screen('task'), TABS);
    expect(task[0]).toEqual({ key: 'esc', action: 'back to the tasks' });
    expect(task.slice(-2)[1]).toEqual({ key: 'q', action: 'quit' });
    expect(task.some((help) => help.key.endsWith('/tab'))).toBe(false);
  });
});
