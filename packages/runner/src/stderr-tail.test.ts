import { describe, expect, it } from 'vitest';
import { stderrTail } from './stderr-tail.js';

describe('stderrTail', () => {
  it("quotes the last five lines of a failed command's stderr, trimmed at both ends", () => {
    const stderr = `\n  first\n${['2', '3', '4', '5', '6', '7'].map((line) => `line ${line}`).join('\n')}\n\n`;
    expect(stderrTail(Object.assign(new Error('failed'), { stderr }))).toBe('line 3\nline 4\nline 5\nline 6\nline 7');
    expect(stderrTail(Object.assign(new Error('failed'), { stderr: '\n  ERROR: no such package\n' }))).toBe(
      'ERROR: no such package',
    );
  });

  it('quotes the error itself when it has no stderr', () => {
    expect(stderrTail(new Error('spawn python3 ENOENT'))).toBe('Error: spawn python3 ENOENT');
  });
});
