import { describe, expect, it } from 'vitest';
import { errorLine } from './error-line.js';

describe('an error on the message line', () => {
  it("is an Error's first line, or anything else as a string", () => {
    expect(errorLine(new Error('pytest failed\n  the output'))).toBe('pytest failed');
    expect(errorLine('refused')).toBe('refused');
  });
});
