import { describe, expect, it } from 'vitest';
import { REPOCOD_CANDIDATE_FILTER, isCandidate, parseCandidateFilter } from './candidate-filter.js';
import { functionRecord } from './testing/function-record-fixture.js';

const record = functionRecord;

describe('isCandidate', () => {
  it('needs a docstring spanning more than 10 lines, both quote lines counted', () => {
    expect(isCandidate(record({ docstringSpan: { start: 2, end: 12 } }))).toBe(true); // 11 lines
    expect(isCandidate(record({ docstringSpan: { start: 2, end: 11 } }))).toBe(false); // 10 lines
    expect(isCandidate(record({ docstringSpan: null }))).toBe(false);
  });

  it('never takes test code', () => {
    expect(isCandidate(record({ isTestCode: true }))).toBe(false);
  });

  it('follows a changed threshold and the nested switch', () => {
    expect(isCandidate(record({}), { ...REPOCOD_CANDIDATE_FILTER, minDocstringLinesExclusive: 11 })).toBe(false);
    expect(isCandidate(record({ nested: true }), { ...REPOCOD_CANDIDATE_FILTER, includeNested: false })).toBe(false);
    expect(isCandidate(record({ nested: true }))).toBe(true);
  });
});

describe('parseCandidateFilter', () => {
  it('fills defaults and names a wrong field', () => {
    expect(parseCandidateFilter({}, 'cfg.json')).toEqual(REPOCOD_CANDIDATE_FILTER);
    expect(parseCandidateFilter({ minDocstringLinesExclusive: 5 }, 'cfg.json').minDocstringLinesExclusive).toBe(5);
    expect(() => parseCandidateFilter({ minDocstringLinesExclusive: 'ten' }, 'cfg.json')).toThrow(
      /cfg.json: field "minDocstringLinesExclusive"/,
    );
    expect(() => parseCandidateFilter({ includeNested: 1 }, 'cfg.json')).toThrow(/field "includeNested"/);
    expect(() => parseCandidateFilter(null, 'cfg.json')).toThrow(/must be an object/);
    expect(() => parseCandidateFilter([], 'cfg.json')).toThrow(/must be an object/);
    expect(() => parseCandidateFilter({ minDocstringLines: 20 }, 'cfg.json')).toThrow(
      /unknown field "minDocstringLines"/,
    );
    expect(() => parseCandidateFilter({ includeNested: null }, 'cfg.json')).toThrow(
      /field "includeNested" must be true or false \(got null\)/,
    );
  });
});
