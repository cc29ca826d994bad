import { Box, useInput } from 'ink';
import { type ReactElement, useCallback } from 'react';
import { clamp, moveOf, scrolledOffset } from './navigation.js';
import { fitLine, LineView, line, type StyledLine } from './styled-line.js';
import { useSyncedState } from './synced-state.js';

/**
 * A window of `height` rows over lines longer than the screen (a task, a log). When the lines do not
 * fit, the last row tells where the window is, so that one knows there is more below.
 */

export interface ScrollViewProps {
  readonly lines: readonly StyledLine[];
  readonly width: number;
  readonly height: number;
  /** The first line shown (clamped here, so a caller may keep an offset from longer content). */
  readonly offset: number;
}

/** Rows left for the lines once the position row is taken (when the lines do not fit). */
export function scrollBodyHeight(count: number, height: number): number {
  return count > height ? Math.max(1, height - 1) : height;
}

/** The furthest offset: the last line at the bottom of the window. */
export function lastOffset(count: number, height: number): number {
  return Math.max(0, count - scrollBodyHeight(count, height));
}

export function ScrollView({ lines, width, height, offset }: ScrollViewProps): ReactElement {
  const body = scrollBodyHeight(lines.length, height);
  const top = clamp(offset, 0, lastOffset(lines.length, height));
  const shown = lines.slice(top, top + body);
  const position = lines.length > height ? [positionLine(top, shown.length, lines.length, width)] : [];
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {[...shown, ...position].map((styled, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a row of the window is its place on the screen
        <Box key={index} width={width} height={1} overflow="hidden">
          <LineView styled={fitLine(styled, width)} />
        </Box>
      ))}
    </Box>
  );
}

function positionLine(top: number, shown: number, count: number, width: number): StyledLine {
  const percent = Math.round(((top + shown) / count) * 100);
  const label = ` lines ${top + 1}-${top + shown} of ${count} (${percent}%) `;
  return line(`──${label}${'─'.repeat(Math.max(0, width - label.length - 2))}`, { dim: true });
}

export interface ScrollOptions {
  readonly count: number;
  readonly height: number;
  readonly active: boolean;
}

export interface ScrollOffset {
  /** The first line shown, within the lines. */
  readonly offset: number;
  /** The offset as the keys left it, rendered or not (see synced-state.ts). */
  readonly read: () => number;
  readonly scrollTo: (offset: number) => void;
}

/** The offset of a scroll view, moved by the navigation keys while `active`. */
export function useScrollOffset({ count, height, active }: ScrollOptions): ScrollOffset {
  const [offset, read, update] = useSyncedState(0);
  const last = lastOffset(count, height);
  useInput(
    (input, key) => {
      const move = moveOf(input, key);
      if (move === null) return;
      update((current) => scrolledOffset(clamp(current, 0, last), move, count, scrollBodyHeight(count, height)));
    },
    { isActive: active },
  );
  const scrollTo = useCallback((to: number) => update(() => to), [update]);
  const readClamped = useCallback(() => clamp(read(), 0, last), [read, last]);
  return { offset: clamp(offset, 0, last), read: readClamped, scrollTo };
}
