import { describe, expect, it } from 'vitest';
import { countLines, countTokens } from './token-lengths.js';

describe('countTokens (cl100k_base)', () => {
  it('counts known encodings', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
    expect(countTokens('    return x\n')).toBeGreaterThan(2);
  });

  it('counts special-token text as plain text instead of failing', () => {
    expect(countTokens('"""Ends with <|endoftext|> marker."""')).toBeGreaterThan(5);
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
