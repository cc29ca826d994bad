import { describe, expect, it } from 'vitest';
import { relevantTests } from './relevant-tests.js';

describe('relevantTests', () => {
  it('keeps the passing candidates that fail, error or vanish under the mutation', () => {
    const outcomes = new Map([
      ['t::fails', 'failed'],
      ['t::errors', 'error'],
      ['t::passes', 'passed'],
      ['t::skips', 'skipped'],
      ['t::flaky', 'failed'],
    ] as const);
    const passing = new Set(['t::fails', 't::errors', 't::passes', 't::skips', 't::gone']);
    expect(
      relevantTests(['t::passes', 't::fails', 't::errors', 't::skips', 't::flaky', 't::gone'], outcomes, passing),
    ).toEqual(['t::errors', 't::fails', 't::gone']);
  });
});
