import { describe, expect, it } from 'vitest';
import { isResolutionDateText, normalizeResolutionDate, resolutionDate } from './resolution-date.js';

describe('resolutionDate', () => {
  it("takes the manifest's exclude_newer first, then a pinned base commit's timestamp, else none", () => {
    expect(resolutionDate('2024-09-01', 'a'.repeat(40), '2025-01-01T00:00:00Z')).toBe('2024-09-01T00:00:00Z');
    expect(resolutionDate('none', 'a'.repeat(40), '2025-01-01T00:00:00Z')).toBeNull();
    expect(resolutionDate(undefined, 'a'.repeat(40), '2024-09-01T09:04:14-07:00')).toBe('2024-09-01T16:04:14Z');
    expect(resolutionDate(undefined, null, '2024-01-01T00:00:00Z')).toBeNull();
  });

  it('refuses what is not a date, a day off the calendar included, naming the field', () => {
    for (const value of ['soon', '2024-02-30']) {
      expect(() => normalizeResolutionDate(value, 'exclude_newer')).toThrow(
        expect.objectContaining({ code: 'config-invalid', message: expect.stringMatching(/^exclude_newer "/) }),
      );
    }
    expect([isResolutionDateText('none'), isResolutionDateText('2024-09-01'), isResolutionDateText('soon')]).toEqual([
      true,
      true,
      false,
    ]);
  });
});
