import { describe, expect, it } from 'vitest';
import type { BodyHistory } from './body-history.js';
import {
  ChangedSinceError,
  CutoffAfterBaseError,
  changedSince,
  checkCutoffBeforeBase,
  parseChangedSince,
} from './changed-since.js';

const NOW = new Date('2025-03-01T12:00:00Z');

function history(bodyChangedAt: string): BodyHistory {
  return {
    bodyCommit: 'a'.repeat(40),
    bodyChangedAt,
    bodyCommittedAt: bodyChangedAt,
    bodyLines: 3,
    codeLines: 3,
    boundary: false,
    sourceFile: 'mod.py',
    sourceLine: 2,
    exact: true,
  };
}

describe('changedSince', () => {
  it('is true for a body changed strictly after the cutoff, false at or before it and without a body', () => {
    const cutoff = '2024-09-01T00:00:00Z';
    expect(changedSince(history('2024-09-01T00:00:01Z'), cutoff)).toBe(true);
    expect(changedSince(history('2024-09-01T00:00:00Z'), cutoff)).toBe(false);
    expect(changedSince(history('2023-01-01T00:00:00Z'), cutoff)).toBe(false);
    expect(changedSince(null, cutoff)).toBe(false);
  });
});

describe('parseChangedSince', () => {
  it('reads a day as its start in UTC and a timestamp in its zone, as UTC', () => {
    expect(parseChangedSince('2024-09-01', NOW)).toBe('2024-09-01T00:00:00Z');
    expect(parseChangedSince(' 2024-09-01T14:30:00+02:00 ', NOW)).toBe('2024-09-01T12:30:00Z');
    expect(parseChangedSince('2025-03-01T12:00:00Z', NOW)).toBe('2025-03-01T12:00:00Z');
  });

  it('refuses a value that is not a date, naming the option, the value and what to give', () => {
    for (const value of ['last year', '2024-09-01T12:00:00', '2024-13-45', '']) {
      const error = catchError(() => parseChangedSince(value, NOW));
      expect(error).toBeInstanceOf(ChangedSinceError);
      expect(error).toMatchObject({ code: 'usage', problem: 'not-a-date', value });
      expect(error.message).toBe(
        `--changed-since ${value} is not a date: give a day such as 2024-09-01 (its start, UTC) or a timestamp with ` +
          `its zone such as 2024-09-01T12:00:00Z`,
      );
    }
  });

  it('refuses a date in the future', () => {
    const error = catchError(() => parseChangedSince('2025-03-02', NOW));
    expect(error).toMatchObject({ code: 'usage', problem: 'in-the-future', value: '2025-03-02' });
    expect(error.message).toMatch(/^--changed-since 2025-03-02 is in the future \(now is 2025-03-01T12:00:00Z\)/);
  });

  it("names another option's flag in its errors (evaluate's --since)", () => {
    expect(parseChangedSince('2024-09-01', NOW, '--since')).toBe('2024-09-01T00:00:00Z');
    const error = catchError(() => parseChangedSince('June', NOW, '--since'));
    expect(error).toMatchObject({ code: 'usage', problem: 'not-a-date', value: 'June' });
    expect(error.message).toMatch(/^--since June is not a date: /);
  });
});

describe('checkCutoffBeforeBase', () => {
  const base = { repository: 'flask', commit: 'f'.repeat(40), committedAt: '2024-09-01T09:04:14-07:00' };

  it('lets a cutoff before the base commit pass', () => {
    expect(() => checkCutoffBeforeBase('2024-09-01T16:04:13Z', base)).not.toThrow();
  });

  it('refuses a cutoff at or after the base commit, naming the repository, its commit and its date', () => {
    for (const cutoff of ['2024-09-01T16:04:14Z', '2024-10-01T00:00:00Z']) {
      const error = catchError(() => checkCutoffBeforeBase(cutoff, base));
      expect(error).toBeInstanceOf(CutoffAfterBaseError);
      expect(error).toBeInstanceOf(ChangedSinceError);
      expect(error).toMatchObject({
        code: 'usage',
        problem: 'after-the-base-commit',
        value: cutoff,
        repository: 'flask',
        commit: 'f'.repeat(40),
        committedAt: '2024-09-01T16:04:14Z',
      });
      expect(error.message).toBe(
        `--changed-since ${cutoff} is not before the base commit of flask (ffffffffffff, committed ` +
          `2024-09-01T16:04:14Z): no body can have changed after it; give an earlier date, or a later base commit ` +
          `with --at`,
      );
    }
  });
});

function catchError(run: () => unknown): ChangedSinceError {
  try {
    run();
  } catch (error) {
    return error as ChangedSinceError;
  }
  throw new Error('expected an error');
}
