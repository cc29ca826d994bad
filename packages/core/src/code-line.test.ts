import { describe, expect, it } from 'vitest';
import { isCodeLine } from './code-line.js';

describe('isCodeLine', () => {
  it('is false for a blank line and a comment-only line, whatever their indentation and ending', () => {
    expect(['', '\n', '    \r\n', '\t', '# note', '        # note\n'].map(isCodeLine)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('is true for a statement, with or without a comment after it', () => {
    expect(['    return x\n', 'x = 1  # note', '\tpass'].map(isCodeLine)).toEqual([true, true, true]);
  });
});
