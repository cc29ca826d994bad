import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { frameLines } from '../testing/ink-test-support.js';
import { fitLine, LineView, line, lineText, textLines } from './styled-line.js';

describe('fitLine', () => {
  it('keeps a line that fits', () => {
    const styled = [{ text: 'failed', color: 'red' as const }, { text: '  demo-inventory.util.retry' }];
    expect(fitLine(styled, 80)).toBe(styled);
  });

  it('cuts in the span where the width ends, keeping that span style', () => {
    const styled = [
      { text: 'failed', color: 'red' as const },
      { text: '  demo-inventory.util.retry', dim: true },
      { text: ' more' },
    ];
    const cut = fitLine(styled, 12);
    expect(lineText(cut)).toBe('failed  dem…');
    expect(cut).toHaveLength(2);
    expect(cut[1]?.dim).toBe(true);
  });

  it('never lets a line break through', () => {
    expect(lineText(fitLine([{ text: 'a\nb' }], 10))).toBe('a b');
  });

  it('puts the ellipsis at a span boundary too', () => {
    expect(lineText(fitLine([{ text: 'abc' }, { text: 'def' }], 4))).toBe('abc…');
  });
});

describe('textLines', () => {
  it('splits a text into clean lines, dropping the final newline', () => {
    expect(textLines('def quote(lines):\n\treturn 1\n', {}, '  ').map(lineText)).toEqual([
      '  def quote(lines):',
      '          return 1',
    ]);
    expect(textLines('')).toEqual([]);
  });
});

describe('LineView', () => {
  it('draws the spans on one row', () => {
    const { lastFrame } = render(<LineView styled={[{ text: 'passed', color: 'green' }, { text: ' collects' }]} />);
    expect(frameLines(lastFrame())).toEqual(['passed collects']);
  });

  it('draws an empty line as a blank row', () => {
    const { lastFrame } = render(<LineView styled={line('')} />);
    expect(frameLines(lastFrame())).toHaveLength(1);
  });
});
