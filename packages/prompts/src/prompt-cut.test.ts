import { describe, expect, it } from 'vitest';
import type { CuttableParts } from './prompt-cut.js';
import { cutToContext } from './prompt-cut.js';

describe('cutToContext', () => {
  /** One token per character, so that every cut is exact. */
  const tokenizer = {
    name: 'characters',
    count: (text: string) => text.length,
    lastTokens: (text: string, max: number) => (max <= 0 ? '' : text.slice(-max)),
  };

  it('cuts functions first, then the context before, then the context after, each only as far as needed', () => {
    const parts: CuttableParts<string> = { functions: ['aaaa', 'bbbb'], before: 'one two three', after: 'x\ny\nz\n' };
    const measure = (each: CuttableParts<string>): number =>
      tokenizer.count(`${each.functions.join('')}|${each.before}|target|${each.after}`);
    const whole = measure(parts);
    expect(cutToContext(parts, measure, tokenizer, whole)).toEqual(parts);
    expect(cutToContext(parts, measure, tokenizer, whole - 1).functions).toEqual(['bbbb']);
    const tight = cutToContext(parts, measure, tokenizer, measure({ ...parts, functions: [], before: '' }) - 1);
    expect(tight).toEqual({ functions: [], before: '', after: 'x\ny\n' });
  });

  it('leaves every part empty and the input over when the target alone does not fit', () => {
    const parts: CuttableParts<string> = { functions: ['f'], before: 'before', after: 'after\n' };
    const cut = cutToContext(parts, (each) => 10 + each.functions.length + each.before.length, tokenizer, 5);
    expect(cut).toEqual({ functions: [], before: '', after: '' });
  });
});
