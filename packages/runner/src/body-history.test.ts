import { describe, expect, it } from 'vitest';
import type { BlameLine } from './blame-porcelain.js';
import { bodyHistory } from './body-history.js';

const DAY = 86_400;
const JAN_2020 = Date.parse('2020-01-01T00:00:00Z') / 1000;

/** A blamed line of mod.py written `days` after 2020-01-01 by commit `commit`, committed an hour later. */
function blamed(line: number, text: string, commit: string, days: number, extra: Partial<BlameLine> = {}): BlameLine {
  const authorTime = JAN_2020 + days * DAY;
  return {
    line,
    commit: commit.repeat(40),
    authorTime,
    committerTime: authorTime + 3600,
    originalFile: 'mod.py',
    originalLine: line,
    boundary: false,
    text,
    ...extra,
  };
}

describe('bodyHistory', () => {
  it('dates the body by its newest code line: commit, author time, committer time, and where the line was', () => {
    const lines = [
      blamed(1, 'def f(x):', 'f', 300),
      blamed(2, '    y = x + 1', 'a', 0),
      blamed(3, '    return y', 'b', 10, { originalFile: 'old.py', originalLine: 40 }),
    ];
    expect(bodyHistory(lines, { start: 2, end: 3 })).toEqual({
      bodyCommit: 'b'.repeat(40),
      bodyChangedAt: '2020-01-11T00:00:00Z',
      bodyCommittedAt: '2020-01-11T01:00:00Z',
      bodyLines: 2,
      codeLines: 2,
      boundary: false,
      sourceFile: 'old.py',
      sourceLine: 40,
      exact: true,
    });
  });

  it('leaves blank and comment-only lines out of the date, but counts them as body lines', () => {
    const lines = [
      blamed(2, '    y = x + 1', 'a', 0),
      blamed(3, '', 'n', 500),
      blamed(4, '    # a note added later', 'n', 500),
      blamed(5, '    \r', 'n', 500),
      blamed(6, '    return y', 'a', 0),
    ];
    expect(bodyHistory(lines, { start: 2, end: 6 })).toMatchObject({
      bodyCommit: 'a'.repeat(40),
      bodyChangedAt: '2020-01-01T00:00:00Z',
      bodyLines: 5,
      codeLines: 2,
    });
  });

  it('dates a code line by a comment after its code, which is part of the line', () => {
    const lines = [blamed(2, '    y = x + 1  # why, said later', 'n', 500), blamed(3, '    return y', 'a', 0)];
    expect(bodyHistory(lines, { start: 2, end: 3 })?.bodyCommit).toBe('n'.repeat(40));
  });

  it('breaks a tie of author times by the newer committer time, then by the first line', () => {
    const rebased = blamed(3, '    return y', 'r', 10, { committerTime: JAN_2020 + 90 * DAY });
    const lines = [blamed(2, '    y = x', 'a', 10), rebased, blamed(4, '    z = 1', 'c', 10)];
    expect(bodyHistory(lines, { start: 2, end: 4 })).toMatchObject({
      bodyCommit: 'r'.repeat(40),
      bodyChangedAt: '2020-01-11T00:00:00Z',
      bodyCommittedAt: '2020-03-31T00:00:00Z',
    });
    expect(
      bodyHistory([blamed(2, '    y = x', 'a', 10), blamed(3, '    z', 'c', 10)], { start: 2, end: 3 }),
    ).toMatchObject({ bodyCommit: 'a'.repeat(40) });
  });

  it('says when the newest line is at a boundary, where it may be older still', () => {
    const lines = [blamed(2, '    return 1', 'e', 3, { boundary: true })];
    expect(bodyHistory(lines, { start: 2, end: 2 })?.boundary).toBe(true);
  });

  it('is null for a body without code (empty span or only comments), and refuses a blame without the span', () => {
    expect(bodyHistory([], { start: 3, end: 2 })).toBeNull();
    expect(bodyHistory([blamed(2, '    # nothing', 'a', 0)], { start: 2, end: 2 })).toBeNull();
    expect(() => bodyHistory([blamed(2, '    x = 1', 'a', 0)], { start: 2, end: 3 })).toThrow(
      /the blame has no line 3 of the body 2\.\.3/,
    );
  });
});
