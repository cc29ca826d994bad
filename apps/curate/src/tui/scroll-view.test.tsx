import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { frameLines, KEY, overlong, press } from '../testing/ink-test-support.js';
import { ScrollView, useScrollOffset } from './scroll-view.js';
import { line, type StyledLine } from './styled-line.js';

const LINES: StyledLine[] = Array.from({ length: 100 }, (_, index) => line(`line ${index + 1} ${'x'.repeat(index)}`));

function Scrolling({
  lines,
  height,
}: {
  readonly lines: readonly StyledLine[];
  readonly height: number;
}): ReactElement {
  const { offset } = useScrollOffset({ count: lines.length, height, active: true });
  return <ScrollView lines={lines} width={40} height={height} offset={offset} />;
}

describe('ScrollView', () => {
  it('shows a window of the lines and where it is', () => {
    const { lastFrame } = render(<Scrolling lines={LINES} height={10} />);
    const rows = frameLines(lastFrame());
    expect(rows).toHaveLength(10);
    expect(rows[0]).toBe('line 1');
    expect(rows[8]).toMatch(/^line 9 x{8}$/u);
    expect(rows[9]).toMatch(/^── lines 1-9 of 100 \(9%\) ─+$/u);
    expect(overlong(lastFrame(), 40)).toEqual([]);
  });

  it('scrolls with the keys and stops at the ends', async () => {
    const { lastFrame, stdin } = render(<Scrolling lines={LINES} height={10} />);
    await press(stdin, KEY.down, KEY.down);
    expect(frameLines(lastFrame())[0]).toMatch(/^line 3 /u);
    await press(stdin, KEY.pageDown);
    expect(frameLines(lastFrame())[0]).toMatch(/^line 11 /u);
    await press(stdin, KEY.end);
    expect(frameLines(lastFrame())[8]).toMatch(/^line 100 x+…$/u);
    expect(frameLines(lastFrame())[9]).toContain('lines 92-100 of 100 (100%)');
    await press(stdin, KEY.down, KEY.home, KEY.up);
    expect(frameLines(lastFrame())[0]).toBe('line 1');
  });

  it('shows short content whole, without a position row', () => {
    const { lastFrame } = render(<Scrolling lines={LINES.slice(0, 3)} height={10} />);
    expect(frameLines(lastFrame()).filter((row) => row.trim() !== '')).toEqual(['line 1', 'line 2 x', 'line 3 xx']);
  });
});
