import { describe, expect, it } from 'vitest';
import { promptTokenizer } from './prompt-tokenizers.js';
import { countTokens, lastTokens } from './token-lengths.js';

const TEXT =
  'def area(self, scale):\n    """The area, scaled. <|endoftext|> is text here."""\n    return self.w * scale\n';

describe('promptTokenizer', () => {
  it('measures and cuts with cl100k exactly as the task metrics do', () => {
    const cl100k = promptTokenizer('cl100k');
    expect(cl100k.count(TEXT)).toBe(countTokens(TEXT));
    expect(cl100k.lastTokens(TEXT, 7)).toBe(lastTokens(TEXT, 7));
    expect(cl100k.count('')).toBe(0);
  });

  it("measures with o200k, OpenAI's other encoding, and keeps the end of a text within a budget", () => {
    const o200k = promptTokenizer('o200k');
    const long = TEXT.repeat(20);
    expect(o200k.count(long)).not.toBe(countTokens(long));
    const end = o200k.lastTokens(long, 12);
    expect(long.endsWith(end)).toBe(true);
    expect(o200k.count(end)).toBeLessThanOrEqual(12);
    expect(o200k.lastTokens(TEXT, 10_000)).toBe(TEXT);
    expect(o200k.lastTokens(TEXT, 0)).toBe('');
  });

  it('names the tokenizers it knows when given another', () => {
    expect(() => promptTokenizer('p50k')).toThrow('--tokenizer p50k: not a tokenizer (known: cl100k, o200k');
  });
});
