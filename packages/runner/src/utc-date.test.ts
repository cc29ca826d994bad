import { describe, expect, it } from 'vitest';
import { isUtcDateText, parseUtcDate, utcTimestamp } from './utc-date.js';

describe('parseUtcDate', () => {
  it('reads a day as its start in UTC and a timestamp with its zone as that instant', () => {
    expect(parseUtcDate('2024-09-01')).toBe(Date.UTC(2024, 8, 1));
    expect(parseUtcDate('2024-09-01T14:00+02:00')).toBe(Date.UTC(2024, 8, 1, 12));
    expect(parseUtcDate('2024-09-01T12:00:00.250Z')).toBe(Date.UTC(2024, 8, 1, 12, 0, 0, 250));
  });

  it('is null for a timestamp without its zone, a date that is no day of the calendar, and words', () => {
    const refused = ['2024-09-01T12:00:00', '2024-13-01', '2024-02-30', '2023-02-29T00:00:00Z', 'yesterday', ''];
    expect(refused.map(parseUtcDate)).toEqual(refused.map(() => null));
    expect(parseUtcDate('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(isUtcDateText('2024-09-01T12:00:00')).toBe(false);
    expect(isUtcDateText('2024-09-01')).toBe(true);
  });
});

describe('utcTimestamp', () => {
  it('writes whole seconds in UTC', () => {
    expect(utcTimestamp(Date.UTC(2024, 8, 1, 12, 0, 0, 250))).toBe('2024-09-01T12:00:00Z');
  });
});
