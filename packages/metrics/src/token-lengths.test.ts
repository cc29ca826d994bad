import { describe, expect, it } from 'vitest';
import { countLines, countTokens } from './token-lengths.js';

describe('countTokens (cl100k_base)', () => {
  it('counts known encodings', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
    expect(countTokens('    return x\n')).toBe(4);
  });

  it('counts special-token text as plain text instead of failing', () => {
    // As a special token it would be the single token 100257; as text, tiktoken's
    // encode(..., disallowed_special=()) gives 7: < | endo ft ext | >.
    expect(countTokens('<|endoftext|>')).toBe(7);
    expect(countTokens('"""Ends with <|endoftext|> marker."""')).toBe(12);
  });
});

describe('countLines', () => {
  it('counts lines with or without a final newline', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\r\nb')).toBe(2);
    expect(countLines('a\n\nb\n')).toBe(3);
  });
});
