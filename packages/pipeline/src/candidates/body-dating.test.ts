import { BODY_BLAME_ARGS } from '@repocod/runner';
import { describe, expect, it } from 'vitest';
import {
  BLAME_DATING,
  type BodyDating,
  chooseDating,
  datingKeyText,
  datingOfKeyText,
  isReleaseDiffCommit,
  type ReleaseDiffDating,
  releaseDiffCommit,
  releaseDiffRecord,
  shortBodyCommit,
} from './body-dating.js';

const diff: ReleaseDiffDating = {
  kind: 'release-diff',
  against: { version: '1.6.1', releasedAt: '2025-01-09T15:15:00Z', sha256: 'b4'.repeat(32) },
  release: { version: '1.9.1', releasedAt: '2026-09-10T05:14:00Z' },
};

describe('the key text of a dating', () => {
  it("is blame's options for blame, and names both releases for a release diff; each reads back", () => {
    expect(datingKeyText(BLAME_DATING)).toBe(BODY_BLAME_ARGS.join(' '));
    expect(datingKeyText(diff)).toBe(
      `release-diff against 1.6.1 (2025-01-09T15:15:00Z, sha256 ${'b4'.repeat(32)}) to 1.9.1 (2026-09-10T05:14:00Z)`,
    );
    const other: BodyDating = { ...diff, against: { ...diff.against, version: '1.6.0rc1' } };
    for (const dating of [BLAME_DATING, diff, other]) expect(datingOfKeyText(datingKeyText(dating))).toEqual(dating);
    // Blame with other options than today's is not a dating this tool reads.
    expect(datingOfKeyText('blame --porcelain -w')).toBeNull();
  });

  it('chooses the most recent dating the tool knows among those stored', () => {
    const at = (iso: string) => new Date(iso);
    expect(chooseDating([])).toBeNull();
    expect(
      chooseDating([
        { blameArgs: 'blame -w', datedAt: at('2026-03-01T00:00:00Z'), rows: 3 },
        { blameArgs: datingKeyText(diff), datedAt: at('2026-02-01T00:00:00Z'), rows: 3 },
        { blameArgs: datingKeyText(BLAME_DATING), datedAt: at('2026-01-01T00:00:00Z'), rows: 3 },
      ]),
    ).toEqual(diff);
  });
});

describe("a release diff's body commit and record", () => {
  it('names the releases a body changed between, or the one it is as in', () => {
    expect(releaseDiffCommit(diff, true)).toBe('release-diff:1.6.1..1.9.1');
    expect(releaseDiffCommit(diff, false)).toBe('release-diff:..1.6.1');
    expect(isReleaseDiffCommit('release-diff:1.6.1..1.9.1')).toBe(true);
    expect(shortBodyCommit('release-diff:1.6.1..1.9.1')).toBe('release-diff:1.6.1..1.9.1');
    expect(shortBodyCommit('6a64969009bf1234567890abcdef1234567890ab')).toBe('6a64969009bf');
  });

  it("writes both releases' versions and dates, and the older's sha256", () => {
    expect(releaseDiffRecord(diff)).toEqual({
      version: '1.9.1',
      released_at: '2026-09-10T05:14:00Z',
      against_version: '1.6.1',
      against_released_at: '2025-01-09T15:15:00Z',
      against_sha256: 'b4'.repeat(32),
    });
  });
});
