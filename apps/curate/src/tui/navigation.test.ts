import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { moveOf, movedCursor, scrolledOffset, windowTop } from './navigation.js';

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

describe('moveOf', () => {
  it('reads arrows, pages, home/end and the vi letters', () => {
    expect(moveOf('', { ...NO_KEY, upArrow: true })).toBe('up');
    expect(moveOf('j', NO_KEY)).toBe('down');
    expect(moveOf('', { ...NO_KEY, pageDown: true })).toBe('pageDown');
    expect(moveOf('', { ...NO_KEY, home: true })).toBe('home');
    expect(moveOf('G', { ...NO_KEY, shift: true })).toBe('end');
    expect(moveOf('s', NO_KEY)).toBeNull();
  });
});

describe('movedCursor', () => {
  it('stays within the rows', () => {
    expect(movedCursor(0, 'up', 51, 20)).toBe(0);
    expect(movedCursor(0, 'pageDown', 51, 20)).toBe(20);
    expect(movedCursor(45, 'pageDown', 51, 20)).toBe(50);
    expect(movedCursor(10, 'end', 51, 20)).toBe(50);
    expect(movedCursor(3, 'down', 0, 20)).toBe(0);
  });
});

describe('windowTop', () => {
  it('moves the window only when the cursor leaves it', () => {
    expect(windowTop(5, 0, 20, 51)).toBe(0);
    expect(windowTop(20, 0, 20, 51)).toBe(1);
    expect(windowTop(3, 10, 20, 51)).toBe(3);
    expect(windowTop(50, 0, 20, 51)).toBe(31);
    expect(windowTop(4, 30, 20, 10)).toBe(0);
  });
});

describe('scrolledOffset', () => {
  it('keeps the window over the lines', () => {
    expect(scrolledOffset(0, 'up', 100, 20)).toBe(0);
    expect(scrolledOffset(0, 'pageDown', 100, 20)).toBe(19);
    expect(scrolledOffset(75, 'pageDown', 100, 20)).toBe(80);
    expect(scrolledOffset(10, 'end', 100, 20)).toBe(80);
    expect(scrolledOffset(0, 'end', 10, 20)).toBe(0);
  });
});
