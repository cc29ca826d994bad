import type { Key } from 'ink';

/**
 * Moving through something longer than the screen: a cursor over rows (the tasks table, the
 * validation list) or a window over lines (a task, a log). The screens share these so that the same
 * keys do the same thing everywhere.
 */

export type Move = 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end';

/** The move a key asks for: arrows, PgUp/PgDn, Home/End, and vi's j/k/g/G for terminals without them. */
export function moveOf(input: string, key: Key): Move | null {
  if (key.upArrow || input === 'k') return 'up';
  if (key.downArrow || input === 'j') return 'down';
  if (key.pageUp) return 'pageUp';
  if (key.pageDown || input === ' ') return 'pageDown';
  if (key.home || input === 'g') return 'home';
  if (key.end || input === 'G') return 'end';
  return null;
}

/** The cursor after a move over `count` rows, a page being `page` rows. */
export function movedCursor(cursor: number, move: Move, count: number, page: number): number {
  if (count === 0) return 0;
  const step = Math.max(1, page);
  const target = {
    up: cursor - 1,
    down: cursor + 1,
    pageUp: cursor - step,
    pageDown: cursor + step,
    home: 0,
    end: count - 1,
  }[move];
  return clamp(target, 0, count - 1);
}

/** The first row to show so that the cursor stays in view, moving the window as little as possible. */
export function windowTop(cursor: number, top: number, height: number, count: number): number {
  if (height <= 0 || count <= height) return 0;
  const kept = cursor < top ? cursor : cursor >= top + height ? cursor - height + 1 : top;
  return clamp(kept, 0, count - height);
}

/** The first line shown after a move of a window of `height` lines over `count` lines. */
export function scrolledOffset(offset: number, move: Move, count: number, height: number): number {
  const last = Math.max(0, count - height);
  const step = Math.max(1, height - 1);
  const target = {
    up: offset - 1,
    down: offset + 1,
    pageUp: offset - step,
    pageDown: offset + step,
    home: 0,
    end: last,
  }[move];
  return clamp(target, 0, last);
}

export function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}
