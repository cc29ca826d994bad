import { describe, expect, it } from 'vitest';
import { promptTokenizer } from './prompt-tokenizers.js';
import { countTokens } from './token-lengths.js';

const TEXT =
  'def area(self, scale):\n    """The area, scaled. <|endoftext|> is text here."""\n    return self.w * scale\n';

describe('promptTokenizer', () => {
  it('measures with cl100k exactly as the task metrics do, and keeps the end of a text within a budget', () => {
    const cl100k = promptTokenizer('cl100k');
    expect(cl100k.count(TEXT)).toBe(countTokens(TEXT));
    expect(cl100k.count('')).toBe(0);
    const end = cl100k.lastTokens(TEXT, 5);
    expect([TEXT.endsWith(end), end.length > 0, cl100k.count(end) <= 5]).toEqual([true, true, true]);
    expect(cl100k.lastTokens(TEXT, cl100k.count(TEXT))).toBe(TEXT);
  });

  it('never cuts inside a character: the end kept is always a suffix of the text', () => {
    // Rare CJK, mathematical letters and emoji take four bytes, and a token can hold part of one: cutting there
    // would decode to U+FFFD (the old cut did, with cl100k, for 38 of these 59 budgets).
    const text = `${'𝔘𝔫𝔦𝔠𝔬𝔡𝔢 鬱 龘 😀🙃🤖 '.repeat(30)}end`;
    for (const tokenizer of [promptTokenizer('cl100k'), promptTokenizer('o200k')])
      for (let budget = 1; budget < 60; budget++) {
        const end = tokenizer.lastTokens(text, budget);
        expect(text.endsWith(end), `${tokenizer.name} ${budget}`).toBe(true);
        expect(end).not.toContain('\uFFFD');
        expect(tokenizer.count(end)).toBeLessThanOrEqual(budget);
      }
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
