import type { TaskOverview } from '@repocod/pipeline';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { bar, HistogramPanel, histogramLines } from './histogram-panel.js';
import { frameLines, KEY, overlong, press } from '../testing/ink-test-support.js';
import { sampleTask } from './sample-task.js';
import { lineText } from './styled-line.js';
import { displayWidth } from './truncate.js';

const TASKS: readonly TaskOverview[] = [
  sampleTask('a', { complexity: 1, solutionLines: 1 }),
  sampleTask('b', { complexity: 1, solutionLines: 3 }),
  sampleTask('c', { complexity: 13, solutionLines: 17 }),
  sampleTask('d', { complexity: 8, solutionLines: 29, level: 'repo-level' }),
];

describe('bar', () => {
  it('draws eighths of a column and always shows a non-zero count', () => {
    expect(bar(1, 4)).toBe('████');
    expect(bar(0.5, 3)).toBe('█▌');
    expect(bar(0.001, 10)).toBe('▏');
    expect(bar(0, 10)).toBe('');
  });
});

describe('histogramLines', () => {
  it('puts the levels side by side on shared bins, with counts', () => {
    const lines = histogramLines(TASKS, 80).map(lineText);
    expect(lines[0]).toBe('complexity (cc) per level · 4 tasks');
    expect(lines[1]).toMatch(/^cc\s+self-contained \(3\)\s+file-level \(0\)\s+repo-level \(1\)\s*$/u);
    expect(lines[2]).toMatch(/^ {2}0-1 ████+ +2 +· +·$/u);
    expect(lines.find((row) => row.startsWith('12-13'))).toMatch(/^12-13 [█▏▎▍▌▋▊▉]+ +1 +· +·$/u);
    expect(lines).toContain('solution length (lines) per level · 4 tasks');
    expect(lines.find((row) => row.startsWith('25-29'))).toMatch(/· +· +█+ +1$/u);
    for (const row of lines) expect(displayWidth(row)).toBeLessThanOrEqual(80);
  });

  it('says so when there is nothing to count', () => {
    expect(histogramLines([], 80).map(lineText)).toEqual(['no task to count: the filters leave none']);
  });
});

describe('HistogramPanel', () => {
  it('scrolls when the histograms are taller than the room', async () => {
    const { lastFrame, stdin } = render(<HistogramPanel tasks={TASKS} width={60} height={8} active />);
    expect(frameLines(lastFrame())[0]).toBe('complexity (cc) per level · 4 tasks');
    expect(overlong(lastFrame(), 60)).toEqual([]);
    await press(stdin, KEY.end);
    expect(frameLines(lastFrame()).join('\n')).toContain('25-29');
  });
});
