import { describe, expect, it } from 'vitest';
import { displayWidth, fit, plain, truncate, truncateStart } from './truncate.js';

describe('displayWidth', () => {
  it('counts columns, not code units', () => {
    expect(displayWidth('format_table')).toBe(12);
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('👍')).toBe(2);
    expect(displayWidth('❤️')).toBe(2);
    expect(displayWidth('→ █▌')).toBe(4);
  });
});

describe('truncate', () => {
  it('keeps text that fits and cuts the rest with an ellipsis', () => {
    expect(truncate('quote', 5)).toBe('quote');
    expect(truncate('demo-inventory.pricing.quote', 10)).toBe('demo-inve…');
    expect(truncate('abc', 0)).toBe('');
  });

  it('never splits a wide character over the limit', () => {
    const cut = truncate('日本語のテキスト', 6);
    expect(cut).toBe('日本…');
    expect(displayWidth(cut)).toBeLessThanOrEqual(6);
  });

  it('cuts at the start when the end matters', () => {
    expect(truncateStart('demo-inventory.pricing.quote', 12)).toBe('…icing.quote');
    expect(displayWidth(truncateStart('demo-inventory.pricing.quote', 12))).toBe(12);
  });
});

describe('fit', () => {
  it('pads or cuts to exactly the width', () => {
    expect(fit('cc', 4)).toBe('cc  ');
    expect(fit('13', 4, 'right')).toBe('  13');
    expect(fit('repo-level', 6)).toBe('repo-…');
    expect(fit('demo-inventory.util.retry', 8, 'left', 'start')).toBe('…l.retry');
  });
});

describe('plain', () => {
  it('drops escapes and control characters and expands tabs', () => {
    expect(plain('\u001b[31mFAILED\u001b[0m tests/test_models.py')).toBe('FAILED tests/test_models.py');
    expect(plain('a\tb')).toBe('a       b');
    expect(plain('abc\r')).toBe('abc');
  });
});
